"""CPU kernels of the loss family: NumPy-level glue around ``_loss.pyx``.

Losses: softmax with cross-entropy and its gradient. The class axis is moved last (a copy
when it is not), float16 is computed in float32 and rounded back; inputs of mixed dtypes
go to the reference kernel, so nothing changes beyond rounding. The mean squared error and
its gradient: one pass over the flattened input and label each way (float16 and empty
inputs: the reference kernels).
"""

from __future__ import annotations

import numpy as np

from dygrad.kernels import KERNELS as _REF
from dygrad.kernels.loss import _check, _check_mse, _class_index, mse_grad_scale

from . import _loss


def _last(a, axis):
    """a with axis moved last (a itself when it is last already)."""
    return a if axis in (-1, a.ndim - 1) else np.moveaxis(a, axis, -1)


def _rows(a, axis, work):
    """a with axis moved last, as C-contiguous rows of dtype ``work``."""
    moved = _last(a, axis)
    return np.ascontiguousarray(moved, dtype=work).reshape(-1, moved.shape[-1])


def _back(rows, moved_shape, axis):
    """Rows computed by ``_rows`` in the layout of the array they came from."""
    a = rows.reshape(moved_shape)
    return a if axis in (-1, len(moved_shape) - 1) else np.moveaxis(a, -1, axis)


def _labels(label, soft_label, ignore_index, axis, n, work):
    """(hard labels as an int64 vector, or None; soft labels as rows, or None), checked."""
    if soft_label:
        return None, _rows(label, axis, work)
    hard = _rows(label, axis, np.int64).reshape(-1)
    if _loss.first_bad_label(hard, ignore_index, n) >= 0:
        _class_index(label, ignore_index, n)  # raises the reference's IndexError
    return hard, None


def _fast(*arrays):
    """Whether the compiled loops take these float arrays (one dtype, not 0-D or empty)."""
    return arrays[0].ndim > 0 and arrays[0].size > 0 and \
        all(a.dtype == arrays[0].dtype for a in arrays)


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100, axis=-1,
                               use_softmax=True):
    """softmax(logits) and -sum(label * log softmax) along axis (hard labels: at the label)"""
    _check(logits, label, soft_label, axis)
    if not _fast(logits, *([label] if soft_label else [])):
        return _REF["softmax_with_cross_entropy"](logits, label, soft_label, ignore_index, axis,
                                                   use_softmax)
    work = np.float32 if logits.dtype == np.float16 else logits.dtype
    x = _rows(logits, axis, work)
    hard, soft = _labels(label, soft_label, ignore_index, axis, x.shape[1], work)
    p = np.empty_like(x) if use_softmax else x
    loss = np.empty(x.shape[0], work)
    _loss.forward(x, p, loss, hard, soft, ignore_index, use_softmax)
    moved = _last(logits, axis).shape
    loss = _back(loss, moved[:-1] + (1,), axis).astype(logits.dtype, copy=False)
    if not use_softmax:
        return logits, loss
    return np.ascontiguousarray(_back(p, moved, axis), dtype=logits.dtype), loss


def softmax_with_cross_entropy_grad(softmax, label, loss_grad, soft_label=False,
                                    ignore_index=-100, axis=-1, use_softmax=True):
    """(softmax * sum(target) - target) * loss_grad (use_softmax=False: -target / softmax)"""
    _check(softmax, label, soft_label, axis)
    one = tuple(1 if i == axis % softmax.ndim else d for i, d in enumerate(softmax.shape))
    if not _fast(softmax, loss_grad, *([label] if soft_label else [])) or loss_grad.shape != one:
        return _REF["softmax_with_cross_entropy_grad"](softmax, label, loss_grad, soft_label,
                                                        ignore_index, axis, use_softmax)
    work = np.float32 if softmax.dtype == np.float16 else softmax.dtype
    p = _rows(softmax, axis, work)
    hard, soft = _labels(label, soft_label, ignore_index, axis, p.shape[1], work)
    g = _rows(loss_grad, axis, work).reshape(-1)
    dx = np.empty_like(p)
    _loss.backward(p, g, dx, hard, soft, ignore_index, use_softmax)
    return np.ascontiguousarray(_back(dx, _last(softmax, axis).shape, axis), dtype=softmax.dtype)


def mse_loss(input, label, reduction="mean"):
    """(input - label)^2 summed, or averaged for 'mean' (blocks of partial sums added in
    float64)"""
    _check_mse(input, label, reduction)
    if input.size == 0:
        return _REF["mse_loss"](input, label, reduction)
    total = _loss.squared_error_array(input, label)  # C-contiguous float32/float64: one call
    if total is None:
        if input.dtype.char not in "fd":
            return _REF["mse_loss"](input, label, reduction)
        total = _loss.squared_error(input.ravel(), label.ravel())
    return np.asarray(total / input.size if reduction == "mean" else total, input.dtype)


def mse_loss_grad(input, label, out_grad, reduction="mean"):
    """2 (input - label) out_grad, divided by the number of elements for 'mean'"""
    _check_mse(input, label, reduction, out_grad)
    if input.size == 0:
        return _REF["mse_loss_grad"](input, label, out_grad, reduction)
    scale = mse_grad_scale(input, out_grad, reduction)
    out = _loss.squared_error_grad_array(input, label, scale)  # as in mse_loss: one call
    if out is None:
        if input.dtype.char not in "fd":
            return _REF["mse_loss_grad"](input, label, out_grad, reduction)
        out = np.empty(input.shape, input.dtype)
        _loss.squared_error_grad(input.ravel(), label.ravel(), scale, out.reshape(-1))
    return out


KERNELS = {"softmax_with_cross_entropy": softmax_with_cross_entropy,
           "softmax_with_cross_entropy_grad": softmax_with_cross_entropy_grad,
           "mse_loss": mse_loss, "mse_loss_grad": mse_loss_grad}
