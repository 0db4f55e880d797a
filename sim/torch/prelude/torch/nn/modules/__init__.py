# torch.nn.modules: the layer classes. Module and Linear are imported here;
# the other layers load on first access (lazy.go in package prelude).
from torch.nn.modules.module import Module
from torch.nn.modules.linear import Identity, Linear
