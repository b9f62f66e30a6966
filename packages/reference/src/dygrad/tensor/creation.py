"""Tensor creation (paddle.tensor.creation): constants, ranges, copies.

The functions turn Paddle's flexible arguments (shapes as lists, tuples, ints or int
Tensors; dtypes as strings, dtype objects or NumPy dtypes; Tensors as numbers) into the
plain attributes of the op table's rows, then run the row.
"""

from __future__ import annotations

import numpy as np

from .._core import dispatch as _dispatch
from .._core import dtype as _dt
from .._core.autograd import grad_mode
from .._core.creation import to_tensor
from .._core.dispatch import ops
from .._core.optable import TABLE, Meta
from .._core.printing import set_printoptions
from .._core.tensor import Tensor

__all__ = ["to_tensor", "zeros", "ones", "full", "empty", "zeros_like", "ones_like",
           "full_like", "empty_like", "arange", "linspace", "eye", "assign", "clone",
           "set_printoptions", "meshgrid", "logspace", "tril_indices", "triu_indices"]
METHODS = ["clone", "zero_", "fill_"]


# ---------------------------------------------------------------------------
# argument conversion (shared with tensor/random.py)
# ---------------------------------------------------------------------------

def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def convert_shape(shape, api: str) -> tuple:
    """Paddle's shape argument -> a tuple of ints >= 0: a list/tuple of ints or of
    one-element int Tensors, a single int, a 1-D int Tensor, or None (a 0-D tensor)."""
    if shape is None:
        return ()
    if isinstance(shape, Tensor):
        if shape._data.dtype.kind not in "iu":
            raise TypeError(f"{api}: a shape Tensor must be int32 or int64, got {shape.dtype}")
        dims = [int(d) for d in shape.numpy().reshape(-1)]
    elif _is_int(shape):
        dims = [int(shape)]
    elif isinstance(shape, (list, tuple)):
        dims = []
        for i, d in enumerate(shape):
            if isinstance(d, Tensor):
                if d._data.dtype.kind not in "iu" or d.size != 1:
                    raise TypeError(f"{api}: shape[{i}] is a Tensor of shape {d.shape} and "
                                    f"dtype {d.dtype}; a Tensor in a shape must be one int")
                d = d.item()
            elif not _is_int(d):
                raise TypeError(f"{api}: shape must hold ints, got {type(d).__name__} {d!r} "
                                f"at position {i} of {list(shape)}")
            dims.append(int(d))
    else:
        raise TypeError(f"{api}: shape must be a list, tuple, int or int Tensor, got "
                        f"{type(shape).__name__}")
    if any(d < 0 for d in dims):
        raise ValueError(f"{api}: every dimension of shape must be >= 0, got {dims}")
    return tuple(dims)


def convert_dtype(dtype, default=None) -> np.dtype:
    """Any dtype spelling -> np.dtype; ``None`` -> ``default`` (the default float dtype
    when no default is given)."""
    if dtype is None:
        return _dt.default_float().np if default is None else np.dtype(default)
    return _dt.convert_dtype(dtype).np


def scalar(value, api: str, what: str):
    """A Python number from a number or a one-element Tensor."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"{api}: {what} must be a number or a one-element Tensor, got a "
                             f"Tensor of shape {value.shape}")
        return value.item()
    if isinstance(value, (np.generic, np.ndarray)):
        return value.item()
    return value


def create(name: str, **attrs):
    """Run the creation row ``name``. These rows have no tensor inputs, so their
    ``infer_meta`` checks every argument first, and wrong calls get the table's errors."""
    op = TABLE[name]
    op.infer_meta(**attrs)
    return _dispatch.apply(op, **attrs)


# ---------------------------------------------------------------------------
# constants
# ---------------------------------------------------------------------------

def full(shape, fill_value, dtype=None, name=None):
    """A tensor of ``shape`` filled with ``fill_value``; without a dtype, bool values give
    bool, complex values complex128, and all other numbers the default float dtype."""
    fill_value = scalar(fill_value, "full", "fill_value")
    if dtype is None:
        dtype = (np.bool_ if isinstance(fill_value, bool) else
                 np.complex128 if isinstance(fill_value, complex) else None)
    return create("full", shape=convert_shape(shape, "full"), fill_value=fill_value,
                  dtype=convert_dtype(dtype))


def zeros(shape, dtype=None, name=None):
    """A tensor of ``shape`` filled with 0 (default float dtype unless given)."""
    return create("full", shape=convert_shape(shape, "zeros"), fill_value=0,
                  dtype=convert_dtype(dtype))


def ones(shape, dtype=None, name=None):
    """A tensor of ``shape`` filled with 1 (default float dtype unless given)."""
    return create("full", shape=convert_shape(shape, "ones"), fill_value=1,
                  dtype=convert_dtype(dtype))


