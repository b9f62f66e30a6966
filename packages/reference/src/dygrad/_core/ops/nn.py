"""Neural-network ops: activations, softmax and losses (more come with nn layers)."""

from __future__ import annotations

from ..dispatch import ops
from ..optable import OpDef, register, same_meta


def _relu_grad(ctx, g):
    """Gradient passes where the output is positive."""
    return ops.multiply(g, ops.cast(ops.greater_than(ctx["out"], ops.full_like(ctx["out"])),
                                    dtype=g._data.dtype))


register(OpDef("relu", ("x",), same_meta, "max(x, 0)", grad=_relu_grad, saves=("out",)))
