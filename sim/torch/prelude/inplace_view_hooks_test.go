package prelude_test

import "testing"

// TestInplaceViewSavedHooks checks that an in-place sigmoid_/relu_ on a view
// saves its result through the saved-tensor pack hook (saved before the
// history is rebased, as PyTorch saves after rebase_history), and that the
// base's grad_fn is CopySlices.
func TestInplaceViewSavedHooks(t *testing.T) {
	script := `import torch
packed = []
def pack(t):
    packed.append(tuple(t.shape))
    return t
w = torch.randn(4, 4, device="cuda", requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    h = w * 1
    h[:, :2].sigmoid_()
    h[:, 2:].relu_()
print(packed, type(h.grad_fn).__name__, h.grad_fn.name())
`
	want := "[(4, 2), (4, 2)] CopySlices torch::autograd::CopySlices\n"
	out, _, err := run(t, script)
	if err != nil {
		t.Fatal(err)
	}
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}
