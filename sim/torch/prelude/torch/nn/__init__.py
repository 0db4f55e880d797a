# torch.nn: modules, parameters, init, utils and (from the Go binding)
# functional, as `import torch.nn as nn` exposes them in PyTorch 2.11.
# Layers other than Linear, and torch.nn.utils, load on first access
# (lazy.go in package prelude).
from torch.nn.parameter import Parameter
from torch.nn.modules.module import Module
from torch.nn.modules.linear import Identity, Linear
from torch.nn import functional
from torch.nn import init
