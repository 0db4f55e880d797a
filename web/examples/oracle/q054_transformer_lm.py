import math
import torch
import torch.nn as nn
import torch.nn.functional as F

# pytorch/examples word_language_model's TransformerModel (seq-first, post-norm,
# relu), a causal mask from nn.Transformer.generate_square_subsequent_mask (the
# encoder detects it: is_causal), CrossEntropyLoss with label_smoothing, SGD;
# then evaluation under no_grad (batch_first=False: no fast path) and the
# losses smooth_l1 / huber / kl_div with their backward.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


class TransformerModel(nn.Module):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.2):
        super().__init__()
        self.ninp = ninp
        self.pos = nn.Parameter(torch.zeros(512, 1, ninp))
        encoder_layers = nn.TransformerEncoderLayer(ninp, nhead, nhid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.decoder = nn.Linear(ninp, ntoken)

    def forward(self, src, mask):
        src = self.encoder(src) * math.sqrt(self.ninp)
        src = src + self.pos[: src.size(0)]
        output = self.transformer_encoder(src, mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


torch.manual_seed(0)
device = torch.device("cuda")
ntokens, bptt, bsz = 2000, 35, 20
model = TransformerModel(ntokens, 200, 2, 400, 2).to(device)
print(model.transformer_encoder.use_nested_tensor, model.transformer_encoder.layers[0].activation_relu_or_gelu)
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
optimizer = torch.optim.SGD(model.parameters(), lr=5.0)
mem("model")
mask = nn.Transformer.generate_square_subsequent_mask(bptt, device=device)
print(mask.shape, mask.dtype, mask.device)
mem("mask")
for step in range(3):
    data = torch.randint(0, ntokens, (bptt, bsz), device=device)
    targets = torch.randint(0, ntokens, (bptt * bsz,), device=device)
    model.train()
    optimizer.zero_grad()
    output = model(data, mask)
    mem(f"step {step} forward")
    loss = criterion(output.view(-1, ntokens), targets)
    print(type(loss.grad_fn).__name__, type(output.grad_fn).__name__)
    mem(f"step {step} loss")
    loss.backward()
    mem(f"step {step} backward")
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    optimizer.step()
    del output, loss
    mem(f"step {step} end")
model.eval()
with torch.no_grad():
    data = torch.randint(0, ntokens, (bptt, bsz), device=device)
    output = model(data, mask)
    total = criterion(output.view(-1, ntokens), targets).item() * len(data)
    mem("eval")
del output, data
mem("eval freed")

# Losses beyond cross-entropy (regression heads) with their backward.
x = torch.randn(512, 256, device=device, requires_grad=True)
y = torch.randn(512, 256, device=device)
l1 = F.smooth_l1_loss(x, y)
l2 = F.huber_loss(x, y, reduction="sum", delta=0.5)
l3 = F.smooth_l1_loss(x, y, reduction="none", beta=2.0)
print(type(l1.grad_fn).__name__, type(l2.grad_fn).__name__, l3.shape)
mem("smooth_l1/huber")
(l1 + l2 + l3.mean()).backward()
mem("smooth_l1/huber backward")
del l1, l2, l3
x.grad = None
logp = F.log_softmax(x, dim=1)
p = F.softmax(torch.randn(512, 256, device=device), dim=1)
kl = F.kl_div(logp, p, reduction="batchmean")
kl2 = nn.KLDivLoss(reduction="sum", log_target=True)(logp, p.log())
print(type(kl.grad_fn).__name__, type(kl2.grad_fn).__name__, kl.shape)
mem("kl_div")
(kl + kl2).backward()
mem("kl_div backward")
ce = F.cross_entropy(x, torch.randint(0, 256, (512,), device=device), label_smoothing=0.2, reduction="none")
ce2 = nn.CrossEntropyLoss(reduction="sum", label_smoothing=0.05)(x, torch.randint(0, 256, (512,), device=device))
print(type(ce.grad_fn).__name__, type(ce2.grad_fn).__name__, ce.shape)
mem("label smoothing")
(ce.sum() + ce2).backward()
mem("label smoothing backward")
del logp, p, kl, kl2, ce, ce2, x, y
mem("end")
