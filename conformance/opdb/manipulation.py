"""Op database entries: shape, layout, joining, slicing, indexing, gathering, scattering.

The NumPy statements spell each meaning out with NumPy's own indexing; index samples
include negative positions and repeated positions (repeats add up in the gradients of
selections; samples where only one of several writes survives are kept out of the
gradient checks unless the rule handles them).
"""

import numpy as np

from . import ALL_NUMERIC, BOOL, INTS, ErrorInput, OpInfo, Sample, make

F = np.float32


def _s(*inputs, desc="", grad=True, **attrs):
    return Sample(tuple(inputs), attrs, desc, grad=grad)


def _idx(values, dtype=np.int64):
    return np.asarray(values, dtype=dtype)


# ---------------------------------------------------------------------------
# dtype and shape
# ---------------------------------------------------------------------------

def _cast_samples(dtype, rng):
    for target in (np.float32, np.float64, np.int32, np.int64, np.bool_, np.float16):
        yield Sample((make((3, 4), dtype, rng),), {"dtype": np.dtype(target)}, f"to {target.__name__}",
                     grad=np.dtype(target) == np.float64)  # lower precision spoils differences
    yield Sample((make((), dtype, rng),), {"dtype": np.dtype(np.float64)}, "0-D")


def _reshape_samples(dtype, rng):
    yield Sample((make((3, 4), dtype, rng),), {"shape": (4, 3)})
    yield Sample((make((3, 4), dtype, rng),), {"shape": (-1,)}, "-1")
    yield Sample((make((2, 3, 4), dtype, rng),), {"shape": (2, -1)}, "-1 inferred")
    yield Sample((make((0, 3), dtype, rng),), {"shape": (3, 0)}, "literal 0")
    yield Sample((make((), dtype, rng),), {"shape": (1, 1)}, "0-D to 2-D")
    yield Sample((make((1,), dtype, rng),), {"shape": ()}, "to 0-D")
    yield Sample((make((2, 0), dtype, rng),), {"shape": (4, 0, 3)}, "size 0")


def _reshape_errors(rng):
    yield ErrorInput(Sample((make((3, 4), F, rng),), {"shape": (5, -1)}), ValueError,
                     "cannot reshape")
    yield ErrorInput(Sample((make((3, 4), F, rng),), {"shape": (-1, -1)}), ValueError,
                     "only one dimension")
    yield ErrorInput(Sample((make((3, 4), F, rng),), {"shape": (-2, -6)}), ValueError, ">= -1")


def _broadcast_to_samples(dtype, rng):
    yield Sample((make((3, 1), dtype, rng),), {"shape": (3, 4)})
    yield Sample((make((4,), dtype, rng),), {"shape": (2, 3, 4)}, "new leading dims")
    yield Sample((make((), dtype, rng),), {"shape": (2, 2)}, "0-D")
    yield Sample((make((3, 1), dtype, rng),), {"shape": (-1, 2)}, "-1 keeps")


def _broadcast_to_ref(x, shape):
    lead = len(shape) - x.ndim
    return np.broadcast_to(x, tuple(x.shape[i - lead] if d == -1 else d for i, d in enumerate(shape)))


def _transpose_samples(dtype, rng):
    yield _s(make((2, 3, 4), dtype, rng), perm=(2, 0, 1))
    yield _s(make((2, 3, 4), dtype, rng), perm=(-1, 0, 1), desc="negative entries")
    yield _s(make((3, 4), dtype, rng), perm=(1, 0))
    yield _s(make((), dtype, rng), perm=(), desc="0-D")
    yield _s(make((2, 0, 3), dtype, rng), perm=(1, 2, 0), desc="size 0")
    yield _s(make((1, 5), dtype, rng), perm=(1, 0), desc="size 1")


def _transpose_errors(rng):
    x = make((2, 3, 4), F, rng)
    yield ErrorInput(_s(x, perm=(0, 1)), ValueError, r"one entry per dimension.*rank 3")
    yield ErrorInput(_s(x, perm=(0, 0, 1)), ValueError, "repeats an axis")
    yield ErrorInput(_s(x, perm=(0, 1, 3)), ValueError, r"transpose: perm entry 3 is out of range.*rank 3")


def _squeeze_ref(x, axis=None):
    if axis is None:
        return np.squeeze(x)
    axes = tuple(a % max(x.ndim, 1) for a in axis if x.ndim and x.shape[a] == 1)
    return np.squeeze(x, axis=axes)


