import torch

x = torch.empty(5 * 1024 * 1024, dtype=torch.uint8, device="cuda")
y = torch.empty(1000, dtype=torch.uint8, device="cuda")
z = torch.empty(30_000_000, dtype=torch.uint8, device="cuda")
del y
for seg in torch.cuda.memory_snapshot():
    print(seg["segment_type"], seg["total_size"], seg["allocated_size"], seg["active_size"], seg["requested_size"])
    for b in seg["blocks"]:
        print("  ", b["size"], b["state"], b["requested_size"])
s = torch.cuda.memory._snapshot()
print(sorted(s.keys()))
print(s["allocator_settings"]["max_split_size"], s["allocator_settings"]["expandable_segments"])
