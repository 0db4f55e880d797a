# torch.nn: modules, parameters, init, utils and (from the Go binding)
# functional, as `import torch.nn as nn` exposes them in PyTorch 2.11.
from torch.nn.parameter import Parameter
from torch.nn.modules.module import Module
from torch.nn.modules.linear import Identity, Linear
from torch.nn.modules.conv import Conv1d, Conv2d
from torch.nn.modules.activation import (
    GELU, LeakyReLU, LogSoftmax, MultiheadAttention, ReLU, Sigmoid, SiLU, Softmax, Tanh,
)
from torch.nn.modules.dropout import Dropout
from torch.nn.modules.pooling import (
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d,
)
from torch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d
from torch.nn.modules.normalization import LayerNorm
from torch.nn.modules.sparse import Embedding
from torch.nn.modules.flatten import Flatten
from torch.nn.modules.container import ModuleDict, ModuleList, Sequential
from torch.nn.modules.loss import (
    BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss,
)
from torch.nn import functional
from torch.nn import init
from torch.nn import utils
