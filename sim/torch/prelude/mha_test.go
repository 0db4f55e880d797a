package prelude_test

import (
	"strings"
	"testing"
)

// TestMultiheadAttentionFastPath checks that nn.MultiheadAttention raises
// NotImplementedError exactly where PyTorch 2.11 takes
// torch._native_multi_head_attention (eval, self-attention, batch_first,
// autograd off or nothing requiring grad), and runs the slow path whenever
// one of PyTorch's why_not_fast_path conditions holds. The table is
// testdata/questions/q25_mha_fastpath.out of sim/torch, recorded on an H100.
func TestMultiheadAttentionFastPath(t *testing.T) {
	out, _, err := run(t, `
import torch
import torch.nn as nn
m = nn.MultiheadAttention(64, 4, batch_first=True).cuda()
x = torch.randn(2, 10, 64, device="cuda")
def attempt(tag, f):
    try:
        y = f()
        print(tag, "slow", tuple(y[0].shape))
    except NotImplementedError as e:
        print(tag, "fast", str(e)[:52])
attempt("train", lambda: m(x, x, x))
m.eval()
attempt("eval grad", lambda: m(x, x, x))
with torch.no_grad():
    attempt("eval no_grad", lambda: m(x, x, x))
    attempt("bool mask", lambda: m(x, x, x, key_padding_mask=torch.zeros(2, 10, dtype=torch.bool, device="cuda")))
    attempt("float mask", lambda: m(x, x, x, attn_mask=torch.zeros(10, 10, device="cuda")))
    attempt("cross", lambda: m(x, x.clone(), x))
    attempt("unbatched", lambda: m(x[0], x[0], x[0]))
    torch.backends.mha.set_fastpath_enabled(False)
    attempt("disabled", lambda: m(x, x, x))
    torch.backends.mha.set_fastpath_enabled(True)
    with torch.autocast("cuda"):
        attempt("autocast", lambda: m(x, x, x))
for p in m.parameters():
    p.requires_grad_(False)
attempt("frozen", lambda: m(x, x, x))
attempt("seq first", lambda: nn.MultiheadAttention(64, 4).cuda().eval().requires_grad_(False)(x, x, x))
attempt("odd heads", lambda: nn.MultiheadAttention(63, 3, batch_first=True).cuda().eval().requires_grad_(False)(x[..., :63], x[..., :63], x[..., :63]))
with torch.inference_mode():
    attempt("inference_mode causal", lambda: m(x, x, x, attn_mask=nn.Transformer.generate_square_subsequent_mask(10, device="cuda").bool(), is_causal=True))
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `train slow (2, 10, 64)
eval grad slow (2, 10, 64)
eval no_grad fast MultiheadAttention's fast path (torch._native_multi_
bool mask fast MultiheadAttention's fast path (torch._native_multi_
float mask slow (2, 10, 64)
cross slow (2, 10, 64)
unbatched slow (10, 64)
disabled slow (2, 10, 64)
autocast slow (2, 10, 64)
frozen fast MultiheadAttention's fast path (torch._native_multi_
seq first slow (2, 10, 64)
odd heads slow (2, 10, 63)
inference_mode causal fast MultiheadAttention's fast path (torch._native_multi_`
	if got := strings.TrimSpace(out); got != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", got, want)
	}
}
