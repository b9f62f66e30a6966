"""Shape, layout, joining, splitting, indexing, gathering and scattering kernels.

Ops that only change the shape (reshape, squeeze, unsqueeze, flatten) may return a view
of their input, as Paddle's do; every other kernel returns a new array, so writing into
an op's output never changes its input.
"""

import numpy as np

from .._core.ops.manipulation import (
    PAD_MODES,
    diag_index,
    flatten_shape,
    reshape_target,
    slice_index,
    squeeze_shape,
    tile_shapes,
    unsqueeze_shape,
)
from ._registry import kernel


@kernel
def cast(x, dtype=None):
    """x converted to dtype"""
    return x.astype(dtype)


@kernel
def reshape(x, shape=None):
    """x with a new shape (one -1 is inferred)"""
    return np.reshape(x, reshape_target(x.shape, shape))


@kernel
def broadcast_to(x, shape=None):
    """x broadcast to shape (-1 keeps a dimension); a copy, never a read-only view"""
    lead = len(shape) - x.ndim
    target = tuple(x.shape[i - lead] if d == -1 else d for i, d in enumerate(shape))
    return np.broadcast_to(x, target).copy()


@kernel
def transpose(x, perm=None):
    """x with its axes permuted"""
    return np.transpose(x, perm).copy()


@kernel
def squeeze(x, axis=None):
    """x without the listed size-1 axes (all of them for None)"""
    return np.reshape(x, squeeze_shape(x.shape, axis))


@kernel
def unsqueeze(x, axis=None):
    """x with size-1 axes inserted, one position after another"""
    return np.reshape(x, unsqueeze_shape(x.shape, axis))


@kernel
def flatten(x, start_axis=0, stop_axis=-1):
    """x with axes start_axis..stop_axis merged"""
    return np.reshape(x, flatten_shape(x.shape, start_axis, stop_axis))


@kernel
def tile(x, repeat_times=None):
    """x repeated repeat_times[i] times along axis i"""
    shape, reps = tile_shapes(x.shape, repeat_times)
    return np.tile(np.reshape(x, shape), reps)


@kernel
def concat(x, axis=0):
    """the arrays of x joined along axis"""
    return np.concatenate(x, axis=axis)


@kernel
def stack(x, axis=0):
    """the arrays of x stacked along a new axis"""
    return np.stack(x, axis=axis)


@kernel
def slice_(input, axes=None, starts=None, ends=None):
    """input[starts:ends] along each of axes"""
    return input[slice_index("slice", input.shape, axes, starts, ends)].copy()


@kernel
def strided_slice(x, axes=None, starts=None, ends=None, strides=None):
    """x[starts:ends:strides] along each of axes"""
    return x[slice_index("strided_slice", x.shape, axes, starts, ends, strides)].copy()


@kernel
def getitem(x, index=()):
    """x[index] (NumPy's indexing rules), as a new array"""
    return np.array(x[index])


@kernel
def getitem_grad(out_grad, index=(), shape=()):
    """zeros of shape with out_grad added at [index]; repeated indices accumulate"""
    out = np.zeros(shape, dtype=out_grad.dtype)
    np.add.at(out, index, out_grad)
    return out


@kernel
def setitem(x, value, index=()):
    """a copy of x with value written into [index]"""
    out = x.copy()
    out[index] = value
    return out


@kernel
def gather(x, index, axis=0):
    """the slices of x at positions index along axis"""
    return np.take(x, index, axis=axis)


@kernel
def index_select(x, index, axis=0):
    """the slices of x at positions index along axis"""
    return np.take(x, index, axis=axis)


@kernel
def index_add(x, index, value, axis=0):
    """x with the slices of value added at positions index along axis"""
    out = x.copy()
    np.add.at(out, (slice(None),) * (axis % x.ndim) + (index,), value)
    return out


def _nd_index(index):
    """index's last axis as a tuple of integer arrays, one per leading axis of x."""
    return tuple(np.moveaxis(index, -1, 0))