def _squeeze_samples(dtype, rng):
    yield _s(make((1, 3, 1), dtype, rng), axis=None, desc="all")
    yield _s(make((1, 3, 1), dtype, rng), axis=(0,))
    yield _s(make((1, 3, 1), dtype, rng), axis=(-1,), desc="negative")
    yield _s(make((1, 3, 1), dtype, rng), axis=(1, 2), desc="size-3 axis ignored")
    yield _s(make((), dtype, rng), axis=None, desc="0-D")
    yield _s(make((), dtype, rng), axis=(0,), desc="0-D with axis 0")
    yield _s(make((2, 0, 1), dtype, rng), axis=None, desc="size 0")


def _squeeze_errors(rng):
    yield ErrorInput(_s(make((1, 1, 3), F, rng), axis=(3,)), ValueError,
                     r"squeeze: axis 3 is out of range for a tensor of rank 3")


def _unsqueeze_ref(x, axis):
    for a in axis:
        x = np.expand_dims(x, a if a >= 0 else a + x.ndim + 1)
    return x


def _unsqueeze_samples(dtype, rng):
    yield _s(make((2, 3), dtype, rng), axis=(0,))
    yield _s(make((2, 3), dtype, rng), axis=(-1,), desc="negative")
    yield _s(make((2, 3), dtype, rng), axis=(0, -1), desc="two, in turn")
    yield _s(make((2, 3), dtype, rng), axis=(2, 0), desc="each position read in the new shape")
    yield _s(make((), dtype, rng), axis=(0,), desc="0-D")
    yield _s(make((0, 3), dtype, rng), axis=(1,), desc="size 0")


def _unsqueeze_errors(rng):
    yield ErrorInput(_s(make((2, 3), F, rng), axis=(4,)), ValueError,
                     r"unsqueeze: axis 4 is out of range for a tensor of rank 2")
    yield ErrorInput(_s(make((2, 3), F, rng), axis=(-4,)), ValueError, "out of range")


def _flatten_ref(x, start_axis=0, stop_axis=-1):
    if x.ndim == 0:
        return x.reshape(1)
    s, e = start_axis % x.ndim, stop_axis % x.ndim
    return x.reshape(x.shape[:s] + (int(np.prod(x.shape[s:e + 1])),) + x.shape[e + 1:])


def _flatten_samples(dtype, rng):
    yield _s(make((2, 3, 4), dtype, rng), desc="all")
    yield _s(make((2, 3, 4), dtype, rng), start_axis=1, stop_axis=2)
    yield _s(make((2, 3, 4), dtype, rng), start_axis=-2, stop_axis=-1, desc="negative")
    yield _s(make((2, 3, 4), dtype, rng), start_axis=1, stop_axis=1, desc="one axis")
    yield _s(make((), dtype, rng), desc="0-D")
    yield _s(make((2, 0, 3), dtype, rng), start_axis=0, stop_axis=1, desc="size 0")


def _flatten_errors(rng):
    x = make((2, 3, 4), F, rng)
    yield ErrorInput(_s(x, start_axis=2, stop_axis=1), ValueError, "must not come after")
    yield ErrorInput(_s(x, start_axis=0, stop_axis=3), ValueError,
                     r"flatten: stop_axis 3 is out of range for a tensor of rank 3")


def _tile_samples(dtype, rng):
    yield _s(make((2, 3), dtype, rng), repeat_times=(2, 1))
    yield _s(make((2, 3), dtype, rng), repeat_times=(2,), desc="fewer repeats than axes")
    yield _s(make((3,), dtype, rng), repeat_times=(2, 1, 2), desc="more repeats than axes")
    yield _s(make((), dtype, rng), repeat_times=(3,), desc="0-D")
    yield _s(make((2, 3), dtype, rng), repeat_times=(0, 1), desc="0 repeats")
    yield _s(make((0, 3), dtype, rng), repeat_times=(2, 2), desc="size 0")


def _tile_errors(rng):
    yield ErrorInput(_s(make((3,), F, rng), repeat_times=(-1,)), ValueError, ">= 0")


# ---------------------------------------------------------------------------
# joining
# ---------------------------------------------------------------------------

def _concat_samples(dtype, rng):
    m = lambda *s: make(s, dtype, rng)
    yield _s([m(2, 3), m(1, 3), m(4, 3)], axis=0)
    yield _s([m(2, 1), m(2, 3)], axis=-1, desc="negative axis")
    yield _s([m(0, 3), m(2, 3)], axis=0, desc="a size-0 piece")
    yield _s([m(2, 3, 4)], axis=1, desc="one tensor")
    yield _s([m(1), m(1)], axis=0, desc="size 1")


def _concat_errors(rng):
    m = lambda *s: make(s, F, rng)
    yield ErrorInput(_s([m(2, 3), m(1, 4)], axis=0), ValueError, r"x\[1\] has shape \[1, 4\]")
    yield ErrorInput(_s([m(), m()], axis=0), ValueError, "out of range for a tensor of rank 0")
    yield ErrorInput(_s([m(2, 3)], axis=2), ValueError, "concat: axis 2 is out of range")
    yield ErrorInput(_s([], axis=0), ValueError, "non-empty")


