"""Matrix products and linear algebra."""

from __future__ import annotations

import numpy as np

from ..autograd import sum_to
from ..dispatch import ops
from ..optable import Meta, OpDef, broadcast_shapes, register


def _matmul_meta(x, y, transpose_x=False, transpose_y=False):
    xs, ys = list(x.shape), list(y.shape)
    if not xs or not ys:
        raise ValueError(f"matmul: inputs must be at least 1-D, got shapes {xs} and {ys}")
    x1, y1 = len(xs) == 1, len(ys) == 1
    if x1:
        xs = [1] + xs
    if y1:
        ys = ys + [1]
    if transpose_x and not x1:
        xs[-1], xs[-2] = xs[-2], xs[-1]
    if transpose_y and not y1:
        ys[-1], ys[-2] = ys[-2], ys[-1]
    if xs[-1] != ys[-2]:
        raise ValueError(
            f"matmul: the contracted dimensions differ: x has shape {list(x.shape)} "
            f"(transpose_x={transpose_x}), y has shape {list(y.shape)} "
            f"(transpose_y={transpose_y}); x's last dimension ({xs[-1]}) must equal y's "
            f"second-to-last ({ys[-2]})")
    batch = broadcast_shapes(tuple(xs[:-2]), tuple(ys[:-2]), op="matmul")
    out = list(batch) + ([] if x1 else [xs[-2]]) + ([] if y1 else [ys[-1]])
    return Meta(tuple(out), np.result_type(x.dtype, y.dtype))


def _matmul_grad(ctx, g):
    """With X = op(x), Y = op(y) (1-D operands promoted to matrices as in forward):
    dX = g Y^T and dY = X^T g; then undo the transposes, promotions and batch broadcasting."""
    x, y = ctx["x"], ctx["y"]
    xs, ys = ctx.shape("x"), ctx.shape("y")
    x1, y1 = len(xs) == 1, len(ys) == 1
    tx, ty = ctx.attrs["transpose_x"] and not x1, ctx.attrs["transpose_y"] and not y1
    x2s, y2s = ((1,) + xs if x1 else xs), (ys + (1,) if y1 else ys)
    x2 = ops.reshape(x, shape=x2s) if x1 else x
    y2 = ops.reshape(y, shape=y2s) if y1 else y
    gs = list(g._data.shape)
    if x1:
        gs.insert(len(gs) if y1 else len(gs) - 1, 1)
    if y1:
        gs.append(1)
    g2 = ops.reshape(g, shape=tuple(gs))
    gx = gy = None
    if ctx.needs("x"):
        gx = (ops.matmul(y2, g2, transpose_x=ty, transpose_y=True) if tx
              else ops.matmul(g2, y2, transpose_y=not ty))
        gx = sum_to(gx, x2s)
        gx = ops.reshape(gx, shape=xs) if x1 else gx
    if ctx.needs("y"):
        gy = (ops.matmul(g2, x2, transpose_x=True, transpose_y=tx) if ty
              else ops.matmul(x2, g2, transpose_x=not tx))
        gy = sum_to(gy, y2s)
        gy = ops.reshape(gy, shape=ys) if y1 else gy
    return gx, gy


register(OpDef("matmul", ("x", "y"), _matmul_meta,
               "Matrix product with Paddle's rules: 1-D operands are promoted and the added "
               "dimension removed, batch dimensions broadcast, optional transposes of the last "
               "two dimensions.",
               attrs={"transpose_x": False, "transpose_y": False}, grad=_matmul_grad,
               saves=("x", "y")))
