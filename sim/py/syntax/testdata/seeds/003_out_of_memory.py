# Seed 003 (优化GPU显存占用,避免out of memory): snippets joined.
# 调整Batch Size
batch_size = 32
# 使用混合精度
model = model.half()  # 将模型转换为float16
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
# 梯度累积
accumulation_steps = 4  # 累积4次梯度
for i, data in enumerate(train_loader):
    inputs, labels = data
    outputs = model(inputs)
    loss = criterion(outputs, labels)
    loss = loss / accumulation_steps  # 将损失值进行累积平均
    loss.backward()
    if (i + 1) % accumulation_steps == 0:  # 达到累积次数则进行参数更新
        optimizer.step()
        optimizer.zero_grad()
# 清理中间变量
del outputs, loss
torch.cuda.empty_cache()  # 清理显存
# 数据并行处理
model = nn.DataParallel(model)
