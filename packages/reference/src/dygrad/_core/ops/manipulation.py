"""Shape and layout ops, joining and splitting, indexing, gathering and scattering.

Most gradients here move the incoming gradient back to where each output element came
from: a reshape undoes a reshape, a transpose is undone by the inverse permutation, and
whatever *selects* elements (slices, gathers, ``x[index]``) is undone by the matching
*scatter-add* into zeros (``getitem_grad``, ``index_add``, ``scatter_nd_add``,
``put_along_axis(reduce='add')``), which in turn has the selection as its gradient.
That pairing is what makes second derivatives work.

Splitting ops (``split``, ``chunk``, ``unbind``) are not rows: the public functions call
``slice`` (or ``getitem``) once per piece, so every row keeps one output.
"""

from __future__ import annotations

import math

import numpy as np

from ..autograd import sum_to
from ..dispatch import ops
from ..optable import Meta, OpDef, broadcast_shapes, register

# ---------------------------------------------------------------------------
# helpers shared by the rows (and by the reference kernels, which import them)
# ---------------------------------------------------------------------------

INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))


def check_axis(op, axis, ndim, what="axis", extra=0, scalar_ok=False) -> int:
    """``axis`` in ``[-(ndim + extra), ndim + extra)`` made non-negative (``extra=1`` where
    a new axis may go after the last one, as in stack; ``scalar_ok``: a 0-D tensor takes
    axis 0 or -1, as in squeeze and flatten)."""
    n = max(ndim, 1) if scalar_ok else ndim + extra
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"{op}: {what} must be an int, got {type(axis).__name__} {axis!r}")
    if not -n <= axis < n:
        raise ValueError(f"{op}: {what} {axis} is out of range for a tensor of rank {ndim} "
                         f"(expected {-n} <= {what} < {n})")
    return int(axis) % n


def _check_index_dtype(op, index, what="index"):
    if index.dtype not in INDEX_DTYPES:
        raise TypeError(f"{op}: {what} must be an int32 or int64 tensor, got {index.dtype.name}")


def _check_same_dtype(op, x, y, what="updates"):
    if x.dtype != y.dtype:
        raise TypeError(f"{op}: {what} has dtype {y.dtype.name} but x has dtype {x.dtype.name}; "
                        f"cast one of them first")


def _zeros(ctx, name):
    """Zeros shaped like the input ``name`` (the canvas a scatter-add gradient starts from)."""
    return ops.full(shape=tuple(ctx.shape(name)), fill_value=0, dtype=ctx.dtype(name))


# ---------------------------------------------------------------------------
# dtype and shape
# ---------------------------------------------------------------------------

def _cast_meta(x, dtype):
    return Meta(x.shape, np.dtype(dtype))


def _cast_grad(ctx, g):
    """The gradient goes back in the input's dtype."""
    return ops.cast(g, dtype=ctx.dtype("x"))


register(OpDef("cast", ("x",), _cast_meta, "x converted to dtype.", attrs={"dtype": None},
               grad=_cast_grad))


def reshape_target(shape, target, op="reshape"):
    """The literal shape ``target`` with its one -1 (if any) inferred from the size.
    (Paddle's other rule, 0 copies the input's dimension, is applied by the public
    function, so that gradient rules can reshape to shapes with real 0s.)"""
    size = math.prod(shape)
    out = [int(d) for d in target]
    if out.count(-1) > 1:
        raise ValueError(f"{op}: only one dimension can be -1, got shape {list(target)}")
    if any(d < -1 for d in out):
        raise ValueError(f"{op}: dimensions must be >= -1, got shape {list(target)}")
    if -1 in out:
        known = math.prod(d for d in out if d != -1)
        if known == 0 or size % known:
            raise ValueError(f"{op}: cannot reshape a tensor of shape {list(shape)} ({size} "
                             f"elements) into {list(target)}")
        out[out.index(-1)] = size // known
    if math.prod(out) != size:
        raise ValueError(f"{op}: cannot reshape a tensor of shape {list(shape)} ({size} "
                         f"elements) into {list(target)}")
    return tuple(out)


def _reshape_meta(x, shape):
    return Meta(reshape_target(x.shape, shape), x.dtype)


def _reshape_grad(ctx, g):
    return ops.reshape(g, shape=ctx.shape("x"))


register(OpDef("reshape", ("x",), _reshape_meta,
               "x with a new shape of the same size (one -1 is inferred).",
               attrs={"shape": None}, grad=_reshape_grad))


def _broadcast_to_meta(x, shape):
    target = tuple(x.shape[i - (len(shape) - len(x.shape))] if d == -1 else d
                   for i, d in enumerate(shape))
    if broadcast_shapes(x.shape, target, op="broadcast_to") != target:
        raise ValueError(f"broadcast_to: cannot broadcast shape {list(x.shape)} to {list(shape)}")
    return Meta(target, x.dtype)


def _broadcast_to_grad(ctx, g):
    return sum_to(g, ctx.shape("x"))


register(OpDef("broadcast_to", ("x",), _broadcast_to_meta,
               "x broadcast to shape (-1 keeps a dimension).", attrs={"shape": None},
               grad=_broadcast_to_grad))


