import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pack_sequence, pad_sequence

# A text classifier on variable-length batches, as tutorials write it: padded
# token ids, pack_padded_sequence(enforce_sorted=False), a 2-layer
# bidirectional LSTM, pad_packed_sequence, masked mean pooling, cross
# entropy, backward, Adam. Then a GRU encoder fed by pack_sequence in eval.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)
vocab, emb_dim, hid, classes = 20000, 128, 256, 5


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb_dim, padding_idx=0)
        self.rnn = nn.LSTM(emb_dim, hid, num_layers=2, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(2 * hid, classes)

    def forward(self, ids, lengths):
        x = self.emb(ids)
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.rnn(packed)
        padded, lens = pad_packed_sequence(out, batch_first=True)
        return self.fc(padded.sum(dim=1)), h, padded, out


model = Classifier().cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
mem("model")
lengths = [37, 12, 50, 8, 45, 50, 23, 31, 5, 40, 18, 27, 50, 9, 33, 14]
ids = torch.randint(1, vocab, (len(lengths), max(lengths)), device="cuda")
labels = torch.randint(0, classes, (len(lengths),), device="cuda")
for step in range(2):
    logits, h, padded, out = model(ids, lengths)
    if step == 0:
        print(type(out).__name__, tuple(out.data.shape), out.batch_sizes.shape, out.batch_sizes.device,
              out.sorted_indices.device, out.unsorted_indices.dtype)
        print(type(out.data.grad_fn).__name__, type(padded.grad_fn).__name__, tuple(padded.shape),
              tuple(h.shape), type(h.grad_fn).__name__)
    mem(f"forward {step}")
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    mem(f"backward {step}")
    opt.step()
    opt.zero_grad(set_to_none=True)
    del logits, h, padded, out, loss
    mem(f"step {step}")

# pack_sequence of tensors of different lengths, sorted; a GRU encoder in eval
enc = nn.GRU(64, 128, batch_first=True).cuda().eval()
seqs = [torch.randn(n, 64, device="cuda") for n in (30, 25, 25, 17, 9, 4)]
mem("sequences")
with torch.no_grad():
    p = pack_sequence(seqs)
    print(tuple(p.data.shape), p.sorted_indices, p.unsorted_indices)
    mem("pack_sequence")
    o, hn = enc(p)
    mem("gru")
    o2, l2 = pad_packed_sequence(o, batch_first=True, total_length=32)
    print(tuple(o2.shape), o2.stride(), l2.dtype, tuple(hn.shape))
    mem("pad_packed")
padded_in = pad_sequence(seqs, batch_first=True)
p2 = pack_padded_sequence(padded_in, [s.size(0) for s in seqs], batch_first=True)
print(tuple(p2.data.shape), p2.is_cuda)
del p, o, hn, o2, padded_in, p2
mem("done")
