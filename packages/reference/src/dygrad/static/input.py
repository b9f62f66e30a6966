"""Inputs of static programs: ``data`` (a variable fed at run time) and ``InputSpec``."""

from __future__ import annotations

import numpy as np

from .._core import dtype as _dt
from .._core.program import default_main_program, variable_of


def _shape(shape, api):
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{api}: shape must be a list or tuple of ints (-1 or None for an "
                        f"unknown dimension), got {type(shape).__name__}")
    out = []
    for d in shape:
        if d is None:
            out.append(-1)
        elif isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= -1:
            out.append(int(d))
        else:
            raise ValueError(f"{api}: each dimension of shape must be an int >= 0, -1 or None, "
                             f"got {list(shape)}")
    return tuple(out)


def data(name, shape, dtype=None, lod_level=0):
    """A variable of the current main program that ``Executor.run`` feeds by ``name``.
    Dimensions of -1 or None take the fed size (the batch size, say)."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"paddle.static.data: name must be a non-empty str, got {name!r}")
    shape = _shape(shape, "paddle.static.data")
    dtype = _dt.get_default_dtype() if dtype is None else dtype
    block = default_main_program().global_block()
    desc = block.create_var(name, shape, _dt.convert_dtype(dtype).name, is_data=True)
    return variable_of(desc)


class InputSpec:
    """The shape, dtype and name of an input (of ``paddle.jit.to_static`` or
    ``paddle.static`` programs); -1 or None marks an unknown dimension."""

    def __init__(self, shape, dtype="float32", name=None, stop_gradient=False):
        self.shape = _shape(shape, "InputSpec")
        self.dtype = _dt.convert_dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name=None):
        """The spec of a Tensor (its shape, dtype and, unless given, name)."""
        return cls(tensor.shape, tensor.dtype, name or getattr(tensor, "name", None))

    @classmethod
    def from_numpy(cls, ndarray, name=None):
        return cls(ndarray.shape, ndarray.dtype, name)

    def batch(self, batch_size):
        """This spec with a leading batch dimension."""
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 1:
                raise ValueError(f"Length of batch_size: {batch_size} shall be 1, but received "
                                 f"{len(batch_size)}.")
            batch_size = batch_size[0]
        self.shape = (*_shape([batch_size], "InputSpec.batch"), *self.shape)
        return self

    def unbatch(self):
        """This spec without its leading dimension."""
        if not self.shape:
            raise ValueError("Not support to unbatch a InputSpec when len(shape) == 0.")
        self.shape = self.shape[1:]
        return self

    def __repr__(self):
        return (f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, "
                f"stop_gradient={self.stop_gradient})")

    def __eq__(self, other):
        return type(self) is type(other) and (self.shape, self.dtype, self.name,
                                              self.stop_gradient) == (
            other.shape, other.dtype, other.name, other.stop_gradient)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.name))
