# Seed 002, second and third snippets (memory_allocated vs memory_reserved,
# aliases keep memory alive).
import torch
# 设定设备为GPU
device = torch.device('cuda')
# 第一步:模拟内存分配
tensor1 = torch.randn(1024, 1024, device=device) # 1MB 的数据
tensor2 = torch.randn(2048, 2048, device=device) # 4MB 的数据
# 打印分配和缓存内存
print("Before empty_cache:")
print(f"Allocated Memory: {torch.cuda.memory_allocated()} bytes")
print(f"Cached Memory: {torch.cuda.memory_reserved()} bytes")
tensor3 =tensor1 # 4MB 的数据
tensor4 =tensor2 # 4MB 的数据
print("Before empty_cache3:")
print(f"Allocated Memory: {torch.cuda.memory_allocated()} bytes")
print(f"Cached Memory: {torch.cuda.memory_reserved()} bytes")
# 第二步:释放 tensor1
del tensor1
# 打印分配和缓存内存(仍然会保留一部分内存)
print("\nAfter deleting tensor1 (without empty_cache):")
print(f"Allocated Memory: {torch.cuda.memory_allocated()} bytes")
print(f"Cached Memory: {torch.cuda.memory_reserved()} bytes")
# 删除 tensor2 以确保没有其他变量占用内存
del tensor2
# 第三步:清理缓存
torch.cuda.empty_cache()
# 打印分配和缓存内存(应该会减少缓存内存)
print("\nAfter calling empty_cache:")
print(f"Allocated Memory: {torch.cuda.memory_allocated()} bytes")
print(f"Cached Memory: {torch.cuda.memory_reserved()} bytes")
# 第二步:释放 tensor1
del tensor3
tensor1 = None
tensor3 = None
