import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector, vector_to_parameters
from torch.nn.utils.rnn import pad_sequence

# Training utilities around a small sequence classifier: variable-length
# batches padded with pad_sequence, gradient hooks (scaling an activation's
# gradient, clamping a weight's), a flat parameter vector for weight
# averaging (parameters_to_vector / vector_to_parameters), and the Adam
# variants NAdam, RAdam and Adamax (PyTorch's default foreach path on CUDA),
# two steps each.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)
emb = nn.Embedding(1000, 256).cuda()
model = nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.Linear(512, 10)).cuda()
mem("model")

lengths = [37, 12, 50, 23, 41, 8, 30, 19]
seqs = [emb(torch.randint(0, 1000, (n,), device="cuda")) for n in lengths]
batch = pad_sequence(seqs, batch_first=True)
print(tuple(batch.shape), batch.stride(), type(batch.grad_fn).__name__)
tb = pad_sequence(seqs, padding_value=0.0)
print(tuple(tb.shape), type(tb.grad_fn).__name__)
left = pad_sequence(seqs, batch_first=True, padding_side="left")
print(tuple(left.shape))
mem("padded")

h = model[0](batch)
h.register_hook(lambda g: g * 0.5)
handle = model[2].weight.register_hook(lambda g: g.clamp(-0.1, 0.1))
print(type(handle).__name__)
out = model[2](F.gelu(h)).mean(dim=1)
loss = F.cross_entropy(out, torch.randint(0, 10, (8,), device="cuda")) + tb.mean() + left.mean()
mem("forward")
loss.backward()
mem("backward with hooks")
handle.remove()
del seqs, batch, tb, left, h, out, loss
mem("activations freed")

vec = parameters_to_vector(model.parameters())
print(tuple(vec.shape), vec.grad_fn is None, vec.is_contiguous())
avg = vec.detach().clone()
mem("flat vector")
with torch.no_grad():
    avg.mul_(0.9).add_(parameters_to_vector(model.parameters()), alpha=0.1)
mem("ema")

x = torch.randn(64, 256, device="cuda")
y = torch.randint(0, 10, (64,), device="cuda")
for name, opt in (("NAdam", torch.optim.NAdam(model.parameters(), lr=1e-3)),
                  ("RAdam", torch.optim.RAdam(model.parameters(), lr=1e-3, weight_decay=0.01)),
                  ("Adamax", torch.optim.Adamax(model.parameters(), lr=2e-3))):
    for step in range(2):
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x), y).backward()
        mem(f"{name} backward {step}")
        opt.step()
        mem(f"{name} step {step}")
    print(name, sorted(opt.state[model[0].weight].keys()))
    del opt
    mem(f"{name} freed")

nadamw = torch.optim.NAdam(model.parameters(), weight_decay=0.01, decoupled_weight_decay=True)
F.cross_entropy(model(x), y).backward()
nadamw.step()
mem("NAdamW step")
del nadamw
model.zero_grad(set_to_none=True)
mem("grads freed")

vector_to_parameters(avg, model.parameters())
print(model[0].weight.data_ptr() == avg.data_ptr(), tuple(model[2].bias.shape))
del vec
mem("averaged weights")
del avg
mem("end")
