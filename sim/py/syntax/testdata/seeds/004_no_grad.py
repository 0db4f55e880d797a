# Seed 004 (with torch.no_grad()): the article put each snippet on one
# line; statements and indentation restored.
with torch.no_grad():  # 代码块
    outputs = model(inputs)  # 代码块

x = torch.randn(10, 5, requires_grad = True)
y = torch.randn(10, 5, requires_grad = True)
z = torch.randn(10, 5, requires_grad = True)
with torch.no_grad():
    w = x + y + z
print(w.requires_grad)
print(w.grad_fn)
print(w.requires_grad)

captions = Variable(torch.from_numpy(captions), volatile=True)

import torch
# 创建两个张量
x = torch.tensor([2.0], requires_grad=True)
w = torch.tensor([3.0], requires_grad=True)
# 在计算阶段使用 torch.no_grad()
with torch.no_grad():
    y = x * w
# 输出结果,不会计算梯度
print(y)  # tensor([6.])
# 尝试对 y 进行反向传播(会报错)
y.backward()  # RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn


@d2l.add_to_class(d2l.Trainer)  #@save
def prepare_batch(self, batch):
    return batch


@d2l.add_to_class(d2l.Trainer)  #@save
def fit_epoch(self):
    self.model.train()
    for batch in self.train_dataloader:
        loss = self.model.training_step(self.prepare_batch(batch))
        self.optim.zero_grad()
        with torch.no_grad():
            loss.backward()
            if self.gradient_clip_val > 0:  # To be discussed later
                self.clip_gradients(self.gradient_clip_val, self.model)
            self.optim.step()
        self.train_batch_idx += 1
    if self.val_dataloader is None:
        return
    self.model.eval()
    for batch in self.val_dataloader:
        with torch.no_grad():
            self.model.validation_step(self.prepare_batch(batch))
            self.val_batch_idx += 1
