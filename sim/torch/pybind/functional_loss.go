package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// The loss functions of torch.nn.functional beyond mse/nll/cross_entropy,
// with PyTorch 2.11's positional parameter order.
func init() {
	F := functionalOps
	// l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None)
	F["l1_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		r := a.reduction(4)
		if w := a.v(5, "weight"); a.err == nil && w != nil && w != py.None {
			return nil, py.NewException(py.NotImplementedError, "l1_loss(weight=...) is not simulated")
		}
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.L1Loss(x, y, r)
	}
	// binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean")
	F["binary_cross_entropy"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y, w := a.tensor(0, "input"), a.tensor(1, "target"), a.optTensor(2, "weight")
		r := a.reduction(5)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.BinaryCrossEntropy(x, y, w, r)
	}
	// binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,
	// reduce=None, reduction="mean", pos_weight=None)
	F["binary_cross_entropy_with_logits"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y, w := a.tensor(0, "input"), a.tensor(1, "target"), a.optTensor(2, "weight")
		r := a.reduction(5)
		pw := a.optTensor(6, "pos_weight")
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.BCEWithLogits(x, y, w, pw, r)
	}
}
