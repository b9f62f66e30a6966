"""Loss kernels: softmax with cross-entropy and its gradient, CTC, the mean squared error
and its gradient."""

import numpy as np

from ._registry import kernel


def _check(logits, label, soft_label, axis):
    """Fail on inputs NumPy would broadcast or cast silently (the row's infer_meta then
    says what is wrong): float logits; soft labels of the logits' shape and dtype; hard
    labels of integers shaped like the logits with 1 on axis."""
    if soft_label:
        ok = label.shape == logits.shape and label.dtype == logits.dtype
    else:
        ax = axis % logits.ndim
        ok = label.dtype.kind in "iu" and label.shape == logits.shape[:ax] + (1,) + \
            logits.shape[ax + 1:]
    if not ok or logits.dtype.kind != "f":
        raise ValueError("softmax_with_cross_entropy: invalid logits or label")


def _class_index(label, ignore_index, num_classes):
    """Hard labels as indices to read with (ignored entries read class 0), and the mask of
    the entries not ignored; a label outside [0, num_classes) is an IndexError, as Paddle."""
    keep = label != ignore_index
    bad = keep & ((label < 0) | (label >= num_classes))
    if np.any(bad):
        raise IndexError(f"softmax_with_cross_entropy: label values must be in [0, "
                         f"{num_classes}) or equal ignore_index ({ignore_index}), got "
                         f"{label[bad].flat[0]}")
    return np.where(keep, label, 0), keep


@kernel
def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100, axis=-1,
                               use_softmax=True):
    """softmax(logits) and -sum(label * log softmax) along axis (hard labels: at the label)"""
    _check(logits, label, soft_label, axis)
    if use_softmax:
        shifted = logits - np.max(logits, axis=axis, keepdims=True)
        e = np.exp(shifted)
        total = np.sum(e, axis=axis, keepdims=True)
        p = e / total
        log_total = np.log(total)
    else:
        p = logits
    if soft_label:
        if use_softmax:
            loss = np.sum(label * (log_total - shifted), axis=axis, keepdims=True)
        else:
            loss = -np.sum(label * np.log(p), axis=axis, keepdims=True)
    else:
        index, keep = _class_index(label, ignore_index, logits.shape[axis])
        if use_softmax:
            picked = log_total - np.take_along_axis(shifted, index, axis)
        else:
            with np.errstate(divide="ignore"):
                picked = -np.log(np.take_along_axis(p, index, axis))
        loss = np.where(keep, picked, 0)
    return p, loss.astype(logits.dtype, copy=False)


@kernel
def softmax_with_cross_entropy_grad(softmax, label, loss_grad, soft_label=False,
                                    ignore_index=-100, axis=-1, use_softmax=True):
    """(softmax * sum(target) - target) * loss_grad (use_softmax=False: -target / softmax)"""
    _check(softmax, label, soft_label, axis)
    if soft_label:
        target = label
    else:
        index, keep = _class_index(label, ignore_index, softmax.shape[axis])
        classes = np.arange(softmax.shape[axis]).reshape(
            [-1 if i == axis % softmax.ndim else 1 for i in range(softmax.ndim)])
        target = ((index == classes) & keep).astype(softmax.dtype)
    if use_softmax:
        d = softmax * np.sum(target, axis=axis, keepdims=True) - target
    else:
        d = -np.divide(target, softmax, out=np.zeros_like(softmax), where=target != 0)
    return (d * loss_grad).astype(softmax.dtype, copy=False)


def _logsumexp3(a, b, c):
    """log(exp(a) + exp(b) + exp(c)) elementwise, with -inf for all three -inf."""
    m = np.maximum(np.maximum(a, b), c)
    safe = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        return safe + np.log(np.exp(a - safe) + np.exp(b - safe) + np.exp(c - safe))


def _shift(a, k, fill=-np.inf):
    """a moved k places right (k > 0) or left (k < 0) along the last axis, filling the gap."""
    out = np.full_like(a, fill)
    if k > 0:
        out[..., k:] = a[..., :-k]
    else:
        out[..., :k] = a[..., -k:]
    return out