def _stack_samples(dtype, rng):
    m = lambda *s: make(s, dtype, rng)
    yield _s([m(2, 3), m(2, 3), m(2, 3)], axis=0)
    yield _s([m(2, 3), m(2, 3)], axis=-1, desc="negative axis")
    yield _s([m(2, 3), m(2, 3)], axis=2, desc="new last axis")
    yield _s([m(), m()], axis=0, desc="0-D")
    yield _s([m(0, 3)], axis=1, desc="size 0")


def _stack_errors(rng):
    m = lambda *s: make(s, F, rng)
    yield ErrorInput(_s([m(2, 3), m(1, 3)], axis=0), ValueError, "one shape")
    yield ErrorInput(_s([m(2)], axis=2), ValueError, r"stack: axis 2 is out of range.*rank 1")


# ---------------------------------------------------------------------------
# slicing and x[index]
# ---------------------------------------------------------------------------

def _slices(ndim, axes, starts, ends, strides):
    index = [slice(None)] * ndim
    for a, s, e, st in zip(axes, starts, ends, strides):
        index[a] = slice(s, e, st)
    return tuple(index)


def _slice_ref(input, axes, starts, ends):
    return input[_slices(input.ndim, axes, starts, ends, [1] * len(axes))]


def _slice_samples(dtype, rng):
    x = make((2, 3, 4), dtype, rng)
    yield _s(x, axes=(0, 2), starts=(1, -3), ends=(2, 100), desc="negative start, end past the end")
    yield _s(x, axes=(2,), starts=(-100,), ends=(2,), desc="start before the beginning")
    yield _s(x, axes=(-1,), starts=(1,), ends=(3,), desc="negative axis")
    yield _s(x, axes=(2,), starts=(3,), ends=(1,), desc="empty")
    yield _s(make((0, 3), dtype, rng), axes=(1,), starts=(1,), ends=(2,), desc="size 0")


def _slice_errors(rng):
    x = make((2, 3, 4), F, rng)
    yield ErrorInput(_s(x, axes=(3,), starts=(1,), ends=(3,)), ValueError,
                     r"slice: axes entry 3 is out of range for a tensor of rank 3")
    yield ErrorInput(_s(x, axes=(0, 1), starts=(1,), ends=(3,)), ValueError, "one entry each")


def _strided_slice_ref(x, axes, starts, ends, strides):
    return x[_slices(x.ndim, axes, starts, ends, strides)]


def _strided_slice_samples(dtype, rng):
    x = make((2, 3, 4), dtype, rng)
    yield _s(x, axes=(2,), starts=(3,), ends=(0,), strides=(-1,), desc="backwards")
    yield _s(x, axes=(2,), starts=(-1,), ends=(-100,), strides=(-2,), desc="negative, clamped")
    yield _s(x, axes=(1, 2), starts=(0, 0), ends=(3, 4), strides=(2, 3))
    yield _s(x, axes=(-1,), starts=(100,), ends=(-100,), strides=(-1,), desc="whole, reversed")
    yield _s(x, axes=(2,), starts=(3,), ends=(-1,), strides=(-1,), desc="empty")


def _strided_slice_errors(rng):
    yield ErrorInput(_s(make((2, 3), F, rng), axes=(1,), starts=(0,), ends=(3,), strides=(0,)),
                     ValueError, "must not be 0")


def _getitem_ref(x, index=()):
    return x[index]


def _getitem_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, index=(1,), desc="int")
    yield _s(x, index=(-1, 2), desc="negative ints")
    yield _s(x, index=(slice(None, None, -1), slice(1, None, 2)), desc="slices with steps")
    yield _s(x, index=(None, Ellipsis, 1), desc="None and Ellipsis")
    yield _s(x, index=(_idx([0, 2, 0]),), desc="repeated int array")
    yield _s(x, index=(slice(None), _idx([1, -1, 1], np.int32)), desc="int32 array after a slice")
    yield _s(x, index=(_idx([0, 2]), _idx([3, 3])), desc="two int arrays")
    yield _s(x, index=(_idx([True, False, True], np.bool_),), desc="bool rows")
    yield _s(x, index=(make((3, 4), np.bool_, rng),), desc="bool mask")
    yield _s(make((), dtype, rng), index=(), desc="0-D, empty index")
    yield _s(make((), dtype, rng), index=(None,), desc="0-D, None")
    yield _s(make((0, 3), dtype, rng), index=(slice(None), 1), desc="size 0")


def _getitem_errors(rng):
    yield ErrorInput(_s(make((3, 4), F, rng), index=(5,)), IndexError, r"shape \[3, 4\]")
    yield ErrorInput(_s(make((3, 4), F, rng), index=(0, 0, 0)), IndexError, "too many indices")


