package prelude_test

import (
	"os"
	"strings"
	"testing"
)

// TestModulesMoreRepr prints the session 14 modules' reprs and the
// ParameterList/ParameterDict behaviour of q22 and compares them with
// PyTorch 2.11's lines recorded in ../testdata/questions/q22_modules.out.
func TestModulesMoreRepr(t *testing.T) {
	data, err := os.ReadFile("../testdata/questions/q22_modules.out")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "repr ") || strings.HasPrefix(l, "plist ") || strings.HasPrefix(l, "pdict ") {
			want = append(want, l)
		}
	}
	const code = `import torch
import torch.nn as nn
dev = "cuda"
for m in (nn.LSTMCell(4, 8), nn.GRUCell(4, 8, bias=False), nn.RNNCell(4, 8, nonlinearity="relu"), nn.Bilinear(2, 3, 4),
          nn.EmbeddingBag(10, 3, mode="max"), nn.EmbeddingBag(10, 3, padding_idx=0), nn.Unfold(3, padding=1),
          nn.Fold((4, 5), 2), nn.PReLU(3), nn.Softmin(1), nn.Softmax2d(), nn.LocalResponseNorm(2),
          nn.AdaptiveMaxPool1d(3), nn.AdaptiveMaxPool2d((None, 3), True), nn.ChannelShuffle(2),
          nn.PairwiseDistance(p=1, keepdim=True), nn.ParameterList([nn.Parameter(torch.zeros(2, 3)), torch.zeros(4)]),
          nn.ParameterDict({"a": nn.Parameter(torch.zeros(2)), "b": torch.zeros(3, dtype=torch.float16)})):
    print("repr", repr(m).replace("\n", "\\n"))
pl = nn.ParameterList([nn.Parameter(torch.zeros(2))])
pl.append(torch.ones(3, device=dev))
pl.extend([nn.Parameter(torch.zeros(1))])
pd = nn.ParameterDict({"x": nn.Parameter(torch.zeros(2))})
pd.update({"y": torch.zeros(1)})
print("plist", len(pl), [type(p).__name__ for p in pl], [n for n, _ in pl.named_parameters()],
      list(pl.state_dict().keys()), pl[1].requires_grad, pl[1].device)
print("pdict", list(pd.keys()), [n for n, _ in pd.named_parameters()], "x" in pd, pd.get("z"),
      type(pd["y"]).__name__, pd["y"].requires_grad)
`
	out, _, err := run(t, code)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := strings.TrimSpace(out); got != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

// TestModulesMoreBinding checks the argument handling of the session 14
// functionals (shapes, return types, grad_fn names, errors).
func TestModulesMoreBinding(t *testing.T) {
	const code = `import torch
import torch.nn.functional as F
x = torch.randn(4, 8, 10, device="cuda", requires_grad=True)
o, i = F.adaptive_max_pool1d(x, 5, return_indices=True)
print(o.shape, i.dtype, type(o.grad_fn).__name__, torch.adaptive_max_pool1d(x, 5)[1].shape)
print(F.adaptive_max_pool2d(torch.randn(2, 3, 9, 9, device="cuda"), (None, 4)).shape)
print(F.unfold(x.unsqueeze(1), (2, 3), stride=(1, 2)).shape, F.fold(torch.randn(2, 12, 9, device="cuda"), (4, 4), 2, stride=1).shape)
w = torch.randn(100, 6, device="cuda", requires_grad=True)
r = torch.embedding_bag(w, torch.zeros(12, dtype=torch.long, device="cuda"), torch.tensor([0, 4, 8], device="cuda"), False, 2)
print([tuple(t.shape) for t in r], type(r[0].grad_fn).__name__)
print(F.embedding_bag(torch.zeros(3, 4, dtype=torch.long, device="cuda"), w).shape, F.softmin(x, 1).shape)
h, c = torch.lstm_cell(torch.randn(3, 5, device="cuda"), (torch.zeros(3, 7, device="cuda"),) * 2,
                       torch.randn(28, 5, device="cuda"), torch.randn(28, 7, device="cuda"))
print(h.shape, torch.gru_cell(torch.randn(3, 5, device="cuda"), torch.zeros(3, 7, device="cuda"),
                                torch.randn(21, 5, device="cuda"), torch.randn(21, 7, device="cuda")).shape)
print(F.bilinear(torch.randn(3, 2, device="cuda"), torch.randn(3, 4, device="cuda"), torch.randn(5, 2, 4, device="cuda")).shape)
for f in (lambda: F.embedding_bag(torch.zeros(3, 4, dtype=torch.long, device="cuda"), w, mode="min"),
          lambda: F.local_response_norm(torch.randn(3, 4, device="cuda"), 2),
          lambda: F.prelu(x, torch.ones(3, device="cuda"))):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
`
	want := `torch.Size([4, 8, 5]) torch.int64 SqueezeBackward1 torch.Size([4, 8, 5])
torch.Size([2, 3, 9, 4])
torch.Size([4, 6, 28]) torch.Size([2, 3, 4, 4])
[(3, 6), (12,), (3,), (3, 6)] EmbeddingBagBackward0
torch.Size([3, 6]) torch.Size([4, 8, 10])
torch.Size([3, 7]) torch.Size([3, 7])
torch.Size([3, 5])
ValueError mode has to be one of sum, mean or max
ValueError Expected 3D or higher dimensionality                          input (got 2 dimensions)
RuntimeError Mismatch of parameter numbers and input channel size. Found parameter numbers = 3 and channel size = 8.`
	out, _, err := run(t, code)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := strings.TrimSpace(out); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