def transpose_perm(perm, ndim, op="transpose"):
    """``perm`` checked to be a permutation of the axes (negative entries allowed)."""
    if len(perm) != ndim:
        raise ValueError(f"{op}: perm {list(perm)} must have one entry per dimension of x "
                         f"(rank {ndim})")
    out = tuple(check_axis(op, p, ndim, "perm entry") for p in perm)
    if len(set(out)) != ndim:
        raise ValueError(f"{op}: perm {list(perm)} repeats an axis; it must be a permutation "
                         f"of 0..{ndim - 1}")
    return out


def _transpose_meta(x, perm):
    return Meta(tuple(x.shape[p] for p in transpose_perm(perm, len(x.shape))), x.dtype)


def _transpose_grad(ctx, g):
    """Undo the permutation with its inverse."""
    perm = transpose_perm(ctx.attrs["perm"], len(ctx.shape("x")))
    return ops.transpose(g, perm=tuple(int(i) for i in np.argsort(perm)))


register(OpDef("transpose", ("x",), _transpose_meta, "x with its axes permuted by perm.",
               attrs={"perm": None}, grad=_transpose_grad))


def squeeze_shape(shape, axis):
    """Paddle's squeeze: drop the listed size-1 axes (all of them for None); listed axes
    whose size is not 1 are kept."""
    ndim = len(shape)
    if axis is None:
        return tuple(d for d in shape if d != 1)
    axes = {check_axis("squeeze", a, ndim, scalar_ok=True) for a in axis}
    return tuple(d for i, d in enumerate(shape) if not (i in axes and d == 1))


def _squeeze_meta(x, axis=None):
    return Meta(squeeze_shape(x.shape, axis), x.dtype)


def _reshape_back(ctx, g):
    """A change of shape only: the gradient takes x's shape back."""
    return ops.reshape(g, shape=ctx.shape("x"))


register(OpDef("squeeze", ("x",), _squeeze_meta,
               "x without the listed size-1 axes (all size-1 axes when axis is None).",
               attrs={"axis": None}, grad=_reshape_back))


def unsqueeze_shape(shape, axis):
    """Paddle's unsqueeze: insert a size-1 axis at each listed position in turn, each
    position read in the shape built so far (negative: counted from the new end)."""
    out = list(shape)
    for a in axis:
        pos = check_axis("unsqueeze", a, len(out), extra=1)
        out.insert(pos, 1)
    return tuple(out)


def _unsqueeze_meta(x, axis):
    return Meta(unsqueeze_shape(x.shape, axis), x.dtype)


register(OpDef("unsqueeze", ("x",), _unsqueeze_meta,
               "x with a size-1 axis inserted at each position of axis, in order.",
               attrs={"axis": None}, grad=_reshape_back))


def flatten_shape(shape, start_axis, stop_axis):
    """Axes start_axis..stop_axis (inclusive) merged into one; a 0-D tensor becomes [1]."""
    ndim = len(shape)
    start = check_axis("flatten", start_axis, ndim, "start_axis", scalar_ok=True)
    stop = check_axis("flatten", stop_axis, ndim, "stop_axis", scalar_ok=True)
    if start > stop:
        raise ValueError(f"flatten: start_axis ({start_axis}) must not come after stop_axis "
                         f"({stop_axis}) for a tensor of rank {ndim}")
    if ndim == 0:
        return (1,)
    merged = int(np.prod(shape[start:stop + 1], dtype=np.int64))
    return tuple(shape[:start]) + (merged,) + tuple(shape[stop + 1:])


def _flatten_meta(x, start_axis=0, stop_axis=-1):
    return Meta(flatten_shape(x.shape, start_axis, stop_axis), x.dtype)


register(OpDef("flatten", ("x",), _flatten_meta,
               "x with axes start_axis..stop_axis merged into one.",
               attrs={"start_axis": 0, "stop_axis": -1}, grad=_reshape_back))


def tile_shapes(shape, repeat_times):
    """(x's shape padded with leading 1s, repeat_times padded with leading 1s)."""
    if any(r < 0 for r in repeat_times):
        raise ValueError(f"tile: repeat_times must be >= 0, got {list(repeat_times)}")
    n = max(len(shape), len(repeat_times))
    return ((1,) * (n - len(shape)) + tuple(shape),
            (1,) * (n - len(repeat_times)) + tuple(repeat_times))


def _tile_meta(x, repeat_times):
    shape, reps = tile_shapes(x.shape, repeat_times)
    return Meta(tuple(d * r for d, r in zip(shape, reps)), x.dtype)


def _tile_grad(ctx, g):
    """Every copy of an element sends its gradient back: view the output as
    (r0, d0, r1, d1, ...) and sum over the repeat axes."""
    shape, reps = tile_shapes(ctx.shape("x"), ctx.attrs["repeat_times"])
    pairs = tuple(v for r, d in zip(reps, shape) for v in (r, d))
    g = ops.sum(ops.reshape(g, shape=pairs), axis=tuple(range(0, len(pairs), 2)))
    return ops.reshape(g, shape=ctx.shape("x"))


register(OpDef("tile", ("x",), _tile_meta, "x repeated repeat_times[i] times along axis i.",
               attrs={"repeat_times": None}, grad=_tile_grad))


# ---------------------------------------------------------------------------
# joining
# ---------------------------------------------------------------------------

