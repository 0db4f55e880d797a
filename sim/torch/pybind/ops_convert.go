package pybind

import (
	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// blockAddr is the device address of an allocator block.
func blockAddr(b torch.Block) uint64 {
	if ab, ok := b.(*alloc.Block); ok {
		return ab.Addr()
	}
	return 0
}

// toArgs parses Tensor.to(...)'s overloads: to(device, dtype), to(dtype),
// to(tensor), with keywords device=, dtype=, copy=, non_blocking=.
func (h *Host) toArgs(it *py.Interp, x *torch.Tensor, args []py.Value, kwargs []py.Kwarg) (torch.DType, torch.Device, bool, error) {
	dt, dev := x.DType(), x.Device()
	for _, a := range args {
		if o, ok := tensorArg(a); ok {
			dt, dev = o.DType(), o.Device()
			continue
		}
		if d, ok, err := dtypeArg(a); err == nil && ok {
			dt = d
			continue
		}
		d, ok, err := deviceArg(a)
		if err == nil && ok {
			dev = d
			continue
		}
		if _, isStr := a.(py.Str); isStr && err != nil {
			return 0, dev, false, err // "tpu": PyTorch's device-string error
		}
		if _, isBool := a.(py.Bool); isBool {
			continue // non_blocking given positionally
		}
		return 0, dev, false, typeErr("to() received an invalid combination of arguments - got (%s)", typeName(a))
	}
	if v, ok := kw(kwargs, "dtype"); ok {
		d, ok, err := dtypeArg(v)
		if err != nil {
			return 0, dev, false, err
		}
		if ok {
			dt = d
		}
	}
	if v, ok := kw(kwargs, "device"); ok {
		d, ok, err := deviceArg(v)
		if err != nil {
			return 0, dev, false, err
		}
		if ok {
			dev = d
		}
	}
	if err := cudaOrdinal(dev); err != nil {
		return 0, dev, false, err
	}
	cp, err := boolOf(it, argOr(nil, kwargs, -1, "copy"), false)
	return dt, dev, cp, err
}

func init() {
	method("to", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("to", args)
		if err != nil {
			return nil, err
		}
		dt, dev, cp, err := h.toArgs(it, x.t, args[1:], kwargs)
		if err != nil {
			return nil, err
		}
		mf, _, err := memoryFormatArg(argOr(nil, kwargs, -1, "memory_format"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.ToFormat(x.t, dt, dev, cp, mf))
	})
	method("cuda", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("cuda", args)
		if err != nil {
			return nil, err
		}
		dev := torch.CUDA0
		if v := argOr(args, kwargs, 1, "device"); v != nil && v != py.None {
			if dev, _, err = deviceArg(v); err != nil {
				return nil, err
			}
			if dev.Type == torch.CPU {
				// PyTorch 2.11: Tensor.cuda(device="cpu")
				return nil, runtimeErr("Invalid device, must be cuda device")
			}
		}
		if err := cudaOrdinal(dev); err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.To(x.t, x.t.DType(), dev, false))
	})
	method("cpu", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("cpu", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.To(x.t, x.t.DType(), torch.CPUDevice, false))
	})
	for name, dt := range map[string]torch.DType{"half": torch.Float16, "float": torch.Float32, "double": torch.Float64,
		"bfloat16": torch.BFloat16, "long": torch.Int64, "int": torch.Int32, "short": torch.Int16,
		"bool": torch.Bool, "byte": torch.Uint8, "char": torch.Int8} {
		method(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			if err := maxPositional(name, args, 0); err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.To(x.t, dt, x.t.Device(), false))
		})
	}
	method("type", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("type", args)
		if err != nil {
			return nil, err
		}
		v := argOr(args, kwargs, 1, "dtype")
		if v == nil || v == py.None {
			prefix := "torch."
			if x.t.Device().IsCUDA() {
				prefix = "torch.cuda."
			}
			return py.Str(prefix + x.t.DType().TypeName()), nil
		}
		dt, ok, err := dtypeArg(v)
		if err != nil || !ok {
			return nil, typeErr("type(): dtype must be a torch.dtype")
		}
		return h.wrapResult(h.rt.To(x.t, dt, x.t.Device(), false))
	})
	method("numpy", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return nil, typeErr("numpy is not available in the playground (tensor values are not simulated)")
	})
}