def _getitem_grad_ref(out_grad, index=(), shape=()):
    out = np.zeros(shape, out_grad.dtype)
    np.add.at(out, index, out_grad)
    return out


def _getitem_grad_samples(dtype, rng):
    yield _s(make((3, 4), dtype, rng), index=(_idx([0, 2, 0]),), shape=(3, 4), desc="repeats add")
    yield _s(make((2, 2), dtype, rng), index=(slice(None, None, -2), slice(1, 3)), shape=(3, 4))
    yield _s(make((1, 3), dtype, rng), index=(None, Ellipsis, 1), shape=(3, 4))
    yield _s(make((), dtype, rng), index=(1, 2), shape=(3, 4), desc="one element")
    yield _s(make((0,), dtype, rng), index=(_idx([], np.int64),), shape=(2,), desc="size 0")


def _getitem_grad_errors(rng):
    yield ErrorInput(_s(make((2, 4), F, rng), index=(_idx([0, 1, 2]),), shape=(3, 4)), ValueError,
                     r"x\[index\] has shape \[3, 4\]")


def _setitem_ref(x, value, index=()):
    out = x.copy()
    out[index] = value
    return out


def _setitem_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, make((4,), dtype, rng), index=(1,), desc="a row")
    yield _s(x, make((), dtype, rng), index=(slice(None), slice(None, None, 2)), desc="0-D value")
    yield _s(x, make((3, 1), dtype, rng), index=(slice(None), _idx([0, 3])), desc="broadcast value")
    yield _s(x, make((1, 1, 4), dtype, rng), index=(2,), desc="extra leading 1s")
    yield _s(x, make((2,), dtype, rng), index=(_idx([0, 2]), _idx([1, -1])), desc="int arrays")
    yield _s(x, make((), dtype, rng), index=(make((3, 4), np.bool_, rng),), desc="bool mask")
    yield _s(make((), dtype, rng), make((), dtype, rng), index=(), desc="0-D")
    yield _s(make((0, 3), dtype, rng), make((3,), dtype, rng), index=(), desc="size 0")


def _setitem_errors(rng):
    yield ErrorInput(_s(make((3, 4), F, rng), make((3,), F, rng), index=(0,)), ValueError,
                     r"shape \[3\] cannot be assigned")


# ---------------------------------------------------------------------------
# gathering and scattering
# ---------------------------------------------------------------------------

def _gather_ref(x, index, axis=0):
    return np.take(x, index, axis=axis)


def _gather_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, _idx([2, 0, 2]), axis=0, desc="repeated rows")
    yield _s(x, _idx([3, 0], np.int32), axis=1, desc="int32 index")
    yield _s(x, _idx([-1, 1]), axis=-1, desc="negative")
    yield _s(x, _idx(1), axis=0, desc="0-D index drops the axis")
    yield _s(x, _idx([], np.int64), axis=0, desc="empty index")
    yield _s(make((2, 0), dtype, rng), _idx([1, 1]), axis=0, desc="size 0")


def _gather_errors(rng):
    x = make((3, 4), F, rng)
    yield ErrorInput(_s(x, _idx([3]), axis=0), IndexError, "out of bounds")
    yield ErrorInput(_s(x, _idx([1]), axis=2), ValueError, r"gather: axis 2 is out of range.*rank 2")
    yield ErrorInput(_s(x, np.array([1.0]), axis=0), TypeError, "int32 or int64")


def _index_select_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, _idx([2, 0, 2]), axis=0, desc="repeats")
    yield _s(x, _idx([3, -4], np.int32), axis=-1, desc="negative")
    yield _s(make((2, 3, 1), dtype, rng), _idx([0, 0]), axis=2, desc="size 1")
    yield _s(x, _idx([], np.int64), axis=1, desc="empty index")


def _index_select_errors(rng):
    yield ErrorInput(_s(make((3, 4), F, rng), _idx([4]), axis=0), IndexError, "out of bounds")


def _index_add_ref(x, index, value, axis=0):
    out = x.copy()
    for k, i in enumerate(index):
        sel = (slice(None),) * (axis % x.ndim)
        out[sel + (i,)] += value[sel + (k,)]
    return out


def _index_add_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, _idx([2, 0, 2]), make((3, 4), dtype, rng), axis=0, desc="repeats accumulate")
    yield _s(x, _idx([-1, 1], np.int32), make((3, 2), dtype, rng), axis=-1, desc="negative")
    yield _s(x, _idx([], np.int64), make((3, 0), dtype, rng), axis=1, desc="empty index")


def _index_add_errors(rng):
    yield ErrorInput(_s(make((3, 4), F, rng), _idx([5]), make((1, 4), F, rng), axis=0),
                     IndexError, "out of bounds")


