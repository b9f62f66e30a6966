"""Shape, layout, joining, splitting, indexing and scattering (paddle.tensor.manipulation).

The functions turn Paddle's flexible arguments (ints or one-element Tensors, lists or
Tensors of them, dtype spellings) into the plain attributes of the op table's rows, then
run a row. Where NumPy would quietly accept what Paddle rejects (a mask of the wrong
dtype, a 1-D input to ``tril``, ...), the row's ``infer_meta`` checks the call first.

``split``, ``chunk``, ``unbind`` and ``unstack`` return lists: they run one ``slice`` (or
``getitem``) row per piece instead of one row with a variable number of outputs, which
keeps every row of the table single-output (Paddle's own ``split`` is one op).

``pad`` and ``one_hot`` live here but are not in ``__all__``: Paddle has them only as
``paddle.nn.functional.pad`` / ``one_hot``, and :mod:`dygrad.nn.functional` imports them.
"""

from __future__ import annotations

import builtins
import itertools

import numpy as np

from .._core import dispatch as _dispatch
from .._core import dtype as _dt
from .._core.autograd import grad_mode
from .._core.creation import to_array
from .._core.dispatch import ops
from .._core.ops.manipulation import PAD_MODES, diag_index, indexed_shape, slice_index
from .._core.optable import TABLE, broadcast_shapes
from .._core.tensor import Tensor
from .creation import meshgrid
from .reduce import check_tensor

__all__ = ["cast", "reshape", "reshape_", "broadcast_to", "expand", "expand_as", "transpose",
           "moveaxis", "squeeze", "squeeze_", "unsqueeze", "unsqueeze_", "flatten", "flatten_",
           "tile", "concat", "stack", "split", "chunk", "unbind", "unstack", "slice",
           "strided_slice", "gather", "gather_nd", "scatter", "scatter_nd_add", "scatter_nd",
           "index_select", "index_add", "index_sample", "take_along_axis", "put_along_axis",
           "masked_fill", "flip", "roll", "tril", "triu", "diag", "repeat_interleave",
           "diagonal", "trace", "rot90", "diagflat", "diag_embed", "unique_consecutive", "crop",
           "tensor_split", "hsplit", "vsplit", "dsplit", "hstack", "vstack", "dstack",
           "column_stack", "row_stack", "atleast_1d", "atleast_2d", "atleast_3d", "unflatten",
           "broadcast_tensors", "broadcast_shape", "cartesian_prod", "combinations", "block_diag",
           "index_put", "index_put_", "multiplex", "tolist", "masked_scatter",
           "diagonal_scatter", "select_scatter", "slice_scatter"]
# functions of a list of tensors or of shapes are no Tensor methods
_NOT_METHODS = ("scatter_nd", "crop", "hstack", "vstack", "dstack", "column_stack", "row_stack",
                "broadcast_tensors", "broadcast_shape", "cartesian_prod", "block_diag",
                "multiplex", "tolist")  # Tensor.tolist is Tensor's own method
METHODS = ([name for name in __all__ if name not in _NOT_METHODS]
           + [("astype", "cast")])


# ---------------------------------------------------------------------------
# argument conversion
# ---------------------------------------------------------------------------

def _int(value, api: str, what: str) -> int:
    """A Python int from an int or a one-element int Tensor."""
    if isinstance(value, Tensor):
        if value._data.dtype.kind not in "iu" or value.size != 1:
            raise TypeError(f"{api}: {what} must be an int or a one-element int Tensor, got a "
                            f"{value.dtype} Tensor of shape {value.shape}")
        return int(value.item())
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise TypeError(f"{api}: {what} must be an int, got {type(value).__name__} {value!r}")


def _ints(values, api: str, what: str) -> tuple:
    """A tuple of ints from an int, a list/tuple of ints or one-element Tensors, or an int
    Tensor."""
    if isinstance(values, Tensor):
        if values._data.dtype.kind not in "iu":
            raise TypeError(f"{api}: {what} must hold ints, got a {values.dtype} Tensor")
        return tuple(int(v) for v in values.numpy().reshape(-1))
    if isinstance(values, (list, tuple)):
        return tuple(_int(v, api, f"{what}[{i}]") for i, v in enumerate(values))
    return (_int(values, api, what),)


def _checked(name: str, *inputs, **attrs):
    """Run row ``name`` after its ``infer_meta`` has accepted the call (for rows whose
    kernels would quietly accept inputs that Paddle rejects)."""
    return _dispatch.checked_apply(TABLE[name], *inputs, **attrs)


def _tensor_like(value, x: Tensor, api: str, what: str) -> Tensor:
    """``value`` (a number, array or Tensor) as a Tensor of x's dtype."""
    if isinstance(value, Tensor):
        return value if value._data.dtype == x._data.dtype else ops.cast(value, dtype=x._data.dtype)
    try:
        return Tensor._wrap(to_array(value, x._data.dtype))
    except (TypeError, ValueError):
        raise TypeError(f"{api}: {what} must be a number, an array or a Tensor, got "
                        f"{type(value).__name__}") from None


def _index_tensor(index, api: str, what: str = "index") -> Tensor:
    if not isinstance(index, Tensor):
        index = Tensor._wrap(to_array(index))
    if index._data.dtype not in (np.int32, np.int64):
        raise TypeError(f"{api}: {what} must be an int32 or int64 tensor, got {index.dtype}")
    return index


def _as_vector(index: Tensor, api: str) -> Tensor:
    """A 1-D index from a 1-D one or a column [n, 1] (both accepted by Paddle)."""
    if index.ndim == 2 and index.shape[1] == 1:
        return ops.reshape(index, shape=(index.shape[0],))
    if index.ndim != 1:
        raise ValueError(f"{api}: index must be 1-D (or of shape [n, 1]), got shape {index.shape}")
    return index


# ---------------------------------------------------------------------------
# dtype and shape
# ---------------------------------------------------------------------------

def cast(x, dtype):
    """x converted to ``dtype`` (also ``Tensor.astype``)."""
    return ops.cast(x, dtype=_dt.convert_dtype(dtype).np)