def _check_list(op, xs):
    if len(xs) == 0:
        raise ValueError(f"{op}: x must be a non-empty list of tensors")
    for k, t in enumerate(xs[1:], 1):
        if t.dtype != xs[0].dtype:
            raise TypeError(f"{op}: all tensors must have one dtype; x[0] is "
                            f"{xs[0].dtype.name} but x[{k}] is {t.dtype.name}")


def _concat_meta(x, axis=0):
    _check_list("concat", x)
    ndim = len(x[0].shape)
    ax = check_axis("concat", axis, ndim)
    for k, t in enumerate(x):
        if len(t.shape) != ndim or any(a != b for i, (a, b) in enumerate(zip(t.shape, x[0].shape))
                                       if i != ax):
            raise ValueError(f"concat: x[{k}] has shape {list(t.shape)} but x[0] has shape "
                             f"{list(x[0].shape)}; they must match except along axis {axis}")
    shape = list(x[0].shape)
    shape[ax] = sum(t.shape[ax] for t in x)
    return Meta(tuple(shape), x[0].dtype)


def _concat_grad(ctx, g):
    """Each input gets back its own stretch of the output along axis."""
    ndim = len(ctx.in_meta[0][0])
    ax = check_axis("concat", ctx.attrs["axis"], ndim)
    grads, start = [], 0
    for k, (shape, _) in enumerate(ctx.in_meta):
        end = start + shape[ax]
        grads.append(ops.slice(g, axes=(ax,), starts=(start,), ends=(end,)) if ctx.needs(k)
                     else None)
        start = end
    return (grads,)


register(OpDef("concat", ("x",), _concat_meta, "The tensors of x joined along axis.",
               attrs={"axis": 0}, grad=_concat_grad, variadic=True))


def _stack_meta(x, axis=0):
    _check_list("stack", x)
    for k, t in enumerate(x):
        if tuple(t.shape) != tuple(x[0].shape):
            raise ValueError(f"stack: x[{k}] has shape {list(t.shape)} but x[0] has shape "
                             f"{list(x[0].shape)}; all tensors must have one shape")
    ax = check_axis("stack", axis, len(x[0].shape), extra=1)
    shape = list(x[0].shape)
    shape.insert(ax, len(x))
    return Meta(tuple(shape), x[0].dtype)


def _stack_grad(ctx, g):
    """Input k gets back the k-th slice of the output along the new axis."""
    ax = check_axis("stack", ctx.attrs["axis"], len(ctx.in_meta[0][0]), extra=1)
    lead = (slice(None),) * ax
    return ([ops.getitem(g, index=lead + (k,)) if ctx.needs(k) else None
             for k in range(len(ctx.in_meta))],)


register(OpDef("stack", ("x",), _stack_meta, "The tensors of x stacked along a new axis.",
               attrs={"axis": 0}, grad=_stack_grad, variadic=True))


# ---------------------------------------------------------------------------
# slicing and indexing with x[index]
# ---------------------------------------------------------------------------

def slice_index(op, shape, axes, starts, ends, strides=None):
    """The tuple of Python slices that ``slice``/``strided_slice`` take (Python's clamping
    rules for out-of-range starts and ends)."""
    strides = (1,) * len(axes) if strides is None else strides
    if not len(axes) == len(starts) == len(ends) == len(strides):
        raise ValueError(f"{op}: axes, starts, ends{', strides' if op == 'strided_slice' else ''}"
                         f" must have one entry each, got {len(axes)}, {len(starts)}, "
                         f"{len(ends)}" + (f", {len(strides)}" if op == "strided_slice" else ""))
    index = [slice(None)] * len(shape)
    for a, s, e, st in zip(axes, starts, ends, strides):
        if st == 0:
            raise ValueError(f"{op}: strides must not be 0 (axis {a})")
        index[check_axis(op, a, len(shape), "axes entry")] = slice(int(s), int(e), int(st))
    return tuple(index)


def _sliced_shape(shape, index):
    return tuple(len(range(*s.indices(d))) for s, d in zip(index, shape))


def _slice_meta(input, axes, starts, ends):
    return Meta(_sliced_shape(input.shape, slice_index("slice", input.shape, axes, starts, ends)),
                input.dtype)


def _slice_grad(ctx, g):
    """The slice's gradient, written into zeros shaped like the input."""
    a = ctx.attrs
    index = slice_index("slice", ctx.shape("input"), a["axes"], a["starts"], a["ends"])
    return ops.getitem_grad(g, index=index, shape=ctx.shape("input"))


register(OpDef("slice", ("input",), _slice_meta,
               "input[starts:ends] along each of axes (Python's clamping of the bounds).",
               attrs={"axes": None, "starts": None, "ends": None}, grad=_slice_grad))


def _strided_slice_meta(x, axes, starts, ends, strides):
    index = slice_index("strided_slice", x.shape, axes, starts, ends, strides)
    return Meta(_sliced_shape(x.shape, index), x.dtype)


def _strided_slice_grad(ctx, g):
    """The slice's gradient, written into zeros shaped like x."""
    a = ctx.attrs
    index = slice_index("strided_slice", ctx.shape("x"), a["axes"], a["starts"], a["ends"],
                        a["strides"])
    return ops.getitem_grad(g, index=index, shape=ctx.shape("x"))


register(OpDef("strided_slice", ("x",), _strided_slice_meta,
               "x[starts:ends:strides] along each of axes.",
               attrs={"axes": None, "starts": None, "ends": None, "strides": None},
               grad=_strided_slice_grad))


