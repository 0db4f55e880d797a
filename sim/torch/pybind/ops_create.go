package pybind

import (
	"math"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// factoryOpts are the keyword options of tensor factories.
type factoryOpts struct {
	dt     torch.DType
	hasDT  bool
	dev    torch.Device
	hasDev bool
	rg     bool
	gen    *torch.Generator // generator= of the random factories (nil: the default)
}

func (h *Host) factoryKw(it *py.Interp, kwargs []py.Kwarg) (factoryOpts, error) {
	var o factoryOpts
	var err error
	if o.dt, o.hasDT, err = dtypeArg(argOr(nil, kwargs, -1, "dtype")); err != nil {
		return o, err
	}
	if o.dev, o.hasDev, err = deviceArg(argOr(nil, kwargs, -1, "device")); err != nil {
		return o, err
	}
	if !o.hasDev {
		o.dev = torch.CPUDevice
	}
	if err := cudaOrdinal(o.dev); err != nil {
		return o, err
	}
	if o.gen, err = genArg(it, kwargs); err != nil {
		return o, err
	}
	o.rg, err = boolOf(it, argOr(nil, kwargs, -1, "requires_grad"), false)
	return o, err
}

func (o factoryOpts) dtype(def torch.DType) torch.DType {
	if o.hasDT {
		return o.dt
	}
	return def
}

func (h *Host) make(op string, shape []int64, o factoryOpts, def torch.DType) (py.Value, error) {
	return h.wrapResult(h.rt.Factory(op, shape, o.dtype(def), o.dev, o.rg))
}

// makeInit is make with the values of a GPU run (rt.Init: kind and its
// scalars); in the simulator it is make.
func (h *Host) makeInit(op string, shape []int64, o factoryOpts, def torch.DType, kind torch.ExecKind, scalars ...float64) (py.Value, error) {
	t, err := h.rt.Factory(op, shape, o.dtype(def), o.dev, o.rg)
	if err == nil && kind != "" {
		h.rt.InitGen(t, o.gen, kind, scalars...)
	}
	return h.wrapResult(t, err)
}

// factoryInit is the initialisation of the argument-free factories.
func factoryInit(name string) (torch.ExecKind, []float64) {
	switch name {
	case "zeros":
		return torch.ExecFill, []float64{0}
	case "ones":
		return torch.ExecFill, []float64{1}
	case "randn":
		return torch.ExecNormal, []float64{0, 1}
	case "rand":
		return torch.ExecUniform, []float64{0, 1}
	}
	return "", nil
}

// scalarDType is the dtype a factory infers from a Python number.
func scalarDType(v py.Value) torch.DType {
	switch v.(type) {
	case py.Bool:
		return torch.Bool
	case py.Int, *py.BigInt:
		return torch.Int64
	}
	return torch.Float32
}

func init() {
	for _, name := range []string{"empty", "zeros", "ones", "randn", "rand"} {
		def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			shape, err := shapeArgs(name, args)
			if err != nil {
				return nil, err
			}
			if v, ok := kw(kwargs, "size"); ok && len(args) == 0 {
				if shape, err = intList(name, "size", v); err != nil {
					return nil, err
				}
			}
			if name == "zeros" {
				for _, d := range shape {
					if d < 0 { // zeros checks its sizes itself (question q12)
						return nil, runtimeErr("zeros: Dimension size must be non-negative.")
					}
				}
			}
			o, err := h.factoryKw(it, kwargs)
			if err != nil {
				return nil, err
			}
			kind, sc := factoryInit(name)
			return h.makeInit(name, shape, o, torch.Float32, kind, sc...)
		})
	}
	def("full", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		sizeV := argOr(args, kwargs, 0, "size")
		if _, isInt := sizeV.(py.Int); isInt {
			return nil, typeErr("full(): argument 'size' (position 1) must be tuple of ints, not int")
		}
		shape, err := intList("full", "size", sizeV)
		if err != nil {
			return nil, err
		}
		if fvV := argOr(args, kwargs, 1, "fill_value"); fvV == nil || fvV == py.None {
			return nil, invalidCombination("full", args, kwargs, fullSigNames, fullSigOut)
		}
		o, err := h.factoryKw(it, kwargs)
		if err != nil {
			return nil, err
		}
		kind := torch.ExecFill
		if iv, isInt := argOr(args, kwargs, 1, "fill_value").(py.Int); isInt && h.rt.Computing() &&
			o.dtype(torch.Int64).IsIntegral(false) {
			return h.makeInitExact("full", shape, o, torch.Int64, kind, []int64{int64(iv)})
		}
		fv, ok := valueArg(argOr(args, kwargs, 1, "fill_value"))
		if !ok {
			kind = "" // a tensor fill value without values: not computed
		}
		return h.makeInit("full", shape, o, scalarDType(argOr(args, kwargs, 1, "fill_value")), kind, fv)
	})
	def("randint", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		var sizeV py.Value
		if len(args) >= 3 {
			if _, seq := elems(args[1]); seq {
				return nil, invalidCombination("randint", args, kwargs, randintSigs...)
			}
		}
		switch {
		case len(args) >= 3:
			sizeV = args[2]
		case len(args) == 2:
			sizeV = args[1]
		default:
			sizeV = argOr(nil, kwargs, -1, "size")
		}
		shape, err := intList("randint", "size", sizeV)
		if err != nil {
			return nil, err
		}
		o, err := h.factoryKw(it, kwargs)
		if err != nil {
			return nil, err
		}
		lo, hi := 0.0, 0.0
		if len(args) >= 3 {
			lo, _ = floatArg(args[0])
			hi, _ = floatArg(args[1])
		} else if len(args) >= 1 {
			hi, _ = floatArg(args[0])
		}
		if v, ok := kw(kwargs, "low"); ok {
			lo, _ = floatArg(v)
		}
		if v, ok := kw(kwargs, "high"); ok {
			hi, _ = floatArg(v)
		}
		if lo >= hi {
			return nil, runtimeErr("random_ expects 'from' to be less than 'to', but got from=%d >= to=%d", int64(lo), int64(hi))
		}
		return h.makeInit("randint", shape, o, torch.Int64, torch.ExecRandInt, lo, hi)
	})
	def("randperm", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		n, err := intOf("randperm", "n", argOr(args, kwargs, 0, "n"), 0)
		if err != nil {
			return nil, err
		}
		o, err := h.factoryKw(it, kwargs)
		if err != nil {
			return nil, err
		}
		return h.makeInit("randperm", []int64{n}, o, torch.Int64, torch.ExecRandPerm)
	})
	def("arange", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		start, end, step := 0.0, 0.0, 1.0
		isFloat := false
		nums := []py.Value{}
		for _, a := range args {
			nums = append(nums, a)
		}
		for _, k := range []string{"start", "end", "step"} {
			if v, ok := kw(kwargs, k); ok {
				nums = append(nums, v)
			}
		}
		vals := make([]float64, len(nums))
		for i, v := range nums {
			f, ok := floatArg(v)
			if !ok {
				return nil, typeErr("arange() received an invalid combination of arguments")
			}
			if _, fl := v.(py.Float); fl {
				isFloat = true
			}
			vals[i] = f
		}
		switch len(vals) {
		case 1:
			end = vals[0]
		case 2:
			start, end = vals[0], vals[1]
		case 3:
			start, end, step = vals[0], vals[1], vals[2]
		default:
			return nil, typeErr("arange() received an invalid combination of arguments")
		}
		if step == 0 {
			return nil, runtimeErr("step must be nonzero")
		}
		n := int64(math.Ceil((end - start) / step))
		if n < 0 {
			return nil, runtimeErr("upper bound and larger bound inconsistent with step sign")
		}
		o, err := h.factoryKw(it, kwargs)
		if err != nil {
			return nil, err
		}
		dt := torch.Int64
		if isFloat {
			dt = torch.Float32
		}
		if en, es, ep, ok := exactArange(nums); ok {
			return h.makeInitExact("arange", []int64{en}, o, dt, torch.ExecArange, []int64{es, ep})
		}
		return h.makeInit("arange", []int64{n}, o, dt, torch.ExecArange, start, step)
	})
	for _, name := range []string{"tensor", "as_tensor"} {
		def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			data := argOr(args, kwargs, 0, "data")
			o, err := h.factoryKw(it, kwargs)
			if err != nil {
				return nil, err
			}
			if t, ok := tensorArg(data); ok {
				dev := t.Device()
				if o.hasDev {
					dev = o.dev
				}
				if name == "as_tensor" {
					return h.wrapResult(h.rt.To(t, o.dtype(t.DType()), dev, false))
				}
				return h.wrapResult(h.rt.To(t, o.dtype(t.DType()), dev, true))
			}
			shape, dt, err := inferData(data)
			if err != nil {
				return nil, err
			}
			if err := checkRagged(data, shape, 0); err != nil {
				return nil, err
			}
			if h.rt.Computing() {
				if ints, ok := flatInts(data, nil); ok && o.dtype(dt).IsIntegral(false) {
					return h.makeInitExact("tensor", shape, o, dt, torch.ExecValues, ints)
				}
				if vals, ok := flatData(data, nil); ok {
					return h.makeInit("tensor", shape, o, dt, torch.ExecValues, vals...)
				}
			}
			return h.make("tensor", shape, o, dt)
		})
	}
	likes := map[string]string{"empty_like": "empty", "zeros_like": "zeros", "ones_like": "ones", "randn_like": "randn",
		"rand_like": "rand", "full_like": "full", "randint_like": "randint"}
	for name, op := range likes {
		def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			o, err := h.factoryKw(it, kwargs)
			if err != nil {
				return nil, err
			}
			dev := x.t.Device()
			if o.hasDev {
				dev = o.dev
			}
			t, err := h.rt.FactoryLike(op, x.t, o.dtype(x.t.DType()), dev, o.rg)
			if err == nil && h.rt.Computing() {
				if kind, sc := factoryInit(op); kind != "" {
					h.rt.Init(t, kind, sc...)
				} else if op == "full" {
					if fv, ok := valueArg(argOr(args, kwargs, 1, "fill_value")); ok {
						h.rt.Init(t, torch.ExecFill, fv)
					}
				}
			}
			return h.wrapResult(t, err)
		})
	}
	for _, name := range []string{"new_empty", "new_zeros", "new_ones", "new_full", "new_tensor"} {
		method(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			var shape []int64
			dt := x.t.DType()
			switch name {
			case "new_tensor":
				shape, _, err = inferData(argOr(args, kwargs, 1, "data"))
			case "new_full":
				shape, err = intList(name, "size", argOr(args, kwargs, 1, "size"))
			default:
				shape, err = shapeArgs(name, args[1:])
			}
			if err != nil {
				return nil, err
			}
			o, err := h.factoryKw(it, kwargs)
			if err != nil {
				return nil, err
			}
			if !o.hasDev {
				o.dev = x.t.Device()
			}
			return h.make(name, shape, o, dt)
		})
	}
}

