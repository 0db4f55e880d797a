package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// modeKind is which grad-mode context manager an object is.
type modeKind uint8

const (
	modeNoGrad modeKind = iota
	modeEnableGrad
	modeSetGrad
	modeInference
	modeAutocast
	modeSavedHooks
)

// ModeCtx is torch.no_grad(), enable_grad(), set_grad_enabled(b),
// inference_mode(b), autocast(...) and saved_tensors_hooks(pack, unpack):
// context managers that are also decorators.
type ModeCtx struct {
	py.Base
	h            *Host
	kind         modeKind
	on           bool        // set_grad_enabled / inference_mode / autocast enabled
	dt           torch.DType // autocast dtype
	prev         []bool      // saved state, a stack for re-entrant use
	pdt          []torch.DType
	pack, unpack py.Value // saved_tensors_hooks callables (owned)
}

var modeClasses = map[modeKind]*py.Class{}

func init() {
	names := map[modeKind]string{modeNoGrad: "no_grad", modeEnableGrad: "enable_grad", modeSetGrad: "set_grad_enabled",
		modeInference: "inference_mode", modeAutocast: "autocast", modeSavedHooks: "saved_tensors_hooks"}
	for k, name := range names {
		mod := "torch.autograd.grad_mode"
		switch k {
		case modeAutocast:
			mod = "torch.amp.autocast_mode"
		case modeSavedHooks:
			mod = "torch.autograd.graph"
		}
		modeClasses[k] = py.NewHostClass(py.ClassSpec{Name: name, Module: mod, New: func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			h, err := hostOf(it)
			if err != nil {
				return nil, err
			}
			if k == modeAutocast {
				return h.autocastFactory(false)(it, args, kwargs)
			}
			return h.modeFactory(k)(it, args, kwargs)
		}, Methods: map[string]py.MethodFunc{
			"__enter__": func(it *py.Interp, s py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
				return s.(*ModeCtx).enter()
			},
			"__exit__": func(it *py.Interp, s py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
				s.(*ModeCtx).exit()
				return py.False, nil
			},
			"clone": func(it *py.Interp, s py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
				m := s.(*ModeCtx)
				return &ModeCtx{h: m.h, kind: m.kind, on: m.on, dt: m.dt}, nil
			},
		}})
	}
}

// Type is the context manager's class.
func (m *ModeCtx) Type() *py.Class { return modeClasses[m.kind] }

func (m *ModeCtx) enter() (py.Value, error) {
	rt := m.h.rt
	switch m.kind {
	case modeNoGrad:
		m.prev = append(m.prev, rt.SetGradEnabled(false))
	case modeEnableGrad:
		m.prev = append(m.prev, rt.SetGradEnabled(true))
	case modeSetGrad:
		// the mode was set by the constructor
	case modeInference:
		pi, pg := rt.SetInferenceMode(m.on)
		m.prev = append(m.prev, pi, pg)
	case modeAutocast:
		pe, pd := rt.SetAutocast(m.on, m.dt)
		m.prev = append(m.prev, pe)
		m.pdt = append(m.pdt, pd)
		rt.AutocastEnter()
	case modeSavedHooks:
		rt.PushSavedTensorHooks(&pyHooks{h: m.h, pack: m.pack, unpack: m.unpack})
	}
	return py.IncRef(m), nil
}

func (m *ModeCtx) exit() {
	rt := m.h.rt
	pop := func() bool {
		if len(m.prev) == 0 {
			return rt.GradEnabled()
		}
		v := m.prev[len(m.prev)-1]
		m.prev = m.prev[:len(m.prev)-1]
		return v
	}
	switch m.kind {
	case modeNoGrad, modeEnableGrad, modeSetGrad:
		rt.SetGradEnabled(pop())
	case modeInference:
		pg := pop()
		pi := pop()
		rt.RestoreInferenceMode(pi, pg)
	case modeAutocast:
		rt.AutocastExit()
		pe := pop()
		pd := torch.Float16
		if n := len(m.pdt); n > 0 {
			pd = m.pdt[n-1]
			m.pdt = m.pdt[:n-1]
		}
		rt.SetAutocast(pe, pd)
	case modeSavedHooks:
		rt.PopSavedTensorHooks()
	}
}

// Call makes the context manager a decorator: @torch.no_grad().
func (m *ModeCtx) Call(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	if len(args) != 1 || len(kwargs) != 0 {
		return nil, typeErr("%s() decorator takes a function", m.Type().Name)
	}
	return m.h.decorate(m, args[0]), nil
}

// decorate wraps fn so that each call runs inside a fresh copy of m.
func (h *Host) decorate(m *ModeCtx, fn py.Value) py.Value {
	py.IncRef(fn)
	proto := *m
	return py.NewBuiltin("decorated", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		c := &ModeCtx{h: proto.h, kind: proto.kind, on: proto.on, dt: proto.dt}
		if m.kind == modeSetGrad {
			c.prev = []bool{h.rt.SetGradEnabled(c.on)}
		}
		if _, err := c.enter(); err != nil {
			return nil, err
		}
		it.DecRef(c)
		defer c.exit()
		return it.Call(fn, args, kwargs)
	})
}