def indexed_shape(op, shape, index):
    """The shape of ``x[index]`` for an x of ``shape``, without touching data (indexing a
    zero-stride stand-in of that shape), with NumPy's rules and errors."""
    stand_in = np.broadcast_to(np.zeros((), np.int8), tuple(shape))
    try:
        return stand_in[index].shape
    except IndexError as exc:
        raise IndexError(f"{op}: {exc} (the tensor has shape {list(shape)})") from None


def _getitem_meta(x, index=()):
    return Meta(indexed_shape("Tensor.__getitem__", x.shape, index), x.dtype)


def _getitem_grad(ctx, g):
    """Each selected element's gradient goes back to where it was read from; an element
    read several times (repeated advanced indices) gets their sum."""
    return ops.getitem_grad(g, index=ctx.attrs["index"], shape=ctx.shape("x"))


register(OpDef("getitem", ("x",), _getitem_meta,
               "x[index] with NumPy's rules (index: ints, slices, None, Ellipsis, int and bool "
               "arrays); a copy.", attrs={"index": ()}, grad=_getitem_grad))


def _getitem_grad_meta(out_grad, index=(), shape=()):
    want = indexed_shape("getitem_grad", shape, index)
    if tuple(out_grad.shape) != tuple(want):
        raise ValueError(f"getitem_grad: out_grad has shape {list(out_grad.shape)} but "
                         f"x[index] has shape {list(want)} for x of shape {list(shape)}")
    return Meta(tuple(shape), out_grad.dtype)


def _getitem_grad_grad(ctx, g):
    """Linear in out_grad, and the adjoint of getitem: its gradient is getitem again."""
    return ops.getitem(g, index=ctx.attrs["index"])


register(OpDef("getitem_grad", ("out_grad",), _getitem_grad_meta,
               "Zeros of shape with out_grad added at x[index] (repeated indices accumulate): "
               "the gradient of getitem.", attrs={"index": (), "shape": ()},
               grad=_getitem_grad_grad))


def _setitem_meta(x, value, index=()):
    region = tuple(indexed_shape("Tensor.__setitem__", x.shape, index))
    _check_same_dtype("Tensor.__setitem__", x, value, "value")
    vshape = tuple(value.shape)
    extra = max(len(vshape) - len(region), 0)  # NumPy lets value carry extra leading 1s
    try:
        ok = (all(d == 1 for d in vshape[:extra])
              and np.broadcast_shapes(vshape[extra:], region) == region)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"Tensor.__setitem__: a value of shape {list(vshape)} cannot be "
                         f"assigned to x[index], which has shape {list(region)}")
    return Meta(tuple(x.shape), x.dtype)


def _setitem_grad(ctx, g):
    """The overwritten elements of x get no gradient; value gets the gradient of the
    region it was written to, summed over its broadcasting."""
    index = ctx.attrs["index"]
    dx = dvalue = None
    if ctx.needs("x"):
        dx = ops.setitem(g, ops.full(shape=(), fill_value=0, dtype=g._data.dtype), index=index)
    if ctx.needs("value"):
        region = ops.getitem(g, index=index)
        vshape = tuple(ctx.shape("value"))
        extra = len(vshape) - region.ndim
        if extra > 0:  # NumPy lets value carry extra leading 1s
            region = ops.reshape(region, shape=(1,) * extra + tuple(region.shape))
        dvalue = sum_to(region, vshape)
    return dx, dvalue


register(OpDef("setitem", ("x", "value"), _setitem_meta,
               "A copy of x with value (broadcast) written into x[index]; x[index] = value "
               "writes it back into x.", attrs={"index": ()}, grad=_setitem_grad))


# ---------------------------------------------------------------------------
# gathering and scattering with index tensors
# ---------------------------------------------------------------------------

def _gather_meta(x, index, axis=0):
    _check_index_dtype("gather", index)
    ax = check_axis("gather", axis, len(x.shape))
    if len(index.shape) > 1:
        raise ValueError(f"gather: index must be 0-D or 1-D, got shape {list(index.shape)}")
    return Meta(tuple(x.shape[:ax]) + tuple(index.shape) + tuple(x.shape[ax + 1:]), x.dtype)


def _gather_grad(ctx, g):
    """Rows gathered several times get the sum of their gradients: index_add into zeros."""
    ax = check_axis("gather", ctx.attrs["axis"], len(ctx.shape("x")))
    index = ctx["index"]
    if index.ndim == 0:  # the gathered axis was dropped: put it back with size 1
        index = ops.reshape(index, shape=(1,))
        g = ops.unsqueeze(g, axis=(ax,))
    return ops.index_add(_zeros(ctx, "x"), index, g, axis=ax), None


register(OpDef("gather", ("x", "index"), _gather_meta,
               "The slices of x at positions index along axis.", attrs={"axis": 0},
               grad=_gather_grad, saves=("index",)))


def _index_select_meta(x, index, axis=0):
    _check_index_dtype("index_select", index)
    ax = check_axis("index_select", axis, len(x.shape))
    if len(index.shape) != 1:
        raise ValueError(f"index_select: index must be 1-D, got shape {list(index.shape)}")
    return Meta(tuple(x.shape[:ax]) + tuple(index.shape) + tuple(x.shape[ax + 1:]), x.dtype)


