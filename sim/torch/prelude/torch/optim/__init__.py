# torch.optim: SGD, Adam, AdamW on the Optimizer base class.
from torch.optim.optimizer import Optimizer
from torch.optim.sgd import SGD
from torch.optim.adam import Adam
from torch.optim.adamw import AdamW
