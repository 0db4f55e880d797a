# torch.nn.parallel: DataParallel (data_parallel.py) and
# DistributedDataParallel (distributed.py) of PyTorch 2.11. Unlike PyTorch,
# the name data_parallel stays the submodule (its function is
# torch.nn.parallel.data_parallel.data_parallel): the playground keeps every
# prelude module reachable as an attribute.
from torch.nn.parallel.data_parallel import DataParallel
from torch.nn.parallel.distributed import DistributedDataParallel

__all__ = ["DataParallel", "DistributedDataParallel"]
