# SDPA's math path with dropout (float32, head dim 6: PyTorch 2.11 picks the
# math fallback on sm_90), with and without is_causal: the output and every
# gradient, drawn from native_dropout's Philox stream.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
for causal in [False, True]:
    q = torch.randn(2, 2, 5, 6, device="cuda", requires_grad=True)
    k = torch.randn(2, 2, 7, 6, device="cuda", requires_grad=True)
    v = torch.randn(2, 2, 7, 6, device="cuda", requires_grad=True)
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.3, is_causal=causal)
    print("causal", causal)
    print(out)
    (out * torch.arange(6.0, device="cuda")).sum().backward()
    print(q.grad)
    print(k.grad)
    print(v.grad)
