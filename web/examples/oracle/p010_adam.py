import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

model = nn.Sequential(nn.Linear(1024, 1024), nn.GELU(), nn.Linear(1024, 1024)).cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(64, 1024, device="cuda")
mem("setup")
for step in range(3):
    loss = model(x).pow(2).mean()
    loss.backward()
    mem(f"step {step} backward")
    torch.cuda.reset_peak_memory_stats()
    opt.step()
    mem(f"step {step} adam step")
    opt.zero_grad(set_to_none=True)
    mem(f"step {step} zero_grad")
state = opt.state[model[0].weight]
print(sorted(state.keys()))
print(state["exp_avg"].shape, state["step"].device)
