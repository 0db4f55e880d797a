package pybind

import (
	"fmt"
	"math/big"

	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/pickle"
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/trace"
)

// statGetters are the torch.cuda functions that read one figure of
// memory_stats() (memory_allocated is "allocated_bytes.all.current", ...).
// They read the allocator's headline counters instead of building the whole
// memory_stats() table per call (scripts call them after every step).
var statGetters = []struct {
	name string
	get  func(s trace.Stats) int64
}{
	{"memory_allocated", func(s trace.Stats) int64 { return s.Allocated }},
	{"memory_reserved", func(s trace.Stats) int64 { return s.Reserved }},
	{"max_memory_allocated", func(s trace.Stats) int64 { return s.PeakAllocated }},
	{"max_memory_reserved", func(s trace.Stats) int64 { return s.PeakReserved }},
	{"memory_cached", func(s trace.Stats) int64 { return s.Reserved }},
	{"max_memory_cached", func(s trace.Stats) int64 { return s.PeakReserved }},
}

// cudaFn registers a torch.cuda function that needs the allocator.
func (h *Host) cudaFn(m *py.Module, it *py.Interp, name string, f func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error)) {
	m.Add(it, name, py.NewBuiltin(name, func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a, err := h.Allocator()
		if err != nil {
			return nil, err
		}
		return f(a, args, kwargs)
	}))
}

func (h *Host) buildCUDA(it *py.Interp) (*py.Module, error) {
	m := it.NewModule("torch.cuda")
	for _, g := range statGetters {
		name, get := g.name, g.get
		m.Add(it, name, py.NewBuiltin(name, func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			if err := cudaDeviceArg(name, args, kwargs); err != nil {
				return nil, err
			}
			a, err := h.Allocator()
			if err != nil {
				return nil, err
			}
			return py.Int(get(a.Stats())), nil
		}))
	}
	none := func(name string, max int, f func(a *alloc.Allocator)) func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			if err := pyMaxPositional(name, args, 0, max); err != nil {
				return nil, err
			}
			f(a)
			return py.None, nil
		}
	}
	h.cudaFn(m, it, "reset_peak_memory_stats", none("reset_peak_memory_stats", 1, (*alloc.Allocator).ResetPeakStats))
	h.cudaFn(m, it, "reset_max_memory_allocated", none("reset_max_memory_allocated", 1, (*alloc.Allocator).ResetPeakStats))
	h.cudaFn(m, it, "reset_max_memory_cached", none("reset_max_memory_cached", 1, (*alloc.Allocator).ResetPeakStats))
	h.cudaFn(m, it, "reset_accumulated_memory_stats", none("reset_accumulated_memory_stats", 1, (*alloc.Allocator).ResetAccumulatedStats))
	h.cudaFn(m, it, "empty_cache", none("empty_cache", 0, (*alloc.Allocator).EmptyCache))
	h.cudaFn(m, it, "memory_stats", func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		if err := cudaDeviceArg("memory_stats", args, kwargs); err != nil {
			return nil, err
		}
		d := it.NewDict()
		for _, e := range a.MemoryStats() {
			if err := d.SetItem(it, py.Str(e.Key), py.Int(e.Value)); err != nil {
				return nil, err
			}
		}
		return d, nil
	})
	h.cudaFn(m, it, "memory_summary", func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		abbr, err := boolOf(it, argOr(args, kwargs, 1, "abbreviated"), false)
		if err != nil {
			return nil, err
		}
		return py.Str(a.Summary(0, abbr)), nil
	})
	h.cudaFn(m, it, "memory_snapshot", func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		v := a.Snapshot().PickleValue()
		d, ok := v.(*pickle.Dict)
		if !ok {
			return nil, runtimeErr("internal: snapshot is not a dict")
		}
		segs, _ := d.Get("segments")
		return h.fromPickle(segs)
	})
	h.cudaFn(m, it, "mem_get_info", func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		free, total := a.MemGetInfo()
		return it.NewTuple([]py.Value{py.Int(free), py.Int(total)}), nil
	})
	h.cudaFn(m, it, "set_per_process_memory_fraction", func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		f, err := floatOf("set_per_process_memory_fraction", "fraction", argOr(args, kwargs, 0, "fraction"), 1)
		if err != nil {
			return nil, err
		}
		if err := a.SetMemoryFraction(f); err != nil {
			return nil, py.NewException(py.ValueError, err.Error())
		}
		return py.None, nil
	})
	h.cudaFn(m, it, "get_per_process_memory_fraction", func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return py.Float(a.GetMemoryFraction()), nil
	})
	h.cudaFn(m, it, "init", func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) { return py.None, nil })
	constant := func(name string, v py.Value) {
		m.Add(it, name, py.NewBuiltin(name, func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			return py.IncRef(v), nil
		}))
	}
	h.addCUDARNG(it, m)
	constant("is_available", py.True)
	constant("is_initialized", py.True)
	constant("device_count", py.Int(1))
	constant("current_device", py.Int(0))
	m.Add(it, "synchronize", py.NewBuiltin("synchronize", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		// A GPU run waits for its kernels (and reports a kernel's failure).
		if err := h.rt.Synchronize(); err != nil {
			return nil, runtimeErr("%s", err.Error())
		}
		return py.None, nil
	}))
	constant("set_device", py.None)
	constant("is_bf16_supported", py.True)
	constant("get_device_name", py.Str(h.prof.GPUName))
	constant("get_device_capability", it.NewTuple([]py.Value{py.Int(h.prof.ComputeMajor), py.Int(h.prof.ComputeMinor)}))
	m.Add(it, "get_device_properties", py.NewBuiltin("get_device_properties", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return &DeviceProps{h: h}, nil
	}))
	m.Set(it, "OutOfMemoryError", OutOfMemoryError)
	return m, nil
}

