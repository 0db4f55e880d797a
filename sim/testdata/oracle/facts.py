"""Device facts for the simulator's H100 profile: run on the GPU machine, prints JSON."""
import json, subprocess, torch
out = {}
torch.cuda.init()
f, t = torch.cuda.mem_get_info()
out["after_init"] = {"free": f, "total": t, "used": t - f}
x = torch.empty(1, device="cuda")
f, t = torch.cuda.mem_get_info()
out["after_first_alloc"] = {"free": f, "total": t, "used": t - f, "reserved": torch.cuda.memory_reserved()}
a = torch.randn(64, 64, device="cuda"); b = a @ a
f, t = torch.cuda.mem_get_info()
out["after_gemm"] = {"free": f, "total": t, "used": t - f, "reserved": torch.cuda.memory_reserved()}
p = torch.cuda.get_device_properties(0)
out["props"] = {"name": p.name, "total_memory": p.total_memory, "major": p.major, "minor": p.minor,
                "multi_processor_count": p.multi_processor_count, "repr": repr(p)}
try:
    out["processes"] = torch.cuda.list_gpu_processes()
except Exception as e:
    out["processes"] = repr(e)
out["device"] = repr(torch.device("cuda")), repr(torch.device("cuda:0"))
out["tensor_repr"] = repr(torch.zeros(2, 3, device="cuda")), repr(torch.zeros(2, 3, device="cuda", requires_grad=True) * 2)
out["size_repr"] = repr(torch.zeros(2, 3).shape), str(torch.float32), repr(torch.zeros(1, device="cuda").device)
out["version"] = torch.__version__
out["nvidia_smi"] = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,used_memory", "--format=csv"], capture_output=True, text=True).stdout
print(json.dumps(out, indent=1))