def _index_select_grad(ctx, g):
    """Slices selected several times get the sum of their gradients."""
    return ops.index_add(_zeros(ctx, "x"), ctx["index"], g, axis=ctx.attrs["axis"]), None


register(OpDef("index_select", ("x", "index"), _index_select_meta,
               "The slices of x at positions index (1-D) along axis.", attrs={"axis": 0},
               grad=_index_select_grad, saves=("index",)))


def _index_add_meta(x, index, value, axis=0):
    _check_index_dtype("index_add", index)
    _check_same_dtype("index_add", x, value, "value")
    ax = check_axis("index_add", axis, len(x.shape))
    if len(index.shape) != 1:
        raise ValueError(f"index_add: index must be 1-D, got shape {list(index.shape)}")
    want = tuple(x.shape[:ax]) + tuple(index.shape) + tuple(x.shape[ax + 1:])
    if tuple(value.shape) != want:
        raise ValueError(f"index_add: value has shape {list(value.shape)}, expected "
                         f"{list(want)} (x's shape with axis {axis} of size len(index))")
    return Meta(tuple(x.shape), x.dtype)


def _index_add_grad(ctx, g):
    """d(x + scatter-add(value)) = dx + the gradient read back at index."""
    return (g if ctx.needs("x") else None, None,
            ops.index_select(g, ctx["index"], axis=ctx.attrs["axis"]) if ctx.needs("value")
            else None)


register(OpDef("index_add", ("x", "index", "value"), _index_add_meta,
               "x with the slices of value added at positions index along axis (repeated "
               "positions accumulate).", attrs={"axis": 0}, grad=_index_add_grad,
               saves=("index",)))


def _nd_check(op, x, index):
    _check_index_dtype(op, index)
    if len(index.shape) == 0 or index.shape[-1] > len(x.shape):
        raise ValueError(f"{op}: index must have at least 1 dimension and its last dimension "
                         f"(here {list(index.shape)}) at most x's rank {len(x.shape)}")
    return tuple(index.shape[:-1]) + tuple(x.shape[index.shape[-1]:])


def _gather_nd_meta(x, index):
    return Meta(_nd_check("gather_nd", x, index), x.dtype)


def _gather_nd_grad(ctx, g):
    """Gathered slices send their gradients back with a scatter-add into zeros."""
    return ops.scatter_nd_add(_zeros(ctx, "x"), ctx["index"], g), None


register(OpDef("gather_nd", ("x", "index"), _gather_nd_meta,
               "The slices x[index[..., 0], index[..., 1], ...] (index's last axis addresses "
               "the leading axes of x).", grad=_gather_nd_grad, saves=("index",)))


def _scatter_nd_add_meta(x, index, updates):
    want = _nd_check("scatter_nd_add", x, index)
    _check_same_dtype("scatter_nd_add", x, updates)
    if tuple(updates.shape) != want:
        raise ValueError(f"scatter_nd_add: updates has shape {list(updates.shape)}, expected "
                         f"{list(want)} (index.shape[:-1] + x.shape[index.shape[-1]:])")
    return Meta(tuple(x.shape), x.dtype)


def _scatter_nd_add_grad(ctx, g):
    """x passes its gradient through; each update gets the gradient where it was added."""
    return (g if ctx.needs("x") else None, None,
            ops.gather_nd(g, ctx["index"]) if ctx.needs("updates") else None)


register(OpDef("scatter_nd_add", ("x", "index", "updates"), _scatter_nd_add_meta,
               "x with updates added at the slices addressed by index (as gather_nd reads "
               "them; repeats accumulate).", grad=_scatter_nd_add_grad, saves=("index",)))


def _scatter_meta(x, index, updates, overwrite=True):
    _check_index_dtype("scatter", index)
    _check_same_dtype("scatter", x, updates)
    if len(x.shape) == 0 or len(index.shape) != 1:
        raise ValueError(f"scatter: x must have at least 1 dimension and index must be 1-D, "
                         f"got shapes {list(x.shape)} and {list(index.shape)}")
    want = tuple(index.shape) + tuple(x.shape[1:])
    if tuple(updates.shape) != want:
        raise ValueError(f"scatter: updates has shape {list(updates.shape)}, expected "
                         f"{list(want)} (one row of x per index)")
    return Meta(tuple(x.shape), x.dtype)


def _scatter_grad(ctx, g):
    """The rows of x that index names are replaced (or zeroed, then accumulated into), so
    they get no gradient; each update gets the gradient of the row it went to. As in
    Paddle, with overwrite=True every duplicate index gets that gradient, though only the
    last write survives: the rule is exact when index has no duplicates."""
    index = ctx["index"]
    dx = dupdates = None
    if ctx.needs("x"):
        zeros = ops.full(shape=tuple(ctx.shape("updates")), fill_value=0, dtype=g._data.dtype)
        dx = ops.scatter(g, index, zeros, overwrite=True)
    if ctx.needs("updates"):
        dupdates = ops.gather(g, index, axis=0)
    return dx, None, dupdates


register(OpDef("scatter", ("x", "index", "updates"), _scatter_meta,
               "x with its rows index replaced by updates (overwrite=True: the last write "
               "wins), or zeroed and then summed into (overwrite=False).",
               attrs={"overwrite": True}, grad=_scatter_grad, saves=("index",)))


