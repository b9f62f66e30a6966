"""Loss ops: softmax with cross-entropy (with its fused gradient), CTC (``warpctc``) and
the mean squared error (``mse_loss``, with its fused gradient).

Most losses of ``paddle.nn.functional`` are composites of other rows. These are rows of
their own because their fused kernels are what makes them fast and stable: one pass over
the logits for cross-entropy, one alpha-beta recursion for CTC, one pass over input and
label each way for the squared error (instead of subtract, square and mean forward and
five ops backward).
"""

from __future__ import annotations

import numpy as np

from ..autograd import grad_mode
from ..dispatch import ops
from ..dtype import from_numpy
from ..optable import UNKNOWN, Meta, OpDef, register
from .manipulation import INDEX_DTYPES, check_axis

# ---------------------------------------------------------------------------
# softmax_with_cross_entropy
# ---------------------------------------------------------------------------

_SWCE = "softmax_with_cross_entropy"
_SWCE_ATTRS = {"soft_label": False, "ignore_index": -100, "axis": -1, "use_softmax": True}


def _name(dtype):
    return from_numpy(dtype).name


def _swce_meta(logits, label, soft_label=False, ignore_index=-100, axis=-1, use_softmax=True,
               op=_SWCE):
    """softmax: like logits; loss: logits' shape with 1 on axis (Paddle keeps the dim)."""
    if logits.dtype.kind != "f":
        raise TypeError(f"{op}: logits must be a floating-point tensor (float16, float32 or "
                        f"float64), got {_name(logits.dtype)}")
    nd = len(logits.shape)
    if nd == 0:
        raise ValueError(f"{op}: logits must have at least 1 dimension, got a 0-D tensor")
    ax = check_axis(op, axis, nd)
    kept = tuple(1 if i == ax else d for i, d in enumerate(logits.shape))
    shapes = f"label shape {list(label.shape)}, logits shape {list(logits.shape)}"
    if soft_label:
        if label.dtype != logits.dtype:
            raise TypeError(f"{op}: with soft_label=True, label must be probabilities of the "
                            f"logits' dtype {_name(logits.dtype)}, got {_name(label.dtype)}")
        if tuple(label.shape) != tuple(logits.shape):
            raise ValueError(f"{op}: with soft_label=True, label must have the logits' shape "
                             f"({shapes})")
    else:
        if label.dtype not in INDEX_DTYPES:
            raise TypeError(f"{op}: with soft_label=False, label must hold class indices of "
                            f"dtype int32 or int64, got {_name(label.dtype)}; pass "
                            f"soft_label=True for probabilities")
        if tuple(label.shape) != kept:
            raise ValueError(f"{op}: with soft_label=False, label must have the logits' shape "
                             f"with 1 on axis {ax}, i.e. {list(kept)} ({shapes})")
    return Meta(tuple(logits.shape), logits.dtype), Meta(kept, logits.dtype)


def _class_range(x, axis, dtype):
    """0, 1, ..., C-1 (C = x's size on ``axis``) laid along that axis, to compare labels with."""
    nd, ax = x._data.ndim, axis % x._data.ndim
    classes = ops.arange(start=0, end=x._data.shape[ax], dtype=dtype)
    return ops.reshape(classes, shape=[-1 if i == ax else 1 for i in range(nd)])


def _swce_logits_grad(logits, label, loss_grad, soft_label, ignore_index, axis, use_softmax):
    """The gradient of the loss as a composite of differentiable ops (used under
    ``create_graph``, where it gives the higher derivatives): with p = softmax(logits) and
    t the (one-hot, zero where ignored) target, ``(p * sum(t) - t) * g``; when logits are
    already probabilities (use_softmax=False), ``-t / p * g``."""
    p = ops.softmax(logits, axis=axis) if use_softmax else logits
    if soft_label:
        target = label
    else:
        hit = ops.logical_and(ops.equal(label, _class_range(p, axis, label._data.dtype)),
                              ops.not_equal(label, ops.full_like(label, fill_value=ignore_index)))
        target = ops.cast(hit, dtype=p._data.dtype)
    if use_softmax:
        d = ops.subtract(ops.multiply(p, ops.sum(target, axis=axis, keepdim=True)), target)
    else:
        d = ops.neg(ops.divide(target, p))
    return ops.multiply(d, loss_grad)


