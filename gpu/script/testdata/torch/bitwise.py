# ~ and bitwise_not of every integer type and of bool (PyTorch's ~ of a
# float tensor is a TypeError: "~ (operator.invert) is only implemented on
# integer and Boolean-type tensors", recorded on the H200 and checked in
# sim/torch/prelude's argument tests).
import torch

for dt in (torch.int64, torch.int32, torch.uint8, torch.int8, torch.int16):
    x = (torch.arange(6, device="cuda") - 2).to(dt)
    print(~x, torch.bitwise_not(x))
big = torch.tensor([2**62 + 1, -(2**62) - 3], device="cuda")
print(~big)
m = torch.tensor([True, False], device="cuda")
print(~m, m.bitwise_not())
