import torch

# Autocast's op lists beyond nn.Linear/conv/SDPA: matmul/@, mm, bmm and addmm
# cast their float32 inputs to the lower-precision dtype (casts kept when
# saved for backward); exp, log, pow (**, square), rsqrt and reciprocal cast
# float16/bfloat16 inputs to float32 and return float32; sum (not mean)
# returns float32 (fp32_set_opt_dtype: no input copy). A hand-written
# attention and an RMSNorm, as pasted from nanoGPT/LLaMA-style code.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

torch.manual_seed(0)
for dt in [torch.bfloat16, torch.float16]:
    q = torch.randn(4, 8, 128, 64, device="cuda", requires_grad=True)
    k = torch.randn(4, 8, 128, 64, device="cuda", requires_grad=True)
    v = torch.randn(4, 8, 128, 64, device="cuda", dtype=dt, requires_grad=True)
    w = torch.randn(512, 384, device="cuda", requires_grad=True)
    b = torch.randn(384, device="cuda", requires_grad=True)
    x = torch.randn(256, 512, device="cuda", dtype=dt, requires_grad=True)
    mem(f"{dt} setup")
    with torch.autocast("cuda", dtype=dt):
        att = (q @ k.transpose(-2, -1)) * 0.125
        mem("scores")
        att = torch.softmax(att, dim=-1)
        y = att @ v
        mem("att @ v")
        print(att.dtype, y.dtype)
        h = torch.mm(x, w)
        h2 = torch.addmm(b, x, w)
        hb = torch.bmm(q.flatten(0, 1), k.flatten(0, 1).transpose(1, 2))
        mem("mm addmm bmm")
        print(h.dtype, h2.dtype, hb.dtype)
        e = torch.exp(x)
        l = torch.log(x.abs() + 1)
        p = x ** 2
        s = torch.square(x)
        r = torch.rsqrt(x.abs() + 1)
        rc = (x + 3).reciprocal()
        mem("fp32 list")
        print(e.dtype, l.dtype, p.dtype, s.dtype, r.dtype, rc.dtype)
        norm = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
        mem("rmsnorm")
        tot = x.sum(0)
        mean = x.mean(0)
        print(norm.dtype, tot.dtype, mean.dtype)
        loss = y.float().sum() + h.sum() + h2.sum() + hb.sum() + e.sum() + l.sum() + p.sum() + s.sum() + r.sum() + rc.sum() + norm.sum() + tot.sum()
        mem("loss")
    loss.backward()
    mem("backward")
    del q, k, v, w, b, x, att, y, h, h2, hb, e, l, p, s, r, rc, norm, tot, mean, loss
    mem("freed")
