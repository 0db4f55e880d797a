package pybind

import (
	"fmt"
	"strings"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// The margin and embedding losses of torch.nn.functional with PyTorch
// 2.11's positional parameter order and Python-side checks, and the torch.*
// functions they call (torch.margin_ranking_loss, ...). multilabel_soft_
// margin_loss and gaussian_nll_loss are Python in PyTorch and in the
// prelude (torch/nn/_losses_margin.py).
func init() {
	F := functionalOps
	// margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean")
	F["margin_ranking_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x1, x2, y := a.tensor(0, "input1"), a.tensor(1, "input2"), a.tensor(2, "target")
		m := a.float(3, "margin", 0)
		r := a.legacyReduction(4, 5, 6)
		if a.err != nil {
			return nil, a.err
		}
		if x1.Dim() != x2.Dim() || x1.Dim() != y.Dim() {
			return nil, runtimeErr("margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: %s, input2: %s, target: %s ",
				torchSize(x1), torchSize(x2), torchSize(y))
		}
		return h.rt.MarginRankingLoss(x1, x2, y, m, r)
	}
	// hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean")
	F["hinge_embedding_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		m := a.float(2, "margin", 1)
		r := a.legacyReduction(3, 4, 5)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.HingeEmbeddingLoss(x, y, m, r)
	}
	// soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean")
	F["soft_margin_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		r := a.legacyReduction(2, 3, 4)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.SoftMarginLoss(x, y, r)
	}
	// cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean")
	F["cosine_embedding_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x1, x2, y := a.tensor(0, "input1"), a.tensor(1, "input2"), a.tensor(2, "target")
		m := a.float(3, "margin", 0)
		r := a.legacyReduction(4, 5, 6)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.CosineEmbeddingLoss(x1, x2, y, m, r)
	}
	// multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean")
	F["multi_margin_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		p := a.int(2, "p", 1)
		m := a.float(3, "margin", 1)
		w := a.optTensor(4, "weight")
		r := a.legacyReduction(5, 6, 7)
		if a.err != nil {
			return nil, a.err
		}
		if p != 1 && p != 2 {
			return nil, py.NewException(py.ValueError, "only p == 1 and p == 2 supported")
		}
		if w != nil && w.Dim() != 1 {
			return nil, py.NewException(py.ValueError, "weight must be one-dimensional")
		}
		return h.rt.MultiMarginLoss(x, y, p, m, w, r)
	}
	// triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
	// size_average=None, reduce=None, reduction="mean")
	F["triplet_margin_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		an, po, ne := a.tensor(0, "anchor"), a.tensor(1, "positive"), a.tensor(2, "negative")
		m := a.float(3, "margin", 1)
		p := a.float(4, "p", 2)
		eps := a.float(5, "eps", 1e-6)
		swap := a.bool(6, "swap", false)
		r := a.legacyReduction(7, 8, 9)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.TripletMarginLoss(an, po, ne, m, p, eps, swap, r)
	}
	// poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
	// reduce=None, reduction="mean")
	F["poisson_nll_loss"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x, y := a.tensor(0, "input"), a.tensor(1, "target")
		li := a.bool(2, "log_input", true)
		full := a.bool(3, "full", false)
		eps := a.float(5, "eps", 1e-8)
		r := a.legacyReduction(4, 6, 7)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.PoissonNLLLoss(x, y, li, full, eps, r)
	}
	for _, name := range []string{"margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss", "triplet_margin_loss", "poisson_nll_loss"} {
		torchLossFunction(name)
	}
}

// torchLossFunction registers torch.NAME, which takes the reduction as
// an int enum (0 none, 1 mean, 2 sum) after the loss's own arguments,
// with no legacy size_average/reduce arguments.
func torchLossFunction(name string) {
	def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a := &fnArgs{name: name, args: args, kwargs: kwargs, it: it}
		t, err := torchLoss(h, name, a)
		if err != nil {
			return nil, pyErr(err)
		}
		return h.wrap(t), nil
	})
}

// torchLoss is torch.margin_ranking_loss(input1, input2, target, margin, reduction),
// torch.hinge_embedding_loss(input, target, margin, reduction),
// torch.cosine_embedding_loss(input1, input2, target, margin, reduction),
// torch.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction),
// torch.poisson_nll_loss(input, target, log_input, full, eps, reduction).
func torchLoss(h *Host, name string, a *fnArgs) (*torch.Tensor, error) {
	red := func(i int) string {
		r := a.int(i, "reduction", 1)
		switch r {
		case 0:
			return "none"
		case 2:
			return "sum"
		}
		return "mean"
	}
	switch name {
	case "margin_ranking_loss", "cosine_embedding_loss":
		x1, x2, y := a.tensor(0, "input1"), a.tensor(1, "input2"), a.tensor(2, "target")
		m, r := a.float(3, "margin", 0), red(4)
		if a.err != nil {
			return nil, a.err
		}
		if name == "margin_ranking_loss" {
			return h.rt.MarginRankingLoss(x1, x2, y, m, r)
		}
		return h.rt.CosineEmbeddingLoss(x1, x2, y, m, r)
	case "hinge_embedding_loss":
		x, y := a.tensor(0, "self"), a.tensor(1, "target")
		m, r := a.float(2, "margin", 1), red(3)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.HingeEmbeddingLoss(x, y, m, r)
	case "triplet_margin_loss":
		an, po, ne := a.tensor(0, "anchor"), a.tensor(1, "positive"), a.tensor(2, "negative")
		m, p, eps, swap, r := a.float(3, "margin", 1), a.float(4, "p", 2), a.float(5, "eps", 1e-6), a.bool(6, "swap", false), red(7)
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.TripletMarginLoss(an, po, ne, m, p, eps, swap, r)
	}
	x, y := a.tensor(0, "input"), a.tensor(1, "target")
	li, full, eps, r := a.bool(2, "log_input", true), a.bool(3, "full", false), a.float(4, "eps", 1e-8), red(5)
	if a.err != nil {
		return nil, a.err
	}
	return h.rt.PoissonNLLLoss(x, y, li, full, eps, r)
}

// torchSize is t.size() as Python prints it: torch.Size([2, 3]).
func torchSize(t *torch.Tensor) string {
	parts := make([]string, 0, t.Dim())
	for _, s := range t.Shape() {
		parts = append(parts, fmt.Sprint(s))
	}
	return "torch.Size([" + strings.Join(parts, ", ") + "])"
}
