# Dataset, TensorDataset, Subset, random_split (torch/utils/data/dataset.py).
import torch

__all__ = ["Dataset", "TensorDataset", "Subset", "random_split"]


class Dataset:
    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    def __init__(self, *tensors):
        if not all(tensors[0].size(0) == tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    n = len(dataset)
    if all(0 <= f <= 1 for f in lengths) and abs(sum(lengths) - 1) < 1e-9 and sum(lengths) <= 1:
        subset_lengths = []
        for frac in lengths:
            subset_lengths.append(int(n * frac))
        remainder = n - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = _permutation(n, generator)
    out = []
    offset = 0
    for length in lengths:
        out.append(Subset(dataset, indices[offset:offset + length]))
        offset += length
    return out


def _permutation(n, generator=None):
    # torch.randperm(n, generator=generator).tolist(): PyTorch's order on a
    # GPU run; the simulator has no values, so there the order is only
    # guaranteed to be a permutation of range(n).
    perm = torch.randperm(n, generator=generator).tolist()
    if sorted(perm) != list(range(n)):
        perm = list(range(n))
    return perm