def empty(shape, dtype=None, name=None):
    """A tensor of ``shape`` whose values are unspecified (this engine gives zeros)."""
    return create("full", shape=convert_shape(shape, "empty"), fill_value=0,
                  dtype=convert_dtype(dtype))


def _like(api, x, fill_value, dtype):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: x must be a Tensor, got {type(x).__name__}")
    return ops.full_like(x, fill_value=fill_value,
                         dtype=None if dtype is None else convert_dtype(dtype))


def full_like(x, fill_value, dtype=None, name=None):
    """A tensor with x's shape (and dtype unless given) filled with ``fill_value``."""
    return _like("full_like", x, scalar(fill_value, "full_like", "fill_value"), dtype)


def zeros_like(x, dtype=None, name=None):
    """A tensor with x's shape (and dtype unless given) filled with 0."""
    return _like("zeros_like", x, 0, dtype)


def ones_like(x, dtype=None, name=None):
    """A tensor with x's shape (and dtype unless given) filled with 1."""
    return _like("ones_like", x, 1, dtype)


def empty_like(x, dtype=None, name=None):
    """A tensor with x's shape (and dtype unless given), values unspecified (zeros here)."""
    return _like("empty_like", x, 0, dtype)


# ---------------------------------------------------------------------------
# ranges
# ---------------------------------------------------------------------------

def _is_float_arg(v) -> bool:
    if isinstance(v, Tensor):
        return v._data.dtype.kind not in "iub"
    return not _is_int(v)


def arange(start=0, end=None, step=1, dtype=None, name=None):
    """Values from ``start`` (included) to ``end`` (excluded) spaced by ``step``;
    ``arange(n)`` counts from 0. Without a dtype: int64 when all of start, end and step
    are ints, else the default float dtype."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        floats = any(_is_float_arg(v) for v in (start, end, step))
        dtype = _dt.default_float().np if floats else np.dtype(np.int64)
    start, end, step = (scalar(v, "arange", w) for v, w in
                        ((start, "start"), (end, "end"), (step, "step")))
    return create("arange", start=start, end=end, step=step, dtype=convert_dtype(dtype))


def linspace(start, stop, num, dtype=None, name=None):
    """``num`` evenly spaced values from ``start`` to ``stop`` (both included)."""
    num = scalar(num, "linspace", "num")
    if not isinstance(num, (int, float)) or isinstance(num, bool):
        raise TypeError(f"linspace: num must be an int, got {type(num).__name__}")
    return create("linspace", start=scalar(start, "linspace", "start"),
                  stop=scalar(stop, "linspace", "stop"), num=int(num),
                  dtype=convert_dtype(dtype))


def eye(num_rows, num_columns=None, dtype=None, name=None):
    """A 2-D tensor with ones on the diagonal and zeros elsewhere."""
    num_rows = scalar(num_rows, "eye", "num_rows")
    num_columns = scalar(num_columns, "eye", "num_columns")
    for what, v in (("num_rows", num_rows), ("num_columns", num_columns)):
        if v is not None and (not _is_int(v) or v < 0):
            raise TypeError(f"eye: {what} must be a non-negative int, got {v!r}")
    return create("eye", num_rows=int(num_rows),
                  num_columns=None if num_columns is None else int(num_columns),
                  dtype=convert_dtype(dtype))


# ---------------------------------------------------------------------------
# copies and in-place fills
# ---------------------------------------------------------------------------

def assign(x, output=None):
    """A copy of ``x`` (differentiable for Tensors). ``x`` may also be a NumPy array, a
    list/tuple or a number, taken as NumPy takes it (a number becomes shape [1]). With
    ``output`` the values are written into that tensor, which is returned."""
    if isinstance(x, Tensor):
        if x is output:
            return x
        value = ops.assign(x)
    elif isinstance(x, (np.ndarray, list, tuple, bool, int, float, np.generic)):
        data = np.asarray(_nested_numpy(x))
        if data.dtype.kind not in "biuf":
            raise TypeError(f"assign: cannot assign data of dtype {data.dtype} (expected "
                            f"bools, ints or floats)")
        value = to_tensor(data.reshape(1) if data.ndim == 0 else data)
    else:
        raise TypeError(f"assign: x must be a Tensor, NumPy array, list, tuple or number, got "
                        f"{type(x).__name__}")
    if output is None:
        return value
    if not isinstance(output, Tensor):
        raise TypeError(f"assign: output must be a Tensor, got {type(output).__name__}")
    return _write(output, value)


def _nested_numpy(data):
    if isinstance(data, Tensor):
        return data.numpy()
    if isinstance(data, (list, tuple)):
        return [_nested_numpy(d) for d in data]
    return data


def _write(x, value, api="assign"):
    """Write ``value`` into ``x`` in place (the ``assign_out`` row): recorded for autograd
    when either needs a gradient, with a zero gradient for x's old values."""
    if grad_mode.enabled and not x.stop_gradient and x.is_leaf:
        raise RuntimeError(
            f"{api}: a leaf tensor that needs a gradient (stop_gradient=False, e.g. a "
            f"parameter) cannot be changed in place while gradients are recorded; do it "
            f"under dygrad.no_grad()")
    op = TABLE["assign_out"]
    op.infer_meta(Meta(x._data.shape, x._data.dtype), Meta(value._data.shape, value._data.dtype))
    return _dispatch.apply_inplace(op, x, value)


