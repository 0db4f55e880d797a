import torch
import torch.nn as nn

# A seq2seq nn.Transformer (batch_first, norm_first, gelu; the PyTorch
# translation tutorial's shape): bool key-padding masks for source, target and
# memory, a causal target mask, CrossEntropyLoss(label_smoothing), Adam; then
# validation in eval mode with autograd on (slow path: no fast path with
# requires_grad), TransformerDecoderLayer alone with a callable activation
# and an explicit tgt_is_causal, an activation-name error.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, d_model=256, nhead=8, layers=2, ff=512):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, d_model)
        self.tgt_emb = nn.Embedding(tgt_vocab, d_model)
        self.transformer = nn.Transformer(d_model, nhead, layers, layers, ff, dropout=0.1,
                                          activation="gelu", batch_first=True, norm_first=True)
        self.generator = nn.Linear(d_model, tgt_vocab)

    def forward(self, src, tgt, tgt_mask, src_pad, tgt_pad):
        out = self.transformer(self.src_emb(src), self.tgt_emb(tgt), tgt_mask=tgt_mask,
                               src_key_padding_mask=src_pad, tgt_key_padding_mask=tgt_pad,
                               memory_key_padding_mask=src_pad)
        return self.generator(out)


torch.manual_seed(0)
dev = "cuda"
SV, TV, B, S, T = 1000, 1200, 32, 40, 36
model = Seq2Seq(SV, TV).to(dev)
print(model.transformer.encoder.use_nested_tensor, model.transformer.encoder.layers[0].activation_relu_or_gelu)
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)
loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
mem("model")
for step in range(2):
    src = torch.randint(0, SV, (B, S), device=dev)
    tgt = torch.randint(0, TV, (B, T + 1), device=dev)
    tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(T, device=dev)
    src_pad = src == 0
    tgt_pad = tgt_in == 0
    mem(f"step {step} masks")
    logits = model(src, tgt_in, tgt_mask, src_pad, tgt_pad)
    print(tuple(logits.shape), type(logits.grad_fn).__name__)
    mem(f"step {step} forward")
    loss = loss_fn(logits.reshape(-1, TV), tgt_out.reshape(-1))
    mem(f"step {step} loss")
    opt.zero_grad()
    loss.backward()
    mem(f"step {step} backward")
    opt.step()
    del logits, loss
    mem(f"step {step} end")
model.eval()
logits = model(src, tgt_in, tgt_mask, src_pad, tgt_pad)
val = loss_fn(logits.reshape(-1, TV), tgt_out.reshape(-1))
print(type(val.grad_fn).__name__)
mem("eval with autograd")
del logits, val
mem("eval freed")

layer = nn.TransformerDecoderLayer(128, 4, 256, dropout=0.0, activation=torch.tanh).to(dev)
mem_in = torch.randn(10, 8, 128, device=dev)
tgt = torch.randn(12, 8, 128, device=dev, requires_grad=True)
out = layer(tgt, mem_in, tgt_mask=nn.Transformer.generate_square_subsequent_mask(12, device=dev), tgt_is_causal=True)
print(tuple(out.shape), type(out.grad_fn).__name__)
mem("decoder layer")
out.mean().backward()
mem("decoder layer backward")
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(128, 4, 256, batch_first=True), 2, enable_nested_tensor=False)
print(enc.use_nested_tensor)
try:
    nn.TransformerEncoderLayer(128, 4, activation="tanh")
except RuntimeError as e:
    print("RuntimeError:", e)
del out, tgt, mem_in, layer, enc
mem("end")