def _along_axis_check(op, arr, indices, axis):
    _check_index_dtype(op, indices, "indices")
    if len(indices.shape) != len(arr.shape):
        raise ValueError(f"{op}: indices (shape {list(indices.shape)}) and arr (shape "
                         f"{list(arr.shape)}) must have the same number of dimensions")
    ax = check_axis(op, axis, len(arr.shape))
    for i, (n, m) in enumerate(zip(indices.shape, arr.shape)):
        if i != ax and n > m:
            raise ValueError(f"{op}: indices has shape {list(indices.shape)}, larger than arr's "
                             f"{list(arr.shape)} along axis {i} (only axis {axis} may differ)")
    return ax


def _take_along_axis_meta(arr, indices, axis=0):
    _along_axis_check("take_along_axis", arr, indices, axis)
    return Meta(tuple(indices.shape), arr.dtype)


def _take_along_axis_grad(ctx, g):
    """Each taken element's gradient is added back where it was read."""
    return (ops.put_along_axis(_zeros(ctx, "arr"), ctx["indices"], g, axis=ctx.attrs["axis"],
                               reduce="add"), None)


register(OpDef("take_along_axis", ("arr", "indices"), _take_along_axis_meta,
               "out[..., i, ...] = arr[..., indices[..., i, ...], ...] along axis (out has "
               "indices' shape).", attrs={"axis": 0}, grad=_take_along_axis_grad,
               saves=("indices",)))


PUT_REDUCES = ("assign", "add", "multiply")


def _put_along_axis_meta(arr, indices, values, axis=0, reduce="assign"):
    _along_axis_check("put_along_axis", arr, indices, axis)
    _check_same_dtype("put_along_axis", arr, values, "values")
    if tuple(values.shape) != tuple(indices.shape):
        raise ValueError(f"put_along_axis: values has shape {list(values.shape)} but indices "
                         f"has shape {list(indices.shape)}; they must match")
    if reduce not in PUT_REDUCES:
        raise ValueError(f"put_along_axis: reduce must be one of {', '.join(PUT_REDUCES)} "
                         f"(or 'mul'), got {reduce!r}")
    return Meta(tuple(arr.shape), arr.dtype)


def _put_along_axis_grad(ctx, g):
    """assign: written positions of arr get no gradient; a value gets the gradient of its
    position if it was the last write there. add: arr passes g through; values read it
    back. multiply: out = arr * (product of the values put there), so arr gets g times
    that product and a value gets g * out / value (as Paddle, undefined at value 0)."""
    indices, axis, reduce = ctx["indices"], ctx.attrs["axis"], ctx.attrs["reduce"]
    darr = dvalues = None
    if reduce == "assign":
        if ctx.needs("arr"):
            zeros = ops.full(shape=tuple(ctx.shape("values")), fill_value=0, dtype=g._data.dtype)
            darr = ops.put_along_axis(g, indices, zeros, axis=axis, reduce="assign")
        if ctx.needs("values"):
            dvalues = ops.multiply(ops.take_along_axis(g, indices, axis=axis),
                                   _last_writes(ctx, indices, axis))
    elif reduce == "add":
        darr = g if ctx.needs("arr") else None
        if ctx.needs("values"):
            dvalues = ops.take_along_axis(g, indices, axis=axis)
    else:
        values = ctx["values"]
        if ctx.needs("arr"):
            darr = ops.put_along_axis(g, indices, values, axis=axis, reduce="multiply")
        if ctx.needs("values"):
            out = ctx["out"]
            dvalues = ops.take_along_axis(g * out, indices, axis=axis) / values
    return darr, None, dvalues


def _last_writes(ctx, indices, axis):
    """1.0 where a value of put_along_axis(reduce='assign') is the one that stays (the last
    written to its position), 0.0 where a later one overwrote it: number the writes,
    put the numbers, read back which number each position kept."""
    shape = tuple(ctx.shape("values"))
    order = ops.reshape(ops.arange(start=0, end=int(np.prod(shape, dtype=np.int64)), step=1,
                                   dtype=np.dtype(np.int64)), shape=shape)
    canvas = ops.full(shape=tuple(ctx.shape("arr")), fill_value=-1, dtype=np.dtype(np.int64))
    kept = ops.take_along_axis(ops.put_along_axis(canvas, indices, order, axis=axis),
                               indices, axis=axis)
    return ops.cast(ops.equal(kept, order), dtype=ctx.dtype("values"))


register(OpDef("put_along_axis", ("arr", "indices", "values"), _put_along_axis_meta,
               "arr with values written (assign), added or multiplied in at indices along "
               "axis (repeated positions: the last assign wins; add and multiply accumulate).",
               attrs={"axis": 0, "reduce": "assign"}, grad=_put_along_axis_grad,
               saves=("indices", "values", "out")))


def _index_sample_meta(x, index):
    _check_index_dtype("index_sample", index)
    if len(x.shape) != 2 or len(index.shape) != 2 or x.shape[0] != index.shape[0]:
        raise ValueError(f"index_sample: x and index must be 2-D with the same number of rows, "
                         f"got shapes {list(x.shape)} and {list(index.shape)}")
    return Meta(tuple(index.shape), x.dtype)


def _index_sample_grad(ctx, g):
    """Each sampled element's gradient is added back where it was read in its row."""
    return ops.put_along_axis(_zeros(ctx, "x"), ctx["index"], g, axis=1, reduce="add"), None


