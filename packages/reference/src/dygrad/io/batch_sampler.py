"""Batch samplers (paddle.io): lists of indices, one list per mini-batch."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from .dataset import IterableDataset
from .sampler import RandomSampler, Sampler, SequenceSampler

__all__ = ["BatchSampler", "DistributedBatchSampler"]


def _check_flag(api, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: {name} should be a boolean value, but got {value!r}")


def _check_positive(api, name, value):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{api}: {name} should be a positive integer, but got {value!r}")


def _batches(indices, batch_size, drop_last):
    """Group ``indices`` into lists of ``batch_size`` (the last one shorter unless dropped)."""
    batch = []
    for idx in indices:
        batch.append(idx)
        if len(batch) == batch_size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


class BatchSampler(Sampler):
    """Mini-batches of indices from ``sampler``, or from ``dataset`` in order (or shuffled).

    Give exactly one of ``dataset`` (with ``shuffle``) and ``sampler`` (any iterable of
    indices; ``shuffle`` must then be False).
    """

    def __init__(self, dataset=None, sampler=None, shuffle: bool = False, batch_size: int = 1,
                 drop_last: bool = False):
        api = "BatchSampler"
        if dataset is None:
            if sampler is None:
                raise ValueError(f"{api}: either dataset or sampler should be set")
            if not isinstance(sampler, (Sampler, Iterable)):
                raise TypeError(f"{api}: sampler should be a dygrad.io.Sampler or an iterable, "
                                f"but got {type(sampler).__name__}")
            if shuffle:
                raise ValueError(f"{api}: shuffle should be False when sampler is set")
            self.sampler = sampler
        else:
            if isinstance(dataset, IterableDataset):
                raise TypeError(f"{api}: dataset should not be a dygrad.io.IterableDataset")
            if sampler is not None:
                raise ValueError(f"{api}: should not set both dataset and sampler")
            _check_flag(api, "shuffle", shuffle)
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        _check_positive(api, "batch_size", batch_size)
        _check_flag(api, "drop_last", drop_last)
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last

    def __iter__(self):
        # iter() now, not at the first batch, so a random sampler draws its order now
        return _batches(iter(self.sampler), self.batch_size, self.drop_last)

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


class _InfiniteIterableSampler(Sampler):
    """What the DataLoader batches an IterableDataset with: endless lists of ``batch_size``
    placeholders (the dataset's iterator decides when the epoch ends)."""

    def __init__(self, dataset, batch_size=1):
        self.dataset = dataset
        self.batch_size = batch_size

    def __iter__(self):
        while True:
            yield [None] * self.batch_size


class DistributedBatchSampler(BatchSampler):
    """The mini-batches of one rank (``rank`` of ``num_replicas``) in data-parallel training.

    The indices are padded by repeating from the start until every rank gets
    ``ceil(len(dataset) / num_replicas)`` samples, so all ranks run the same number of
    batches. With ``shuffle`` the padded indices are permuted by a generator seeded with the
    epoch (the same order on every rank); the epoch advances after each shuffled pass, or is
    set with :meth:`set_epoch`. Each rank takes whole batches in turn: batch ``k`` of rank
    ``r`` is block ``k * num_replicas + r`` of ``batch_size`` indices, and the tail that does
    not fill a batch on every rank is split evenly between the ranks.

    ``num_replicas`` and ``rank`` default to the job's world size and this process's rank
    (``paddle.distributed.ParallelEnv()``; 1 and 0 in a single process).
    """

    def __init__(self, dataset, batch_size: int, num_replicas=None, rank=None,
                 shuffle: bool = False, drop_last: bool = False):
        api = "DistributedBatchSampler"
        _check_positive(api, "batch_size", batch_size)
        _check_flag(api, "shuffle", shuffle)
        _check_flag(api, "drop_last", drop_last)
        if num_replicas is None or rank is None:
            from ..distributed import ParallelEnv
            env = ParallelEnv()
            num_replicas = env.nranks if num_replicas is None else num_replicas
            rank = env.local_rank if rank is None else rank
        _check_positive(api, "num_replicas", num_replicas)
        if not isinstance(rank, int) or isinstance(rank, bool) or not 0 <= rank < num_replicas:
            raise ValueError(f"{api}: rank should be an integer in [0, num_replicas="
                             f"{num_replicas}), but got {rank!r}")
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.nranks = num_replicas
        self.local_rank = rank
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / num_replicas))
        self.total_size = self.num_samples * num_replicas

    def __iter__(self):
        n = len(self.dataset)
        indices = list(range(n))
        padding = self.total_size - n
        if n:
            indices += (indices * math.ceil(padding / n))[:padding]
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks > 1:
            indices = self._rank_indices(indices)
        return _batches(indices, self.batch_size, self.drop_last)

    def _rank_indices(self, indices):
        """This rank's share: every ``nranks``-th block of ``batch_size``, then its part of
        the tail."""
        bs, nranks, rank = self.batch_size, self.nranks, self.local_rank
        tail = self.total_size % (bs * nranks)
        mine = []
        for start in range(rank * bs, len(indices) - tail, bs * nranks):
            mine.extend(indices[start:start + bs])
        per_rank_tail = tail // nranks
        rest = indices[len(indices) - tail:]
        mine.extend(rest[rank * per_rank_tail:(rank + 1) * per_rank_tail])
        return mine

    def __len__(self):
        n = self.num_samples
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def set_epoch(self, epoch: int):
        """Use ``epoch`` to seed the next shuffle (call it before each epoch)."""
        self.epoch = epoch
