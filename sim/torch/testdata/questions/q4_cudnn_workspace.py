# cuDNN conv workspaces: what does each conv forward/backward allocate (s003_accum, p014, q009)?
import torch, torch.nn as nn
for (cin, cout, hw, bs) in [(3, 64, 32, 64), (64, 128, 16, 64), (128, 256, 8, 32)]:
    conv = nn.Conv2d(cin, cout, 3, padding=1).cuda()
    x = torch.randn(bs, cin, hw, hw, device="cuda")
    torch.cuda.memory._record_memory_history(max_entries=10000)
    out = conv(x); out.sum().backward()
    evs = [(e["action"], e["size"]) for e in torch.cuda.memory._snapshot()["device_traces"][0] if e["action"] in ("alloc", "free_completed")]
    print((cin, cout, hw, bs), evs)
    torch.cuda.memory._record_memory_history(enabled=None)
