package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// nTuple reads an int or a sequence of k ints (stride=2 or (2, 1)), as
// PyTorch's IntArrayRef[k] arguments accept.
func (a *fnArgs) nTuple(i int, key string, k int, def int64) []int64 {
	out := make([]int64, k)
	for j := range out {
		out[j] = def
	}
	if a.err != nil {
		return out
	}
	v := a.v(i, key)
	if v == nil || v == py.None {
		return out
	}
	l, err := intList(a.name, key, v)
	if err != nil {
		a.err = err
		return out
	}
	switch len(l) {
	case 1:
		for j := range out {
			out[j] = l[0]
		}
	case k:
		copy(out, l)
	default:
		a.err = runtimeErr("%s: expected %s to be a single integer value or a list of %d values to match the convolution dimensions, but got %s=%v", a.name, key, k, key, l)
	}
	return out
}

// F.conv1d/conv2d/conv3d(input, weight, bias=None, stride=1, padding=0,
// dilation=1, groups=1); padding may be "valid" or "same".
func init() {
	for k := 1; k <= 3; k++ {
		k := k
		functionalOps["conv"+string(rune('0'+k))+"d"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
			x, w, b := a.tensor(0, "input"), a.tensor(1, "weight"), a.optTensor(2, "bias")
			st := a.nTuple(3, "stride", k, 1)
			mode := torch.PadExplicit
			var pd []int64
			if s, ok := a.v(4, "padding").(py.Str); ok && a.err == nil {
				switch string(s) {
				case "valid":
					mode = torch.PadValid
				case "same":
					mode = torch.PadSame
				default:
					return nil, runtimeErr("Invalid padding string: '%s'", string(s))
				}
			} else {
				pd = a.nTuple(4, "padding", k, 0)
			}
			dl := a.nTuple(5, "dilation", k, 1)
			g := a.int(6, "groups", 1)
			if a.err != nil {
				return nil, a.err
			}
			if w.Dim() != k+2 {
				return nil, runtimeErr("Expected %d-dimensional weight for %d-dimensional input, but got %d-dimensional weight of size %v instead", k+2, k+2, w.Dim(), w.Shape())
			}
			return h.rt.Conv(x, w, b, st, pd, dl, g, mode)
		}
	}
}
