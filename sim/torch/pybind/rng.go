package pybind

import (
	"math/big"
	"time"

	"github.com/gpumem/playground/sim/py"
)

// The default generators as the torch and torch.cuda modules expose them:
// manual_seed, seed, initial_seed, get_rng_state and set_rng_state
// (torch.random re-exports the CPU side and adds fork_rng, prelude
// torch/random.py). torch.manual_seed and torch.seed reseed both
// generators, torch.cuda's functions the CUDA one only.

// defaultSeed is c10's default_rng_seed_val, every generator's initial
// seed before a reseed.
const defaultSeed = 67280421310721

// rngSeeds are the initial seeds the generators report (torch.initial_seed,
// torch.cuda.initial_seed); set marks that a script reseeded them.
type rngSeeds struct {
	cpu, cuda int64
	set       bool
}

// seeds returns the current initial seeds.
func (h *Host) seeds() rngSeeds {
	if !h.rng.set {
		return rngSeeds{cpu: defaultSeed, cuda: defaultSeed, set: true}
	}
	return h.rng
}

// seedValue is a seed as PyTorch returns it: a uint64.
func seedValue(n int64) py.Value {
	if n >= 0 {
		return py.Int(n)
	}
	return py.MakeInt(new(big.Int).SetUint64(uint64(n)))
}

// nondeterministicSeed stands for c10's getNonDeterministicRandom (a
// 64-bit seed from the system) in torch.seed and torch.cuda.seed: the
// clock, mixed (splitmix64), kept below 2^63.
func nondeterministicSeed() int64 {
	x := uint64(time.Now().UnixNano()) + 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return int64((x ^ x>>31) >> 1)
}

// addRNG adds the CPU side's functions to torch.
func (h *Host) addRNG(it *py.Interp, m *py.Module) {
	fn := func(name string, f py.CallFunc) { m.Add(it, name, py.NewBuiltin(name, f)) }
	fn("manual_seed", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		n, err := intOf("manual_seed", "seed", argOr(args, kwargs, 0, "seed"), 0)
		if err != nil {
			return nil, err
		}
		h.rng = rngSeeds{cpu: n, cuda: n, set: true}
		h.rt.ManualSeed(n)
		return py.None, nil
	})
	fn("seed", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		n := nondeterministicSeed()
		h.rng = rngSeeds{cpu: n, cuda: n, set: true}
		h.rt.ManualSeed(n)
		return seedValue(n), nil
	})
	fn("initial_seed", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return seedValue(h.seeds().cpu), nil
	})
	fn("get_rng_state", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return h.wrapResult(h.rt.RNGState(false))
	})
	fn("set_rng_state", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		t, err := tensorOf("set_rng_state", "new_state", argOr(args, kwargs, 0, "new_state"))
		if err != nil {
			return nil, err
		}
		return py.None, pyErr(h.rt.SetRNGState(false, t))
	})
}

// addCUDARNG adds the CUDA generator's functions to torch.cuda (one
// device: the device arguments are accepted and not read).
func (h *Host) addCUDARNG(it *py.Interp, m *py.Module) {
	fn := func(name string, f py.CallFunc) { m.Add(it, name, py.NewBuiltin(name, f)) }
	reseed := func(n int64) {
		s := h.seeds()
		s.cuda = n
		h.rng = s
		h.rt.CUDAManualSeed(n)
	}
	for _, name := range []string{"manual_seed", "manual_seed_all"} {
		fn(name, func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			n, err := intOf(name, "seed", argOr(args, kwargs, 0, "seed"), 0)
			if err != nil {
				return nil, err
			}
			reseed(n)
			return py.None, nil
		})
	}
	for _, name := range []string{"seed", "seed_all"} {
		fn(name, func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			reseed(nondeterministicSeed())
			return py.None, nil
		})
	}
	fn("initial_seed", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return seedValue(h.seeds().cuda), nil
	})
	fn("get_rng_state", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return h.wrapResult(h.rt.RNGState(true))
	})
	fn("get_rng_state_all", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		t, err := h.rt.RNGState(true)
		if err != nil {
			return nil, pyErr(err)
		}
		return it.NewList([]py.Value{h.wrap(t)}), nil
	})
	set := func(v py.Value) error {
		t, err := tensorOf("set_rng_state", "new_state", v)
		if err != nil {
			return err
		}
		return pyErr(h.rt.SetRNGState(true, t))
	}
	fn("set_rng_state", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return py.None, set(argOr(args, kwargs, 0, "new_state"))
	})
	fn("set_rng_state_all", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		var states []py.Value
		switch v := argOr(args, kwargs, 0, "new_states").(type) {
		case *py.List:
			states = v.Elems()
		case *py.Tuple:
			states = v.Elems()
		default:
			return nil, typeErr("set_rng_state_all(): argument 'new_states' must be a list of tensors, not %s", typeName(v))
		}
		for _, s := range states {
			if err := set(s); err != nil {
				return nil, err
			}
		}
		return py.None, nil
	})
}