def _reshape_target(x, shape, api):
    """Paddle's shape argument with its 0s (copy x's dimension) resolved. For a tensor
    with no elements, as in Paddle, 0s are literal and a -1 stands for the product of x's
    non-zero dimensions over the target's."""
    dims = list(_ints(shape, api, "shape"))
    if x.size:
        return tuple(x._data.shape[i] if d == 0 and i < x.ndim else d for i, d in enumerate(dims))
    if dims.count(-1) == 1:
        known = int(np.prod([d for d in dims if d > 0], dtype=np.int64))
        dims[dims.index(-1)] = int(np.prod([d for d in x._data.shape if d], dtype=np.int64)) // known
    return tuple(dims)


def reshape(x, shape, name=None):
    """x with a new shape of the same size: a 0 keeps x's dimension at that position, one
    -1 is inferred; ``shape`` may hold ints or one-element Tensors, or be an int Tensor."""
    return ops.reshape(x, shape=_reshape_target(x, shape, "reshape"))


def _rebind(x, out, api):
    """Make ``x`` the tensor ``out`` (same data, new shape) for the in-place shape ops:
    x takes out's data and history, and its version moves on as for any in-place change."""
    if grad_mode.enabled and not x.stop_gradient and x._grad_fn is None:
        raise RuntimeError(
            f"{api}: a leaf tensor that needs a gradient (stop_gradient=False, e.g. a parameter) "
            f"cannot be changed in place while gradients are recorded; use the out-of-place op")
    x._data, x._grad_fn, x._out_idx, x.stop_gradient = (out._data, out._grad_fn, out._out_idx,
                                                         out.stop_gradient)
    x._version[0] += 1
    return x


def reshape_(x, shape, name=None):
    """In-place reshape: x itself takes the new shape."""
    return _rebind(x, reshape(x, shape), "reshape_")


def broadcast_to(x, shape, name=None):
    """x broadcast to ``shape`` (-1 keeps x's dimension)."""
    return ops.broadcast_to(x, shape=_ints(shape, "broadcast_to", "shape"))


def expand(x, shape, name=None):
    """x broadcast to ``shape`` (-1 keeps x's dimension)."""
    return ops.broadcast_to(x, shape=_ints(shape, "expand", "shape"))


def expand_as(x, y, name=None):
    """x broadcast to y's shape."""
    return ops.broadcast_to(x, shape=tuple(y._data.shape))


def transpose(x, perm, name=None):
    """x with its axes permuted: output axis i is x's axis perm[i]."""
    return ops.transpose(x, perm=_ints(perm, "transpose", "perm"))


def moveaxis(x, source, destination, name=None):
    """x with the axes ``source`` moved to positions ``destination`` (the others keep
    their order): a transpose."""
    src, dst = _ints(source, "moveaxis", "source"), _ints(destination, "moveaxis", "destination")
    if len(src) != len(dst):
        raise ValueError(f"moveaxis: source {list(src)} and destination {list(dst)} must have "
                         f"the same length")
    n = x.ndim
    for a in src + dst:
        if not -n <= a < n:
            raise ValueError(f"moveaxis: axis {a} is out of range for a tensor of rank {n}")
    src, dst = [a % n for a in src], [a % n for a in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("moveaxis: source and destination must not repeat an axis")
    rest = iter(a for a in range(n) if a not in src)
    placed = dict(zip(dst, src))
    return ops.transpose(x, perm=tuple(placed[i] if i in placed else next(rest) for i in range(n)))


def squeeze(x, axis=None, name=None):
    """x without its size-1 axes (only those listed in ``axis``; listed axes whose size is
    not 1 are kept)."""
    return ops.squeeze(x, axis=None if axis is None else _ints(axis, "squeeze", "axis"))


def squeeze_(x, axis=None, name=None):
    """In-place squeeze."""
    return _rebind(x, squeeze(x, axis), "squeeze_")


def unsqueeze(x, axis, name=None):
    """x with a size-1 axis inserted at each position of ``axis``, one after another."""
    return ops.unsqueeze(x, axis=_ints(axis, "unsqueeze", "axis"))


def unsqueeze_(x, axis, name=None):
    """In-place unsqueeze."""
    return _rebind(x, unsqueeze(x, axis), "unsqueeze_")


def flatten(x, start_axis=0, stop_axis=-1, name=None):
    """x with axes start_axis..stop_axis (inclusive) merged into one."""
    return ops.flatten(x, start_axis=_int(start_axis, "flatten", "start_axis"),
                       stop_axis=_int(stop_axis, "flatten", "stop_axis"))


def flatten_(x, start_axis=0, stop_axis=-1, name=None):
    """In-place flatten."""
    return _rebind(x, flatten(x, start_axis, stop_axis), "flatten_")


def tile(x, repeat_times, name=None):
    """x repeated repeat_times[i] times along axis i (the shorter of x's shape and
    repeat_times is padded with leading 1s)."""
    return ops.tile(x, repeat_times=_ints(repeat_times, "tile", "repeat_times"))


# ---------------------------------------------------------------------------
# joining and splitting
# ---------------------------------------------------------------------------

def _tensor_list(x, api, what="x"):
    if isinstance(x, Tensor) or not isinstance(x, (list, tuple)):
        raise TypeError(f"{api}: {what} must be a list or tuple of Tensors, got "
                        f"{type(x).__name__}")
    for i, t in enumerate(x):
        if not isinstance(t, Tensor):
            raise TypeError(f"{api}: {what}[{i}] must be a Tensor, got {type(t).__name__}")
    return list(x)


def concat(x, axis=0, name=None):
    """The tensors of x joined along ``axis`` (one dtype; equal shapes except along axis)."""
    return _checked("concat", _tensor_list(x, "concat"), axis=_int(axis, "concat", "axis"))


def stack(x, axis=0, name=None):
    """The tensors of x (one shape, one dtype) stacked along a new axis."""
    return _checked("stack", _tensor_list(x, "stack"), axis=_int(axis, "stack", "axis"))


def _split_axis(x, axis, api):
    axis = _int(axis, api, "axis")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"{api}: axis {axis} is out of range for a tensor of rank {x.ndim} "
                         f"(expected {-x.ndim} <= axis < {x.ndim})")
    return axis % x.ndim


