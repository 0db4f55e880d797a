# Attention with real values: F.scaled_dot_product_attention (no mask,
# causal, an additive float mask, a scale, float16) and its backward, and
# the manual pattern (q @ k^T * scale, masked by adding -inf, softmax, @ v).
# Deterministic inputs (sin of aranges).
import math
import torch
import torch.nn.functional as F


def ar(*shape, scale=0.7, shift=0.0):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([math.sin(i * scale + shift) for i in range(n)], device="cuda").view(*shape)


B, H, L, E = 2, 2, 5, 4
q0, k0, v0 = ar(B, H, L, E, scale=0.37), ar(B, H, L, E, scale=0.53, shift=1.0), ar(B, H, L, E, scale=0.71, shift=2.0)
go = ar(B, H, L, E, scale=0.29, shift=0.3)

for causal in (False, True):
    q, k, v = q0.clone().requires_grad_(), k0.clone().requires_grad_(), v0.clone().requires_grad_()
    o = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    print("sdpa causal", causal, o.tolist())
    o.backward(go)
    print("dq", q.grad.tolist())
    print("dk", k.grad.tolist())
    print("dv", v.grad.tolist())

# an additive float mask broadcast over batch and heads, and a scale
mask = torch.tensor([[0.0 if (i + 2 * j) % 3 else -1.5 for j in range(L)] for i in range(L)], device="cuda")
print("sdpa mask", F.scaled_dot_product_attention(q0, k0, v0, attn_mask=mask).tolist())
print("sdpa scale", F.scaled_dot_product_attention(q0, k0, v0, scale=0.3).tolist())

# keys longer than queries (causal is top-left aligned)
k2, v2 = ar(B, H, 7, E, scale=0.43), ar(B, H, 7, 3, scale=0.61)
print("sdpa L<S causal", F.scaled_dot_product_attention(q0, k2, v2, is_causal=True).tolist())

# float16 (flash attention), causal, with its backward
# (values below 0.5: the fused kernel's float16 roundings stay within the
# comparison's tolerance)
qh, kh, vh = q0.half().requires_grad_(), k0.half().requires_grad_(), (v0 * 0.5).half().requires_grad_()
oh = F.scaled_dot_product_attention(qh, kh, vh, is_causal=True)
print("sdpa f16", oh.detach())
oh.backward((go * 0.5).half())
print("dq f16", qh.grad)
print("dv f16", vh.grad)

# the manual pattern of a GPT block
q, k, v = q0.clone().requires_grad_(), k0.clone().requires_grad_(), v0.clone().requires_grad_()
neg = torch.tensor([[0.0 if j <= i else -math.inf for j in range(L)] for i in range(L)], device="cuda")
att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
att = F.softmax(att + neg, dim=-1)
y = att @ v
print("manual", y.tolist())
y.backward(go)
print("manual dq", q.grad.tolist())
print("manual dk", k.grad.tolist())
print("manual dv", v.grad.tolist())

# a GPT block as in p021 (embeddings, layer norms, attention, GELU MLP,
# cross entropy), weights from sin, trained 3 steps with SGD
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.out = nn.Linear(4 * d, d)

    def forward(self, x, fused):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q = q.view(B, T, self.h, C // self.h).transpose(1, 2)
        k = k.view(B, T, self.h, C // self.h).transpose(1, 2)
        v = v.view(B, T, self.h, C // self.h).transpose(1, 2)
        if fused:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = F.softmax(att + neg_t, dim=-1)
            y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.proj(y)
        x = x + self.out(F.gelu(self.fc(self.ln2(x))))
        return x


class GPT(nn.Module):
    def __init__(self, vocab=11, d=8, h=2, T=6):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(T, d)
        self.block = Block(d, h)
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx, targets, fused):
        B, T = idx.shape
        pos = torch.arange(T, device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        x = self.block(x, fused)
        logits = self.head(self.ln(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


T = 6
neg_t = torch.tensor([[0.0 if j <= i else -math.inf for j in range(T)] for i in range(T)], device="cuda")
idx = torch.tensor([[1, 5, 2, 9, 0, 3], [7, 7, 4, 10, 6, 1]], device="cuda")
tgt = torch.tensor([[5, 2, 9, 0, 3, 8], [7, 4, 10, 6, 1, 2]], device="cuda")
for fused in (False, True):
    model = GPT().cuda()
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(ar(*p.shape, scale=0.37 + 0.01 * i, shift=float(i)) * 0.5)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        loss = model(idx, tgt, fused)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        print("gpt fused", fused, "step", step, loss.item())
    print("gpt ln weight", model.block.ln1.weight.tolist())
    print("gpt tok", model.tok.weight[:3].tolist())
