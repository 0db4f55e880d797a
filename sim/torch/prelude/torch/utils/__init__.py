# torch.utils: data loading (torch.utils.data) and activation checkpointing
# (torch.utils.checkpoint) are submodules.