@kernel
def gather_nd(x, index):
    """x[index[..., 0], index[..., 1], ...]"""
    k = index.shape[-1]
    return np.broadcast_to(x[_nd_index(index)], index.shape[:-1] + x.shape[k:]).copy()


@kernel
def scatter_nd_add(x, index, updates):
    """x with updates added at x[index[..., 0], index[..., 1], ...]"""
    out = x.copy()
    if index.shape[-1] == 0:  # every update addresses the whole of x
        out += updates.reshape((-1,) + x.shape).sum(axis=0)
    else:
        np.add.at(out, _nd_index(index), updates)
    return out


@kernel
def scatter(x, index, updates, overwrite=True):
    """x with rows index overwritten by updates, or zeroed and then summed into"""
    out = x.copy()
    if overwrite:
        out[index] = updates
    else:
        out[index] = 0
        np.add.at(out, index, updates)
    return out


def _along_axis(indices, axis):
    """The full index that reads arr[i0, .., indices[i0, .., ik, ..], .., ik] at every
    position of indices (positions along the other axes are taken as they are)."""
    grid = list(np.indices(indices.shape, sparse=True))
    grid[axis] = indices
    return tuple(grid)


@kernel
def take_along_axis(arr, indices, axis=0):
    """arr read at indices along axis"""
    return arr[_along_axis(indices, axis)]


@kernel
def put_along_axis(arr, indices, values, axis=0, reduce="assign"):
    """arr with values assigned, added or multiplied in at indices along axis"""
    out = arr.copy()
    where = _along_axis(indices, axis)
    if reduce == "assign":
        out[where] = values
    elif reduce == "add":
        np.add.at(out, where, values)
    else:
        np.multiply.at(out, where, values)
    return out


@kernel
def index_sample(x, index):
    """out[i, j] = x[i, index[i, j]]"""
    return x[_along_axis(index, 1)]


@kernel
def masked_fill(x, mask, value):
    """value where mask is True, x elsewhere"""
    return np.where(mask, value, x)


@kernel
def one_hot(x, num_classes=None):
    """float32 rows of num_classes with a 1 at position x"""
    if np.any((x < 0) | (x >= num_classes)):
        raise IndexError(f"one_hot: the values of x must be in [0, {num_classes}), got "
                         f"{x.min()}..{x.max()}")
    return (x[..., None] == np.arange(num_classes)).astype(np.float32)


@kernel
def flip(x, axis=None):
    """x reversed along axis"""
    return np.flip(x, axis).copy()


@kernel
def roll(x, shifts=None, axis=None):
    """x shifted circularly along axis (flattened when axis is None)"""
    return np.roll(x, shifts if axis is not None else shifts[0], axis)


@kernel
def tril(x, diagonal=0):
    """the lower triangle of the last two axes"""
    return np.tril(x, diagonal)


@kernel
def triu(x, diagonal=0):
    """the upper triangle of the last two axes"""
    return np.triu(x, diagonal)


@kernel
def diag(x, offset=0, padding_value=0):
    """a matrix with x on a diagonal (1-D x), or a matrix's diagonal (2-D x)"""
    if x.ndim == 2:
        return x[diag_index(*x.shape, offset)]
    n = x.size + abs(offset)
    out = np.full((n, n), padding_value, dtype=x.dtype)
    out[diag_index(n, n, offset)] = x.reshape(-1)
    return out


@kernel
def repeat_interleave(x, repeats=1, axis=0):
    """each element along axis repeated repeats (or repeats[i]) times"""
    return np.repeat(x, repeats, axis=axis)


@kernel
def pad(x, paddings=(), mode="constant", value=0.0):
    """x padded by (before, after) per axis"""
    width = np.reshape(np.array(paddings, dtype=np.int64), (x.ndim, 2))
    if mode == "constant":
        return np.pad(x, width, mode="constant", constant_values=value)
    return np.pad(x, width, mode=PAD_MODES[mode])


@kernel
def shape(input):
    """input's shape as int64"""
    return np.array(input.shape, dtype=np.int64)


@kernel
def numel(x):
    """x's number of elements as a 0-D int64"""
    return np.array(x.size, dtype=np.int64)
