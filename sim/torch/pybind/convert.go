package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// scalarArg converts a Python number (bool, int, float) to a Scalar.
func scalarArg(v py.Value) (torch.Scalar, bool) {
	switch n := v.(type) {
	case py.Bool:
		return torch.BoolScalar(bool(n)), true
	case py.Int:
		return torch.Int(int64(n)), true
	case py.Float:
		return torch.Float(float64(n)), true
	case *py.BigInt:
		f, _ := n.Big().Float64()
		return torch.Scalar{Kind: torch.ScalarInt, F: f, I: n.Big().Int64()}, true
	}
	return torch.Scalar{}, false
}

// intArg converts a Python int (or a one-element integer tensor) to int64.
func intArg(v py.Value) (int64, bool) {
	switch n := v.(type) {
	case py.Bool:
		if n {
			return 1, true
		}
		return 0, true
	case py.Int:
		return int64(n), true
	case *Tensor:
		if n.t != nil && n.t.Numel() == 1 && n.t.DType().IsIntegral(true) {
			return 0, true
		}
	}
	return 0, false
}

// floatArg converts a Python number to float64.
func floatArg(v py.Value) (float64, bool) {
	if s, ok := scalarArg(v); ok {
		return s.Value(), true
	}
	if x, ok := v.(*Tensor); ok && x.t != nil && x.t.Numel() == 1 {
		return 0, true
	}
	return 0, false
}

// valueArg is the value of a number or of a one-element tensor whose
// values a GPU run computed: what a value-computing hook passes on. ok is
// false for a tensor without values (floatArg's placeholder 0 would be a
// wrong number there) and for anything else.
func valueArg(v py.Value) (float64, bool) {
	if s, ok := scalarArg(v); ok {
		return s.Value(), true
	}
	if x, ok := v.(*Tensor); ok && x.t != nil && x.t.Numel() == 1 {
		if vals, err := x.t.Values(); err == nil && len(vals) == 1 {
			return vals[0], true
		}
	}
	return 0, false
}

// elems returns the items of a tuple, list or torch.Size.
func elems(v py.Value) ([]py.Value, bool) {
	switch s := v.(type) {
	case *py.Tuple:
		return s.Elems(), true
	case *py.List:
		return s.Elems(), true
	case *Size:
		out := make([]py.Value, len(s.dims))
		for i, d := range s.dims {
			out[i] = py.Int(d)
		}
		return out, true
	}
	return nil, false
}

// intList converts a sequence of ints (or one int) to []int64.
func intList(fn, what string, v py.Value) ([]int64, error) {
	if n, ok := intArg(v); ok {
		if _, isT := v.(*Tensor); !isT {
			return []int64{n}, nil
		}
	}
	es, ok := elems(v)
	if !ok {
		return nil, typeErr("%s(): argument '%s' must be tuple of ints, not %s", fn, what, typeName(v))
	}
	out := make([]int64, len(es))
	for i, e := range es {
		n, ok := intArg(e)
		if !ok {
			return nil, typeErr("%s(): argument '%s' must be tuple of ints, but found element of type %s at pos %d", fn, what, typeName(e), i)
		}
		out[i] = n
	}
	return out, nil
}

// shapeArgs reads a size given as varargs ints or as one sequence:
// torch.zeros(2, 3) and torch.zeros((2, 3)).
func shapeArgs(fn string, args []py.Value) ([]int64, error) {
	if len(args) == 1 {
		if _, ok := elems(args[0]); ok {
			return intList(fn, "size", args[0])
		}
	}
	out := make([]int64, len(args))
	for i, a := range args {
		n, ok := intArg(a)
		if !ok {
			return nil, typeErr("%s(): argument 'size' must be tuple of ints, but found element of type %s at pos %d", fn, typeName(a), i)
		}
		out[i] = n
	}
	return out, nil
}

// typeName is type(v).__name__.
func typeName(v py.Value) string {
	if v == nil {
		return "NoneType"
	}
	return v.Type().Name
}

// dtypeArg converts a dtype object (or None: ok=false).
func dtypeArg(v py.Value) (torch.DType, bool, error) {
	if v == nil || v == py.None {
		return 0, false, nil
	}
	if d, ok := v.(*DTypeObj); ok {
		return d.d, true, nil
	}
	if c, ok := v.(*py.Class); ok {
		switch c {
		case py.FloatClass:
			return torch.Float64, true, nil
		case py.IntClass:
			return torch.Int64, true, nil
		case py.BoolClass:
			return torch.Bool, true, nil
		}
	}
	return 0, false, typeErr("dtype must be torch.dtype, not %s", typeName(v))
}

// deviceArg converts "cuda", "cuda:0", "cpu", 0, or a torch.device.
func deviceArg(v py.Value) (torch.Device, bool, error) {
	switch d := v.(type) {
	case nil, py.NoneType:
		return torch.Device{}, false, nil
	case *DeviceObj:
		return d.d, true, nil
	case py.Str:
		dev, err := torch.ParseDevice(string(d))
		if err != nil {
			return dev, false, pyErr(err)
		}
		return dev, true, nil
	case py.Int:
		return torch.Device{Type: torch.CUDA, Index: int(d)}, true, nil
	}
	return torch.Device{}, false, typeErr("expected a torch.device, str or int, got %s", typeName(v))
}

// kw finds a keyword argument.
func kw(kwargs []py.Kwarg, name string) (py.Value, bool) {
	for _, k := range kwargs {
		if k.Name == name {
			return k.Value, true
		}
	}
	return nil, false
}

// argOr returns positional i, else keyword name, else nil.
func argOr(args []py.Value, kwargs []py.Kwarg, i int, name string) py.Value {
	if i >= 0 && i < len(args) {
		return args[i]
	}
	if v, ok := kw(kwargs, name); ok {
		return v
	}
	return nil
}

// boolOf is the truth of an optional argument (nil: def).
func boolOf(it *py.Interp, v py.Value, def bool) (bool, error) {
	if v == nil || v == py.None {
		return def, nil
	}
	return it.Truth(v)
}

// intOf reads an optional int argument.
func intOf(fn, name string, v py.Value, def int64) (int64, error) {
	if v == nil || v == py.None {
		return def, nil
	}
	n, ok := intArg(v)
	if !ok {
		return 0, typeErr("%s(): argument '%s' must be int, not %s", fn, name, typeName(v))
	}
	return n, nil
}

// floatOf reads an optional float argument.
func floatOf(fn, name string, v py.Value, def float64) (float64, error) {
	if v == nil || v == py.None {
		return def, nil
	}
	f, ok := floatArg(v)
	if !ok {
		return 0, typeErr("%s(): argument '%s' must be float, not %s", fn, name, typeName(v))
	}
	return f, nil
}

// strOf reads an optional str argument.
func strOf(fn, name string, v py.Value, def string) (string, error) {
	if v == nil || v == py.None {
		return def, nil
	}
	s, ok := v.(py.Str)
	if !ok {
		return "", typeErr("%s(): argument '%s' must be str, not %s", fn, name, typeName(v))
	}
	return string(s), nil
}

// tensorOf reads a required tensor argument.
func tensorOf(fn, name string, v py.Value) (*torch.Tensor, error) {
	t, ok := tensorArg(v)
	if !ok {
		return nil, typeErr("%s(): argument '%s' (position 1) must be Tensor, not %s", fn, name, typeName(v))
	}
	return t, nil
}

// optTensor reads an optional tensor argument (None: nil).
func optTensor(fn, name string, v py.Value) (*torch.Tensor, error) {
	if v == nil || v == py.None {
		return nil, nil
	}
	return tensorOf(fn, name, v)
}