// flatData appends the numbers of nested sequences in row-major order
// (the values of torch.tensor(data) in a GPU run); ok is false when an
// element is a tensor whose values were not computed.
func flatData(v py.Value, out []float64) ([]float64, bool) {
	if f, ok := valueArg(v); ok {
		return append(out, f), true
	}
	if _, ok := v.(*Tensor); ok {
		return out, false
	}
	es, _ := elems(v)
	for _, e := range es {
		var ok bool
		if out, ok = flatData(e, out); !ok {
			return out, false
		}
	}
	return out, true
}

// inferData returns the shape and dtype torch.tensor infers from nested
// lists of numbers.
func inferData(v py.Value) ([]int64, torch.DType, error) {
	if _, ok := scalarArg(v); ok {
		return nil, scalarDType(v), nil
	}
	es, ok := elems(v)
	if !ok {
		return nil, 0, typeErr("Could not infer dtype of %s", typeName(v))
	}
	if len(es) == 0 {
		return []int64{0}, torch.Float32, nil
	}
	sub, dt, err := inferData(es[0])
	if err != nil {
		return nil, 0, err
	}
	for _, e := range es[1:] {
		_, d, err := inferData(e)
		if err != nil {
			return nil, 0, err
		}
		if d == torch.Float32 || (d == torch.Int64 && dt == torch.Bool) {
			dt = d
		}
	}
	return append([]int64{int64(len(es))}, sub...), dt, nil
}