def _swce_grad(ctx, g_softmax, g_loss):
    """The fused ``softmax_with_cross_entropy_grad`` row; under create_graph the same
    gradient from differentiable ops, so second derivatives exist. The label gets no
    gradient (as in Paddle, also for soft labels); the softmax output carries none."""
    if grad_mode.enabled:
        dx = _swce_logits_grad(ctx["logits"], ctx["label"], g_loss, **ctx.attrs)
    else:
        dx = ops.softmax_with_cross_entropy_grad(ctx["softmax"], ctx["label"], g_loss,
                                                 **ctx.attrs)
    return dx, None


register(OpDef(
    _SWCE, ("logits", "label"), _swce_meta,
    "softmax(logits) along axis and the cross-entropy -sum(label * log softmax), computed "
    "stably in one pass; hard labels (int, size 1 on axis) give -log softmax at the label, "
    "0 where label == ignore_index; use_softmax=False takes logits as probabilities.",
    attrs=dict(_SWCE_ATTRS), grad=_swce_grad, saves=("logits", "label", "softmax"),
    outputs=("softmax", "loss"), nondiff_outputs=("softmax",)))


def _swce_grad_meta(softmax, label, loss_grad, **attrs):
    op = f"{_SWCE}_grad"
    out, loss = _swce_meta(softmax, label, op=op, **attrs)
    if tuple(loss_grad.shape) != loss.shape:
        raise ValueError(f"{op}: loss_grad must have the loss's shape {list(loss.shape)}, got "
                         f"{list(loss_grad.shape)}")
    return out


register(OpDef(
    f"{_SWCE}_grad", ("softmax", "label", "loss_grad"), _swce_grad_meta,
    "The gradient of softmax_with_cross_entropy with respect to its logits, from the saved "
    "softmax p: (p * sum(label) - label) * loss_grad (hard labels one-hot, rows where "
    "label == ignore_index zero); use_softmax=False: -label / p * loss_grad. Not "
    "differentiable itself: under create_graph the forward row's rule uses a composite.",
    attrs=dict(_SWCE_ATTRS), outputs=("logits_grad",)))


# ---------------------------------------------------------------------------
# warpctc
# ---------------------------------------------------------------------------

def _warpctc_meta(logits, label, logits_length, labels_length, blank=0, norm_by_times=False):
    op = "warpctc"
    if logits.dtype.kind != "f":
        raise TypeError(f"{op}: logits must be float32 or float64, got {_name(logits.dtype)}")
    if len(logits.shape) != 3:
        raise ValueError(f"{op}: logits must be [max_logit_length, batch_size, num_classes], "
                         f"got shape {list(logits.shape)}")
    t, n, c = logits.shape
    if len(label.shape) != 2 or label.shape[0] != n:
        raise ValueError(f"{op}: labels must be [batch_size, max_label_length] with "
                         f"batch_size {n} (logits shape {list(logits.shape)}), got labels "
                         f"shape {list(label.shape)}")
    for arg, m in (("labels", label), ("input_lengths", logits_length),
                   ("label_lengths", labels_length)):
        if m.dtype not in INDEX_DTYPES:
            raise TypeError(f"{op}: {arg} must be int32 or int64, got {_name(m.dtype)}")
    for arg, m in (("input_lengths", logits_length), ("label_lengths", labels_length)):
        if tuple(m.shape) != (n,):
            raise ValueError(f"{op}: {arg} must have shape [{n}] (one length per sequence), "
                             f"got {list(m.shape)}")
    if not 0 <= blank < c:
        raise ValueError(f"{op}: blank must be in [0, {c}) (num_classes {c}), got {blank}")
    return Meta((t, n, c), logits.dtype), Meta((n, 1), logits.dtype)


def _warpctc_grad(ctx, g_grad, g_loss):
    """The gradient the kernel computed with the loss, times the loss's gradient."""
    if grad_mode.enabled:
        raise NotImplementedError("warpctc (ctc_loss): second derivatives are not supported; "
                                  "call backward without create_graph=True")
    g = ops.reshape(g_loss, shape=[1, -1, 1])
    return ops.multiply(ctx["warpctcgrad"], g), None, None, None


register(OpDef(
    "warpctc", ("logits", "label", "logits_length", "labels_length"), _warpctc_meta,
    "CTC loss -log p(label | softmax(logits)) per sequence (logits [T, N, C], padded labels "
    "[N, S], lengths [N]; an alignment that cannot exist gives 0), and its gradient with "
    "respect to the logits, softmax - posterior class occupancy, zero past each sequence's "
    "length (divided by that length with norm_by_times, which leaves the loss unchanged, "
    "as Paddle). Only first derivatives.",
    attrs={"blank": 0, "norm_by_times": False}, grad=_warpctc_grad, saves=("warpctcgrad",),
    outputs=("warpctcgrad", "loss"), nondiff_outputs=("warpctcgrad",)))


