package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// 1-d pooling: F.max_pool1d (with return_indices), F.avg_pool1d and
// F.adaptive_avg_pool1d, run as PyTorch does on x.unsqueeze(-2).
func init() {
	functionalValues["max_pool1d"] = func(h *Host, a *fnArgs) (py.Value, error) {
		x := a.tensor(0, "input")
		k := a.pair(1, "kernel_size", [2]int64{1, 1})
		s := a.pair(2, "stride", k)
		p, d := a.pair(3, "padding", [2]int64{0, 0}), a.pair(4, "dilation", [2]int64{1, 1})
		ceil := a.bool(5, "ceil_mode", false)
		withIdx := a.bool(6, "return_indices", false)
		if a.err != nil {
			return nil, a.err
		}
		out, idx, err := h.rt.MaxPool1d(x, k[0], s[0], p[0], d[0], ceil, withIdx)
		if err != nil {
			return nil, pyErr(err)
		}
		if !withIdx {
			return h.wrap(out), nil
		}
		return a.it.NewTuple([]py.Value{h.wrap(out), h.wrap(idx)}), nil
	}
	F := functionalOps
	F["avg_pool1d"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		k := a.pair(1, "kernel_size", [2]int64{1, 1})
		s := a.pair(2, "stride", k)
		p := a.pair(3, "padding", [2]int64{0, 0})
		ceil := a.bool(4, "ceil_mode", false)
		cip := a.bool(5, "count_include_pad", true)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.AvgPool1d(x, k[0], s[0], p[0], ceil, cip)
	}
	F["adaptive_avg_pool1d"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		o := a.pair(1, "output_size", [2]int64{1, 1})
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.AdaptiveAvgPool1d(x, o[0])
	}
}
