# Seed 003, the full CIFAR-10 example (trailing whitespace lines kept).
import torch
import torch.nn as nn
import torch.optim as optim
from torchvision.datasets import CIFAR10
from torchvision.transforms import transforms
from torch.utils.data import DataLoader
from torch.cuda import empty_cache
# 数据预处理
transform = transforms.Compose([
    transforms.ToTensor(),
    transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
])
# 加载CIFAR-10数据集
trainset = CIFAR10(root='./data', train=True, download=True, transform=transform)
trainloader = DataLoader(trainset, batch_size=64, shuffle=True, num_workers=2)
# 定义模型
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 64, kernel_size=3, stride=1, padding=1)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.fc = nn.Linear(64 * 8 * 8, 10)
    def forward(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = x.view(x.size(0), -1)
        x = self.fc(x)
        return x
model = Net().cuda()
# 定义损失函数和优化器
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
# 开始训练
accumulator = 4  # 梯度累积次数
total_loss = 0
for epoch in range(10):  # 迭代10个epoch
    for i, data in enumerate(trainloader):
        inputs, labels = data[0].cuda(), data[1].cuda()
        
        # 前向计算
        outputs = model(inputs)
        loss = criterion(outputs, labels)
        
        # 梯度累积
        loss = loss / accumulator
        total_loss += loss.item()
        loss.backward()
        
        if (i + 1) % accumulator == 0:
            optimizer.step()
            optimizer.zero_grad()
            
            # 显存清理
            del outputs, loss
            empty_cache()
    print(f"Epoch {epoch+1}, Loss: {total_loss / len(trainloader):.4f}")
    total_loss = 0