def _gather_nd_ref(x, index):
    k = index.shape[-1]
    out = np.empty(index.shape[:-1] + x.shape[k:], x.dtype)
    for pos in np.ndindex(index.shape[:-1]):
        out[pos] = x[tuple(index[pos])]
    return out


def _gather_nd_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, _idx([[1, 2], [0, 0], [1, 2]]), desc="elements, repeated")
    yield _s(x, _idx([[1], [-1]], np.int32), desc="rows")
    yield _s(x, _idx([1, 2]), desc="1-D index: one element")
    yield _s(x, _idx(np.zeros((2, 0))), desc="empty last axis: all of x")
    yield _s(make((2, 3, 2), dtype, rng), _idx([[[0, 1]], [[1, 2]]]), desc="batched index")


def _gather_nd_errors(rng):
    x = make((3, 4), F, rng)
    yield ErrorInput(_s(x, _idx([[1, 2, 0]])), ValueError, "at most x's rank 2")
    yield ErrorInput(_s(x, _idx([[3, 0]])), IndexError, "out of bounds")


def _scatter_nd_add_ref(x, index, updates):
    out = x.copy()
    for pos in np.ndindex(index.shape[:-1]):
        out[tuple(index[pos])] += updates[pos]
    return out


def _scatter_nd_add_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, _idx([[1, 1], [1, 1], [0, 3]]), make((3,), dtype, rng), desc="repeats add")
    yield _s(x, _idx([[1], [-1]], np.int32), make((2, 4), dtype, rng), desc="rows")
    yield _s(x, _idx(np.zeros((2, 0))), make((2, 3, 4), dtype, rng), desc="empty last axis")
    yield _s(x, _idx(np.zeros((0, 2))), make((0,), dtype, rng), desc="no updates")


def _scatter_nd_add_errors(rng):
    x = make((3, 4), F, rng)
    yield ErrorInput(_s(x, _idx([[5], [1]]), make((2, 4), F, rng)), IndexError, "out of bounds")


def _scatter_ref(x, index, updates, overwrite=True):
    out = x.copy()
    if overwrite:
        for k, i in enumerate(index):
            out[i] = updates[k]
    else:
        out[index] = 0
        for k, i in enumerate(index):
            out[i] += updates[k]
    return out


def _scatter_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, _idx([1, 0]), make((2, 4), dtype, rng), desc="overwrite")
    yield _s(x, _idx([1, 1, 0]), make((3, 4), dtype, rng), overwrite=False, desc="accumulate")
    yield _s(x, _idx([-1], np.int32), make((1, 4), dtype, rng), desc="negative")
    yield _s(x, _idx([1, 1, 0]), make((3, 4), dtype, rng), overwrite=True, grad=False,
             desc="overwrite, repeated: the last write wins")
    yield _s(make((4,), dtype, rng), _idx([3, 0]), make((2,), dtype, rng), desc="1-D")
    yield _s(x, _idx([], np.int64), make((0, 4), dtype, rng), desc="empty index")


def _scatter_errors(rng):
    x = make((3, 4), F, rng)
    yield ErrorInput(_s(x, _idx([3]), make((1, 4), F, rng)), IndexError, "out of bounds")


def _along(indices, axis):
    grid = list(np.ix_(*[np.arange(n) for n in indices.shape]))
    grid[axis] = indices
    return tuple(grid)


def _take_along_axis_ref(arr, indices, axis=0):
    return arr[_along(indices, axis)]


def _take_along_axis_samples(dtype, rng):
    arr = make((3, 4), dtype, rng)
    yield _s(arr, _idx([[0, 3, 1], [1, 1, 1], [2, 0, 3]]), axis=1, desc="repeats")
    yield _s(arr, _idx([[0, 3, 1]]), axis=1, desc="fewer rows than arr")
    yield _s(arr, _idx([[-1], [2], [0]], np.int32), axis=-1, desc="negative")
    yield _s(arr, _idx([[2, 2, 0, 1], [0, 0, 0, 0]]), axis=0, desc="axis 0")
    yield _s(arr, _idx(np.zeros((3, 0))), axis=1, desc="size 0")


def _take_along_axis_errors(rng):
    yield ErrorInput(_s(make((3, 4), F, rng), _idx([[4]]), axis=1), IndexError, "out of bounds")


def _put_along_axis_ref(arr, indices, values, axis=0, reduce="assign"):
    out = arr.copy()
    for pos in np.ndindex(indices.shape):
        target = list(pos)
        target[axis] = indices[pos]
        target = tuple(target)
        if reduce == "assign":
            out[target] = values[pos]
        elif reduce == "add":
            out[target] += values[pos]
        else:
            out[target] *= values[pos]
    return out


