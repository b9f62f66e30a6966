"""Datasets (paddle.io): where samples come from.

A map-style :class:`Dataset` answers ``dataset[i]`` and ``len(dataset)``; an
:class:`IterableDataset` is a stream that only answers ``iter(dataset)``. The other classes
combine datasets: side by side (:class:`ComposeDataset`), one after another
(:class:`ConcatDataset`, :class:`ChainDataset`) or a selection (:class:`Subset`,
:func:`random_split`).
"""

from __future__ import annotations

import bisect
import itertools
import math
import warnings

from .._core.engine import current

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "ConcatDataset", "Subset", "random_split"]


class Dataset:
    """A map-style dataset: subclasses define ``__getitem__(idx)`` and ``__len__()``."""

    def __init__(self):
        pass

    def __getitem__(self, idx):
        raise NotImplementedError(f"'__getitem__' not implement in class {type(self).__name__}")

    def __len__(self):
        raise NotImplementedError(f"'__len__' not implement in class {type(self).__name__}")


class IterableDataset(Dataset):
    """A stream of samples: subclasses define ``__iter__()``.

    With ``num_workers > 0`` every worker process iterates its own copy of the dataset;
    split the stream between workers with :func:`dygrad.io.get_worker_info`, or each worker
    yields every sample.
    """

    def __init__(self):
        pass

    def __iter__(self):
        raise NotImplementedError(f"'__iter__' not implement in class {type(self).__name__}")

    def __getitem__(self, idx):
        raise RuntimeError(f"'__getitem__' should not be called for IterableDataset "
                           f"{type(self).__name__}")

    def __len__(self):
        raise RuntimeError(f"'__len__' should not be called for IterableDataset "
                           f"{type(self).__name__}")


class TensorDataset(Dataset):
    """Sample ``i`` is the tuple ``(t[i] for t in tensors)``; the tensors share their first
    dimension."""

    def __init__(self, tensors):
        tensors = list(tensors)
        if not tensors:
            raise ValueError("TensorDataset: tensors must hold at least one Tensor")
        n = tensors[0].shape[0]
        if any(t.shape[0] != n for t in tensors):
            raise ValueError(f"TensorDataset: the tensors must have the same size of the first "
                             f"dimension, got shapes {[list(t.shape) for t in tensors]}")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


class ComposeDataset(Dataset):
    """Map-style datasets of one length side by side: sample ``i`` is the tuple of the
    fields of every dataset's sample ``i``."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("ComposeDataset: datasets should not be empty")
        for i, dataset in enumerate(self.datasets):
            if not isinstance(dataset, Dataset):
                raise TypeError(f"ComposeDataset: each dataset should be a dygrad.io.Dataset, "
                                f"got {type(dataset).__name__} at position {i}")
            if isinstance(dataset, IterableDataset):
                raise TypeError("ComposeDataset: an IterableDataset is not supported")
        lengths = [len(d) for d in self.datasets]
        if len(set(lengths)) > 1:
            raise ValueError(f"ComposeDataset: the datasets should have the same length, got "
                             f"lengths {lengths}")

    def __len__(self):
        return len(self.datasets[0])

    def __getitem__(self, idx):
        return tuple(field for d in self.datasets for field in _as_list(d[idx]))


class ChainDataset(IterableDataset):
    """Iterable datasets one after another."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("ChainDataset: datasets should not be empty")
        for i, dataset in enumerate(self.datasets):
            if not isinstance(dataset, IterableDataset):
                raise TypeError(f"ChainDataset: only supports dygrad.io.IterableDataset, got "
                                f"{type(dataset).__name__} at position {i}")

    def __iter__(self):
        for dataset in self.datasets:
            yield from dataset


class ConcatDataset(Dataset):
    """Map-style datasets one after another: indices run through the first, then the
    second, ..."""

    @staticmethod
    def cumsum(sequence):
        """The running totals of the lengths of ``sequence``'s datasets."""
        return list(itertools.accumulate(len(d) for d in sequence))

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("ConcatDataset: datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise TypeError("ConcatDataset: an IterableDataset is not supported")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError(f"ConcatDataset: index {idx} is out of range for length "
                                 f"{len(self)}")
            idx += len(self)
        if idx >= len(self):
            raise IndexError(f"ConcatDataset: index {idx} is out of range for length {len(self)}")
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Split ``dataset`` at random into :class:`Subset` s of the given ``lengths``.

    ``lengths`` are ints summing to ``len(dataset)``, or fractions summing to 1 (the items
    left over by rounding down go one each to the first splits). The permutation comes from
    ``generator`` (a ``numpy.random.Generator``) when given, else from dygrad's random
    state, so ``dygrad.seed(n)`` makes the split reproducible.
    """
    lengths = list(lengths)
    total = sum(lengths)
    if math.isclose(total, 1) and total <= 1:
        for i, frac in enumerate(lengths):
            if not 0 <= frac <= 1:
                raise ValueError(f"random_split: fraction at index {i} is not between 0 and 1, "
                                 f"got {frac}")
        counts = [int(math.floor(len(dataset) * frac)) for frac in lengths]
        for i in range(len(dataset) - sum(counts)):
            counts[i % len(counts)] += 1
        for i, n in enumerate(counts):
            if n == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an "
                              f"empty dataset.", stacklevel=2)
        lengths = counts
    if sum(lengths) != len(dataset):
        raise ValueError(f"random_split: sum of input lengths {lengths} does not equal the "
                         f"length of the input dataset ({len(dataset)})")
    rng = current().generator if generator is None else generator
    indices = rng.permutation(len(dataset)).tolist()
    ends = list(itertools.accumulate(lengths))
    return [Subset(dataset, indices[end - n:end]) for end, n in zip(ends, lengths)]
