# torch.amp: GradScaler (autocast itself is the binding's torch.autocast).
import torch
from torch.amp.grad_scaler import GradScaler

autocast = getattr(torch, "autocast", None)
