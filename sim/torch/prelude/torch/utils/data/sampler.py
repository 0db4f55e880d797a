# Samplers (torch/utils/data/sampler.py), returning iterators over lists.
import torch
from torch.utils.data.dataset import _permutation

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "BatchSampler"]


class Sampler:
    def __init__(self, data_source=None):
        pass


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator

    @property
    def num_samples(self):
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self):
        # PyTorch's: a private generator seeded from one random_() of the
        # global CPU generator (unless one was given), then randperm (or
        # randint in chunks of 32 with replacement) from it.
        n = len(self.data_source)
        if self.generator is None:
            seed = int(torch.empty((), dtype=torch.int64).random_().item())
            generator = torch.Generator()
            generator.manual_seed(seed)
        else:
            generator = self.generator
        out = []
        if self.replacement:
            for _ in range(self.num_samples // 32):
                out += torch.randint(high=n, size=(32,), dtype=torch.int64, generator=generator).tolist()
            out += torch.randint(high=n, size=(self.num_samples % 32,), dtype=torch.int64,
                                 generator=generator).tolist()
            return iter(out)
        for _ in range(self.num_samples // n):
            out += _permutation(n, generator)
        out += _permutation(n, generator)[: self.num_samples % n]
        return iter(out)

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        batches = []
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                batches.append(batch)
                batch = []
        if len(batch) > 0 and not self.drop_last:
            batches.append(batch)
        return iter(batches)

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