@kernel
def warpctc(logits, label, logits_length, labels_length, blank=0, norm_by_times=False):
    """CTC: gradient (softmax - occupancy) and loss -log p(label) by the alpha-beta recursion"""
    if logits_length.dtype.kind not in "iu" or labels_length.dtype.kind not in "iu":
        raise TypeError("warpctc: lengths must be integers")
    steps, batch, _ = logits.shape
    x = logits.astype(np.float64)
    shifted = x - np.max(x, axis=2, keepdims=True)
    log_p = shifted - np.log(np.sum(np.exp(shifted), axis=2, keepdims=True))
    t_len, l_len = logits_length.astype(np.int64), labels_length.astype(np.int64)
    # the extended label: blank, l1, blank, l2, ..., blank (2S + 1 positions per sequence)
    width = 2 * label.shape[1] + 1
    pos = np.arange(width)
    valid = pos < (2 * l_len + 1)[:, None]                           # [N, W]
    ext = np.full((batch, width), blank, dtype=np.int64)
    ext[:, 1::2] = label
    ext = np.where(valid, ext, blank)                                # padding reads the blank
    skip = (pos >= 2) & (ext != blank) & (ext != _shift(ext, 2, blank))
    emit = np.where(valid, np.take_along_axis(log_p, np.broadcast_to(ext, (steps, batch, width)),
                                              axis=2), -np.inf)      # [T, N, W]
    ninf = np.full((batch, width), -np.inf)
    alpha = np.empty((steps, batch, width))
    alpha[0] = np.where(pos < 2, emit[0], -np.inf)
    for t in range(1, steps):
        a = alpha[t - 1]
        alpha[t] = _logsumexp3(a, _shift(a, 1), np.where(skip, _shift(a, 2), -np.inf)) + emit[t]
    beta = np.empty((steps, batch, width))
    last = (pos >= 2 * l_len[:, None] - 1) & valid                   # the two end positions
    nxt = ninf
    for t in range(steps - 1, -1, -1):
        rec = _logsumexp3(nxt, _shift(nxt, -1), _shift(np.where(skip, nxt, -np.inf), -2))
        start = np.where(last, 0.0, -np.inf)
        b = np.where((t == t_len - 1)[:, None], start, rec) + emit[t]
        beta[t] = nxt = np.where((t < t_len)[:, None], b, -np.inf)
    # log p(label): alpha and beta meet at every step; read it at t = 0
    with np.errstate(invalid="ignore"):  # -inf - -inf where a position is unreachable
        log_lik = np.logaddexp.reduce(np.where(valid, alpha[0] + beta[0] - emit[0], -np.inf),
                                      axis=1)
        feasible = np.isfinite(log_lik)      # else no alignment fits: loss 0, gradient 0
        lik = np.where(feasible, log_lik, 0.0)
        occ_pos = np.exp(alpha + beta - emit - lik[:, None])
    occ_pos = np.where(np.isfinite(occ_pos), occ_pos, 0.0)
    occupancy = np.zeros_like(x)
    np.add.at(occupancy, (np.arange(steps)[:, None, None], np.arange(batch)[None, :, None],
                          np.broadcast_to(ext, (steps, batch, width))), occ_pos)
    live = (np.arange(steps)[:, None] < t_len[None, :]) & feasible[None, :]
    grad = np.where(live[:, :, None], np.exp(log_p) - occupancy, 0.0)
    if norm_by_times:
        grad = grad / np.maximum(t_len, 1)[None, :, None]
    loss = np.where(feasible, -log_lik, 0.0)[:, None]
    return grad.astype(logits.dtype), loss.astype(logits.dtype)


def _check_mse(input, label, reduction, out_grad=None):
    """Fail on inputs NumPy would broadcast or cast silently (the row's infer_meta then says
    what is wrong)."""
    ok = input.dtype.kind == "f" and label.dtype == input.dtype and \
        label.shape == input.shape and reduction in ("mean", "sum")
    if not ok or (out_grad is not None and (out_grad.shape != () or
                                            out_grad.dtype != input.dtype)):
        raise ValueError("mse_loss: invalid input, label or reduction")


def mse_grad_scale(input, out_grad, reduction):
    """The factor of (input - label) in mse_loss's gradient: 2 out_grad, divided by the
    number of elements for 'mean'."""
    return 2.0 * float(out_grad) / (max(input.size, 1) if reduction == "mean" else 1)


@kernel
def mse_loss(input, label, reduction="mean"):
    """(input - label)^2 summed (an inner product of the difference), or averaged for 'mean'"""
    _check_mse(input, label, reduction)
    d = (input - label).ravel()
    total = d @ d
    if reduction == "mean":
        with np.errstate(invalid="ignore"):  # 0 / 0 over no elements: NaN, as Paddle
            total = total / d.size
    return np.asarray(total, dtype=input.dtype)


@kernel
def mse_loss_grad(input, label, out_grad, reduction="mean"):
    """2 (input - label) out_grad, divided by the number of elements for 'mean'"""
    _check_mse(input, label, reduction, out_grad)
    return (input - label) * input.dtype.type(mse_grad_scale(input, out_grad, reduction))
