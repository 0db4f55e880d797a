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
