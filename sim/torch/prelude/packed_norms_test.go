package prelude_test

import (
	"strings"
	"testing"
)

// TestPackedNormsDataParallel checks the Python side of session 14's
// packed sequences, weight/spectral norm and DataParallel: shapes, fields,
// grad_fn names, parameter and state_dict names and errors, as PyTorch 2.11
// prints them.
func TestPackedNormsDataParallel(t *testing.T) {
	cases := []struct {
		name, code, want string
	}{
		{"pack unsorted", `from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
x = torch.randn(5, 3, 4, device="cuda", requires_grad=True)
p = pack_padded_sequence(x, [2, 5, 3], enforce_sorted=False)
d, bs, si, ui = p
print(type(p).__name__, tuple(d.shape), tuple(bs.shape), bs.device, si.device, ui.dtype, type(d.grad_fn).__name__)
y, l = pad_packed_sequence(p, batch_first=True, total_length=6)
print(tuple(y.shape), y.stride(), type(y.grad_fn).__name__, l.device, tuple(l.shape))`,
			"PackedSequence (10, 4) (5,) cpu cuda:0 torch.int64 PackPaddedSequenceBackward0\n(3, 6, 4) (24, 4, 1) IndexSelectBackward0 cpu (3,)"},
		{"lstm packed", `from torch.nn.utils.rnn import pack_sequence
m = nn.LSTM(4, 8, num_layers=2, bidirectional=True).cuda()
p = pack_sequence([torch.randn(n, 4, device="cuda") for n in (3, 5, 2)], enforce_sorted=False)
out, (h, c) = m(p)
print(type(out).__name__, tuple(out.data.shape), type(out.data.grad_fn).__name__, tuple(h.shape), type(h.grad_fn).__name__)
g = nn.GRU(4, 8).cuda()
out2, h2 = g(p, torch.zeros(1, 3, 8, device="cuda"))
print(tuple(out2.data.shape), tuple(h2.shape), out2.batch_sizes is p.batch_sizes)`,
			"PackedSequence (10, 16) CudnnRnnBackward0 (4, 3, 8) IndexSelectBackward0\n(10, 8) (1, 3, 8) True"},
		{"pack errors", `from torch.nn.utils.rnn import pack_padded_sequence
x = torch.randn(5, 3, 4, device="cuda")
for lens in ([2, 5, 3], [5, 3], [5, 3, 0]):
    try:
        pack_padded_sequence(x, lens)
    except RuntimeError as e:
        print(str(e)[:40])
try:
    pack_padded_sequence(x, torch.tensor([5, 3, 2], device="cuda"))
except RuntimeError as e:
    print(e)
try:
    pack_padded_sequence(x, torch.tensor([5, 3, 2]))
except NotImplementedError as e:
    print("NotImplementedError")`,
			"`lengths` array must be sorted in decrea\nExpected `len(lengths)` to be equal to b\nLength of all samples has to be greater \n'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor\nNotImplementedError"},
		{"weight_norm", `from torch.nn.utils.parametrizations import weight_norm
from torch.nn.utils import parametrize
m = weight_norm(nn.Linear(6, 4).cuda())
print(type(m).__name__, [n for n, _ in m.named_parameters()], parametrize.is_parametrized(m, "weight"))
w = m.weight
print(tuple(w.shape), type(w.grad_fn).__name__, tuple(m.parametrizations.weight.original0.shape))
with parametrize.cached():
    print(m.weight is m.weight)
print(m.weight is m.weight)
parametrize.remove_parametrizations(m, "weight")
print(type(m).__name__, [n for n, _ in m.named_parameters()])
h = weight_norm(nn.Linear(6, 4).half().cuda())
n = weight_norm(nn.Linear(6, 4).cuda(), dim=None)
print(type(h.weight.grad_fn).__name__, type(n.weight.grad_fn).__name__, tuple(n.parametrizations.weight.original0.shape))`,
			"ParametrizedLinear ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1'] True\n(4, 6) WeightNormInterfaceBackward0 (4, 1)\nTrue\nFalse\nLinear ['bias', 'weight']\nWeightNormInterfaceBackward0 MulBackward0 ()"},
		{"spectral_norm", `from torch.nn.utils.parametrizations import spectral_norm
m = spectral_norm(nn.Conv1d(3, 5, 2).cuda())
print([n for n, _ in m.named_buffers()], type(m.weight.grad_fn).__name__)
o = nn.utils.spectral_norm(nn.Linear(6, 4).cuda())
y = o(torch.randn(2, 6, device="cuda"))
print(sorted(n for n, _ in o.named_parameters()), sorted(n for n, _ in o.named_buffers()), type(o.weight.grad_fn).__name__)
try:
    spectral_norm(nn.Linear(2, 2), dim=3)
except IndexError as e:
    print(e)`,
			"['parametrizations.weight.0._u', 'parametrizations.weight.0._v'] DivBackward0\n['bias', 'weight_orig'] ['weight_u', 'weight_v'] DivBackward0\nDimension out of range (expected to be in range of [-2, 1] but got 3)"},
		{"old weight_norm hooks", `m = nn.utils.weight_norm(nn.Linear(6, 4)).cuda()
y = m(torch.randn(2, 6, device="cuda"))
print(sorted(n for n, _ in m.named_parameters()), m.weight.device, len(m._forward_pre_hooks))
nn.utils.remove_weight_norm(m)
print(sorted(n for n, _ in m.named_parameters()), len(m._forward_pre_hooks))
seen = []
hk = m.register_forward_hook(lambda mod, inp, out: seen.append(tuple(out.shape)))
m(torch.randn(3, 6, device="cuda"))
hk.remove()
m(torch.randn(3, 6, device="cuda"))
print(seen)`,
			"['bias', 'weight_g', 'weight_v'] cuda:0 1\n['bias', 'weight'] 0\n[(3, 4)]"},
		{"DataParallel", `dp = nn.DataParallel(nn.Sequential(nn.Linear(4, 2)))
print(next(dp.parameters()).device, list(dp.state_dict().keys()), type(dp.module).__name__)
x = torch.randn(3, 4, device="cuda", requires_grad=True)
y = dp(x)
print(tuple(y.shape), type(y.grad_fn).__name__)
y.sum().backward()
print(tuple(x.grad.shape), tuple(dp(torch.randn(3, 4)).shape))
try:
    nn.parallel.DistributedDataParallel(dp.module)
except ValueError as e:
    print(e)`,
			"cuda:0 ['module.0.weight', 'module.0.bias'] Sequential\n(3, 2) AddmmBackward0\n(3, 4) (3, 2)\nDefault process group has not been initialized, please make sure to call init_process_group."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _, err := run(t, "import torch\nimport torch.nn as nn\n"+c.code+"\n")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := strings.TrimSpace(out); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
