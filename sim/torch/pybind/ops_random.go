package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// The random ops that draw beyond the factories: bernoulli_, bernoulli,
// random_, multinomial, and the generator= argument of every random op
// (torch.Generator is the prelude's class torch/_generator.py; it keeps its
// executor id in _id and its device in _cuda).

// genArg reads a random op's generator= keyword (None or absent: the
// default generator, nil).
func genArg(it *py.Interp, kwargs []py.Kwarg) (*torch.Generator, error) {
	v, ok := kw(kwargs, "generator")
	if !ok || v == py.None {
		return nil, nil
	}
	idV, err := it.GetAttr(v, "_id")
	if err != nil {
		return nil, typeErr("generator must be a torch.Generator, not %s", typeName(v))
	}
	id, ok := idV.(py.Int)
	if !ok {
		return nil, typeErr("generator must be a torch.Generator, not %s", typeName(v))
	}
	cudaV, err := it.GetAttr(v, "_cuda")
	if err != nil {
		return nil, err
	}
	cuda, err := it.Truth(cudaV)
	if err != nil {
		return nil, err
	}
	return &torch.Generator{ID: int64(id), CUDA: cuda}, nil
}

func init() {
	method("bernoulli_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("bernoulli_", args)
		if err != nil {
			return nil, err
		}
		g, err := genArg(it, kwargs)
		if err != nil {
			return nil, err
		}
		pv := argOr(args, kwargs, 1, "p")
		if p, ok := tensorArg(pv); ok {
			return h.wrapResult(h.rt.InplaceRandom("bernoulli", x.t, g, torch.ExecBernoulli, p))
		}
		p, err := floatOf("bernoulli_", "p", pv, 0.5)
		if err != nil {
			return nil, err
		}
		if p < 0 || p > 1 {
			return nil, runtimeErr("bernoulli_ expects p to be in [0, 1], but got p=%v", p)
		}
		return h.wrapResult(h.rt.InplaceRandom("bernoulli", x.t, g, torch.ExecBernoulli, nil, p))
	})
	both("bernoulli", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("bernoulli", args)
		if err != nil {
			return nil, err
		}
		g, err := genArg(it, kwargs)
		if err != nil {
			return nil, err
		}
		if !x.t.DType().IsFloating() {
			return nil, runtimeErr("expected probabilities tensor to have floating type, got %s", x.t.DType().Name())
		}
		var p *float64
		if v := argOr(args, kwargs, 1, "p"); v != nil && v != py.None {
			f, err := floatOf("bernoulli", "p", v, 0)
			if err != nil {
				return nil, err
			}
			p = &f
		}
		return h.wrapResult(h.rt.Bernoulli(x.t, p, g))
	})
	method("random_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("random_", args)
		if err != nil {
			return nil, err
		}
		g, err := genArg(it, kwargs)
		if err != nil {
			return nil, err
		}
		from, to := argOr(args, kwargs, 1, "from"), argOr(args, kwargs, 2, "to")
		if len(args) == 2 && to == nil {
			from, to = nil, args[1] // random_(to)
		}
		none := func(v py.Value) bool { return v == nil || v == py.None }
		switch {
		case none(from) && none(to):
			return h.wrapResult(h.rt.InplaceRandom("random", x.t, g, torch.ExecRandomFull, nil))
		case none(to):
			// random_(from, None): up to the dtype's largest value, not modelled
			return h.wrapResult(h.rt.InplaceUnaryInit("random", x.t, ""))
		}
		lo, err := floatOf("random_", "from", from, 0)
		if err != nil {
			return nil, err
		}
		hi, err := floatOf("random_", "to", to, 0)
		if err != nil {
			return nil, err
		}
		if lo >= hi {
			return nil, runtimeErr("random_ expects 'from' to be less than 'to', but got from=%d >= to=%d", int64(lo), int64(hi))
		}
		return h.wrapResult(h.rt.InplaceRandom("random", x.t, g, torch.ExecRandInt, nil, lo, hi))
	})
	both("multinomial", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("multinomial", args)
		if err != nil {
			return nil, err
		}
		g, err := genArg(it, kwargs)
		if err != nil {
			return nil, err
		}
		n, err := intOf("multinomial", "num_samples", argOr(args, kwargs, 1, "num_samples"), 0)
		if err != nil {
			return nil, err
		}
		repl, err := boolOf(it, argOr(args, kwargs, 2, "replacement"), false)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Multinomial(x.t, n, repl, g))
	})
}