def _put_along_axis_samples(dtype, rng):
    arr = make((3, 4), dtype, rng)
    rows = _idx([[1, 1], [0, 2], [3, 3]])
    yield _s(arr, _idx([[1, 3], [0, 2], [3, 0]]), make((3, 2), dtype, rng), axis=1, desc="assign")
    yield _s(arr, rows, make((3, 2), dtype, rng), axis=1, desc="assign, repeated: last wins")
    yield _s(arr, rows, make((3, 2), dtype, rng), axis=1, reduce="add", desc="add, repeated")
    yield _s(arr, rows, make((3, 2), dtype, rng, 0.5, 2.0), axis=-1, reduce="multiply",
             desc="multiply, repeated")
    yield _s(arr, _idx([[2, 0, 1, 2]], np.int32), make((1, 4), dtype, rng), axis=0,
             reduce="add", desc="axis 0, fewer rows")
    yield _s(arr, _idx(np.zeros((3, 0))), make((3, 0), dtype, rng), axis=1, desc="size 0")


def _put_along_axis_errors(rng):
    arr = make((3, 4), F, rng)
    yield ErrorInput(_s(arr, _idx([[4]]), make((1, 1), F, rng), axis=1), IndexError, "out of bounds")


def _index_sample_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, _idx([[0, 3], [1, 1], [2, 0]]), desc="repeats")
    yield _s(x, _idx([[0, 3, 1, 2, 2]] * 3, np.int32), desc="more samples than columns")
    yield _s(x, _idx(np.zeros((3, 0))), desc="size 0")


def _index_sample_errors(rng):
    yield ErrorInput(_s(make((3, 4), F, rng), _idx([[0], [4], [1]])), IndexError, "out of bounds")


def _masked_fill_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, make((3, 4), np.bool_, rng), make((), dtype, rng), desc="0-D value")
    yield _s(x, make((4,), np.bool_, rng), make((1,), dtype, rng), desc="broadcast mask")
    yield _s(make((4,), dtype, rng), make((2, 1), np.bool_, rng), make((), dtype, rng),
             desc="mask widens the output")
    yield _s(x, make((3, 4), np.bool_, rng), make((3, 4), dtype, rng), desc="value per element")
    yield _s(make((0, 4), dtype, rng), make((4,), np.bool_, rng), make((), dtype, rng),
             desc="size 0")


def _masked_fill_errors(rng):
    yield ErrorInput(_s(make((3, 4), F, rng), make((3,), np.bool_, rng), make((), F, rng)),
                     ValueError, "masked_fill: shapes")


def _one_hot_ref(x, num_classes=None):
    return np.eye(num_classes, dtype=np.float32)[x]


def _one_hot_samples(dtype, rng):
    yield _s(_idx([1, 0, 3], dtype), num_classes=4)
    yield _s(_idx([[1], [2]], dtype), num_classes=3, desc="2-D")
    yield _s(_idx(2, dtype), num_classes=4, desc="0-D")
    yield _s(_idx(np.zeros((0,)), dtype), num_classes=2, desc="size 0")


def _one_hot_errors(rng):
    yield ErrorInput(_s(_idx([1, 4]), num_classes=4), IndexError, r"\[0, 4\)")
    yield ErrorInput(_s(_idx([-1]), num_classes=4), IndexError, r"\[0, 4\)")


# ---------------------------------------------------------------------------
# rearranging
# ---------------------------------------------------------------------------

def _flip_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, axis=(-1,))
    yield _s(x, axis=(0, 1), desc="both axes")
    yield _s(make((2, 0, 3), dtype, rng), axis=(2,), desc="size 0")
    yield _s(make((1,), dtype, rng), axis=(0,), desc="size 1")


def _flip_errors(rng):
    yield ErrorInput(_s(make((3, 4), F, rng), axis=(2,)), ValueError,
                     r"flip: axis 2 is out of range for a tensor of rank 2")
    yield ErrorInput(_s(make((), F, rng), axis=(0,)), ValueError, "rank 0")
    yield ErrorInput(_s(make((3, 4), F, rng), axis=(0, 0)), ValueError, "twice")


def _roll_ref(x, shifts, axis=None):
    if axis is None:
        return np.roll(x.reshape(-1), shifts[0]).reshape(x.shape)
    for s, a in zip(shifts, axis):
        x = np.roll(x, s, a)
    return x


def _roll_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, shifts=(1,), axis=None, desc="flattened")
    yield _s(x, shifts=(1, -1), axis=(0, 1))
    yield _s(x, shifts=(5,), axis=(-1,), desc="more than the size")
    yield _s(make((), dtype, rng), shifts=(1,), axis=None, desc="0-D")
    yield _s(make((0, 3), dtype, rng), shifts=(2,), axis=(1,), desc="size 0")


