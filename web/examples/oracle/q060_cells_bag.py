import torch
import torch.nn as nn
import torch.nn.functional as F

# Sequence models built from cells and bags: a fastText-style EmbeddingBag
# encoder (mean/sum/max bags with offsets), a Bilinear scorer, an LSTMCell
# decoder loop (teacher forcing) and a GRUCell/RNNCell loop with backward,
# per-head weights held in ParameterList/ParameterDict, and a siamese
# PairwiseDistance loss.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)
vocab, d, hid = 5000, 64, 128


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(vocab, d, mode="mean")
        self.bag_max = nn.EmbeddingBag(vocab, d, mode="max")
        self.heads = nn.ParameterList([nn.Parameter(torch.randn(d, d) * 0.02) for _ in range(2)])
        self.scales = nn.ParameterDict({"mean": nn.Parameter(torch.ones(d)), "max": nn.Parameter(torch.ones(d))})

    def forward(self, text, offsets):
        a = self.bag(text, offsets) @ self.heads[0] * self.scales["mean"]
        b = self.bag_max(text, offsets) @ self.heads[1] * self.scales["max"]
        return a + b


enc = Encoder().cuda()
print(enc)
print([n for n, _ in enc.named_parameters()])
print(list(enc.state_dict().keys()))
print(len(enc.heads), list(enc.scales.keys()), type(enc.heads[0]).__name__)
mem("encoder")

text = torch.randint(0, vocab, (640,), device="cuda")
offsets = torch.arange(0, 640, 20, device="cuda")
z = enc(text, offsets)
print(tuple(z.shape), type(z.grad_fn).__name__)
mem("bags")
score = nn.Bilinear(d, d, 1).cuda()
s = score(z, z.flip(0))
print(tuple(s.shape), type(s.grad_fn).__name__)
mem("bilinear")
s.mean().backward()
print(enc.bag.weight.grad.shape, enc.heads[1].grad.shape, enc.scales["max"].grad.shape)
mem("encoder backward")
w = torch.randn(vocab, d, device="cuda", requires_grad=True)
bags = F.embedding_bag(torch.randint(0, vocab, (16, 30), device="cuda"), w, mode="sum",
                       per_sample_weights=torch.rand(16, 30, device="cuda"))
bags.sum().backward()
print(tuple(bags.shape), tuple(w.grad.shape))
del s, z, bags, w
enc.zero_grad(set_to_none=True)
score.zero_grad(set_to_none=True)
mem("bags freed")

# A decoder loop with LSTMCell, teacher forcing, 12 steps.
cell = nn.LSTMCell(d, hid).cuda()
proj = nn.Linear(hid, vocab).cuda()
emb = nn.Embedding(vocab, d).cuda()
tgt = torch.randint(0, vocab, (32, 12), device="cuda")
h = torch.zeros(32, hid, device="cuda")
c = torch.zeros(32, hid, device="cuda")
mem("decoder")
loss = 0
for t in range(12):
    h, c = cell(emb(tgt[:, t]), (h, c))
    loss = loss + F.cross_entropy(proj(h), tgt[:, t])
    if t % 4 == 3:
        mem(f"step {t}")
print(type(h.grad_fn).__name__, type(c.grad_fn).__name__, tuple(h.shape))
loss.backward()
mem("decoder backward")
del loss, h, c
mem("decoder freed")

# GRUCell and RNNCell loops, the hidden state started by the cell itself.
gru = nn.GRUCell(d, hid).cuda()
rnn = nn.RNNCell(hid, hid, nonlinearity="relu").cuda()
x = torch.randn(8, 32, d, device="cuda")
g = None
r = None
for t in range(8):
    g = gru(x[t], g)
    r = rnn(g, r)
print(type(g.grad_fn).__name__, type(r.grad_fn).__name__, tuple(r.shape))
mem("gru/rnn loop")
(g.sum() + r.sum()).backward()
mem("gru/rnn backward")
with torch.no_grad():
    hy = gru(x[0])
    hy2, cy2 = cell(x[0])
print(hy.requires_grad, tuple(hy2.shape))
del g, r, hy, hy2, cy2
mem("cells freed")

# Siamese distance loss.
a = torch.randn(256, 128, device="cuda", requires_grad=True)
b = torch.randn(256, 128, device="cuda", requires_grad=True)
dist = nn.PairwiseDistance(p=2)(a, b)
print(tuple(dist.shape), type(dist.grad_fn).__name__)
mem("distance")
F.relu(1.0 - dist).mean().backward()
mem("distance backward")
del a, b, dist
mem("end")
