# Lead's question (session 14): where PyTorch 2.11 takes MultiheadAttention's
# fast path (aten::_native_multi_head_attention), per condition of the
# simulator's test sim/torch/prelude/mha_test.go.
import torch
import torch.nn as nn
from torch.profiler import profile, ProfilerActivity

m = nn.MultiheadAttention(64, 4, batch_first=True).cuda()
x = torch.randn(2, 10, 64, device="cuda")


def attempt(tag, f):
    try:
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            y = f()
        names = {e.name for e in prof.events()}
        fast = "aten::_native_multi_head_attention" in names
        print(tag, "fast" if fast else "slow", tuple(y[0].shape))
    except Exception as e:
        print(tag, "error", type(e).__name__, str(e)[:80])


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
