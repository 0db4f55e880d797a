package prelude_test

import "testing"

// TestTensorNumbers checks int(), float() and __index__ of tensors
// (Tensor.__int__, __float__, __index__) with PyTorch 2.11's errors; values
// are not simulated, so one-element tensors convert as 0.
func TestTensorNumbers(t *testing.T) {
	script := `import torch
s = torch.ones(3, device="cuda").sum()
print(int(s), float(s), list(range(torch.tensor(2))), [7, 8][torch.tensor(1)])
for f in (lambda: int(torch.ones(2)), lambda: float(torch.ones(2, device="cuda")),
          lambda: range(torch.tensor(2.0)), lambda: [1][torch.ones(1)]):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
`
	want := `0 0.0 [] 7
ValueError only one element tensors can be converted to Python scalars
ValueError only one element tensors can be converted to Python scalars
TypeError only integer tensors of a single element can be converted to an index
TypeError only integer tensors of a single element can be converted to an index
`
	out, _, err := run(t, script)
	if err != nil {
		t.Fatal(err)
	}
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestLogicalOps checks that logical_and/or/xor give bool tensors of the
// broadcast shape for inputs of any dtype (PyTorch's comparison_op), with
// one bool allocation each.
func TestLogicalOps(t *testing.T) {
	script := `import torch
a = torch.randn(4, 8, device="cuda")
b = a[0] > 0
before = torch.cuda.memory_allocated()
c = torch.logical_and(a, b)
d = a.logical_or(b)
e = torch.logical_xor(b, b)
print(c.dtype, d.dtype, e.dtype, tuple(c.shape), tuple(e.shape), torch.cuda.memory_allocated() - before)
try:
    torch.logical_and(a, 1)
except TypeError as err:
    print(err)
`
	want := "torch.bool torch.bool torch.bool (4, 8) (8,) 1536\n" +
		"logical_and(): argument 'other' (position 1) must be Tensor, not int\n"
	out, _, err := run(t, script)
	if err != nil {
		t.Fatal(err)
	}
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestAmaxDim checks that amax/amin reduce everything without dim and
// over the given dims with one (they once ignored it and gave a 0-d
// result; session 14 added AmaxDims).
func TestAmaxDim(t *testing.T) {
	script := `import torch
x = torch.randn(4, 5, device="cuda")
print(tuple(torch.amax(x).shape), tuple(x.amin(()).shape))
print(tuple(torch.amax(x, 1).shape), tuple(x.amin(dim=0, keepdim=True).shape))
`
	want := "() ()\n(4,) (1, 5)\n"
	out, _, err := run(t, script)
	if err != nil {
		t.Fatal(err)
	}
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}
