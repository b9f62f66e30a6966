"""Reductions, statistics, and ops that search or sort along axes.

Reductions take Paddle's ``axis`` (None, an int, or a list/tuple of ints; negatives count
from the end; ``[]`` means every axis) and ``keepdim``. A full reduction gives a 0-D tensor.
Their gradient rules broadcast the reduced gradient back over the reduced axes with
:func:`_expand_reduced`.

Sorting and selecting ops (sort, topk) send each output's gradient back to the position
it was read from with ``put_along_axis(reduce='add')``; ops whose output size depends on
the data (unique, nonzero, masked_select) report those sizes as -1 in ``infer_meta``.
"""

from __future__ import annotations

import numpy as np

from ..autograd import sum_to
from ..dispatch import ops
from ..optable import UNKNOWN, Meta, OpDef, broadcast_shapes, register

INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))

# ---------------------------------------------------------------------------
# helpers shared by the rows (and by the reference kernels, which import them)
# ---------------------------------------------------------------------------


def reduce_axes(op, shape, axis) -> tuple:
    """The sorted non-negative axes a reduction over ``axis`` covers (``()`` for a 0-D
    tensor, whose only valid axes are 0 and -1); out-of-range and repeated axes raise."""
    ndim = len(shape)
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    if not axes:
        return tuple(range(ndim))
    bound = max(ndim, 1)
    out = []
    for a in axes:
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
            raise TypeError(f"{op}: axis must be an int or a list/tuple of ints, got {axis!r}")
        if not -bound <= a < bound:
            raise ValueError(f"{op}: axis {int(a)} is out of range for a tensor of rank {ndim} "
                             f"(expected {-bound} <= axis < {bound})")
        out.append(int(a) % bound)
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: axis {list(axes)} names the same dimension more than once")
    return tuple(sorted(out)) if ndim else ()


