# ChannelShuffle (torch/nn/modules/channelshuffle.py of PyTorch 2.11).
from torch.nn import functional as F
from torch.nn.modules.module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    def __init__(self, groups):
        Module.__init__(self)
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"