def split(x, num_or_sections, axis=0, name=None):
    """x cut along ``axis`` into ``num_or_sections`` equal pieces (an int) or pieces of the
    listed sizes (one of them may be -1: the rest). Returns a list of Tensors."""
    axis = _split_axis(x, axis, "split")
    n = x._data.shape[axis]
    if isinstance(num_or_sections, (list, tuple)):
        sizes = list(_ints(num_or_sections, "split", "num_or_sections"))
        if sizes.count(-1) > 1:
            raise ValueError(f"split: only one section can be -1, got {sizes}")
        if -1 in sizes:
            sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
        if any(s < 0 for s in sizes) or sum(sizes) != n:
            raise ValueError(f"split: sections {list(num_or_sections)} do not add up to the "
                             f"size {n} of axis {axis}")
    else:
        num = _int(num_or_sections, "split", "num_or_sections")
        if num <= 0 or n % num:
            raise ValueError(f"split: the size {n} of axis {axis} cannot be divided into "
                             f"{num} equal sections")
        sizes = [n // num] * num
    ends = np.cumsum(sizes).tolist()
    return [ops.slice(x, axes=(axis,), starts=(e - s,), ends=(e,)) for s, e in zip(sizes, ends)]


def chunk(x, chunks, axis=0, name=None):
    """x cut into ``chunks`` equal pieces along ``axis`` (a list of Tensors)."""
    return split(x, _int(chunks, "chunk", "chunks"), axis)


def unbind(input, axis=0):
    """The slices of input along ``axis``, each without that axis (a list of Tensors)."""
    axis = _split_axis(input, axis, "unbind")
    lead = (builtins.slice(None),) * axis  # (this module's `slice` is paddle.slice)
    return [ops.getitem(input, index=lead + (i,)) for i in range(input._data.shape[axis])]


def unstack(x, axis=0, num=None):
    """The slices of x along ``axis``, each without that axis (a list of Tensors)."""
    out = unbind(x, axis)
    if num is not None and num != len(out):
        raise ValueError(f"unstack: num is {num} but axis {axis} has size {len(out)}")
    return out


def slice(input, axes, starts, ends):
    """input[starts[i]:ends[i]] along each axes[i] (out-of-range bounds are clamped)."""
    return ops.slice(input, axes=_ints(axes, "slice", "axes"),
                     starts=_ints(starts, "slice", "starts"), ends=_ints(ends, "slice", "ends"))


def strided_slice(x, axes, starts, ends, strides, name=None):
    """x[starts[i]:ends[i]:strides[i]] along each axes[i]."""
    api = "strided_slice"
    return ops.strided_slice(x, axes=_ints(axes, api, "axes"), starts=_ints(starts, api, "starts"),
                             ends=_ints(ends, api, "ends"), strides=_ints(strides, api, "strides"))


def tensor_split(x, num_or_indices, axis=0, name=None):
    """x cut along ``axis`` into ``num_or_indices`` pieces (an int: the first
    ``size % num`` pieces are one longer) or at the listed indices (Python slice bounds,
    so negative ones count from the end). Returns a list of Tensors."""
    check_tensor("tensor_split", x)
    if x.ndim == 0:
        raise ValueError("tensor_split: x must have at least 1 dimension, got a 0-D tensor")
    axis = _split_axis(x, axis, "tensor_split")
    n = x._data.shape[axis]
    if isinstance(num_or_indices, (list, tuple)):
        cuts = list(_ints(num_or_indices, "tensor_split", "num_or_indices"))
    elif isinstance(num_or_indices, (int, np.integer)) and not isinstance(num_or_indices, bool):
        num = int(num_or_indices)
        if num <= 0:
            raise ValueError(f"tensor_split: num_or_indices must be larger than 0, got {num}")
        cuts = [i * (n // num) + min(i, n % num) for i in range(1, num)]
    else:
        raise TypeError(f"tensor_split: num_or_indices must be an int or a list or tuple of "
                        f"ints, got {type(num_or_indices).__name__}")
    bounds = zip([0] + cuts, cuts + [n])
    pieces = [builtins.slice(s, e).indices(n)[:2] for s, e in bounds]
    return [ops.slice(x, axes=(axis,), starts=(s,), ends=(max(s, e),)) for s, e in pieces]


def _split_rank(api, x, rank):
    check_tensor(api, x)
    if x.ndim < rank:
        raise ValueError(f"{api}: x must have at least {rank} dimensions, got shape {x.shape}")


def hsplit(x, num_or_indices, name=None):
    """tensor_split along axis 1 (axis 0 for a 1-D x)."""
    _split_rank("hsplit", x, 1)
    return tensor_split(x, num_or_indices, axis=1 if x.ndim > 1 else 0)


def vsplit(x, num_or_indices, name=None):
    """tensor_split along axis 0 of an x of at least 2 dimensions."""
    _split_rank("vsplit", x, 2)
    return tensor_split(x, num_or_indices, axis=0)


def dsplit(x, num_or_indices, name=None):
    """tensor_split along axis 2 of an x of at least 3 dimensions."""
    _split_rank("dsplit", x, 3)
    return tensor_split(x, num_or_indices, axis=2)


def _atleast(inputs, shapes):
    """Each input (a Tensor or array-like) raised to a minimum rank; ``shapes`` maps the
    shape of a lower-rank input to its new shape. One input gives a Tensor, several (or
    one list or tuple of them) a list."""
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = inputs[0]
    out = []
    for x in inputs:
        x = x if isinstance(x, Tensor) else Tensor._wrap(to_array(x))
        new = shapes.get(x.ndim)
        out.append(ops.reshape(x, shape=new(x.shape)) if new else x)
    return out[0] if len(out) == 1 else out


def atleast_1d(*inputs, name=None):
    """The inputs with 0-D ones made 1-D of size 1."""
    return _atleast(inputs, {0: lambda s: (1,)})


def atleast_2d(*inputs, name=None):
    """The inputs with 0-D and 1-D ones made 2-D: [] -> [1, 1], [n] -> [1, n]."""
    return _atleast(inputs, {0: lambda s: (1, 1), 1: lambda s: (1, *s)})


def atleast_3d(*inputs, name=None):
    """The inputs raised to 3-D: [] -> [1, 1, 1], [n] -> [1, n, 1], [m, n] -> [m, n, 1]."""
    return _atleast(inputs, {0: lambda s: (1, 1, 1), 1: lambda s: (1, *s, 1),
                                           2: lambda s: (*s, 1)})


def _stacked(api, x, raise_rank, axis):
    tensors = [raise_rank(t) for t in _tensor_list(x, api)]
    if not tensors:
        raise ValueError(f"{api}: x must hold at least one Tensor, got an empty list")
    if axis is None:  # hstack: along the first axis of 1-D tensors, else the second
        axis = 0 if tensors[0].ndim == 1 else 1
    return _checked("concat", tensors, axis=axis)


def hstack(x, name=None):
    """The tensors of x joined column-wise: 1-D ones end to end, others along axis 1."""
    return _stacked("hstack", x, atleast_1d, None)


def vstack(x, name=None):
    """The tensors of x (0-D and 1-D ones made rows) joined along axis 0."""
    return _stacked("vstack", x, atleast_2d, 0)


def row_stack(x, name=None):
    """Alias of vstack."""
    return _stacked("row_stack", x, atleast_2d, 0)


def dstack(x, name=None):
    """The tensors of x (raised to 3-D as atleast_3d) joined along axis 2."""
    return _stacked("dstack", x, atleast_3d, 2)


def column_stack(x, name=None):
    """The tensors of x (0-D and 1-D ones made columns [n, 1]) joined along axis 1."""
    def column(t):
        return ops.reshape(t, shape=(t.size, 1)) if t.ndim < 2 else t
    return _stacked("column_stack", x, column, 1)


def unflatten(x, axis, shape, name=None):
    """x with axis ``axis`` expanded into the dimensions ``shape`` (a list, tuple or int
    Tensor; one -1 is inferred), whose product must be that axis's size."""
    check_tensor("unflatten", x)
    if not isinstance(shape, (list, tuple, Tensor)):
        raise TypeError(f"unflatten: shape must be a list, tuple or Tensor, got "
                        f"{type(shape).__name__}")
    axis = _split_axis(x, axis, "unflatten")
    dims = _ints(shape, "unflatten", "shape")
    n = x._data.shape[axis]
    known = int(np.prod([d for d in dims if d != -1], dtype=np.int64))
    misfit = (known == 0 or n % known) if -1 in dims else n != known
    if not dims or dims.count(-1) > 1 or misfit:
        raise ValueError(f"unflatten: shape {list(dims)} does not fit the size {n} of axis "
                         f"{axis} of x (shape {x.shape})")
    dims = tuple(n // known if d == -1 else d for d in dims)
    return ops.reshape(x, shape=x._data.shape[:axis] + dims + x._data.shape[axis + 1:])


# ---------------------------------------------------------------------------
# broadcasting and combining
# ---------------------------------------------------------------------------

def broadcast_tensors(input, name=None):
    """The tensors of ``input`` (one dtype) broadcast to their common shape (a list)."""
    tensors = _tensor_list(input, "broadcast_tensors")
    for i, t in enumerate(tensors):
        if t._data.dtype != tensors[0]._data.dtype:
            raise ValueError(f"broadcast_tensors: all inputs must have one dtype; input 0 is "
                             f"{tensors[0].dtype} and input {i} is {t.dtype}")
    shape = broadcast_shapes(*(t._data.shape for t in tensors), op="broadcast_tensors")
    return [ops.broadcast_to(t, shape=shape) for t in tensors]


def broadcast_shape(x_shape, y_shape):
    """The shape (a list) that shapes x_shape and y_shape broadcast to."""
    return list(broadcast_shapes(_ints(x_shape, "broadcast_shape", "x_shape"),
                                 _ints(y_shape, "broadcast_shape", "y_shape"),
                                 op="broadcast_shape"))


def _vectors(api, x):
    for i, t in enumerate(x):
        if t.ndim != 1:
            raise ValueError(f"{api}: every input must be 1-D, got shape {t.shape} at {i}")


def cartesian_prod(x, name=None):
    """All tuples of one element from each 1-D tensor of x (one dtype), in order, as the
    rows of a [prod(sizes), len(x)] tensor; a single tensor is returned as it is."""
    tensors = _tensor_list(x, "cartesian_prod")
    _vectors("cartesian_prod", tensors)
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(tensors)
    return ops.stack([ops.reshape(g, shape=(-1,)) for g in grids], axis=1)


def combinations(x, r=2, with_replacement=False, name=None):
    """The length-r combinations of the elements of the 1-D x (with repeats when
    ``with_replacement``), in lexicographic order of position, as the rows of a [k, r]
    tensor (r = 0 gives an empty 1-D tensor)."""
    check_tensor("combinations", x)
    if x.ndim != 1:
        raise TypeError(f"combinations: x must be a 1-D tensor, got shape {x.shape}")
    r = _int(r, "combinations", "r")
    if r < 0:
        raise ValueError(f"combinations: r must be a non-negative int, got r={r}")
    if r == 0:
        return ops.slice(x, axes=(0,), starts=(0,), ends=(0,))
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    index = np.array(list(pick(range(x.shape[0]), r)), np.int64).reshape(-1)
    return ops.reshape(ops.gather(x, Tensor._wrap(index), axis=0), shape=(-1, r))


def block_diag(inputs, name=None):
    """The tensors of ``inputs`` (0-D, 1-D or 2-D, one dtype; taken as [1, 1], [1, n],
    [m, n] matrices) placed corner to corner along the diagonal of a zero matrix."""
    mats = []
    for i, t in enumerate(_tensor_list(inputs, "block_diag")):
        if t.ndim > 2:
            raise ValueError(f"block_diag: every input must be 0-D, 1-D or 2-D, got shape "
                             f"{t.shape} at {i}")
        mats.append(atleast_2d(t))
    if not mats:
        raise ValueError("block_diag: inputs must hold at least one Tensor, got an empty list")
    ends = np.cumsum([m.shape[1] for m in mats]).tolist()
    total = ends[-1]
    rows = [_checked("pad", m, paddings=((0, 0), (e - m.shape[1], total - e)), mode="constant",
                     value=0.0) for m, e in zip(mats, ends)]
    return _checked("concat", rows, axis=0)


# ---------------------------------------------------------------------------
# gathering and scattering
# ---------------------------------------------------------------------------

def gather(x, index, axis=None, name=None):
    """The slices of x at positions ``index`` (0-D or 1-D) along ``axis`` (default 0)."""
    index = _index_tensor(index, "gather")
    if index.ndim == 2 and index.shape[1] == 1:
        index = _as_vector(index, "gather")
    axis = 0 if axis is None else _int(axis, "gather", "axis")
    return ops.gather(x, index, axis=axis)


def gather_nd(x, index, name=None):
    """x[index[..., 0], index[..., 1], ...]: index's last axis addresses x's leading axes."""
    return ops.gather_nd(x, _index_tensor(index, "gather_nd"))


def scatter(x, index, updates, overwrite=True, name=None):
    """x with its rows ``index`` replaced by the rows of ``updates`` (overwrite=True), or
    zeroed and then summed into (overwrite=False, so repeated indices accumulate)."""
    index = _as_vector(_index_tensor(index, "scatter"), "scatter")
    return _checked("scatter", x, index, updates, overwrite=bool(overwrite))


def scatter_nd_add(x, index, updates, name=None):
    """x with ``updates`` added at the slices that ``index`` addresses (as gather_nd)."""
    return _checked("scatter_nd_add", x, _index_tensor(index, "scatter_nd_add"), updates)


def scatter_nd(index, updates, shape, name=None):
    """Zeros of ``shape`` with ``updates`` added at the slices that ``index`` addresses."""
    zeros = ops.full(shape=_ints(shape, "scatter_nd", "shape"), fill_value=0,
                     dtype=updates._data.dtype)
    return scatter_nd_add(zeros, index, updates)


def index_select(x, index, axis=0, name=None):
    """The slices of x at positions ``index`` (1-D) along ``axis``."""
    index = _as_vector(_index_tensor(index, "index_select"), "index_select")
    return ops.index_select(x, index, axis=_int(axis, "index_select", "axis"))


def index_add(x, index, axis, value, alpha=1, name=None):
    """x with alpha * value's slices added at positions ``index`` along ``axis``."""
    index = _as_vector(_index_tensor(index, "index_add"), "index_add")
    value = _tensor_like(value, x, "index_add", "value")
    if alpha != 1:
        value = value * alpha
    return _checked("index_add", x, index, value, axis=_int(axis, "index_add", "axis"))


def _put_index(api, x, indices, value):
    """The NumPy index that ``indices`` (int or bool Tensors, one per leading axis of x)
    make, after checking the arguments of index_put."""
    check_tensor(api, x)
    if isinstance(indices, Tensor) or not isinstance(indices, (list, tuple)) or not indices:
        raise TypeError(f"{api}: indices must be a non-empty list or tuple of Tensors, got "
                        f"{type(indices).__name__}")
    for i, t in enumerate(indices):
        if not isinstance(t, Tensor) or t._data.dtype.kind not in "iub":
            raise TypeError(f"{api}: indices[{i}] must be an int or bool Tensor, got "
                            f"{getattr(t, 'dtype', type(t).__name__)}")
    if not isinstance(value, Tensor):
        raise TypeError(f"{api}: value must be a Tensor, got {type(value).__name__}")
    if value._data.dtype != x._data.dtype:
        raise ValueError(f"{api}: value must have x's dtype {x.dtype}, got {value.dtype}")
    return _dispatch.normalize_index(tuple(indices), x)


def _accumulated(api, x, index, value):
    """Zeros of x's shape with value (broadcast to x[index]'s shape) added at x[index],
    repeated positions accumulating."""
    region = indexed_shape(api, x._data.shape, index)
    return _checked("getitem_grad", ops.broadcast_to(value, shape=region), index=index,
                    shape=tuple(x._data.shape))


def index_put(x, indices, value, accumulate=False, name=None):
    """x with ``value`` (broadcast) written at x[indices] (advanced indexing: the int
    Tensors of ``indices`` broadcast together, bool ones select where True); with
    ``accumulate`` added there instead, repeated positions adding up."""
    index = _put_index("index_put", x, indices, value)
    if accumulate:
        return ops.add(x, _accumulated("index_put", x, index, value))
    return _checked("setitem", x, value, index=index)


def index_put_(x, indices, value, accumulate=False, name=None):
    """In-place index_put."""
    index = _put_index("index_put_", x, indices, value)
    if accumulate:
        return _dispatch.apply_inplace(TABLE["add"], x, _accumulated("index_put_", x, index, value))
    return _dispatch.apply_inplace(TABLE["setitem"], x, value, index=index)


def _scatter_into(api, x, value, index, what="value"):
    """x with ``value`` (cast to x's dtype) written at x[index], whose shape value must
    have exactly."""
    check_tensor(api, x)
    check_tensor(api, value, what)
    region = tuple(indexed_shape(api, x._data.shape, index))
    if tuple(value.shape) != region:
        raise ValueError(f"{api}: {what} must have the shape {list(region)} of the part of x "
                         f"it replaces, got shape {value.shape}")
    return _checked("setitem", x, _tensor_like(value, x, api, what), index=index)


def multiplex(inputs, index, name=None):
    """out[i] = inputs[index[i, 0]][i]: row i taken from the input that ``index`` (an int
    tensor of shape [n, 1]) names, for at least two inputs of one shape [n, ...]."""
    inputs = _tensor_list(inputs, "multiplex", "inputs")
    if len(inputs) < 2:
        raise ValueError(f"multiplex: inputs must hold at least 2 tensors, got {len(inputs)}")
    index = _index_tensor(index, "multiplex")
    n = inputs[0].shape[0] if inputs[0].ndim else 0
    if index.ndim != 2 or index.shape[1] != 1 or index.shape[0] != n:
        raise ValueError(f"multiplex: index must have shape [{n}, 1] (one row per row of the "
                         f"inputs), got shape {index.shape}")
    rows = index.numpy().reshape(-1)
    if rows.size and not 0 <= rows.min() <= rows.max() < len(inputs):
        raise IndexError(f"multiplex: index entries must lie in [0, {len(inputs)}), got "
                         f"{rows.min()}..{rows.max()}")
    return ops.getitem(stack(inputs), index=(rows, np.arange(n)))


def tolist(x):
    """x's elements as nested Python lists (a Python number for a 0-D x)."""
    return check_tensor("tolist", x).tolist()


def masked_scatter(x, mask, value, name=None):
    """x (broadcast with the bool ``mask``) with the positions where mask is True filled,
    in row-major order, from the first elements of ``value`` (of x's dtype)."""
    api = "masked_scatter"
    check_tensor(api, x)
    check_tensor(api, mask, "mask")
    check_tensor(api, value, "value")
    if mask._data.dtype != np.bool_:
        raise TypeError(f"{api}: mask must be a bool tensor, got {mask.dtype}")
    if value._data.dtype != x._data.dtype:
        raise TypeError(f"{api}: value must have x's dtype {x.dtype}, got {value.dtype}")
    shape = broadcast_shapes(tuple(x.shape), tuple(mask.shape), op=api)
    where = np.broadcast_to(mask.numpy(), shape)
    count = int(where.sum())
    if count > value.size:
        raise ValueError(f"{api}: mask has {count} True positions but value (shape "
                         f"{value.shape}) has only {value.size} elements")
    taken = ops.getitem(ops.flatten(value), index=(builtins.slice(0, count),))
    return _checked("setitem", ops.broadcast_to(x, shape=shape), taken, index=(where,))


def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None):
    """x with y written on diagonal ``offset`` of the matrices on axes axis1, axis2; y has
    the shape ``diagonal(x, offset, axis1, axis2)`` has."""
    api = "diagonal_scatter"
    check_tensor(api, x)
    if x.ndim < 2:
        raise IndexError(f"{api}: x must have at least 2 dimensions, got shape {x.shape}")
    a1, a2 = _axis_of(x.ndim, axis1, api, "axis1"), _axis_of(x.ndim, axis2, api, "axis2")
    if a1 == a2:
        raise ValueError(f"{api}: axis1 ({axis1}) and axis2 ({axis2}) must be different axes")
    perm = tuple(a for a in range(x.ndim) if a not in (a1, a2)) + (a1, a2)
    rows, cols = diag_index(x.shape[a1], x.shape[a2], _int(offset, api, "offset"))
    out = _scatter_into(api, ops.transpose(x, perm=perm), y, (Ellipsis, rows, cols), "y")
    return ops.transpose(out, perm=tuple(np.argsort(perm).tolist()))


def select_scatter(x, values, axis, index, name=None):
    """x with ``values`` (x's shape without ``axis``) written at position ``index`` of
    ``axis``."""
    api = "select_scatter"
    check_tensor(api, x)
    axis = _axis_of(x.ndim, axis, api, "axis")
    index = _int(index, api, "index")
    if not -x.shape[axis] <= index < x.shape[axis]:
        raise IndexError(f"{api}: index {index} is out of range for axis {axis} of size "
                         f"{x.shape[axis]}")
    return _scatter_into(api, x, values, (builtins.slice(None),) * axis + (index,), "values")


def slice_scatter(x, value, axes, starts, ends, strides, name=None):
    """x with ``value`` written at x[starts[i]:ends[i]:strides[i]] along each axes[i];
    value has that slice's shape."""
    api = "slice_scatter"
    check_tensor(api, x)
    index = slice_index(api, x.shape, _ints(axes, api, "axes"), _ints(starts, api, "starts"),
                        _ints(ends, api, "ends"), _ints(strides, api, "strides"))
    return _scatter_into(api, x, value, index)


def index_sample(x, index):
    """out[i, j] = x[i, index[i, j]] for a 2-D x and a 2-D index with x's number of rows."""
    return _checked("index_sample", x, _index_tensor(index, "index_sample"))


def _along_axis_shapes(arr, indices, axis, api):
    if arr.ndim != indices.ndim:
        raise ValueError(f"{api}: indices (shape {indices.shape}) and arr (shape {arr.shape}) "
                         f"must have the same number of dimensions")
    axis = _int(axis, api, "axis")
    if not -arr.ndim <= axis < arr.ndim:
        raise ValueError(f"{api}: axis {axis} is out of range for a tensor of rank {arr.ndim}")
    return axis % arr.ndim


def take_along_axis(arr, indices, axis, broadcast=True):
    """out[..., i, ...] = arr[..., indices[..., i, ...], ...] along ``axis``. With
    ``broadcast``, indices and arr are first broadcast against each other on the other
    axes."""
    indices = _index_tensor(indices, "take_along_axis", "indices")
    axis = _along_axis_shapes(arr, indices, axis, "take_along_axis")
    if broadcast:
        shape = [0 if 0 in (a, i) else max(a, i) for a, i in zip(arr.shape, indices.shape)]
        shape[axis] = indices.shape[axis]
        indices = ops.broadcast_to(indices, shape=tuple(shape))
        shape[axis] = arr.shape[axis]
        arr = ops.broadcast_to(arr, shape=tuple(shape))
    return _checked("take_along_axis", arr, indices, axis=axis)


def put_along_axis(arr, indices, values, axis, reduce="assign", broadcast=True):
    """arr with ``values`` written at ``indices`` along ``axis``: assigned (the last of
    repeated positions wins), added (``'add'``) or multiplied in (``'mul'`` /
    ``'multiply'``). With ``broadcast``, indices and values are broadcast to arr's shape
    on the other axes."""
    api = "put_along_axis"
    indices = _index_tensor(indices, api, "indices")
    axis = _along_axis_shapes(arr, indices, axis, api)
    values = _tensor_like(values, arr, api, "values")
    reduce = "multiply" if reduce == "mul" else reduce
    target = list(arr.shape)
    target[axis] = indices.shape[axis]
    if broadcast and all(i <= a for i, a in zip(indices.shape, arr.shape)):
        indices = ops.broadcast_to(indices, shape=tuple(target))
    if tuple(values.shape) != tuple(indices.shape):
        values = ops.broadcast_to(values, shape=tuple(indices.shape))
    return _checked(api, arr, indices, values, axis=axis, reduce=reduce)


def masked_fill(x, mask, value, name=None):
    """x with ``value`` (a number or a Tensor, cast to x's dtype) where ``mask`` is True;
    x, mask and value broadcast together."""
    if not isinstance(mask, Tensor):
        mask = Tensor._wrap(to_array(mask))
    if mask._data.dtype != np.bool_:
        mask = ops.cast(mask, dtype=np.dtype(np.bool_))
    return _checked("masked_fill", x, mask, _tensor_like(value, x, "masked_fill", "value"))


def one_hot(x, num_classes, name=None):
    """float32 one-hot vectors of length ``num_classes`` for the class ids in x
    (``paddle.nn.functional.one_hot``; num_classes=-1 takes max(x) + 1)."""
    x = _index_tensor(x, "one_hot", "x")
    num_classes = _int(num_classes, "one_hot", "num_classes")
    if num_classes == -1:
        num_classes = int(x.numpy().max()) + 1 if x.size else 1
    return _checked("one_hot", x, num_classes=num_classes)


# ---------------------------------------------------------------------------
# rearranging
# ---------------------------------------------------------------------------

def flip(x, axis, name=None):
    """x reversed along each axis of ``axis``."""
    return ops.flip(x, axis=_ints(axis, "flip", "axis"))


def roll(x, shifts, axis=None, name=None):
    """x shifted circularly by ``shifts`` along ``axis`` (the flattened x when None)."""
    shifts = _ints(shifts, "roll", "shifts")
    axis = None if axis is None else _ints(axis, "roll", "axis")
    return _checked("roll", x, shifts=shifts, axis=axis)


def tril(x, diagonal=0, name=None):
    """The lower triangle of the last two axes: elements with column <= row + diagonal."""
    return _checked("tril", x, diagonal=_int(diagonal, "tril", "diagonal"))


def triu(x, diagonal=0, name=None):
    """The upper triangle of the last two axes: elements with column >= row + diagonal."""
    return _checked("triu", x, diagonal=_int(diagonal, "triu", "diagonal"))


def diag(x, offset=0, padding_value=0, name=None):
    """1-D x: a square matrix with x on diagonal ``offset`` and ``padding_value`` elsewhere;
    2-D x: its diagonal ``offset`` as a 1-D tensor."""
    return _checked("diag", x, offset=_int(offset, "diag", "offset"), padding_value=padding_value)


def repeat_interleave(x, repeats, axis=None, name=None):
    """Each element of x repeated ``repeats`` times (an int, or a 1-D int Tensor with one
    count per element) along ``axis``; along the flattened x when axis is None."""
    if axis is None:
        x, axis = ops.flatten(x), 0
    if isinstance(repeats, Tensor):
        repeats = _ints(repeats, "repeat_interleave", "repeats")
    else:
        repeats = _int(repeats, "repeat_interleave", "repeats")
    return _checked("repeat_interleave", x, repeats=repeats,
                    axis=_int(axis, "repeat_interleave", "axis"))


def _axis_of(ndim, axis, api, what):
    """``axis`` in ``[-ndim, ndim)`` made non-negative; out of range is an IndexError."""
    axis = _int(axis, api, what)
    if not -ndim <= axis < ndim:
        raise IndexError(f"{api}: {what} {axis} is out of range for a tensor of rank {ndim} "
                         f"(expected {-ndim} <= {what} < {ndim})")
    return axis % ndim


def diagonal(x, offset=0, axis1=0, axis2=1, name=None):
    """Diagonal ``offset`` (above the main one when positive) of the matrices whose rows
    run along axis1 and columns along axis2: those two axes are removed and the diagonal
    is the last axis of the result."""
    check_tensor("diagonal", x)
    if x.ndim < 2:
        raise IndexError(f"diagonal: x must have at least 2 dimensions, got shape {x.shape}")
    a1, a2 = _axis_of(x.ndim, axis1, "diagonal", "axis1"), _axis_of(x.ndim, axis2, "diagonal",
                                                                       "axis2")
    if a1 == a2:
        raise ValueError(f"diagonal: axis1 ({axis1}) and axis2 ({axis2}) must be different axes")
    perm = tuple(a for a in range(x.ndim) if a not in (a1, a2)) + (a1, a2)
    rows, cols = diag_index(x.shape[a1], x.shape[a2], _int(offset, "diagonal", "offset"))
    return ops.getitem(ops.transpose(x, perm=perm), index=(Ellipsis, rows, cols))


def trace(x, offset=0, axis1=0, axis2=1, name=None):
    """Sum of diagonal ``offset`` of the matrices on axes axis1, axis2 (see diagonal), in
    x's dtype (int or float)."""
    check_tensor("trace", x)
    if x._data.dtype.kind not in "iuf":
        raise TypeError(f"trace: x must have an int or float dtype, got {x.dtype}")
    if x.ndim < 2:
        raise IndexError(f"trace: x must have at least 2 dimensions, got shape {x.shape}")
    d = diagonal(x, offset, axis1, axis2)
    return ops.sum(d, axis=-1, dtype=x._data.dtype, keepdim=False)


def rot90(x, k=1, axes=[0, 1], name=None):  # noqa: B006 (Paddle's default, never mutated)
    """x rotated by k * 90 degrees in the plane of ``axes``, from the first axis towards
    the second (a negative k turns the other way)."""
    check_tensor("rot90", x)
    axes = _ints(axes, "rot90", "axes")
    if len(axes) != 2:
        raise ValueError(f"rot90: axes must name 2 axes, got {list(axes)}")
    if x.ndim < 2:
        raise ValueError(f"rot90: x must have at least 2 dimensions, got shape {x.shape}")
    a0, a1 = (_axis_of(x.ndim, a, "rot90", "axes") for a in axes)
    if a0 == a1:
        raise ValueError(f"rot90: the rotation axes must be different, got {list(axes)}")
    k = _int(k, "rot90", "k") % 4
    if k == 0:
        return ops.assign(x)
    if k == 2:
        return ops.flip(x, axis=(a0, a1))
    perm = list(range(x.ndim))
    perm[a0], perm[a1] = a1, a0
    if k == 1:
        return ops.transpose(ops.flip(x, axis=(a1,)), perm=tuple(perm))
    return ops.flip(ops.transpose(x, perm=tuple(perm)), axis=(a1,))


def diagflat(x, offset=0, name=None):
    """A square matrix with the elements of x (flattened) on diagonal ``offset`` and zeros
    elsewhere."""
    check_tensor("diagflat", x)
    return diag(ops.reshape(x, shape=(x.size,)), offset)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Tensor whose diagonals ``offset`` on the planes (dim1, dim2) hold the last axis of
    input (a Tensor or array), zeros elsewhere: one more dimension than input, of size
    input.shape[-1] + |offset| along dim1 and dim2."""
    if not isinstance(input, Tensor):
        input = Tensor._wrap(to_array(input))
    n = input.ndim + 1
    d1, d2 = _axis_of(n, dim1, "diag_embed", "dim1"), _axis_of(n, dim2, "diag_embed", "dim2")
    if d1 == d2:
        raise ValueError(f"diag_embed: dim1 ({dim1}) and dim2 ({dim2}) must be different axes")
    offset = _int(offset, "diag_embed", "offset")
    size = input.shape[-1]
    eye = Tensor._wrap(np.eye(size, dtype=bool))
    zero = Tensor._wrap(np.zeros((), input._data.dtype))
    square = ops.where(eye, ops.unsqueeze(input, axis=(n - 1,)), zero)
    rows = (max(-offset, 0), max(offset, 0))
    out = _checked("pad", square, paddings=((0, 0),) * (n - 2) + (rows, rows[::-1]),
                   mode="constant", value=0.0)
    rest = iter(range(n - 2))
    perm = tuple(n - 2 if i == d1 else n - 1 if i == d2 else next(rest) for i in range(n))
    return ops.transpose(out, perm=perm)


def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype="int64",
                       name=None):
    """x with each run of equal consecutive elements (of slices along axis; of the
    flattened x when axis is None) kept once; with the flags also the inverse map (the run
    each element belongs to) and the length of each run, as dtype (int32 or int64)."""
    api = "unique_consecutive"
    check_tensor(api, x)
    if x._data.dtype.kind not in "iuf":
        raise TypeError(f"{api}: x must have an int or float dtype, got {x.dtype}")
    index_dtype = _dt.convert_dtype(dtype).np
    if index_dtype not in (np.int32, np.int64):
        raise TypeError(f"{api}: dtype must be int32 or int64, got {index_dtype.name}")
    if axis is None:
        rows = ops.reshape(x, shape=(x.size, 1))
    else:
        axis = _axis_of(x.ndim, axis, api, "axis")
        moved = ops.transpose(x, perm=(axis,) + tuple(a for a in range(x.ndim) if a != axis))
        rows = ops.reshape(moved, shape=(x.shape[axis], -1) if x.size else (x.shape[axis], 0))
    n = rows.shape[0]
    later = ops.slice(rows, axes=(0,), starts=(1,), ends=(n,))
    earlier = ops.slice(rows, axes=(0,), starts=(0,), ends=(n - 1,))
    changed = ops.any(ops.not_equal(later, earlier), axis=1, keepdim=False)
    first = ops.full(shape=(min(n, 1),), fill_value=True, dtype=np.dtype(np.bool_))
    starts_run = ops.concat([first, changed], axis=0)
    if axis is None:
        out = ops.masked_select(ops.reshape(x, shape=(x.size,)), starts_run)
    else:
        starts = ops.reshape(ops.nonzero(starts_run), shape=(-1,))
        out = ops.index_select(x, starts, axis=axis)
    if not (return_inverse or return_counts):
        return out
    int64 = np.dtype(np.int64)
    run = ops.subtract(ops.cumsum(ops.cast(starts_run, dtype=int64), axis=0),
                       Tensor._wrap(np.ones((), int64)))  # the run each element belongs to
    extra = []
    if return_inverse:
        extra.append(ops.cast(run, dtype=index_dtype))
    if return_counts:
        extra.append(ops.cast(ops.bincount(run, minlength=0), dtype=index_dtype))
    return (out, *extra)


def crop(x, shape=None, offsets=None, name=None):
    """The block of x of size ``shape`` (x's shape when None; -1 runs to the end of that
    axis) starting at ``offsets`` (zeros when None). Both may hold ints or one-element
    Tensors, or be int Tensors."""
    check_tensor("crop", x)
    dims = x.shape if shape is None else list(_ints(shape, "crop", "shape"))
    starts = [0] * x.ndim if offsets is None else list(_ints(offsets, "crop", "offsets"))
    for what, values in (("shape", dims), ("offsets", starts)):
        if len(values) != x.ndim:
            raise ValueError(f"crop: {what} {values} must have one entry per dimension of x "
                             f"(shape {x.shape})")
    ends = []
    for i, (size, start, n) in enumerate(zip(dims, starts, x.shape)):
        if start < 0:
            raise ValueError(f"crop: offsets must be >= 0, got {starts}")
        if size < -1:
            raise ValueError(f"crop: shape may hold sizes >= 0 or -1 (to the end), got {dims}")
        end = n if size == -1 else start + size
        if end > n:
            raise ValueError(f"crop: offset {start} + size {size} exceeds the size {n} of axis "
                             f"{i} of x (shape {x.shape})")
        ends.append(end)
    return ops.slice(x, axes=tuple(range(x.ndim)), starts=tuple(starts), ends=tuple(ends))


_SPATIAL_FORMATS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def pad(x, pad, mode="constant", value=0.0, data_format=None, name=None):
    """x padded as ``paddle.nn.functional.pad``.

    ``pad`` lists (before, after) pairs. In 'constant' mode a list of 2 * x.ndim pairs
    pads every axis from the first; a shorter one pads the last axes, from the last one
    backwards. Otherwise (and in 'constant' mode when it has 2 * (x.ndim - 2) entries) x
    is 3-D, 4-D or 5-D and ``pad`` pads its spatial axes as ``data_format`` (default
    NCL / NCHW / NCDHW) places them, from the last one backwards: [left, right, top,
    bottom, front, back]. Modes: 'constant' (``value``), 'reflect', 'replicate',
    'circular'."""
    if mode not in PAD_MODES:
        raise ValueError(f"pad: mode must be one of {', '.join(PAD_MODES)}, got {mode!r}")
    widths = _ints(pad, "pad", "pad")
    if len(widths) % 2:
        raise ValueError(f"pad: pad must hold (before, after) pairs, got {len(widths)} numbers")
    pairs = [widths[i:i + 2] for i in range(0, len(widths), 2)]
    n = x.ndim
    paddings = [(0, 0)] * n
    if mode == "constant" and len(widths) != 2 * (n - 2):
        if len(pairs) > n:
            raise ValueError(f"pad: {len(widths)} padding numbers for a tensor of rank {n} "
                             f"(at most {2 * n})")
        axes = range(n) if len(pairs) == n else range(n - 1, n - 1 - len(pairs), -1)
    else:
        if n not in _SPATIAL_FORMATS:
            raise ValueError(f"pad: mode {mode!r} with {len(widths)} padding numbers needs a "
                             f"3-D, 4-D or 5-D input, got rank {n}")
        fmt = _SPATIAL_FORMATS[n][0] if data_format is None else data_format.upper()
        if fmt not in _SPATIAL_FORMATS[n]:
            raise ValueError(f"pad: data_format for a {n}-D input must be one of "
                             f"{_SPATIAL_FORMATS[n]}, got {data_format!r}")
        if len(widths) != 2 * (n - 2):
            raise ValueError(f"pad: mode {mode!r} needs {2 * (n - 2)} padding numbers for a "
                             f"{n}-D input, got {len(widths)}")
        last = n - 1 if fmt.startswith("NC") else n - 2
        axes = range(last, last - len(pairs), -1)
    for a, p in zip(axes, pairs):
        paddings[a] = tuple(p)
    return _checked("pad", x, paddings=tuple(paddings), mode=mode, value=float(value))
