import torch

a = torch.empty(1024, 1024, device="cuda")
b = torch.empty(250, device="cuda")
c = torch.empty(3 * 1024 * 1024 + 7, dtype=torch.uint8, device="cuda")
del b
stats = torch.cuda.memory_stats()
for key in ["allocated_bytes.all.current", "allocated_bytes.small_pool.peak", "reserved_bytes.large_pool.current",
            "active.all.current", "inactive_split_bytes.all.current", "requested_bytes.all.current",
            "segment.small_pool.current", "num_device_alloc", "num_device_free", "max_split_size"]:
    print(key, stats[key])
print(len(stats))
print(torch.cuda.memory_summary())
print(torch.cuda.memory_summary(abbreviated=True))
print(torch.cuda.get_device_name(0))
props = torch.cuda.get_device_properties(0)
print(props.total_memory)
print(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.current_device())
torch.cuda.reset_accumulated_memory_stats()
torch.cuda.reset_peak_memory_stats()
print(torch.cuda.max_memory_allocated(), torch.cuda.memory_stats()["allocation.all.allocated"])
