"""Collating samples into batches, and turning batches into Tensors.

A batch travels in three steps: the collate function stacks a list of samples field by
field (:func:`default_collate_fn`, giving NumPy arrays), a worker process sends the result
as plain NumPy data (:func:`to_numpy`), and the main process makes every array a Tensor
(:func:`to_tensors`). Strings and Python numbers stay as they are, tuples become lists and
mappings dicts, as in Paddle.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence

import numpy as np

from .._core.creation import to_tensor
from .._core.tensor import Tensor

__all__ = ["default_collate_fn", "default_convert_fn", "to_numpy", "to_tensors"]


def default_collate_fn(batch):
    """Stack a list of samples into one batch, field by field.

    NumPy arrays and Tensors are stacked along a new first axis (as NumPy arrays), numbers
    become 1-D arrays (Python ints int64, Python floats float64, bools bool, NumPy scalars
    keep their dtype), strings and bytes stay a list, mappings are collated per key and
    sequences per position.
    """
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0)
    if isinstance(sample, Tensor):
        return np.stack([t.numpy() for t in batch], axis=0)
    if isinstance(sample, numbers.Number):
        if isinstance(sample, int) and not isinstance(sample, bool):
            return np.array(batch, dtype=np.int64)
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return batch
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([s[key] for s in batch]) for key in sample}
    if isinstance(sample, Sequence):
        if any(len(s) != len(sample) for s in batch):
            raise RuntimeError(f"default_collate_fn: fields number not same among samples in a "
                               f"batch: got {[len(s) for s in batch]}")
        return [default_collate_fn(list(fields)) for fields in zip(*batch)]
    raise TypeError(f"default_collate_fn: batch data can only contain Tensor, numpy.ndarray, "
                    f"dict, list, number or str, but got {type(sample).__name__}")


def default_convert_fn(sample):
    """What the DataLoader does to a sample when it does not batch (``batch_size=None``):
    sequences become lists, mappings dicts, anything else stays."""
    if isinstance(sample, (Tensor, np.ndarray, str, bytes)):
        return sample
    if isinstance(sample, Mapping):
        return {key: default_convert_fn(value) for key, value in sample.items()}
    if isinstance(sample, Sequence):
        return [default_convert_fn(value) for value in sample]
    return sample


def _map_leaves(batch, leaf):
    """``batch`` with its arrays and Tensors replaced by ``leaf(x)``, tuples made lists."""
    if isinstance(batch, (np.ndarray, Tensor)):
        return leaf(batch)
    if isinstance(batch, (str, bytes, numbers.Number)):
        return batch
    if isinstance(batch, Mapping):
        return {key: _map_leaves(value, leaf) for key, value in batch.items()}
    if isinstance(batch, Sequence):
        return [_map_leaves(value, leaf) for value in batch]
    return batch


def to_numpy(batch):
    """``batch`` with every Tensor made a NumPy array (what a worker process sends)."""
    return _map_leaves(batch, lambda x: x.numpy() if isinstance(x, Tensor) else x)


def to_tensors(batch):
    """``batch`` with every array and Tensor made a new Tensor (``stop_gradient=True``)."""
    return _map_leaves(batch, to_tensor)
