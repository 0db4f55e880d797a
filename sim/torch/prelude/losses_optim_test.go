package prelude_test

import (
	"strings"
	"testing"
)

// TestLossesOptimBinding checks the Python surface of session 14's losses
// and training utilities: the nn.*Loss modules and F functions (grad_fn
// names, shapes), register_hook's handle, pad_sequence and the parameter
// vector helpers, NAdam/RAdam/Adamax state, and PyTorch's errors as q23
// recorded them on an H100 (testdata/questions/q23_losses_optim.out).
func TestLossesOptimBinding(t *testing.T) {
	const setup = `import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.randn(8, 10, device='cuda', requires_grad=True)
y = torch.randn(8, 10, device='cuda')
s = torch.ones(8, device='cuda')
c = torch.zeros(8, dtype=torch.long, device='cuda')
def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0])
`
	tests := []struct{ name, code, want string }{
		{"modules", `for m, a in ((nn.MarginRankingLoss(0.1), (x[:, 0], y[:, 0], s)), (nn.HingeEmbeddingLoss(), (x, y)),
             (nn.SoftMarginLoss(), (x, y)), (nn.CosineEmbeddingLoss(reduction="none"), (x, y, s)),
             (nn.MultiMarginLoss(p=2), (x, c)), (nn.MultiLabelSoftMarginLoss(), (x, y)),
             (nn.TripletMarginLoss(swap=True), (x, y, y)), (nn.PoissonNLLLoss(full=True), (x, y.abs())),
             (nn.GaussianNLLLoss(), (x, y, torch.ones(8, device='cuda')))):
    r = m(*a)
    print(type(m).__name__, tuple(r.shape), type(r.grad_fn).__name__)`,
			`MarginRankingLoss () MeanBackward0
HingeEmbeddingLoss () MeanBackward0
SoftMarginLoss () SoftMarginLossBackward0
CosineEmbeddingLoss (8,) AddBackward0
MultiMarginLoss () MultiMarginLossBackward0
MultiLabelSoftMarginLoss () MeanBackward0
TripletMarginLoss () MeanBackward0
PoissonNLLLoss () MeanBackward0
GaussianNLLLoss () MeanBackward0`},
		{"functional", `print(type(F.triplet_margin_loss(x, y, y, reduction="none").grad_fn).__name__,
      F.multi_margin_loss(x, c, reduction="none").shape, F.multilabel_soft_margin_loss(x, y, reduction="none").shape)
print(type(torch.margin_ranking_loss(x, y, y, 0.0, 0).grad_fn).__name__, type(F.poisson_nll_loss(x, y, reduction="sum").grad_fn).__name__)`,
			"ClampMinBackward0 torch.Size([8]) torch.Size([8])\nClampMinBackward0 SumBackward0"},
		{"utils", `from torch.nn.utils import parameters_to_vector, vector_to_parameters
from torch.nn.utils.rnn import pad_sequence
m = nn.Linear(4, 3).cuda()
v = parameters_to_vector(m.parameters())
print(tuple(v.shape), type(v.grad_fn).__name__)
vector_to_parameters(torch.zeros(15, device='cuda'), m.parameters())
print(tuple(m.weight.shape), m.bias.is_leaf)
p = pad_sequence([x[:3], x[:5]], batch_first=True, padding_side="left")
print(tuple(p.shape), type(p.grad_fn).__name__, tuple(pad_sequence([x[:3], x[:5]]).shape))
h = x.register_hook(lambda g: g * 2)
print(type(h).__name__, type(h).__module__)
h.remove()`,
			"(15,) CatBackward0\n(3, 4) True\n(2, 5, 10) CopySlices (5, 2, 10)\nRemovableHandle torch.utils.hooks"},
		{"optimizers", `m = nn.Linear(4, 3).cuda()
for cls in (torch.optim.NAdam, torch.optim.RAdam, torch.optim.Adamax):
    o = cls(m.parameters(), weight_decay=0.01)
    m(torch.randn(2, 4, device='cuda')).sum().backward()
    o.step()
    print(cls.__name__, sorted(o.state[m.weight].keys()), o.state[m.weight]["step"].device.type)`,
			"NAdam ['exp_avg', 'exp_avg_sq', 'mu_product', 'step'] cpu\nRAdam ['exp_avg', 'exp_avg_sq', 'step'] cpu\nAdamax ['exp_avg', 'exp_inf', 'step'] cpu"},
		{"errors", `err(lambda: F.margin_ranking_loss(x, y[:, 0], s))
err(lambda: F.soft_margin_loss(x, x))
err(lambda: F.cosine_embedding_loss(x, y, s[:, None]))
err(lambda: F.multi_margin_loss(x, c, p=3))
err(lambda: F.multi_margin_loss(x, c[:7]))
err(lambda: F.gaussian_nll_loss(x, y, torch.ones(10, device='cuda')))
err(lambda: y.register_hook(lambda g: g))
err(lambda: torch.optim.NAdam([x], momentum_decay=-1))
err(lambda: torch.optim.RAdam([x], betas=(1.0, 0.9)))`,
			`RuntimeError: margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: torch.Size([8, 10]), input2: torch.Size([8]), target: torch.Size([8]) 
RuntimeError: The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. This input cannot have requires_grad True.
RuntimeError: 0D or 1D target tensor expected, multi-target not supported
ValueError: only p == 1 and p == 2 supported
RuntimeError: inconsistent target size, expected 8 but got [7]
ValueError: var is of incorrect size
RuntimeError: cannot register a hook on a tensor that doesn't require gradient
ValueError: Invalid momentum_decay value: -1
ValueError: Invalid beta parameter at index 0: 1.0`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := run(t, setup+tc.code+"\n")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := strings.TrimSpace(out); got != strings.TrimSpace(tc.want) {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
