import gc
import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()}")

class Node:
    def __init__(self, t):
        self.t = t
        self.other = None

a = Node(torch.empty(1024, 1024, device="cuda"))
b = Node(torch.empty(2048, 1024, device="cuda"))
a.other = b
b.other = a
mem("cycle built")
del a, b
mem("after del: cycle keeps tensors")
n = gc.collect()
print(n > 0)
mem("after gc.collect")
gc.disable()
c = Node(torch.empty(1024, 1024, device="cuda"))
c.other = c
del c
mem("self cycle, gc disabled")
gc.collect()
mem("explicit collect still works")
gc.enable()