func (h *Host) buildCUDAMemory(it *py.Interp) (*py.Module, error) {
	m := it.NewModule("torch.cuda.memory")
	h.cudaFn(m, it, "_record_memory_history", func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		enabled := argOr(args, kwargs, 0, "enabled")
		on := true
		if enabled == py.None {
			on = false
		} else if b, ok := enabled.(py.Bool); ok {
			on = bool(b)
		}
		n, err := intOf("_record_memory_history", "max_entries", argOr(args, kwargs, 3, "max_entries"), 9223372036854775807)
		if err != nil {
			return nil, err
		}
		if n > 1<<20 {
			n = 1 << 20
		}
		a.RecordHistory(on, int(n))
		h.history = on
		return py.None, nil
	})
	h.cudaFn(m, it, "_snapshot", func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return h.fromPickle(a.Snapshot().PickleValue())
	})
	h.cudaFn(m, it, "_dump_snapshot", func(a *alloc.Allocator, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		// The playground keeps no files: the snapshot is available to the
		// UI from the event stream; nothing is written.
		return py.None, nil
	})
	for _, name := range []string{"memory_allocated", "memory_reserved", "max_memory_allocated", "max_memory_reserved",
		"memory_stats", "memory_summary", "memory_snapshot", "empty_cache", "reset_peak_memory_stats", "mem_get_info"} {
		// the same functions as torch.cuda.<name>; looked up lazily to avoid
		// an import cycle
		m.Add(it, name, py.NewBuiltin(name, func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			c, err := it.Import("torch.cuda")
			if err != nil {
				return nil, err
			}
			defer it.DecRef(c)
			f, err := it.GetAttr(c, name)
			if err != nil {
				return nil, err
			}
			defer it.DecRef(f)
			return it.Call(f, args, kwargs)
		}))
	}
	return m, nil
}

// fromPickle converts a snapshot value (package pickle's model) to Python.
func (h *Host) fromPickle(v any) (py.Value, error) {
	it := h.it
	switch x := v.(type) {
	case nil:
		return py.None, nil
	case bool:
		return py.Bool(x), nil
	case int64:
		return py.Int(x), nil
	case int:
		return py.Int(x), nil
	case uint64:
		return py.MakeInt(new(big.Int).SetUint64(x)), nil
	case *big.Int:
		return py.MakeInt(x), nil
	case float64:
		return py.Float(x), nil
	case string:
		return py.Str(x), nil
	case []any, pickle.Tuple:
		var items []any
		if l, ok := x.([]any); ok {
			items = l
		} else {
			items = x.(pickle.Tuple)
		}
		vs := make([]py.Value, len(items))
		for i, e := range items {
			pv, err := h.fromPickle(e)
			if err != nil {
				return nil, err
			}
			vs[i] = pv
		}
		if _, ok := x.([]any); ok {
			return it.NewList(vs), nil
		}
		return it.NewTuple(vs), nil
	case *pickle.Dict:
		d := it.NewDict()
		for i, k := range x.Keys {
			pk, err := h.fromPickle(k)
			if err != nil {
				return nil, err
			}
			pv, err := h.fromPickle(x.Values[i])
			if err != nil {
				return nil, err
			}
			err = d.SetItem(it, pk, pv)
			it.DecRef(pk)
			it.DecRef(pv)
			if err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	return nil, runtimeErr("internal: snapshot value of type %T", v)
}

// DeviceProps is torch.cuda.get_device_properties(0).
type DeviceProps struct {
	py.Base
	h *Host
}

var devicePropsClass = py.NewHostClass(py.ClassSpec{
	Name: "_CudaDeviceProperties", Module: "torch._C",
	Props: map[string]py.PropSpec{
		"name": {Get: func(it *py.Interp, s py.Value) (py.Value, error) { return py.Str(s.(*DeviceProps).h.prof.GPUName), nil }},
		"total_memory": {Get: func(it *py.Interp, s py.Value) (py.Value, error) {
			return py.Int(s.(*DeviceProps).h.prof.TotalMemory), nil
		}},
		"major": {Get: func(it *py.Interp, s py.Value) (py.Value, error) {
			return py.Int(s.(*DeviceProps).h.prof.ComputeMajor), nil
		}},
		"minor": {Get: func(it *py.Interp, s py.Value) (py.Value, error) {
			return py.Int(s.(*DeviceProps).h.prof.ComputeMinor), nil
		}},
		"multi_processor_count": {Get: func(it *py.Interp, s py.Value) (py.Value, error) {
			return py.Int(s.(*DeviceProps).h.prof.MultiProcessors), nil
		}},
	},
})

// Type is torch._C._CudaDeviceProperties.
func (*DeviceProps) Type() *py.Class { return devicePropsClass }

// Repr is like PyTorch's (without the uuid and PCI fields).
func (p *DeviceProps) Repr(it *py.Interp) (string, error) {
	pr := p.h.prof
	return fmt.Sprintf("_CudaDeviceProperties(name='%s', major=%d, minor=%d, total_memory=%dMB, multi_processor_count=%d)",
		pr.GPUName, pr.ComputeMajor, pr.ComputeMinor, pr.TotalMemory>>20, pr.MultiProcessors), nil
}