register(OpDef("index_sample", ("x", "index"), _index_sample_meta,
               "out[i, j] = x[i, index[i, j]].", grad=_index_sample_grad, saves=("index",)))


def _masked_fill_meta(x, mask, value):
    if mask.dtype != np.bool_:
        raise TypeError(f"masked_fill: mask must be a bool tensor, got {mask.dtype.name}")
    _check_same_dtype("masked_fill", x, value, "value")
    return Meta(broadcast_shapes(tuple(x.shape), tuple(mask.shape), tuple(value.shape),
                                 op="masked_fill"), x.dtype)


def _masked_fill_grad(ctx, g):
    """Where mask is True the output is value: x gets g elsewhere, value gets the sum of g
    over the filled positions."""
    mask = ctx["mask"]
    dx = dvalue = None
    if ctx.needs("x"):
        zero = ops.full(shape=(), fill_value=0, dtype=g._data.dtype)
        dx = sum_to(ops.masked_fill(g, mask, zero), ctx.shape("x"))
    if ctx.needs("value"):
        dvalue = sum_to(ops.multiply(g, ops.cast(mask, dtype=g._data.dtype)), ctx.shape("value"))
    return dx, None, dvalue


register(OpDef("masked_fill", ("x", "mask", "value"), _masked_fill_meta,
               "x with value where mask is True (x, mask and value broadcast).",
               grad=_masked_fill_grad, saves=("mask",)))


def _one_hot_meta(x, num_classes=None):
    _check_index_dtype("one_hot", x, "x")
    if not isinstance(num_classes, (int, np.integer)) or num_classes < 1:
        raise ValueError(f"one_hot: num_classes must be a positive int, got {num_classes!r}")
    return Meta(tuple(x.shape) + (int(num_classes),), np.dtype(np.float32))


register(OpDef("one_hot", ("x",), _one_hot_meta,
               "float32 vectors of length num_classes with a 1 at position x (one per element).",
               attrs={"num_classes": None}))


# ---------------------------------------------------------------------------
# rearranging: flip, roll, triangles, diagonals, repeats, padding
# ---------------------------------------------------------------------------

def _flip_meta(x, axis):
    axes = [check_axis("flip", a, len(x.shape)) for a in axis]
    if len(set(axes)) != len(axes):
        raise ValueError(f"flip: axis {list(axis)} names an axis twice")
    return Meta(tuple(x.shape), x.dtype)


def _flip_grad(ctx, g):
    """Flipping is its own inverse."""
    return ops.flip(g, axis=ctx.attrs["axis"])


register(OpDef("flip", ("x",), _flip_meta, "x reversed along each axis of axis.",
               attrs={"axis": None}, grad=_flip_grad))


def _roll_meta(x, shifts, axis=None):
    if axis is None:
        if len(shifts) != 1:
            raise ValueError(f"roll: without axis, shifts must be one number, got {list(shifts)}")
    else:
        if len(axis) != len(shifts):
            raise ValueError(f"roll: shifts {list(shifts)} and axis {list(axis)} must have the "
                             f"same length")
        for a in axis:
            check_axis("roll", a, len(x.shape))
    return Meta(tuple(x.shape), x.dtype)


def _roll_grad(ctx, g):
    """Roll back by the opposite shifts."""
    return ops.roll(g, shifts=tuple(-s for s in ctx.attrs["shifts"]), axis=ctx.attrs["axis"])


register(OpDef("roll", ("x",), _roll_meta,
               "x shifted circularly by shifts along axis (the flattened x when axis is None).",
               attrs={"shifts": None, "axis": None}, grad=_roll_grad))


def _triangle_meta(op):
    def meta(x, diagonal=0):
        if len(x.shape) < 2:
            raise ValueError(f"{op}: x must have at least 2 dimensions, got shape "
                             f"{list(x.shape)}")
        return Meta(tuple(x.shape), x.dtype)
    return meta


def _tril_grad(ctx, g):
    """Kept elements pass their gradient; zeroed ones get none."""
    return ops.tril(g, diagonal=ctx.attrs["diagonal"])


def _triu_grad(ctx, g):
    """Kept elements pass their gradient; zeroed ones get none."""
    return ops.triu(g, diagonal=ctx.attrs["diagonal"])


register(OpDef("tril", ("x",), _triangle_meta("tril"),
               "The lower triangle of the last two axes of x (elements j <= i + diagonal).",
               attrs={"diagonal": 0}, grad=_tril_grad))
register(OpDef("triu", ("x",), _triangle_meta("triu"),
               "The upper triangle of the last two axes of x (elements j >= i + diagonal).",
               attrs={"diagonal": 0}, grad=_triu_grad))


def diag_index(rows, cols, offset):
    """(row positions, column positions) of diagonal ``offset`` of a rows x cols matrix."""
    r0, c0 = max(-offset, 0), max(offset, 0)
    n = max(min(rows - r0, cols - c0), 0)
    return np.arange(r0, r0 + n), np.arange(c0, c0 + n)


def _diag_meta(x, offset=0, padding_value=0):
    if len(x.shape) > 2:
        raise ValueError(f"diag: x must be 0-D, 1-D or 2-D, got shape {list(x.shape)}")
    if len(x.shape) == 2:
        return Meta((len(diag_index(*x.shape, offset)[0]),), x.dtype)
    n = (x.shape[0] if x.shape else 1) + abs(offset)
    return Meta((n, n), x.dtype)