# ---------------------------------------------------------------------------
# mse_loss
# ---------------------------------------------------------------------------

_MSE_API = "paddle.nn.functional.mse_loss"


def _mse_meta(input, label, reduction="mean", op=_MSE_API):
    """A 0-D loss of input's dtype; input and label of one shape and one float dtype (the
    functional API broadcasts, and computes other cases as a composite)."""
    if reduction not in ("mean", "sum"):
        raise ValueError(f"{op}: the fused op takes reduction 'mean' or 'sum', got "
                         f"{reduction!r}")
    if input.dtype.kind != "f":
        raise TypeError(f"{op}: input must be a floating-point tensor (float16, float32 or "
                        f"float64), got {_name(input.dtype)}")
    if label.dtype != input.dtype:
        raise TypeError(f"{op}: label must have input's dtype {_name(input.dtype)}, got "
                        f"{_name(label.dtype)}")
    if tuple(label.shape) != tuple(input.shape):
        raise ValueError(f"{op}: input and label must have the same shape, got input shape "
                         f"{list(input.shape)} and label shape {list(label.shape)}")
    return Meta((), input.dtype)


def _mse_grad(ctx, g):
    """The fused ``mse_loss_grad`` row gives input's gradient; label's is its negation."""
    dx = ops.mse_loss_grad(ctx["input"], ctx["label"], g, **ctx.attrs)
    input_edge, label_edge = ctx.next_edges  # ctx.needs(name): that input's edge is not None
    return (dx if input_edge is not None else None), \
        (ops.neg(dx) if label_edge is not None else None)


register(OpDef(
    "mse_loss", ("input", "label"), _mse_meta,
    "The squared error (input - label)^2 averaged ('mean') or summed ('sum') over all "
    "elements, in one pass; a 0-D tensor. Input and label have one shape and one float "
    "dtype; NaN for 'mean' over no elements.",
    attrs={"reduction": "mean"}, grad=_mse_grad, saves=("input", "label")))


def _mse_grad_meta(input, label, out_grad, reduction="mean"):
    op = "mse_loss_grad"
    out = _mse_meta(input, label, reduction, op=op)
    if tuple(out_grad.shape) != () or out_grad.dtype != input.dtype:
        raise ValueError(f"{op}: out_grad must be the 0-D loss's gradient of input's dtype "
                         f"{_name(input.dtype)}, got shape {list(out_grad.shape)} and dtype "
                         f"{_name(out_grad.dtype)}")
    return Meta(tuple(input.shape), out.dtype)


def _weight(ctx):
    """The weight of each element's squared error in the loss: 1 ('sum') or 1 / n ('mean';
    a 0-D tensor counted at run time where a static program's -1 dimensions leave n open)."""
    if ctx.attrs["reduction"] == "sum":
        return 1.0
    n = int(np.prod(ctx.shape("input"), dtype=np.int64))
    if n and n % UNKNOWN == 0:
        return 1.0 / ops.cast(ops.numel(ctx["input"]), dtype=ctx.dtype("input"))
    return 1.0 / max(n, 1)


def _mse_grad_grad(ctx, gg):
    """The gradient of d = 2 w (input - label) out_grad (w: ``_weight``): 2 w out_grad gg
    for input, its negation for label, 2 w sum((input - label) gg) for out_grad."""
    w2 = _weight(ctx) * 2.0
    x, y, g = ctx["input"], ctx["label"], ctx["out_grad"]
    dx = ops.multiply(gg, g * w2) if ctx.needs("input") or ctx.needs("label") else None
    dg = ops.sum(ops.multiply(ops.subtract(x, y), gg)) * w2 if ctx.needs("out_grad") else None
    return (dx if ctx.needs("input") else None,
            ops.neg(dx) if ctx.needs("label") else None, dg)


register(OpDef(
    "mse_loss_grad", ("input", "label", "out_grad"), _mse_grad_meta,
    "The gradient of mse_loss with respect to input, 2 (input - label) out_grad, divided by "
    "the number of elements for 'mean'; in one pass (label's gradient is its negation).",
    attrs={"reduction": "mean"}, grad=_mse_grad_grad, saves=("input", "label", "out_grad")))
