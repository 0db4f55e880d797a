"""PyTorch eager's time for the GPT-style step of gpu/testdata/gpt_step.py.

    python3 gpu/scripts/torch_step_bench.py gpu/testdata/gpt_step.py [STEPS]

Runs the script's setup, 3 warm-up steps, then times STEPS (default 20)
steps between two torch.cuda.synchronize() calls.
"""
import sys
import time

import torch

src = open(sys.argv[1]).read().replace("STEPS = 2", "STEPS = 0")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
env = {"__name__": "gpt_step"}
exec(compile(src, sys.argv[1], "exec"), env)
step = env["step"]
for _ in range(3):
    step()
torch.cuda.synchronize()
t0 = time.perf_counter()
for _ in range(n):
    loss = step()
torch.cuda.synchronize()
dt = (time.perf_counter() - t0) / n
print(f"pytorch {torch.__version__} eager on {torch.cuda.get_device_name()}: {dt * 1e3:.3f} ms/step over {n} steps (loss {loss.item():.4f})")
