import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

# cuDNN's RNN dropout state: made on the first training call with dropout,
# made again after anything that reseeds or sets the CUDA generator
torch.manual_seed(0)
lstm = nn.LSTM(64, 128, num_layers=3, dropout=0.25).cuda()
x = torch.randn(10, 4, 64, device="cuda")
mem("model")
y, _ = lstm(x)
mem("first training call")
del y
y, _ = lstm(x)
mem("second call")
del y
torch.cuda.reset_peak_memory_stats()
torch.manual_seed(1)
y, _ = lstm(x)
mem("after manual_seed")
del y
torch.cuda.manual_seed(2)
lstm.eval()
with torch.no_grad():
    y, _ = lstm(x)
mem("eval call keeps the reset")
lstm.train()
del y
torch.cuda.reset_peak_memory_stats()
y, _ = lstm(x)
mem("training call after cuda.manual_seed")
del y
s = torch.cuda.get_rng_state()
c = torch.get_rng_state()
torch.cuda.set_rng_state(s)
torch.set_rng_state(c)
y, _ = lstm(x)
mem("after set_rng_state")
del y
with torch.random.fork_rng():
    r = torch.rand(1000, device="cuda")
del r
y, _ = lstm(x)
y.sum().backward()
mem("after fork_rng and backward")
del y

# checkpoint with dropout: the backward recomputes with the forward's mask
lin = nn.Linear(256, 256).cuda()
h = torch.randn(64, 256, device="cuda", requires_grad=True)
def block(t):
    return F.dropout(torch.relu(lin(t)), 0.1, training=True)
for reentrant in (True, False):
    torch.cuda.reset_peak_memory_stats()
    out = checkpoint(block, h, use_reentrant=reentrant)
    mem(f"checkpoint forward reentrant={reentrant}")
    out.sum().backward()
    mem(f"checkpoint backward reentrant={reentrant}")
    del out
y, _ = lstm(x)
mem("lstm after checkpoints")
