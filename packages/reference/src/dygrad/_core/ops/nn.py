"""Neural-network ops: activations, softmax and losses (more come with nn layers)."""

from __future__ import annotations

from ..dispatch import ops
from ..dtype import from_numpy
from ..optable import Meta, OpDef, normalize_axes, register, same_meta


def _relu_grad(ctx, g):
    """Gradient passes where the output is positive."""
    return ops.multiply(g, ops.cast(ops.greater_than(ctx["out"], ops.full_like(ctx["out"])),
                                    dtype=g._data.dtype))


register(OpDef("relu", ("x",), same_meta, "max(x, 0)", grad=_relu_grad, saves=("out",)))


def _softmax_meta_for(op):
    def meta(x, axis=-1):
        if x.dtype.kind != "f":
            raise TypeError(f"{op}: x must be a floating-point tensor (float16, float32 or "
                            f"float64), got {from_numpy(x.dtype).name}; pass dtype='float32' "
                            f"to cast it first")
        normalize_axes(axis, len(x.shape), op)
        return Meta(x.shape, x.dtype)
    return meta


def _softmax_grad(ctx, g):
    """With y = softmax(x): dx = y * (g - sum(g * y, axis))."""
    out, axis = ctx["out"], ctx.attrs["axis"]
    dot = ops.sum(ops.multiply(g, out), axis=axis, keepdim=True)
    return ops.multiply(out, ops.subtract(g, dot))


register(OpDef("softmax", ("x",), _softmax_meta_for("softmax"),
               "exp(x) / sum(exp(x)) along axis (computed stably, as exp(x - max(x)))",
               attrs={"axis": -1}, grad=_softmax_grad, saves=("out",)))


def _log_softmax_grad(ctx, g):
    """With y = log_softmax(x): dx = g - exp(y) * sum(g, axis)."""
    out, axis = ctx["out"], ctx.attrs["axis"]
    return ops.subtract(g, ops.multiply(ops.exp(out), ops.sum(g, axis=axis, keepdim=True)))


register(OpDef("log_softmax", ("x",), _softmax_meta_for("log_softmax"),
               "x - log(sum(exp(x))) along axis (computed stably)",
               attrs={"axis": -1}, grad=_log_softmax_grad, saves=("out",)))
