package prelude_test

import (
	"strings"
	"testing"
)

// TestSortScanSelectBinding checks the Python surface of the sorting,
// scan and selection family (pybind/ops_sort.go, ops_scan.go,
// ops_flip_roll.go, ops_logsumexp_prod.go, ops_nonzero.go): argument
// forms, return types, shapes, strides, grad_fn names and PyTorch's
// errors (first line).
func TestSortScanSelectBinding(t *testing.T) {
	const setup = "import torch\nx = torch.randn(4, 6, device='cuda', requires_grad=True)\nm = x > 0\n"
	tests := []struct{ name, code, want string }{
		{"sort", `r = torch.sort(x, dim=1, descending=True)
print(type(r).__name__, r.values.shape, r.indices.dtype, type(r.values.grad_fn).__name__)
v, i = x.sort(0)
print(v.shape, i.stride(), type(x.sort(stable=True).values.grad_fn).__name__)
print(x.argsort(dim=0).shape, torch.argsort(x, descending=True).dtype, torch.msort(x).shape)`,
			"sort torch.Size([4, 6]) torch.int64 SortBackward0\ntorch.Size([4, 6]) (6, 1) SortBackward1\ntorch.Size([4, 6]) torch.int64 torch.Size([4, 6])"},
		{"topk", `t = x.topk(3)
print(type(t).__name__, t[0].shape, t[1].shape, type(t.values.grad_fn).__name__)
print(torch.topk(x, 2, dim=0, largest=False, sorted=False).values.shape)`,
			"topk torch.Size([4, 3]) torch.Size([4, 3]) TopkBackward0\ntorch.Size([2, 6])"},
		{"scans", `print(x.cumsum(1).shape, torch.cumsum(x, dim=0, dtype=torch.float64).dtype, type(x.cumprod(1).grad_fn).__name__)
print(m.cumsum(0).dtype, type(x.cumsum(0).grad_fn).__name__)`,
			"torch.Size([4, 6]) torch.float64 CumprodBackward0\ntorch.int64 CumsumBackward0"},
		{"flip roll repeat", `print(x.flip(0, 1).shape, torch.flip(x, [0]).shape, x.fliplr().shape, torch.flipud(x).shape)
print(torch.roll(x, 1).shape, x.roll((1, 2), (0, 1)).shape, type(x.roll(shifts=2, dims=1).grad_fn).__name__)
print(x.repeat(2, 3).shape, x.repeat((1, 1, 2)).shape, type(x.repeat(2, 1).grad_fn).__name__)
print(x.repeat_interleave(2).shape, torch.repeat_interleave(x, 3, dim=0).shape, type(x.repeat_interleave(2, 1).grad_fn).__name__)`,
			"torch.Size([4, 6]) torch.Size([4, 6]) torch.Size([4, 6]) torch.Size([4, 6])\ntorch.Size([4, 6]) torch.Size([4, 6]) RollBackward0\ntorch.Size([8, 18]) torch.Size([1, 4, 12]) RepeatBackward0\ntorch.Size([48]) torch.Size([12, 6]) ViewBackward0"},
		{"reductions", `print(torch.logsumexp(x, 1).shape, x.logsumexp((0, 1), keepdim=True).shape, type(x.logsumexp(0).grad_fn).__name__)
print(x.prod().shape, x.prod(1, keepdim=True).shape, type(x.prod().grad_fn).__name__, type(x.prod(1).grad_fn).__name__)
print(x.kthvalue(2, 1).values.shape, x.median().shape, x.median(0).indices.shape, x.mode(1)[0].shape)`,
			"torch.Size([4]) torch.Size([1, 1]) LogsumexpBackward0\ntorch.Size([]) torch.Size([4, 1]) ProdBackward0 ProdBackward1\ntorch.Size([4]) torch.Size([]) torch.Size([6]) torch.Size([4])"},
		{"selection", `print(m.nonzero().shape, torch.nonzero(m, as_tuple=True)[1].shape, torch.argwhere(m).stride())
print(x.masked_select(m).shape, type(torch.masked_select(x, m).grad_fn).__name__)`,
			"torch.Size([24, 2]) torch.Size([24]) (1, 24)\ntorch.Size([24]) MaskedSelectBackward0"},
		{"errors", `for f in (lambda: torch.unique(x), lambda: x.topk(7), lambda: x.flip(0, 0), lambda: x.roll((1, 2), 0),
          lambda: x.repeat(2), lambda: x.masked_select(x), lambda: x.sort(dim=2), lambda: x.kthvalue(9, 1),
          lambda: x.repeat_interleave(torch.tensor([1, 2, 3, 4], device="cuda"), dim=0), lambda: torch.cumsum(x)):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])`,
			`NotImplementedError torch.unique is not simulated: its output size depends on the values
RuntimeError selected index k out of range
RuntimeError dim 0 appears multiple times in the list of dims
RuntimeError shifts and dimensions must align. shifts: 2, dims:1
RuntimeError Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor
RuntimeError masked_select: expected BoolTensor for mask
IndexError Dimension out of range (expected to be in range of [-2, 1], but got 2)
RuntimeError kthvalue(): selected number k out of range for dimension 1
NotImplementedError torch.repeat_interleave with tensor repeats is not simulated: its output size depends on the values
TypeError cumsum() received an invalid combination of arguments - got (Tensor), but expected one of:`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := run(t, setup+tc.code+"\n")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := strings.TrimSpace(out); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
