package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// F.prelu, F.channel_shuffle/native_channel_shuffle, F.adaptive_max_pool1d/2d,
// F.unfold/F.fold, F.pairwise_distance, F.bilinear and their torch.* functions
// (sim/torch ops_prelu.go, ops_channel_shuffle.go, ops_adaptive_max_pool.go,
// ops_im2col.go, ops_pairwise_distance.go, ops_bilinear.go).
func init() {
	F := functionalOps
	F["prelu"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, w := a.tensor(0, "input"), a.tensor(1, "weight")
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Prelu(x, w)
	}
	F["channel_shuffle"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, g := a.tensor(0, "input"), a.int(1, "groups", 0)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.ChannelShuffle(x, g)
	}
	F["native_channel_shuffle"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, g := a.tensor(0, "input"), a.int(1, "groups", 0)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.NativeChannelShuffle(x, g)
	}
	// F.unfold(input, kernel_size, dilation=1, padding=0, stride=1)
	F["unfold"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		w := a.unfoldArgs(1)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Im2col(x, w)
	}
	// F.fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1)
	F["fold"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		size := a.pair(1, "output_size", [2]int64{1, 1})
		w := a.unfoldArgs(2)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Col2im(x, size, w)
	}
	// F.pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False)
	F["pairwise_distance"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x1, x2 := a.tensor(0, "x1"), a.tensor(1, "x2")
		p, eps := a.float(2, "p", 2), a.float(3, "eps", 1e-6)
		keep := a.bool(4, "keepdim", false)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.PairwiseDistance(x1, x2, p, eps, keep)
	}
	// F.bilinear(input1, input2, weight, bias=None)
	F["bilinear"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x1, x2 := a.tensor(0, "input1"), a.tensor(1, "input2")
		w, b := a.tensor(2, "weight"), a.optTensor(3, "bias")
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.Bilinear(x1, x2, w, b)
	}
	// F.adaptive_max_pool2d(input, output_size, return_indices=False)
	functionalValues["adaptive_max_pool2d"] = func(h *Host, a *fnArgs) (py.Value, error) {
		x := a.tensor(0, "input")
		var size [2]int64
		if x != nil {
			size = a.adaptiveSize2(1, x)
		}
		withIdx := a.bool(2, "return_indices", false)
		if a.err != nil {
			return nil, a.err
		}
		out, idx, err := h.rt.AdaptiveMaxPool2d(x, size)
		return h.outAndIndices(a, out, idx, withIdx, err)
	}
	// F.adaptive_max_pool1d(input, output_size, return_indices=False)
	functionalValues["adaptive_max_pool1d"] = func(h *Host, a *fnArgs) (py.Value, error) {
		x := a.tensor(0, "input")
		size := a.int(1, "output_size", 1)
		withIdx := a.bool(2, "return_indices", false)
		if a.err != nil {
			return nil, a.err
		}
		out, idx, err := h.rt.AdaptiveMaxPool1d(x, size)
		return h.outAndIndices(a, out, idx, withIdx, err)
	}
	for _, name := range []string{"prelu", "channel_shuffle", "native_channel_shuffle", "pairwise_distance", "bilinear"} {
		f := F[name]
		def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			return h.wrapResult(f(h, &fnArgs{name: name, args: args, kwargs: kwargs, it: it}))
		})
	}
	def("adaptive_max_pool1d", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a := &fnArgs{name: "adaptive_max_pool1d", args: args, kwargs: kwargs, it: it}
		x := a.tensor(0, "input")
		size := a.int(1, "output_size", 1)
		if a.err != nil {
			return nil, a.err
		}
		out, idx, err := h.rt.AdaptiveMaxPool1d(x, size)
		return h.outAndIndices(a, out, idx, true, err)
	})
}

// unfoldArgs reads kernel_size, dilation, padding, stride from position i.
func (a *fnArgs) unfoldArgs(i int) torch.UnfoldArgs {
	var w torch.UnfoldArgs
	w.Kernel = a.pair(i, "kernel_size", [2]int64{1, 1})
	w.Dilation = a.pair(i+1, "dilation", [2]int64{1, 1})
	w.Padding = a.pair(i+2, "padding", [2]int64{0, 0})
	w.Stride = a.pair(i+3, "stride", [2]int64{1, 1})
	return w
}

// adaptiveSize2 is F.adaptive_max_pool2d's output_size through
// _list_with_default: an int, or a pair whose None entries keep the
// input's size.
func (a *fnArgs) adaptiveSize2(i int, x *torch.Tensor) [2]int64 {
	v := a.v(i, "output_size")
	var elems []py.Value
	switch t := v.(type) {
	case *py.Tuple:
		elems = t.Elems()
	case *py.List:
		elems = t.Elems()
	}
	if elems == nil {
		return a.pair(i, "output_size", [2]int64{1, 1})
	}
	shape := x.Shape()
	if len(shape) <= len(elems) {
		a.err = py.NewException(py.ValueError, "Input dimension should be at least "+itoa(int64(len(elems)+1)))
		return [2]int64{}
	}
	if len(elems) != 2 {
		a.err = runtimeErr("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
		return [2]int64{}
	}
	var out [2]int64
	for j, e := range elems {
		if e == py.None {
			out[j] = shape[len(shape)-2+j]
			continue
		}
		n, ok := intArg(e)
		if !ok {
			a.err = typeErr("adaptive_max_pool2d(): argument 'output_size' must be tuple of ints, but found element of type %s at pos %d", typeName(e), j)
			return out
		}
		out[j] = n
	}
	return out
}
