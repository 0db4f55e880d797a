package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// smooth_l1_loss, huber_loss, kl_div and cross_entropy's label smoothing
// and probability targets, with PyTorch 2.11's positional parameter order.
func init() {
	F := functionalOps
	// smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0)
	F["smooth_l1_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		r := a.legacyReduction(2, 3, 4)
		beta := a.float(5, "beta", 1)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.SmoothL1Loss(x, y, r, beta)
	}
	// huber_loss(input, target, reduction="mean", delta=1.0, weight=None)
	F["huber_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		r := a.reduction(2)
		delta := a.float(3, "delta", 1)
		if w := a.v(4, "weight"); a.err == nil && w != nil && w != py.None {
			return nil, py.NewException(py.NotImplementedError, "huber_loss(weight=...) is not simulated")
		}
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.HuberLoss(x, y, r, delta)
	}
	// kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False)
	F["kl_div"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		r := a.str(4, "reduction", "mean")
		if a.err == nil && r != "mean" && r != "sum" && r != "none" && r != "batchmean" {
			a.err = py.NewException(py.ValueError, r+" is not a valid value for reduction")
		}
		r = a.legacyOverride(2, 3, r)
		lt := a.bool(5, "log_target", false)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.KLDiv(x, y, r, lt)
	}
	// cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
	// reduce=None, reduction="mean", label_smoothing=0.0)
	F["cross_entropy"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		w := a.optTensor(2, "weight")
		ig := a.int(4, "ignore_index", -100)
		r := a.legacyReduction(3, 5, 6)
		ls := a.float(7, "label_smoothing", 0)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.CrossEntropyFull(x, y, torch.CrossEntropyArgs{Reduction: r, IgnoreIndex: ig, LabelSmoothing: ls, Weight: w})
	}
}

// legacyReduction reads reduction= at index i, overridden by the legacy
// size_average/reduce arguments (indices sa, rd) when either is given, as
// torch.nn._reduction.legacy_get_string does.
func (a *fnArgs) legacyReduction(sa, rd, i int) string {
	return a.legacyOverride(sa, rd, a.reduction(i))
}

// legacyOverride is r, or the reduction the legacy size_average/reduce
// arguments (indices sa, rd) ask for when either is given.
func (a *fnArgs) legacyOverride(sa, rd int, r string) string {
	if a.err != nil {
		return r
	}
	sv, rv := a.v(sa, "size_average"), a.v(rd, "reduce")
	if (sv == nil || sv == py.None) && (rv == nil || rv == py.None) {
		return r
	}
	size, reduce := a.bool(sa, "size_average", true), a.bool(rd, "reduce", true)
	switch {
	case !reduce:
		return "none"
	case size:
		return "mean"
	}
	return "sum"
}
