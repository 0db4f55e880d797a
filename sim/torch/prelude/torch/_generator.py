# torch.Generator (torch/_C Generator): a random generator of its own, on
# the CPU (mt19937) or a CUDA device (Philox seed and offset), that random
# ops take as generator=. On a GPU run the executor keeps its state under
# _id; the simulator only keeps the seed.
import torch
from torch import _sim

__all__ = ["Generator"]

_DEFAULT_SEED = 67280421310721


class Generator:
    def __init__(self, device="cpu"):
        self.device = torch.device(device)
        self._cuda = self.device.type == "cuda"
        self._seed = _DEFAULT_SEED
        self._id = _sim.new_generator(self._cuda)

    def manual_seed(self, seed):
        seed = int(seed)
        if seed < -(2 ** 63) or seed >= 2 ** 64:
            raise RuntimeError(
                "Overflow when unpacking long long" if seed < 0 else
                f"Seed must be within the range of int64 or uint64, but got {seed}"
            )
        self._seed = seed % 2 ** 64
        _sim.seed_generator(self._id, self._cuda, seed if seed < 2 ** 63 else seed - 2 ** 64)
        return self

    def initial_seed(self):
        return self._seed

    def __repr__(self):
        return "<torch._C.Generator object>"