def _roll_errors(rng):
    x = make((3, 4), F, rng)
    yield ErrorInput(_s(x, shifts=(1,), axis=(2,)), ValueError, r"roll: axis 2 is out of range")


def _triangle_samples(dtype, rng):
    yield _s(make((3, 4), dtype, rng), diagonal=0)
    yield _s(make((3, 4), dtype, rng), diagonal=-1)
    yield _s(make((3, 4), dtype, rng), diagonal=2)
    yield _s(make((2, 3, 3), dtype, rng), diagonal=0, desc="batched")
    yield _s(make((0, 3), dtype, rng), diagonal=0, desc="size 0")


def _triangle_errors(op):
    def gen(rng):
        yield ErrorInput(_s(make((), F, rng)), ValueError, f"{op}: x must have at least 2")
    return gen


def _diag_ref(x, offset=0, padding_value=0):
    if x.ndim == 2:
        return np.diagonal(x, offset)
    x = x.reshape(-1)
    n = x.size + abs(offset)
    out = np.full((n, n), padding_value, dtype=x.dtype)
    return np.where(np.eye(n, k=offset, dtype=bool), np.diag(x, offset), out)


def _diag_samples(dtype, rng):
    yield _s(make((3,), dtype, rng), offset=1, padding_value=9)
    yield _s(make((2,), dtype, rng), offset=-1)
    yield _s(make((), dtype, rng), desc="0-D")
    yield _s(make((3, 4), dtype, rng), offset=1)
    yield _s(make((3, 4), dtype, rng), offset=-2)
    yield _s(make((3, 4), dtype, rng), offset=5, desc="past the matrix")
    yield _s(make((0,), dtype, rng), offset=2, desc="size 0")


def _repeat_interleave_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    yield _s(x, repeats=2, axis=0)
    yield _s(x, repeats=(1, 0, 2), axis=0, desc="per element")
    yield _s(x, repeats=3, axis=-1, desc="negative axis")
    yield _s(make((0, 2), dtype, rng), repeats=2, axis=1, desc="size 0")


def _repeat_interleave_errors(rng):
    x = make((3, 4), F, rng)
    yield ErrorInput(_s(x, repeats=(1, 2), axis=0), ValueError, "3 elements along axis 0")
    yield ErrorInput(_s(x, repeats=2, axis=2), ValueError,
                     r"repeat_interleave: axis 2 is out of range for a tensor of rank 2")


_NP_PAD = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def _pad_ref(x, paddings=(), mode="constant", value=0.0):
    out = x
    for ax, (before, after) in enumerate(paddings):  # one axis at a time
        width = [(0, 0)] * x.ndim
        width[ax] = (before, after)
        kw = {"constant_values": value} if mode == "constant" else {}
        out = np.pad(out, width, mode=_NP_PAD[mode], **kw)
    return out


def _pad_samples(dtype, rng):
    x = make((1, 2, 3), dtype, rng)
    yield _s(x, paddings=((0, 0), (0, 0), (1, 2)), desc="constant")
    yield _s(x, paddings=((0, 1), (1, 0), (0, 1)), value=5.0, desc="constant, every axis")
    yield _s(x, paddings=((0, 0), (0, 0), (2, 1)), mode="reflect")
    yield _s(x, paddings=((0, 0), (1, 1), (2, 1)), mode="replicate")
    yield _s(x, paddings=((0, 0), (0, 0), (4, 1)), mode="circular", desc="wraps more than once")
    yield _s(make((0, 2), dtype, rng), paddings=((1, 0), (0, 1)), value=1.0, desc="size 0")


def _pad_errors(rng):
    x = make((1, 2, 3), F, rng)
    yield ErrorInput(_s(make((), F, rng), paddings=()), ValueError, "at least 1 dimension")
    yield ErrorInput(_s(x, paddings=((0, 0), (1, 0))), ValueError, "each of the 3 axes")


def _shape_samples(dtype, rng):
    for s in [(2, 3, 4), (), (0, 5)]:
        yield _s(make(s, dtype, rng), desc=f"{s}")