def clone(x, name=None):
    """A copy of ``x`` that stays in the graph (gradients flow back to ``x``)."""
    return ops.assign(x)


def fill_(x, value):
    """Set every element of ``x`` to ``value`` in place; returns ``x``."""
    if not isinstance(value, (int, float, np.number)):
        raise TypeError(f"fill_: value must be an int or float, got {type(value).__name__}")
    return _write(x, ops.full(shape=tuple(x._data.shape), fill_value=value,
                              dtype=x._data.dtype), "fill_")


def zero_(x):
    """Set every element of ``x`` to 0 in place; returns ``x``."""
    return _write(x, ops.full(shape=tuple(x._data.shape), fill_value=0, dtype=x._data.dtype),
                  "zero_")


# ---------------------------------------------------------------------------
# grids
# ---------------------------------------------------------------------------

def meshgrid(*args, **kwargs):
    """Coordinate grids from 0-D or 1-D tensors of one dtype (given one by one or as one
    list/tuple): output i holds input i's values along axis i, broadcast to shape
    [len(t) for t in args] ('ij' indexing; with indexing='xy' the first two axes are
    swapped). Returns a list of Tensors."""
    indexing = kwargs.pop("indexing", "ij")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid: unexpected keyword arguments {sorted(kwargs)}")
    if indexing not in ("ij", "xy"):
        raise ValueError(f"meshgrid: indexing must be 'ij' or 'xy', got {indexing!r}")
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    if not args:
        raise ValueError("meshgrid: expected at least one Tensor, got none")
    for i, t in enumerate(args):
        if not isinstance(t, Tensor):
            raise TypeError(f"meshgrid: input {i} must be a Tensor, got {type(t).__name__}")
        if t.ndim > 1:
            raise ValueError(f"meshgrid: input {i} must be 0-D or 1-D, got shape {t.shape}")
        if t._data.dtype != args[0]._data.dtype:
            raise ValueError(f"meshgrid: all inputs must have one dtype; input 0 is "
                             f"{args[0].dtype} and input {i} is {t.dtype}")
    sizes = [t.size for t in args]
    if indexing == "xy" and len(args) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for i, t in enumerate(args):
        shape = [1] * len(args)
        shape[1 - i if indexing == "xy" and i < 2 else i] = t.size
        grids.append(ops.broadcast_to(ops.reshape(t, shape=tuple(shape)), shape=tuple(sizes)))
    return grids


# ---------------------------------------------------------------------------
# log-spaced values and triangle indices
# ---------------------------------------------------------------------------

def logspace(start, stop, num, base=10.0, dtype=None, name=None):
    """``num`` values base ** v for v evenly spaced from ``start`` to ``stop`` (both
    included), computed in float64 and then cast to dtype (truncated for int dtypes)."""
    num = scalar(num, "logspace", "num")
    if not _is_int(num):
        raise TypeError(f"logspace: num must be an int, got {type(num).__name__}")
    if num <= 0:
        raise ValueError(f"logspace: num must be larger than 0, got {num}")
    exponents = linspace(start, stop, num, dtype="float64")
    base = full((), scalar(base, "logspace", "base"), dtype="float64")
    return ops.cast(ops.elementwise_pow(base, exponents), dtype=convert_dtype(dtype))


def _triangle_indices(api, row, col, offset, dtype, np_indices):
    col = row if col is None else col
    for what, v in (("row", row), ("col", col)):
        if not _is_int(v) or v < 0:
            raise TypeError(f"{api}: {what} must be a non-negative int, got {v!r}")
    if not _is_int(offset):
        raise TypeError(f"{api}: offset must be an int, got {offset!r}")
    dtype = convert_dtype(dtype)
    if dtype not in (np.int32, np.int64):
        raise TypeError(f"{api}: dtype must be int32 or int64, got {dtype.name}")
    return Tensor._wrap(np.stack(np_indices(row, offset, col)).astype(dtype).reshape(2, -1))


def tril_indices(row, col, offset=0, dtype="int64"):
    """The [2, k] row and column indices of the lower triangle (column <= row + offset) of
    a row x col matrix (col None: row), row by row."""
    return _triangle_indices("tril_indices", row, col, offset, dtype, np.tril_indices)


def triu_indices(row, col=None, offset=0, dtype="int64"):
    """The [2, k] row and column indices of the upper triangle (column >= row + offset) of
    a row x col matrix (col defaults to row), row by row."""
    return _triangle_indices("triu_indices", row, col, offset, dtype, np.triu_indices)
