# torch.optim: SGD, Adam, AdamW, Adadelta, Adagrad, RMSprop on the Optimizer
# base class, and torch.optim.lr_scheduler.
from torch.optim.optimizer import Optimizer
from torch.optim.sgd import SGD
from torch.optim.adam import Adam
from torch.optim.adamw import AdamW
from torch.optim.adadelta import Adadelta
from torch.optim.adagrad import Adagrad
from torch.optim.rmsprop import RMSprop
from torch.optim import lr_scheduler
