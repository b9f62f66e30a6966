"""Samplers (paddle.io): the order in which a map-style dataset's indices are visited.

Random samplers draw one seed from dygrad's random state each time they are iterated (an
epoch), so ``dygrad.seed(n)`` makes every epoch's order reproducible while successive
epochs differ.
"""

from __future__ import annotations

from collections.abc import Sized

import numpy as np

from .._core.engine import current
from .._core.tensor import Tensor

__all__ = ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
           "SubsetRandomSampler"]


def epoch_rng() -> np.random.Generator:
    """A NumPy generator seeded by one draw from dygrad's random state."""
    return np.random.default_rng(int(current().generator.integers(2**63 - 1)))


class Sampler:
    """Base class: subclasses define ``__iter__`` (yielding indices) and usually ``__len__``."""

    def __init__(self, data_source: Sized | None = None):
        self.data_source = data_source

    def __iter__(self):
        raise NotImplementedError


class SequenceSampler(Sampler):
    """Indices ``0, 1, ..., len(data_source) - 1`` in order."""

    def __init__(self, data_source: Sized):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """Indices of ``data_source`` in random order.

    Without ``replacement`` a permutation (its first ``num_samples`` entries); with it,
    ``num_samples`` independent uniform draws. ``generator``, when given, is an iterator of
    indices that is read instead (``num_samples`` of them at most), as in Paddle.
    """

    def __init__(self, data_source: Sized, replacement: bool = False, num_samples=None,
                 generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"RandomSampler: expect boolean value for replacement, but got "
                            f"replacement={replacement!r}")
        n = self.num_samples
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            raise ValueError(f"RandomSampler: num_samples should be a positive integer, but got "
                             f"num_samples={n!r}")
        if not replacement and n > len(data_source):
            raise ValueError(f"RandomSampler: num_samples should be smaller than or equal to the "
                             f"length of data_source when replacement is False, but got "
                             f"num_samples: {n} > data_source: {len(data_source)}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        if self.generator is not None:
            return _take(self.generator, self.num_samples)
        n, rng = len(self.data_source), epoch_rng()
        if self.replacement:
            order = rng.integers(0, n, size=self.num_samples)
        else:
            order = rng.permutation(n)[:self.num_samples]
        return iter(order.tolist())

    def __len__(self):
        return self.num_samples


def _take(iterator, n):
    """At most ``n`` items of ``iterator``."""
    for _, item in zip(range(n), iterator):
        yield item


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probability proportional to ``weights``.

    ``weights`` is a 1-D sequence, NumPy array or Tensor of non-negative numbers; a 2-D one
    is several rows sampled independently, one after another (``len`` is then
    ``rows * num_samples``). Without ``replacement`` an index is drawn at most once per row.
    """

    def __init__(self, weights, num_samples: int, replacement: bool = True):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"WeightedRandomSampler: num_samples should be a positive integer, "
                             f"got {num_samples!r}")
        if not isinstance(replacement, bool):
            raise ValueError(f"WeightedRandomSampler: replacement should be a boolean value, got "
                             f"{replacement!r}")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement
        self._rows = _weight_rows(weights, num_samples, replacement)

    def __iter__(self):
        rng = epoch_rng()
        draws = [rng.choice(w.size, self.num_samples, replace=self.replacement, p=w / w.sum())
                 for w in self._rows]
        return iter(np.concatenate(draws).tolist())

    def __len__(self):
        return self.num_samples * len(self._rows)


def _weight_rows(weights, num_samples, replacement) -> np.ndarray:
    """``weights`` as a validated 2-D float64 array (one row per independent draw)."""
    if isinstance(weights, Tensor):
        weights = weights.numpy()
    if not isinstance(weights, (np.ndarray, list, tuple)):
        raise TypeError(f"WeightedRandomSampler: weights should be a Tensor, numpy.ndarray, list "
                        f"or tuple, got {type(weights).__name__}")
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim not in (1, 2):
        raise ValueError(f"WeightedRandomSampler: weights should be a 1-D or 2-D array, got "
                         f"shape {w.shape}")
    w = w.reshape(-1, w.shape[-1])
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("WeightedRandomSampler: weights should be finite, non-negative values")
    positive = np.sum(w > 0, axis=1)
    if np.any(positive == 0):
        raise ValueError("WeightedRandomSampler: every row of weights needs a positive value")
    if not replacement and np.any(positive < num_samples):
        raise ValueError(f"WeightedRandomSampler: with replacement=False each row needs at least "
                         f"num_samples={num_samples} positive weights, got {positive.tolist()}")
    return w


class SubsetRandomSampler(Sampler):
    """The given ``indices`` in random order."""

    def __init__(self, indices):
        if len(indices) == 0:
            raise ValueError("SubsetRandomSampler: the length of `indices` should be greater "
                             "than 0")
        self.indices = indices

    def __iter__(self):
        return iter([self.indices[i] for i in epoch_rng().permutation(len(self.indices))])

    def __len__(self):
        return len(self.indices)
