"""The op table: one declarative row per op, the single source of truth for every engine.

A row says what an op *means* to the framework, never how it is computed:

- ``name``: Paddle's op name; engines key their kernels by it.
- ``inputs``: names of the tensor inputs, in order. With ``variadic=True`` the first
  input is a list of tensors (concat, stack, einsum, ...).
- ``attrs``: the non-tensor attributes and their defaults. Kernels take them as keyword
  arguments with the same defaults (the conformance suite checks this).
- ``infer_meta``: ``(*input_metas, **attrs) -> Meta | tuple[Meta]``, the output shapes and
  dtypes, shared by all engines (static mode and the conformance suite use it).
- ``saves``: the input/output names the gradient rule reads; all else is freed at once.
- ``grad``: the gradient rule, ``grad(ctx, *grad_outputs) -> tuple`` (one entry per input,
  ``None`` for no gradient), written in ops of this table, so ``create_graph=True``
  records it and gives higher derivatives. ``None`` means not differentiable.
- ``outputs``: output names; ``nondiff_outputs``: those that carry no gradient (indices).
- ``random``: the kernel takes the engine's random generator as ``rng``.
- ``inplace_of``: for in-place ops, the input whose storage the output is.

Rows are registered by the family modules in :mod:`dygrad._core.ops`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numpy as np

# Static mode's stand-in size of a dimension unknown until the program runs (Paddle's -1):
# infer_meta sees plain ints, and a gradient rule that turns a size into a number (mean's
# 1/n) checks for multiples of it and counts at run time instead.
UNKNOWN = 1_000_003


class Meta(NamedTuple):
    """Shape (tuple of ints) and NumPy dtype of a tensor, as infer_meta sees it."""

    shape: tuple
    dtype: np.dtype


@dataclass(frozen=True, eq=False)
class OpDef:
    name: str
    inputs: tuple
    infer_meta: Callable
    doc: str
    attrs: dict = field(default_factory=dict)
    grad: Callable | None = None
    saves: tuple = ()
    outputs: tuple = ("out",)
    nondiff_outputs: tuple = ()
    variadic: bool = False
    random: bool = False

    def __repr__(self):
        return f"<op {self.name}({', '.join(self.inputs)})>"

    @property
    def differentiable(self) -> bool:
        return self.grad is not None


TABLE: dict[str, OpDef] = {}


def register(op: OpDef) -> OpDef:
    """Add a row to the table (each name once)."""
    if op.name in TABLE:
        raise ValueError(f"op table: {op.name!r} is registered twice")
    unknown = [s for s in op.saves if s not in op.inputs and s not in op.outputs]
    if unknown:
        raise ValueError(f"op table: {op.name!r} saves unknown names {unknown}")
    TABLE[op.name] = op
    return op


# ---------------------------------------------------------------------------
# infer_meta helpers shared by many rows
# ---------------------------------------------------------------------------

def broadcast_shapes(*shapes, op="broadcast") -> tuple:
    """NumPy/Paddle broadcasting of shapes; a clear error names the op and the shapes."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(
            f"{op}: shapes {' and '.join(str(list(s)) for s in shapes)} cannot be broadcast "
            f"together (each dimension must match or be 1)") from None


def same_meta(x, **attrs):
    """Output is like the (first) input."""
    return Meta(x.shape, x.dtype)


def float_meta(x, **attrs):
    """Same shape; integer inputs become the default float dtype."""
    from .dtype import default_float
    return Meta(x.shape, x.dtype if x.dtype.kind in "fc" else default_float().np)


def bool_meta(x, **attrs):
    return Meta(x.shape, np.dtype(np.bool_))


def broadcast_meta(x, y, **attrs):
    return Meta(broadcast_shapes(x.shape, y.shape), np.result_type(x.dtype, y.dtype))


def compare_meta(x, y, **attrs):
    return Meta(broadcast_shapes(x.shape, y.shape), np.dtype(np.bool_))


def normalize_axes(axis, ndim, op="op") -> tuple:
    """Paddle axis argument (None, int, list/tuple; negatives allowed) -> sorted tuple."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    if len(axes) == 0:
        return tuple(range(ndim))
    out = []
    for a in axes:
        a = int(a)
        if not -max(ndim, 1) <= a < max(ndim, 1):
            raise ValueError(f"{op}: axis {a} is out of range for a tensor of rank {ndim} "
                             f"(expected -{max(ndim, 1)} <= axis < {max(ndim, 1)})")
        out.append(a % ndim if ndim else 0)
    return tuple(sorted(set(out)))


def reduce_shape(shape, axis, keepdim, op="reduce") -> tuple:
    axes = normalize_axes(axis, len(shape), op) if len(shape) else ()
    if keepdim:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def reduce_meta(x, axis=None, keepdim=False, **attrs):
    return Meta(reduce_shape(x.shape, axis, keepdim), x.dtype)