OPS = [
    OpInfo("cast", lambda x, dtype: x.astype(dtype), _cast_samples, dtypes=ALL_NUMERIC + BOOL),
    OpInfo("reshape", lambda x, shape: x.reshape(shape), _reshape_samples,
        dtypes=ALL_NUMERIC, gradgrad=True, errors=_reshape_errors),
    OpInfo("broadcast_to", _broadcast_to_ref, _broadcast_to_samples, dtypes=ALL_NUMERIC,
           gradgrad=True),
    OpInfo("transpose", lambda x, perm: np.transpose(x, perm), _transpose_samples,
           dtypes=ALL_NUMERIC + BOOL, gradgrad=True, errors=_transpose_errors),
    OpInfo("squeeze", _squeeze_ref, _squeeze_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_squeeze_errors),
    OpInfo("unsqueeze", _unsqueeze_ref, _unsqueeze_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_unsqueeze_errors),
    OpInfo("flatten", _flatten_ref, _flatten_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_flatten_errors),
    OpInfo("tile", lambda x, repeat_times: np.tile(x, repeat_times), _tile_samples,
           dtypes=ALL_NUMERIC + BOOL, gradgrad=True, errors=_tile_errors),
    OpInfo("concat", lambda x, axis=0: np.concatenate(x, axis), _concat_samples,
           dtypes=ALL_NUMERIC + BOOL, gradgrad=True, errors=_concat_errors),
    OpInfo("stack", lambda x, axis=0: np.stack(x, axis), _stack_samples,
           dtypes=ALL_NUMERIC + BOOL, gradgrad=True, errors=_stack_errors),
    OpInfo("slice", _slice_ref, _slice_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_slice_errors),
    OpInfo("strided_slice", _strided_slice_ref, _strided_slice_samples, dtypes=ALL_NUMERIC,
           gradgrad=True, errors=_strided_slice_errors),
    OpInfo("getitem", _getitem_ref, _getitem_samples, dtypes=ALL_NUMERIC + BOOL, gradgrad=True,
           errors=_getitem_errors),
    OpInfo("getitem_grad", _getitem_grad_ref, _getitem_grad_samples, dtypes=ALL_NUMERIC,
           gradgrad=True, errors=_getitem_grad_errors),
    OpInfo("setitem", _setitem_ref, _setitem_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_setitem_errors),
    OpInfo("gather", _gather_ref, _gather_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_gather_errors),
    OpInfo("index_select", _gather_ref, _index_select_samples, dtypes=ALL_NUMERIC,
           gradgrad=True, errors=_index_select_errors),
    OpInfo("index_add", _index_add_ref, _index_add_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_index_add_errors),
    OpInfo("gather_nd", _gather_nd_ref, _gather_nd_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_gather_nd_errors),
    OpInfo("scatter_nd_add", _scatter_nd_add_ref, _scatter_nd_add_samples, dtypes=ALL_NUMERIC,
           gradgrad=True, errors=_scatter_nd_add_errors),
    OpInfo("scatter", _scatter_ref, _scatter_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_scatter_errors),
    OpInfo("take_along_axis", _take_along_axis_ref, _take_along_axis_samples,
           dtypes=ALL_NUMERIC, gradgrad=True, errors=_take_along_axis_errors),
    OpInfo("put_along_axis", _put_along_axis_ref, _put_along_axis_samples, dtypes=ALL_NUMERIC,
           gradgrad=True, errors=_put_along_axis_errors),
    OpInfo("index_sample", lambda x, index: np.take_along_axis(x, index, 1),
           _index_sample_samples, dtypes=ALL_NUMERIC, gradgrad=True, errors=_index_sample_errors),
    OpInfo("masked_fill", lambda x, mask, value: np.where(mask, value, x), _masked_fill_samples,
           dtypes=ALL_NUMERIC, gradgrad=True, errors=_masked_fill_errors),
    OpInfo("one_hot", _one_hot_ref, _one_hot_samples, dtypes=INTS, errors=_one_hot_errors),
    OpInfo("flip", lambda x, axis: np.flip(x, axis), _flip_samples, dtypes=ALL_NUMERIC + BOOL,
           gradgrad=True, errors=_flip_errors),
    OpInfo("roll", _roll_ref, _roll_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_roll_errors),
    OpInfo("tril", lambda x, diagonal=0: np.tril(x, diagonal), _triangle_samples,
           dtypes=ALL_NUMERIC + BOOL, gradgrad=True, errors=_triangle_errors("tril")),
    OpInfo("triu", lambda x, diagonal=0: np.triu(x, diagonal), _triangle_samples,
           dtypes=ALL_NUMERIC + BOOL, gradgrad=True, errors=_triangle_errors("triu")),
    OpInfo("diag", _diag_ref, _diag_samples, dtypes=ALL_NUMERIC, gradgrad=True),
    OpInfo("repeat_interleave", lambda x, repeats=1, axis=0: np.repeat(x, repeats, axis),
           _repeat_interleave_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_repeat_interleave_errors),
    OpInfo("pad", _pad_ref, _pad_samples, dtypes=ALL_NUMERIC, gradgrad=True, errors=_pad_errors),
    OpInfo("shape", lambda input: np.array(input.shape, np.int64), _shape_samples,
           dtypes=ALL_NUMERIC + BOOL),
    OpInfo("numel", lambda x: np.array(x.size, np.int64), _shape_samples,
           dtypes=ALL_NUMERIC + BOOL),
]
