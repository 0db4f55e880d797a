# torch.utils.data: Dataset, TensorDataset, DataLoader (single process).
from torch.utils.data.dataset import Dataset, Subset, TensorDataset, random_split
from torch.utils.data.dataloader import DataLoader, default_collate
from torch.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler
