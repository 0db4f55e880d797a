# Seed 001 (PyTorch显存管理全攻略): the article flattened each snippet onto
# one line; statements and indentation restored.
import torch
# 查看当前显存使用情况
print(torch.cuda.memory_summary())

# 创建大张量
large_tensor = torch.randn(10000, 10000).cuda()
# 使用后显式释放
del large_tensor
torch.cuda.empty_cache()  # 清空缓存

# 强制清理未使用的缓存
if torch.cuda.is_available():
    torch.cuda.empty_cache()

model = MyModel().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
# 训练步骤
optimizer.zero_grad()  # 清零梯度
outputs = model(inputs)
loss = criterion(outputs, targets)
loss.backward()
optimizer.step()
# 保存模型时不保存优化器状态
torch.save(model.state_dict(), 'model.pth')

from torch.utils.checkpoint import checkpoint


def custom_forward(x):
    # 原始前向传播
    pass


# 使用检查点
output = checkpoint(custom_forward, input_tensor)

scaler = torch.cuda.amp.GradScaler()
with torch.cuda.amp.autocast():
    outputs = model(inputs)
    loss = criterion(outputs, targets)
scaler.scale(loss).backward()
scaler.step(optimizer)
scaler.update()

# 获取当前显存使用量(MB)
allocated = torch.cuda.memory_allocated() / 1024**2
reserved = torch.cuda.memory_reserved() / 1024**2
print(f"Allocated: {allocated:.2f}MB, Reserved: {reserved:.2f}MB")

# 共享底层特征提取器
shared_encoder = SharedEncoder().cuda()
task1_head = Task1Head().cuda()
task2_head = Task2Head().cuda()
# 任务1前向传播
features = shared_encoder(inputs)
task1_outputs = task1_head(features)
