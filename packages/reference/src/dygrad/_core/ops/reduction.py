"""Reductions and ops that search or sort along axes."""

from __future__ import annotations

from ..dispatch import ops
from ..optable import OpDef, Meta, normalize_axes, reduce_shape, register


def _sum_meta(x, axis=None, dtype=None, keepdim=False):
    import numpy as np
    out_dtype = np.dtype(dtype) if dtype is not None else (
        np.dtype(np.int64) if x.dtype.kind in "biu" else x.dtype)
    return Meta(reduce_shape(x.shape, axis, keepdim, "sum"), out_dtype)


def _expand_reduced(g, x_shape, axis, keepdim):
    """Broadcast a reduced gradient back to ``x_shape`` (re-inserting reduced axes)."""
    if not keepdim and len(x_shape):
        axes = normalize_axes(axis, len(x_shape))
        kept = tuple(1 if i in axes else d for i, d in enumerate(x_shape))
        g = ops.reshape(g, shape=kept)
    return ops.broadcast_to(g, shape=tuple(x_shape))


def _sum_grad(ctx, g):
    """Every element of x contributes once to its sum."""
    a = ctx.attrs
    g = _expand_reduced(g, ctx.shape("x"), a["axis"], a["keepdim"])
    return ops.cast(g, dtype=ctx.dtype("x")) if g._data.dtype != ctx.dtype("x") else g


register(OpDef("sum", ("x",), _sum_meta, "Sum over axis (all axes when None).",
               attrs={"axis": None, "dtype": None, "keepdim": False}, grad=_sum_grad))
