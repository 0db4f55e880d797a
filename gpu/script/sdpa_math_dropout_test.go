package script

import (
	"context"
	"testing"

	"github.com/gpumem/playground/gpu/gputest"
	"github.com/gpumem/playground/sim"
)

// sdpaMathDropoutScript runs scaled_dot_product_attention with dropout on
// the math path (float32, head dim 6: not a multiple of 4, so neither the
// memory-efficient nor the fp16-only fused backends take it). With v the
// identity the output is the dropped probabilities themselves, so every
// entry must be 0 or P/(1 − p) with P the dropout_p=0 output.
const sdpaMathDropoutScript = `import math
import torch
import torch.nn.functional as F


def ar(*shape, scale=0.7):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([math.sin(i * scale) for i in range(n)], device="cuda").view(*shape)


q = ar(2, 2, 6, 6, scale=0.3).requires_grad_()
k = ar(2, 2, 6, 6, scale=0.5).requires_grad_()
i = torch.arange(6, device="cuda")
v = (i[:, None] == i[None, :]).float().expand(2, 2, 6, 6).contiguous().requires_grad_()
o0 = F.scaled_dot_product_attention(q, k, v)
torch.manual_seed(7)
o = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
torch.manual_seed(7)
o2 = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
torch.manual_seed(8)
o3 = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
print(o.shape, o.dtype)
print(bool((o == o0).all()), bool((o == o2).all()), bool((o == o3).all()))
print(bool(((o == 0) | ((o - 2 * o0).abs() <= 1e-6)).all()))
kept = int((o != 0).sum().item())
print(40 <= kept <= 104)
print(abs(o0.sum().item() - 24.0) <= 1e-4)
g = ar(2, 2, 6, 6, scale=1.1)
(o * g).sum().backward()
print(bool(((v.grad - o.detach().transpose(-2, -1) @ g).abs() <= 1e-5).all()))
print(bool((q.grad == q.grad).all()), bool((q.grad != 0).any()))
`

// TestSDPAMathDropout checks the math fallback's dropout values on the CPU
// reference: the output comes from the backend's generator (the same seed
// gives the same output, another seed another one, dropout_p=0 differs),
// each probability is dropped or scaled by 1/(1 − p), about half are kept;
// the gradients come through the composed ops' nodes (NativeDropoutBackward0
// with the same keep mask): with v the identity, v.grad = oᵀ·g.
func TestSDPAMathDropout(t *testing.T) {
	dev := gputest.New(gputest.Options{Compute: true})
	run, err := Run(context.Background(), dev, sim.Request{Script: sdpaMathDropoutScript, Filename: "math_dropout.py"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if run.Result.Error != nil {
		t.Fatalf("script error: %s\nstdout:\n%s", run.Result.Error.Traceback, run.Result.Stdout)
	}
	want := "torch.Size([2, 2, 6, 6]) torch.float32\n" +
		"False True False\n" +
		"True\n" +
		"True\n" +
		"True\n" +
		"True\n" +
		"True True\n"
	if got := run.Result.Stdout; got != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", got, want)
	}
}