def single_axis(op, ndim, axis, exc=ValueError) -> int:
    """One axis in ``[-ndim, ndim)`` (0 and -1 for a 0-D tensor) made non-negative."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{op}: axis must be an int, got {axis!r}")
    bound = max(ndim, 1)
    if not -bound <= axis < bound:
        raise exc(f"{op}: axis {int(axis)} is out of range for a tensor of rank {ndim} "
                  f"(expected {-bound} <= axis < {bound})")
    return int(axis) % bound


def _reduced_shape(shape, axes, keepdim):
    if keepdim:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _dtype_name(d):
    return np.dtype(d).name


def _require(op, x, kinds, expected, arg="x"):
    """Reject an input whose dtype kind is not in ``kinds`` (a TypeError naming the op)."""
    if np.dtype(x.dtype).kind not in kinds:
        raise TypeError(f"{op}: {arg} has dtype {_dtype_name(x.dtype)}, expected {expected}"
                        + (" (cast it first, e.g. x.astype('float32'))" if "f" in kinds else ""))


FLOAT_ONLY = "a floating-point dtype (float16, float32, float64)"


def _expand_reduced(g, x_shape, axis, keepdim):
    """Broadcast a reduced gradient back to ``x_shape`` (re-inserting reduced axes)."""
    if not keepdim and len(x_shape):
        axes = reduce_axes("reduce", x_shape, axis)
        g = ops.reshape(g, shape=_reduced_shape(x_shape, axes, True))
    return ops.broadcast_to(g, shape=tuple(x_shape))


def _kept(t, x_shape, axis, keepdim):
    """A reduced tensor reshaped to keep the reduced axes as size 1 (broadcasts against x)."""
    if keepdim or not len(x_shape):
        return t
    return ops.reshape(t, shape=_reduced_shape(x_shape, reduce_axes("reduce", x_shape, axis), True))


def _size(shape, axes):
    return int(np.prod([shape[i] for i in axes], dtype=np.int64))


# ---------------------------------------------------------------------------
# sum, mean, prod
# ---------------------------------------------------------------------------

def _sum_meta(x, axis=None, dtype=None, keepdim=False):
    out_dtype = np.dtype(dtype) if dtype is not None else (
        np.dtype(np.int64) if x.dtype.kind in "biu" else x.dtype)
    return Meta(_reduced_shape(x.shape, reduce_axes("sum", x.shape, axis), keepdim), out_dtype)


def _sum_grad(ctx, g):
    """Every element of x contributes once to its sum."""
    a = ctx.attrs
    g = _expand_reduced(g, ctx.shape("x"), a["axis"], a["keepdim"])
    return ops.cast(g, dtype=ctx.dtype("x")) if g._data.dtype != ctx.dtype("x") else g


register(OpDef("sum", ("x",), _sum_meta,
               "Sum over axis (all axes when None); bool and int inputs sum to int64 unless "
               "dtype is given.",
               attrs={"axis": None, "dtype": None, "keepdim": False}, grad=_sum_grad))


def _mean_meta(x, axis=None, keepdim=False):
    _require("mean", x, "fc", FLOAT_ONLY)
    return Meta(_reduced_shape(x.shape, reduce_axes("mean", x.shape, axis), keepdim), x.dtype)


def _mean_grad(ctx, g):
    """d mean / dx_i = 1/n for the n elements averaged."""
    a, shape = ctx.attrs, ctx.shape("x")
    n = _size(shape, reduce_axes("mean", shape, a["axis"]))
    if not g._data.shape and n % UNKNOWN:  # a whole-array mean: scale the 0-D g, then spread
        return ops.broadcast_to(g * (1.0 / max(n, 1)), shape=tuple(shape))
    expanded = _expand_reduced(g, shape, a["axis"], a["keepdim"])
    if n and n % UNKNOWN == 0:  # a static program's -1 dimension: count when it runs
        d = ctx.dtype("x")
        return ops.multiply(expanded, ops.divide(ops.cast(ops.numel(g), dtype=d),
                                                 ops.cast(ops.numel(expanded), dtype=d)))
    # an empty reduction has an empty x: its gradient is empty whatever the scale
    return expanded * (1.0 / max(n, 1))


register(OpDef("mean", ("x",), _mean_meta,
               "Arithmetic mean over axis (all axes when None); NaN over no elements.",
               attrs={"axis": None, "keepdim": False}, grad=_mean_grad))


def _prod_meta(x, axis=None, keepdim=False):
    _require("prod", x, "biufc", "a numeric dtype")
    return Meta(_reduced_shape(x.shape, reduce_axes("prod", x.shape, axis), keepdim), x.dtype)


def _prod_grad(ctx, g):
    """d prod / dx_i = the product of the other elements: with z = (x == 0) and x1 = x with
    its zeros replaced by ones, prod(x1) / x1_i times the product of the *other* zeros.
    That last factor is 1 when there are none and 0 when there are two or more; with
    exactly one, x_j, it is written as x_j itself (value 0, derivative 1) so that second
    derivatives are right at zeros too. (Paddle's prod / x_i gives NaN at zeros.)"""
    a, x, dtype = ctx.attrs, ctx["x"], ctx.dtype("x")
    axes = reduce_axes("prod", ctx.shape("x"), a["axis"])
    zero = ops.cast(x == 0, dtype=dtype)
    x1 = x + zero
    nonzero_part = ops.prod(x1, axis=axes, keepdim=True) / x1
    others = ops.sum(zero, axis=axes, keepdim=True) - zero       # zeros among the others
    the_other_zero = ops.sum(zero * x, axis=axes, keepdim=True) - zero * x
    zero_part = (ops.cast(others == 0, dtype=dtype)
                 + ops.cast(others == 1, dtype=dtype) * the_other_zero)
    return _expand_reduced(g, ctx.shape("x"), a["axis"], a["keepdim"]) * nonzero_part * zero_part


register(OpDef("prod", ("x",), _prod_meta,
               "Product over axis (all axes when None), in x's dtype; 1 over no elements.",
               attrs={"axis": None, "keepdim": False}, grad=_prod_grad, saves=("x",)))


# ---------------------------------------------------------------------------
# max, min, amax, amin
# ---------------------------------------------------------------------------

def _extreme_meta(op):
    def meta(x, axis=None, keepdim=False):
        _require(op, x, "biuf", "a real dtype (bool, int or float)")
        axes = reduce_axes(op, x.shape, axis)
        if any(x.shape[i] == 0 for i in axes):
            raise ValueError(f"{op}: cannot reduce x of shape {list(x.shape)} over axis "
                             f"{list(axes)}: an empty dimension has no {op.lstrip('a')}imum")
        return Meta(_reduced_shape(x.shape, axes, keepdim), x.dtype)
    return meta


def _extreme_grad(ctx, g):
    """The gradient goes to the elements equal to the result, shared evenly among ties
    (as Paddle does for max, min, amax and amin alike)."""
    a, x, shape = ctx.attrs, ctx["x"], ctx.shape("x")
    axes = reduce_axes(ctx.op.name, shape, a["axis"])
    hit = ops.cast(x == _kept(ctx["out"], shape, a["axis"], a["keepdim"]), dtype=ctx.dtype("x"))
    share = hit / ops.sum(hit, axis=axes, keepdim=True)
    return _kept(g, shape, a["axis"], a["keepdim"]) * share


for _name, _doc in [("max", "Maximum over axis (all axes when None)."),
                    ("min", "Minimum over axis (all axes when None)."),
                    ("amax", "Maximum over axis (all axes when None); ties share the gradient."),
                    ("amin", "Minimum over axis (all axes when None); ties share the gradient.")]:
    register(OpDef(_name, ("x",), _extreme_meta(_name), _doc,
                   attrs={"axis": None, "keepdim": False}, grad=_extreme_grad, saves=("x", "out")))


# ---------------------------------------------------------------------------
# var, logsumexp
# ---------------------------------------------------------------------------

def _var_meta(x, axis=None, unbiased=True, keepdim=False):
    _require("var", x, "f", FLOAT_ONLY)
    return Meta(_reduced_shape(x.shape, reduce_axes("var", x.shape, axis), keepdim), x.dtype)


def var_denominator(shape, axis, unbiased) -> int:
    """n - 1 (unbiased) or n, never below 0 (a variance over too few elements is NaN)."""
    return max(_size(shape, reduce_axes("var", shape, axis)) - int(bool(unbiased)), 0)


def _var_grad(ctx, g):
    """d var / dx_i = 2 (x_i - mean) / d, with d = n - 1 (unbiased) or n."""
    a, x, shape = ctx.attrs, ctx["x"], ctx.shape("x")
    d = var_denominator(shape, a["axis"], a["unbiased"])
    centred = x - ops.mean(x, axis=reduce_axes("var", shape, a["axis"]), keepdim=True)
    scale = 2.0 / d if d else float("nan")
    return _kept(g, shape, a["axis"], a["keepdim"]) * centred * scale


register(OpDef("var", ("x",), _var_meta,
               "Variance over axis (all axes when None), divided by n - 1 when unbiased, else n.",
               attrs={"axis": None, "unbiased": True, "keepdim": False}, grad=_var_grad,
               saves=("x",)))


def _logsumexp_meta(x, axis=None, keepdim=False):
    _require("logsumexp", x, "f", FLOAT_ONLY)
    return Meta(_reduced_shape(x.shape, reduce_axes("logsumexp", x.shape, axis), keepdim),
                x.dtype)


def _logsumexp_grad(ctx, g):
    """d logsumexp / dx_i = exp(x_i - out): the softmax of x over the reduced axes."""
    a, shape = ctx.attrs, ctx.shape("x")
    out = _kept(ctx["out"], shape, a["axis"], a["keepdim"])
    return _kept(g, shape, a["axis"], a["keepdim"]) * ops.exp(ctx["x"] - out)


register(OpDef("logsumexp", ("x",), _logsumexp_meta,
               "log(sum(exp(x))) over axis (all axes when None), computed without overflow.",
               attrs={"axis": None, "keepdim": False}, grad=_logsumexp_grad,
               saves=("x", "out")))


# ---------------------------------------------------------------------------
# cumsum, cumprod
# ---------------------------------------------------------------------------

def _scan_shape(op, shape, axis, exc):
    """A cumulative op's output shape: x flattened when axis is None, else x's shape."""
    if axis is None:
        return (int(np.prod(shape, dtype=np.int64)),)
    single_axis(op, len(shape), axis, exc)
    return tuple(shape)


def _cumsum_meta(x, axis=None, reverse=False):
    _require("cumsum", x, "iufc", "a numeric dtype (int or float)")
    return Meta(_scan_shape("cumsum", x.shape, axis, IndexError), x.dtype)


def _cumsum_grad(ctx, g):
    """out_k = sum of x_i for i <= k (i >= k when reverse), so x_i receives the sum of
    g_k over k >= i (k <= i): the cumulative sum in the other direction."""
    a = ctx.attrs
    axis = 0 if a["axis"] is None else a["axis"]
    gx = ops.cumsum(g, axis=axis, reverse=not a["reverse"])
    return ops.reshape(gx, shape=tuple(ctx.shape("x"))) if a["axis"] is None else gx


register(OpDef("cumsum", ("x",), _cumsum_meta,
               "Running sum along axis (x flattened when axis is None); from the end when "
               "reverse.", attrs={"axis": None, "reverse": False}, grad=_cumsum_grad))


def _cumprod_meta(x, dim=None):
    _require("cumprod", x, "iufc", "a numeric dtype (int or float)")
    return Meta(_scan_shape("cumprod", x.shape, dim, ValueError), x.dtype)


def _cumprod_grad(ctx, g):
    """out_k = x_0 ... x_k, so x_i receives the sum over k >= i of g_k times the product of
    x_j for j <= k, j != i. With z = (x == 0), x1 = x with its zeros replaced by ones,
    c = cumsum(z) (how many zeros x_0..x_k hold) and s = cumsum(z * x), that product is
    cumprod(x1)_k / x1_i times the product of the zeros of x_0..x_k other than x_i: 1 when
    there are none (c_k == z_i), 0 when there are two or more, and with exactly one
    (c_k == z_i + 1) that zero itself, written as s_k - z_i x_i (value 0, derivative 1) so
    that second derivatives are right at zeros too. Sums over k >= i are reversed cumsums."""
    dim, x, dtype = ctx.attrs["dim"], ctx["x"], ctx.dtype("x")
    if dim is None:
        x, dim = ops.reshape(x, shape=(-1,)), 0
    zero = ops.cast(x == 0, dtype=dtype)
    x1 = x + zero
    count = ops.cumsum(zero, axis=dim)
    the_zeros = ops.cumsum(zero * x, axis=dim)
    gp = g * ops.cumprod(x1, dim=dim)

    def tail(n_zeros, times=None):
        """Sum over k >= i of gp_k * times_k, for the k where x_0..x_k hold n_zeros zeros."""
        w = gp * ops.cast(count == n_zeros, dtype=dtype)
        return ops.cumsum(w if times is None else w * times, axis=dim, reverse=True)

    when_nonzero = tail(0) + tail(1, the_zeros)
    when_zero = tail(1) + tail(2, the_zeros) - x * tail(2)
    gx = (when_nonzero + (when_zero - when_nonzero) * zero) / x1
    return ops.reshape(gx, shape=tuple(ctx.shape("x"))) if ctx.attrs["dim"] is None else gx


register(OpDef("cumprod", ("x",), _cumprod_meta,
               "Running product along dim (x flattened when dim is None).",
               attrs={"dim": None}, grad=_cumprod_grad, saves=("x",)))


# ---------------------------------------------------------------------------
# cummax, cummin, logcumsumexp
# ---------------------------------------------------------------------------

def _cum_extreme_meta(op):
    def meta(x, axis=None, dtype=np.dtype(np.int64)):
        _require(op, x, "iuf", "an int or float dtype")
        if np.dtype(dtype) not in INDEX_DTYPES:
            raise ValueError(f"{op}: dtype of the indices must be int32 or int64, got "
                             f"{_dtype_name(dtype)}")
        shape = _scan_shape(op, x.shape, axis, IndexError)
        return Meta(shape, x.dtype), Meta(shape, np.dtype(dtype))
    return meta


def _cum_extreme_grad(ctx, g, g_indices):
    """Each running extreme's gradient goes back to the position it was taken from."""
    axis, shape = ctx.attrs["axis"], tuple(ctx.shape("x"))
    if axis is None:
        gx = _scatter_back(g, ctx["indices"], (int(np.prod(shape, dtype=np.int64)),), 0)
        return ops.reshape(gx, shape=shape)
    return _scatter_back(g, ctx["indices"], shape, axis)


for _name, _what in (("cummax", "maximum"), ("cummin", "minimum")):
    register(OpDef(_name, ("x",), _cum_extreme_meta(_name),
                   f"Running {_what} along axis (x flattened when axis is None) and the index "
                   f"it was taken from (ties: the later index; from a NaN on: the NaN and its "
                   f"index).", attrs={"axis": None, "dtype": np.dtype(np.int64)},
                   grad=_cum_extreme_grad, saves=("indices",), outputs=("out", "indices"),
                   nondiff_outputs=("indices",)))


def _logcumsumexp_meta(x, axis=None, reverse=False):
    _require("logcumsumexp", x, "f", FLOAT_ONLY)
    return Meta(_scan_shape("logcumsumexp", x.shape, axis, IndexError), x.dtype)


def _logcumsumexp_grad(ctx, g):
    """out_k = log(sum of exp(x_i) for i <= k) (i >= k when reverse), so x_i receives the
    sum over k >= i of g_k exp(x_i - out_k). For the positive and negative parts of g
    apart that is exp(x_i + logcumsumexp(log|g_k| - out_k)) taken the other way, which
    neither overflows nor underflows where the answer is representable."""
    a, x, out = ctx.attrs, ctx["x"], ctx["out"]
    axis, shape = a["axis"], tuple(ctx.shape("x"))
    if axis is None:
        x, axis = ops.reshape(x, shape=(-1,)), 0
    nothing = ops.full_like(g, fill_value=-np.inf)
    one = ops.full_like(g, fill_value=1)

    def part(mask, size):
        log_g = ops.where(mask, ops.log(ops.where(mask, size, one)) - out, nothing)
        return ops.exp(x + ops.logcumsumexp(log_g, axis=axis, reverse=not a["reverse"]))

    gx = part(g > 0, g) - part(g < 0, -g)
    return ops.reshape(gx, shape=shape) if a["axis"] is None else gx


register(OpDef("logcumsumexp", ("x",), _logcumsumexp_meta,
               "Running log(sum(exp(x))) along axis (x flattened when axis is None), from the "
               "end when reverse, without overflow.", attrs={"axis": None, "reverse": False},
               grad=_logcumsumexp_grad, saves=("x", "out")))

# ---------------------------------------------------------------------------
# argmax, argmin, all, any
# ---------------------------------------------------------------------------

def _arg_meta(op):
    def meta(x, axis=None, keepdim=False, dtype=np.dtype(np.int64)):
        _require(op, x, "biuf", "a real dtype (bool, int or float)")
        if np.dtype(dtype) not in INDEX_DTYPES:
            raise ValueError(f"{op}: dtype must be int32 or int64, got {_dtype_name(dtype)}")
        if axis is None:
            axes = tuple(range(len(x.shape)))
            empty = 0 in x.shape
        else:
            axes = (single_axis(op, len(x.shape), axis),) if len(x.shape) else ()
            empty = bool(axes) and x.shape[axes[0]] == 0
        if empty:
            raise ValueError(f"{op}: cannot search x of shape {list(x.shape)} along "
                             f"{'all axes' if axis is None else f'axis {axis}'}: it is empty")
        return Meta(_reduced_shape(x.shape, axes, keepdim), np.dtype(dtype))
    return meta


for _name, _doc in [("argmax", "Index of the (first) maximum along axis (of flattened x when None)."),
                    ("argmin", "Index of the (first) minimum along axis (of flattened x when None).")]:
    register(OpDef(_name, ("x",), _arg_meta(_name), _doc,
                   attrs={"axis": None, "keepdim": False, "dtype": np.dtype(np.int64)}))


def _logical_meta(op):
    def meta(x, axis=None, keepdim=False):
        return Meta(_reduced_shape(x.shape, reduce_axes(op, x.shape, axis), keepdim),
                    np.dtype(np.bool_))
    return meta


register(OpDef("all", ("x",), _logical_meta("all"),
               "Whether every element over axis is nonzero (True over no elements).",
               attrs={"axis": None, "keepdim": False}))
register(OpDef("any", ("x",), _logical_meta("any"),
               "Whether some element over axis is nonzero (False over no elements).",
               attrs={"axis": None, "keepdim": False}))


# ---------------------------------------------------------------------------
# sort, argsort, topk
# ---------------------------------------------------------------------------

def _sort_meta(op, dtype=None):
    def meta(x, axis=-1, descending=False):
        _require(op, x, "biuf", "a real dtype (bool, int or float)")
        single_axis(op, len(x.shape), axis)
        return Meta(tuple(x.shape), x.dtype if dtype is None else dtype)
    return meta


def _scatter_back(g, indices, shape, axis):
    """Zeros of ``shape`` with g added at ``indices`` along axis (a 0-D g is the whole x)."""
    if not len(shape):
        return g
    zeros = ops.full(shape=tuple(shape), fill_value=0, dtype=g._data.dtype)
    return ops.put_along_axis(zeros, indices, g, axis=axis, reduce="add")


def _sort_grad(ctx, g):
    """Sorting permutes x: each sorted value's gradient goes back to where it came from
    (the permutation is recomputed with argsort, which orders ties the same way)."""
    a, x = ctx.attrs, ctx["x"]
    order = ops.argsort(x, axis=a["axis"], descending=a["descending"])
    return _scatter_back(g, order, ctx.shape("x"), a["axis"])


register(OpDef("sort", ("x",), _sort_meta("sort"),
               "x sorted along axis (ascending, or descending); ties keep their order, NaN "
               "counts as the largest value.",
               attrs={"axis": -1, "descending": False}, grad=_sort_grad, saves=("x",)))
register(OpDef("argsort", ("x",), _sort_meta("argsort", np.dtype(np.int64)),
               "The int64 indices that sort x along axis (a stable sort).",
               attrs={"axis": -1, "descending": False}))


def _topk_meta(x, k=1, axis=-1, largest=True):
    _require("topk", x, "biuf", "a real dtype (bool, int or float)")
    ax = single_axis("topk", len(x.shape), axis)
    n = x.shape[ax] if len(x.shape) else 1
    if not 1 <= k <= n:
        raise ValueError(f"topk: k must be between 1 and the size of axis {axis} ({n}) of x "
                         f"(shape {list(x.shape)}), got k={k}")
    shape = tuple(k if i == ax else d for i, d in enumerate(x.shape))
    return Meta(shape, x.dtype), Meta(shape, np.dtype(np.int64))


def _topk_grad(ctx, g, g_indices):
    """Each of the k values' gradient goes back to the position it was taken from."""
    return _scatter_back(g, ctx["indices"], ctx.shape("x"), ctx.attrs["axis"])


register(OpDef("topk", ("x",), _topk_meta,
               "The k largest (or smallest) values along axis, in order, and their int64 "
               "indices (ties: the earlier position first).",
               attrs={"k": 1, "axis": -1, "largest": True}, grad=_topk_grad,
               saves=("indices",), outputs=("out", "indices"), nondiff_outputs=("indices",)))


def _mode_meta(x, axis=-1, keepdim=False):
    _require("mode", x, "iuf", "an int or float dtype")
    ndim = len(x.shape)
    ax = single_axis("mode", ndim, axis)
    if ndim and x.shape[ax] == 0:
        raise ValueError(f"mode: axis {axis} of x (shape {list(x.shape)}) has no elements")
    shape = _reduced_shape(tuple(x.shape), (ax,) if ndim else (), keepdim)
    return Meta(shape, x.dtype), Meta(shape, np.dtype(np.int64))


def _mode_grad(ctx, g, g_indices):
    """The value's gradient goes back to the position it was taken from."""
    a, indices = ctx.attrs, ctx["indices"]
    if not len(ctx.shape("x")):
        return g
    if not a["keepdim"]:
        axis = a["axis"] % len(ctx.shape("x"))
        g, indices = ops.unsqueeze(g, axis=(axis,)), ops.unsqueeze(indices, axis=(axis,))
    return _scatter_back(g, indices, ctx.shape("x"), a["axis"])


register(OpDef("mode", ("x",), _mode_meta,
               "The most frequent value along axis (the smallest of equally frequent ones) "
               "and the int64 index of its last occurrence.",
               attrs={"axis": -1, "keepdim": False}, grad=_mode_grad, saves=("indices",),
               outputs=("out", "indices"), nondiff_outputs=("indices",)))


# ---------------------------------------------------------------------------
# unique, nonzero, searchsorted (not differentiable)
# ---------------------------------------------------------------------------

def _unique_meta(x, axis=None, dtype=np.dtype(np.int64)):
    _require("unique", x, "biuf", "a real dtype (bool, int or float)")
    if np.dtype(dtype) not in INDEX_DTYPES:
        raise TypeError(f"unique: dtype must be int32 or int64, got {_dtype_name(dtype)}")
    idx = np.dtype(dtype)
    if axis is None:
        n = int(np.prod(x.shape, dtype=np.int64))
        return Meta((-1,), x.dtype), Meta((-1,), idx), Meta((n,), idx), Meta((-1,), idx)
    if not len(x.shape):
        raise ValueError("unique: axis must be None for a 0-D tensor")
    ax = single_axis("unique", len(x.shape), axis)
    out = tuple(-1 if i == ax else d for i, d in enumerate(x.shape))
    return Meta(out, x.dtype), Meta((-1,), idx), Meta((x.shape[ax],), idx), Meta((-1,), idx)


register(OpDef("unique", ("x",), _unique_meta,
               "The sorted distinct elements of x (of its slices along axis when given), "
               "with the index of each one's first occurrence, the inverse map that rebuilds "
               "x and the counts. Output sizes depend on the data (-1 in infer_meta).",
               attrs={"axis": None, "dtype": np.dtype(np.int64)},
               outputs=("out", "indices", "inverse", "counts")))


def _bincount_meta(x, minlength=0):
    if np.dtype(x.dtype) not in INDEX_DTYPES:
        raise TypeError(f"bincount: x must be an int32 or int64 tensor, got dtype "
                        f"{_dtype_name(x.dtype)}")
    if len(x.shape) != 1:
        raise ValueError(f"bincount: x must be 1-D, got shape {list(x.shape)}")
    if minlength < 0:
        raise ValueError(f"bincount: minlength must be >= 0, got {minlength}")
    return Meta((-1,), np.dtype(np.int64))


register(OpDef("bincount", ("x",), _bincount_meta,
               "How often each of 0, 1, ..., max(max(x) + 1, minlength) - 1 occurs in x (whose "
               "elements must be non-negative), as int64; the size depends on the data (-1 in "
               "infer_meta).",
               attrs={"minlength": 0}))


def _nonzero_meta(x):
    if not len(x.shape):
        raise ValueError("nonzero: x must have at least 1 dimension, got a 0-D tensor")
    return Meta((-1, len(x.shape)), np.dtype(np.int64))


register(OpDef("nonzero", ("x",), _nonzero_meta,
               "The int64 coordinates of the nonzero elements of x, one row each, in row-major "
               "order (the row count depends on the data: -1 in infer_meta)."))


def _searchsorted_meta(sorted_sequence, values, out_int32=False, right=False):
    seq = tuple(sorted_sequence.shape)
    for name, t in (("sorted_sequence", sorted_sequence), ("values", values)):
        _require("searchsorted", t, "iuf", "an int or float dtype", arg=name)
    if not seq:
        raise ValueError("searchsorted: sorted_sequence must have at least 1 dimension, got a "
                         "0-D tensor")
    if len(seq) > 1 and seq[:-1] != tuple(values.shape)[:-1]:
        raise ValueError(f"searchsorted: sorted_sequence has shape {list(seq)} and values "
                         f"{list(values.shape)}; a sorted_sequence of more than 1 dimension "
                         f"must match values in all dimensions but the last")
    return Meta(tuple(values.shape), np.dtype(np.int32 if out_int32 else np.int64))


register(OpDef("searchsorted", ("sorted_sequence", "values"), _searchsorted_meta,
               "For each value, the index in the (last axis of) sorted_sequence where it would "
               "be inserted to keep it sorted: before equal elements, or after them when right.",
               attrs={"out_int32": False, "right": False}))


# ---------------------------------------------------------------------------
# masked_select and its gradient
# ---------------------------------------------------------------------------

def _check_mask(op, mask):
    if np.dtype(mask.dtype) != np.bool_:
        raise TypeError(f"{op}: mask must be a bool tensor, got dtype {_dtype_name(mask.dtype)}")


def _masked_select_meta(x, mask):
    _check_mask("masked_select", mask)
    broadcast_shapes(tuple(x.shape), tuple(mask.shape), op="masked_select")
    return Meta((-1,), x.dtype)


def _masked_select_grad(ctx, g):
    """Each selected element's gradient goes back to its position (in x and mask
    broadcast together), then is summed over x's broadcasting."""
    shape = broadcast_shapes(ctx.shape("x"), ctx.shape("mask"))
    return sum_to(ops.masked_select_grad(g, ctx["mask"], shape=shape), ctx.shape("x")), None


register(OpDef("masked_select", ("x", "mask"), _masked_select_meta,
               "The elements of x where mask is True (x and mask broadcast together), as a 1-D "
               "tensor in row-major order (its size depends on the data: -1 in infer_meta).",
               grad=_masked_select_grad, saves=("mask",)))


def _masked_select_grad_meta(out_grad, mask, shape=()):
    _check_mask("masked_select_grad", mask)
    if len(out_grad.shape) != 1:
        raise ValueError(f"masked_select_grad: out_grad must be 1-D, got shape "
                         f"{list(out_grad.shape)}")
    try:
        fits = np.broadcast_shapes(tuple(mask.shape), tuple(shape)) == tuple(shape)
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"masked_select_grad: mask of shape {list(mask.shape)} does not "
                         f"broadcast to shape {list(shape)}")
    return Meta(tuple(shape), out_grad.dtype)


def _masked_select_grad_grad(ctx, g):
    """Linear in out_grad, and the adjoint of masked_select: its gradient is masked_select."""
    return ops.masked_select(g, ctx["mask"]), None


register(OpDef("masked_select_grad", ("out_grad", "mask"), _masked_select_grad_meta,
               "Zeros of shape with out_grad written, in row-major order, where mask (broadcast "
               "to shape) is True: the gradient of masked_select.",
               attrs={"shape": ()}, grad=_masked_select_grad_grad, saves=("mask",)))
