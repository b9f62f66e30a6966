"""paddle.io: datasets, samplers and the DataLoader.

A :class:`Dataset` gives samples, a sampler the order of their indices, a batch sampler
groups the indices into mini-batches, and the :class:`DataLoader` fetches each batch
(in the main process or in worker processes), collates it and returns it as Tensors.
"""

from .batch_sampler import BatchSampler, DistributedBatchSampler
from .dataloader import DataLoader
from .dataset import (
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .sampler import RandomSampler, Sampler, SequenceSampler, SubsetRandomSampler, WeightedRandomSampler
from .worker import get_worker_info

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "BatchSampler", "DistributedBatchSampler", "DataLoader", "get_worker_info",
           "Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
           "random_split", "Subset", "SubsetRandomSampler", "ConcatDataset"]
