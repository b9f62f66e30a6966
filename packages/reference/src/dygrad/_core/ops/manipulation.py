"""Shape and layout ops, joining and splitting, indexing, gathering and scattering."""

from __future__ import annotations

import numpy as np

from ..dispatch import ops
from ..optable import Meta, OpDef, register


def _cast_meta(x, dtype):
    return Meta(x.shape, np.dtype(dtype))


def _cast_grad(ctx, g):
    """The gradient goes back in the input's dtype."""
    return ops.cast(g, dtype=ctx.dtype("x"))


register(OpDef("cast", ("x",), _cast_meta, "x converted to dtype.", attrs={"dtype": None},
               grad=_cast_grad))


def reshape_target(shape, target, op="reshape"):
    """Paddle's reshape rule: 0 copies the input dimension, one -1 is inferred."""
    size = int(np.prod(shape, dtype=np.int64))
    out = [shape[i] if d == 0 and i < len(shape) else int(d) for i, d in enumerate(target)]
    if out.count(-1) > 1:
        raise ValueError(f"{op}: only one dimension can be -1, got shape {list(target)}")
    if -1 in out:
        known = int(np.prod([d for d in out if d != -1], dtype=np.int64))
        if known == 0 or size % known:
            raise ValueError(f"{op}: cannot reshape a tensor of shape {list(shape)} ({size} "
                             f"elements) into {list(target)}")
        out[out.index(-1)] = size // known
    if int(np.prod(out, dtype=np.int64)) != size:
        raise ValueError(f"{op}: cannot reshape a tensor of shape {list(shape)} ({size} "
                         f"elements) into {list(target)}")
    return tuple(out)


def _reshape_meta(x, shape):
    return Meta(reshape_target(x.shape, shape), x.dtype)


def _reshape_grad(ctx, g):
    return ops.reshape(g, shape=ctx.shape("x"))


register(OpDef("reshape", ("x",), _reshape_meta,
               "x with a new shape of the same size (0 keeps a dimension, -1 is inferred).",
               attrs={"shape": None}, grad=_reshape_grad))


def _broadcast_to_meta(x, shape):
    from ..optable import broadcast_shapes
    target = tuple(x.shape[i - (len(shape) - len(x.shape))] if d == -1 else d
                   for i, d in enumerate(shape))
    if broadcast_shapes(x.shape, target, op="broadcast_to") != target:
        raise ValueError(f"broadcast_to: cannot broadcast shape {list(x.shape)} to {list(shape)}")
    return Meta(target, x.dtype)


def _broadcast_to_grad(ctx, g):
    from ..autograd import sum_to
    return sum_to(g, ctx.shape("x"))


register(OpDef("broadcast_to", ("x",), _broadcast_to_meta,
               "x broadcast to shape (-1 keeps a dimension).", attrs={"shape": None},
               grad=_broadcast_to_grad))
