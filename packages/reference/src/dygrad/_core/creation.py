"""Turning Python and NumPy data into engine arrays and Tensors, with Paddle's dtype rules:
Python floats become the default float dtype, Python ints int64, bools bool; NumPy arrays
keep their dtype (as Paddle's ``to_tensor`` does)."""

from __future__ import annotations

import numpy as np

from . import device
from . import dispatch as _dispatch
from . import dtype as _dt
from .engine import current
from .place import Place, parse_device


def infer_dtype(data) -> np.dtype:
    """The dtype Paddle gives ``data`` when none is asked for."""
    if isinstance(data, np.ndarray):
        return data.dtype
    if isinstance(data, np.generic):
        return data.dtype
    if isinstance(data, bool):
        return np.dtype(np.bool_)
    if isinstance(data, int):
        return np.dtype(np.int64)
    if isinstance(data, float):
        return _dt.default_float().np
    if isinstance(data, complex):
        return np.dtype(np.complex64)
    arr = np.asarray(data)
    if arr.dtype.kind == "f" and arr.dtype == np.float64 and not _has_numpy_float64(data):
        return _dt.default_float().np
    if arr.dtype.kind == "c" and not _has_numpy_float64(data):
        return np.dtype(np.complex64)
    if arr.dtype.kind == "i":
        return np.dtype(np.int64)
    if arr.dtype.kind in "OUS":
        raise TypeError(f"to_tensor: cannot make a tensor from data of type {type(data).__name__} "
                        f"(NumPy sees dtype {arr.dtype}); give numbers, nested lists of numbers, "
                        f"NumPy arrays or Tensors")
    return arr.dtype


def _has_numpy_float64(data) -> bool:
    """Whether nested Python data holds a float64 NumPy array/scalar (which keeps float64)."""
    if isinstance(data, (np.ndarray, np.generic)):
        return data.dtype in (np.float64, np.complex128)
    if isinstance(data, (list, tuple)):
        return any(_has_numpy_float64(d) for d in data)
    return False


def to_array(data, dtype=None, place=None):
    """An engine array (a copy) holding ``data``, of ``dtype`` (or the inferred one)."""
    eng = current()
    if type(data) is np.ndarray:  # a NumPy batch, the common case: it keeps its dtype
        return eng.asarray(data, data.dtype if dtype is None else _np_dtype(dtype),
                           device.current_place() if place is None else _place(place))
    from .tensor import Tensor
    if isinstance(data, Tensor):
        src = eng.to_numpy(data._data)
        d = src.dtype if dtype is None else _np_dtype(dtype)
        return eng.asarray(src, d, _place(place))
    if isinstance(data, (list, tuple)) and any(isinstance(d, Tensor) for d in _flat(data)):
        data = _tensors_to_numpy(data)
    d = infer_dtype(data) if dtype is None else _np_dtype(dtype)
    return eng.asarray(data, d, _place(place))


def _np_dtype(dtype) -> np.dtype:
    return dtype if isinstance(dtype, np.dtype) else _dt.convert_dtype(dtype).np


def _place(place):
    if place is None:
        return device.current_place()
    return place if isinstance(place, Place) else parse_device(place)


def _flat(data):
    for d in data:
        if isinstance(d, (list, tuple)):
            yield from _flat(d)
        else:
            yield d


def _tensors_to_numpy(data):
    from .tensor import Tensor
    if isinstance(data, Tensor):
        return data.numpy()
    if isinstance(data, (list, tuple)):
        return [_tensors_to_numpy(d) for d in data]
    return data


def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """A new Tensor holding a copy of ``data`` (Python numbers, nested lists, NumPy arrays
    or Tensors)."""
    return _dispatch.Tensor._wrap(to_array(data, dtype, place), bool(stop_gradient))
