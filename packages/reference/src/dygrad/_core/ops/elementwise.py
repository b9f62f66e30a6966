"""Elementwise ops: arithmetic, math functions, comparisons, logic and bitwise ops.

Binary ops broadcast; their gradient rules undo the broadcasting with ``sum_to``.
"""

from __future__ import annotations

from ..autograd import sum_to
from ..dispatch import ops
from ..optable import OpDef, broadcast_meta, register


def _add_grad(ctx, g):
    """d(x + y) = dx + dy"""
    return (sum_to(g, ctx.shape("x")) if ctx.needs("x") else None,
            sum_to(g, ctx.shape("y")) if ctx.needs("y") else None)


register(OpDef("add", ("x", "y"), broadcast_meta, "x + y (broadcasting)", grad=_add_grad))


def _multiply_grad(ctx, g):
    """d(x * y) = y dx + x dy"""
    return (sum_to(ops.multiply(g, ctx["y"]), ctx.shape("x")) if ctx.needs("x") else None,
            sum_to(ops.multiply(g, ctx["x"]), ctx.shape("y")) if ctx.needs("y") else None)


register(OpDef("multiply", ("x", "y"), broadcast_meta, "x * y (broadcasting)",
               grad=_multiply_grad, saves=("x", "y")))