// Finalize drops the hook callables.
func (m *ModeCtx) Finalize(it *py.Interp) {
	if m.pack != nil {
		it.DecRef(m.pack)
		it.DecRef(m.unpack)
		m.pack, m.unpack = nil, nil
	}
}

// Traverse shows the collector the hook callables.
func (m *ModeCtx) Traverse(visit func(py.Value)) {
	if m.pack != nil {
		visit(m.pack)
		visit(m.unpack)
	}
}

// Clear breaks cycles through the hook callables.
func (m *ModeCtx) Clear(it *py.Interp) { m.Finalize(it) }

// modeFactory is the constructor of a grad-mode class; with a function as
// only argument (@torch.no_grad without parentheses) it decorates it.
func (h *Host) modeFactory(kind modeKind) py.CallFunc {
	return func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		m := &ModeCtx{h: h, kind: kind, on: true}
		switch kind {
		case modeNoGrad, modeEnableGrad:
			if len(args) == 1 {
				if _, isB := args[0].(py.Bool); !isB {
					return h.decorate(m, args[0]), nil
				}
			}
		case modeSetGrad:
			var mode py.Value
			if err := py.UnpackArgs("set_grad_enabled", args, kwargs, "mode", &mode); err != nil {
				return nil, err
			}
			b, err := it.Truth(mode)
			if err != nil {
				return nil, err
			}
			m.on = b
			m.prev = []bool{h.rt.SetGradEnabled(b)}
		case modeInference:
			var mode py.Value = py.True
			if err := py.UnpackArgs("inference_mode", args, kwargs, "mode?", &mode); err != nil {
				return nil, err
			}
			if _, isB := mode.(py.Bool); !isB {
				return h.decorate(m, mode), nil
			}
			m.on = bool(mode.(py.Bool))
		case modeSavedHooks:
			var pack, unpack py.Value
			if err := py.UnpackArgs("saved_tensors_hooks", args, kwargs, "pack_hook", &pack, "unpack_hook", &unpack); err != nil {
				return nil, err
			}
			m.pack, m.unpack = py.IncRef(pack), py.IncRef(unpack)
			it.Track(m)
		}
		return m, nil
	}
}

// autocastFactory is torch.autocast(device_type, dtype=None, enabled=True,
// cache_enabled=None); cudaDefault makes torch.cuda.amp.autocast (device
// "cuda" implied).
func (h *Host) autocastFactory(cudaOnly bool) py.CallFunc {
	return func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		var dev py.Value = py.Str("cuda")
		var dtv, en, cache py.Value = py.None, py.True, py.None
		var err error
		if cudaOnly {
			err = py.UnpackArgs("autocast", args, kwargs, "enabled?", &en, "dtype?", &dtv, "cache_enabled?", &cache)
		} else {
			err = py.UnpackArgs("autocast", args, kwargs, "device_type", &dev, "dtype?", &dtv, "enabled?", &en, "cache_enabled?", &cache)
		}
		if err != nil {
			return nil, err
		}
		ds, _ := dev.(py.Str)
		m := &ModeCtx{h: h, kind: modeAutocast, dt: torch.Float16}
		if m.on, err = it.Truth(en); err != nil {
			return nil, err
		}
		if ds == "cpu" {
			m.dt = torch.BFloat16
			m.on = false // CPU autocast changes no GPU memory
		} else if ds != "cuda" {
			return nil, runtimeErr("User specified an unsupported autocast device_type '%s'", ds)
		}
		if d, ok, err := dtypeArg(dtv); err != nil {
			return nil, err
		} else if ok {
			m.dt = d
		}
		return m, nil
	}
}

// pyHooks runs Python pack/unpack hooks for saved tensors.
type pyHooks struct {
	h            *Host
	pack, unpack py.Value
}

// Pack calls pack_hook(tensor) and keeps its result.
func (p *pyHooks) Pack(t *torch.Tensor) (any, error) {
	it := p.h.it
	arg := p.h.wrapBorrowed(t)
	defer it.DecRef(arg)
	r, err := it.Call(p.pack, []py.Value{arg}, nil)
	if err != nil {
		return nil, err
	}
	py.IncRef(p.unpack) // the saved variable keeps the unpack hook
	return packed{v: r, unpack: p.unpack}, nil
}

type packed struct{ v, unpack py.Value }

// Unpack calls unpack_hook(packed) and returns its tensor.
func (p *pyHooks) Unpack(x any) (*torch.Tensor, error) {
	pk := x.(packed)
	r, err := p.h.it.Call(pk.unpack, []py.Value{pk.v}, nil)
	if err != nil {
		return nil, err
	}
	defer p.h.it.DecRef(r)
	t, ok := tensorArg(r)
	if !ok {
		return nil, typeErr("Output of saved tensor unpack_hook expected to be a Tensor but got result of type %s", typeName(r))
	}
	return t.Retain(), nil
}

// Drop releases the packed value.
func (p *pyHooks) Drop(x any) {
	pk := x.(packed)
	p.h.it.DecRef(pk.v)
	p.h.it.DecRef(pk.unpack)
}