def _diag_grad(ctx, g):
    """1-D x: read the gradient back off the diagonal; 2-D x: put it on the diagonal."""
    shape, offset = tuple(ctx.shape("x")), ctx.attrs["offset"]
    if len(shape) == 2:
        return ops.getitem_grad(g, index=diag_index(*shape, offset), shape=shape)
    dx = ops.getitem(g, index=diag_index(*g.shape, offset))
    return ops.reshape(dx, shape=shape) if len(shape) == 0 else dx


register(OpDef("diag", ("x",), _diag_meta,
               "1-D x: a square matrix with x on diagonal offset and padding_value elsewhere; "
               "2-D x: its diagonal offset.", attrs={"offset": 0, "padding_value": 0},
               grad=_diag_grad))


def repeat_index(n, repeats):
    """Positions 0..n-1, position i repeated repeats (or repeats[i]) times."""
    return np.repeat(np.arange(n), repeats)


def _repeat_interleave_meta(x, repeats=1, axis=0):
    ax = check_axis("repeat_interleave", axis, len(x.shape))
    n = x.shape[ax]
    if isinstance(repeats, tuple):
        if len(repeats) != n:
            raise ValueError(f"repeat_interleave: repeats has {len(repeats)} entries but x has "
                             f"{n} elements along axis {axis}")
        total = sum(repeats)
    else:
        total = n * repeats
    if np.any(np.asarray(repeats) < 0):
        raise ValueError(f"repeat_interleave: repeats must be >= 0, got {repeats}")
    shape = list(x.shape)
    shape[ax] = int(total)
    return Meta(tuple(shape), x.dtype)


def _repeat_interleave_grad(ctx, g):
    """Every copy sends its gradient back to the element it repeats."""
    shape, repeats = tuple(ctx.shape("x")), ctx.attrs["repeats"]
    ax = check_axis("repeat_interleave", ctx.attrs["axis"], len(shape))
    index = (slice(None),) * ax + (repeat_index(shape[ax], repeats),)
    return ops.getitem_grad(g, index=index, shape=shape)


register(OpDef("repeat_interleave", ("x",), _repeat_interleave_meta,
               "Each element of x along axis repeated repeats (or repeats[i]) times in place.",
               attrs={"repeats": 1, "axis": 0}, grad=_repeat_interleave_grad))


PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
             "circular": "wrap"}


def _pad_meta(x, paddings=(), mode="constant", value=0.0):
    if mode not in PAD_MODES:
        raise ValueError(f"pad: mode must be one of {', '.join(PAD_MODES)}, got {mode!r}")
    if len(x.shape) == 0:
        raise ValueError("pad: x must have at least 1 dimension, got a 0-D tensor")
    if len(paddings) != len(x.shape):
        raise ValueError(f"pad: paddings must give (before, after) for each of the "
                         f"{len(x.shape)} axes, got {list(paddings)}")
    shape = []
    for ax, ((before, after), n) in enumerate(zip(paddings, x.shape)):
        if before < 0 or after < 0:
            raise ValueError(f"pad: paddings must be >= 0, got {(before, after)} for axis {ax}")
        if mode == "reflect" and max(before, after) >= max(n, 1):
            raise ValueError(f"pad: reflect padding {(before, after)} of axis {ax} must be "
                             f"smaller than its size {n}")
        if mode in ("replicate", "circular") and n == 0 and before + after > 0:
            raise ValueError(f"pad: {mode} padding needs a non-empty axis {ax} to copy from")
        shape.append(n + before + after)
    return Meta(tuple(shape), x.dtype)


def _pad_grad(ctx, g):
    """constant: the gradient of the inner block; other modes copy input elements to
    several places, whose gradients add up (scatter-add of the same index map)."""
    a, shape = ctx.attrs, tuple(ctx.shape("x"))
    if a["mode"] == "constant":
        return ops.getitem(g, index=tuple(slice(b, b + n) for (b, _), n in zip(a["paddings"],
                                                                             shape)))
    return ops.getitem_grad(g, index=pad_index(shape, a["paddings"], a["mode"]), shape=shape)


def pad_index(shape, paddings, mode):
    """The open-mesh index with ``pad(x) == x[index]`` for the copying modes: along each
    axis, the source position of every output position."""
    return np.ix_(*[np.pad(np.arange(n), p, mode=PAD_MODES[mode])
                    for n, p in zip(shape, paddings)])


register(OpDef("pad", ("x",), _pad_meta,
               "x padded by paddings ((before, after) per axis) with value (constant), its "
               "mirror image (reflect), its edge (replicate) or its other end (circular).",
               attrs={"paddings": (), "mode": "constant", "value": 0.0}, grad=_pad_grad))


# ---------------------------------------------------------------------------
# metadata as tensors
# ---------------------------------------------------------------------------

def _shape_meta(input):
    return Meta((len(input.shape),), np.dtype(np.int64))


register(OpDef("shape", ("input",), _shape_meta, "The shape of input as a 1-D int64 tensor."))


def _numel_meta(x):
    return Meta((), np.dtype(np.int64))


register(OpDef("numel", ("x",), _numel_meta,
               "The number of elements of x as a 0-D int64 tensor."))
