package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// F.max_pool3d, avg_pool3d, adaptive_avg_pool3d and adaptive_max_pool3d
// (torch/nn/functional.py's argument handling; the ops: sim/torch
// ops_pool3d.go).

// triple reads an int or three ints (kernel_size=3 or (1, 3, 3)); with
// allowNone, a None entry keeps the input's size (adaptive pooling's
// output_size), given as in.
func (a *fnArgs) triple(i int, key string, def [3]int64, in []int64) [3]int64 {
	if a.err != nil {
		return def
	}
	v := a.v(i, key)
	if v == nil || v == py.None {
		return def
	}
	var elems []py.Value
	switch t := v.(type) {
	case *py.Tuple:
		elems = t.Elems()
	case *py.List:
		elems = t.Elems()
	}
	if in != nil && len(elems) == 3 {
		var out [3]int64
		for j, e := range elems {
			if e == py.None {
				out[j] = in[j]
				continue
			}
			n, ok := intArg(e)
			if !ok {
				a.err = typeErr("%s(): argument '%s' must be tuple of ints, but found element of type %s at pos %d", a.name, key, typeName(e), j)
				return def
			}
			out[j] = n
		}
		return out
	}
	l, err := intList(a.name, key, v)
	if err != nil {
		a.err = err
		return def
	}
	switch len(l) {
	case 1:
		return [3]int64{l[0], l[0], l[0]}
	case 3:
		return [3]int64{l[0], l[1], l[2]}
	}
	a.err = runtimeErr("%s: %s must either be a single int, or a tuple of three ints", a.name, key)
	return def
}

// spatial3 is a pooling input's last three sizes (nil when it has fewer).
func spatial3(x *torch.Tensor) []int64 {
	if x == nil || x.Dim() < 3 {
		return nil
	}
	s := x.Shape()
	return s[len(s)-3:]
}

// pool3dWindow reads max_pool3d's (dilation true) or avg_pool3d's window
// arguments from position 1 on.
func (a *fnArgs) pool3dWindow(dilation bool) torch.Pool3dWindow {
	var w torch.Pool3dWindow
	w.Kernel = a.triple(1, "kernel_size", [3]int64{1, 1, 1}, nil)
	w.Stride = a.triple(2, "stride", w.Kernel, nil)
	if v := a.v(2, "stride"); v != nil && v != py.None {
		if l, ok := v.(*py.List); ok && len(l.Elems()) == 0 {
			w.Stride = w.Kernel // stride=[] means the kernel size
		}
	}
	w.Padding = a.triple(3, "padding", [3]int64{}, nil)
	w.Dilation = [3]int64{1, 1, 1}
	if dilation {
		w.Dilation = a.triple(4, "dilation", w.Dilation, nil)
		w.Ceil = a.bool(5, "ceil_mode", false)
		return w
	}
	w.Ceil = a.bool(4, "ceil_mode", false)
	w.CountIncludePad = a.bool(5, "count_include_pad", true)
	if v := a.v(6, "divisor_override"); v != nil && v != py.None && a.err == nil {
		w.Divisor = a.int(6, "divisor_override", 0)
		if a.err == nil && w.Divisor == 0 {
			a.err = runtimeErr("divisor must be not zero")
		}
	}
	return w
}

func init() {
	F := functionalOps
	F["avg_pool3d"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		w := a.pool3dWindow(false)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.AvgPool3d(x, w)
	}
	F["adaptive_avg_pool3d"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		o := a.triple(1, "output_size", [3]int64{1, 1, 1}, spatial3(x))
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.AdaptiveAvgPool3d(x, o)
	}
	// F.max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1,
	// ceil_mode=False, return_indices=False)
	functionalValues["max_pool3d"] = func(h *Host, a *fnArgs) (py.Value, error) {
		x := a.tensor(0, "input")
		w := a.pool3dWindow(true)
		withIdx := a.bool(6, "return_indices", false)
		if a.err != nil {
			return nil, a.err
		}
		out, idx, err := h.rt.MaxPool3dWithIndices(x, w)
		return h.outAndIndices(a, out, idx, withIdx, err)
	}
	// F.adaptive_max_pool3d(input, output_size, return_indices=False)
	functionalValues["adaptive_max_pool3d"] = func(h *Host, a *fnArgs) (py.Value, error) {
		x := a.tensor(0, "input")
		o := a.triple(1, "output_size", [3]int64{1, 1, 1}, spatial3(x))
		withIdx := a.bool(2, "return_indices", false)
		if a.err != nil {
			return nil, a.err
		}
		out, idx, err := h.rt.AdaptiveMaxPool3d(x, o)
		return h.outAndIndices(a, out, idx, withIdx, err)
	}
}

// outAndIndices is a max pooling's Python result: the output, or (output,
// indices) with return_indices.
func (h *Host) outAndIndices(a *fnArgs, out, idx *torch.Tensor, withIdx bool, err error) (py.Value, error) {
	if err != nil {
		return nil, pyErr(err)
	}
	if !withIdx {
		idx.Release()
		return h.wrap(out), nil
	}
	return a.it.NewTuple([]py.Value{h.wrap(out), h.wrap(idx)}), nil
}
