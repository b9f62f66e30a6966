"""Loss functions (paddle.nn.functional). Cross-entropy and CTC run the fused ops
``softmax_with_cross_entropy`` and ``warpctc``, the mean squared error ``mse_loss`` where
no broadcasting is involved; the others are composites of tensor ops, as in Paddle."""

from __future__ import annotations

import math

import numpy as np

from ... import tensor as T
from ..._core import program as _program
from ..._core.dispatch import ops
from ..._core.dtype import from_numpy
from ..._core.tensor import Tensor
from ._check import check_tensor

_REDUCTIONS = ("sum", "mean", "none")


def check_reduction(reduction, api: str, allowed=_REDUCTIONS):
    if reduction not in allowed:
        names = ", ".join(f"'{r}'" for r in allowed[:-1]) + f" or '{allowed[-1]}'"
        raise ValueError(f"'reduction' in '{api}' should be {names}, but received "
                         f"{reduction}.")


def _reduce(loss, reduction):
    """The elementwise loss averaged ('mean', a 0-D tensor), summed ('sum') or kept ('none')."""
    if reduction == "mean":
        return T.mean(loss)
    if reduction == "sum":
        return T.sum(loss)
    return loss


def _dtype_name(x):
    return from_numpy(x._data.dtype).name


def _check_float(x, api, arg):
    check_tensor(x, api, arg)
    if x._data.dtype.kind != "f":
        raise TypeError(f"{api}: {arg} must be a floating-point tensor (float32 or float64), "
                        f"got {_dtype_name(x)}")
    return x


def _check_index(x, api, arg):
    check_tensor(x, api, arg)
    if x._data.dtype not in (np.int32, np.int64):
        raise TypeError(f"{api}: {arg} must hold class indices of dtype int32 or int64, got "
                        f"{_dtype_name(x)}")
    return x


def _check_same_shape(x, y, api, x_arg="input", y_arg="label"):
    if x.shape != y.shape:
        raise ValueError(f"{api}: {x_arg} and {y_arg} must have the same shape, got "
                         f"{x_arg} shape {x.shape} and {y_arg} shape {y.shape}")


def _any_eager(condition):
    """Whether any element of the boolean tensor is true; False while a static program is
    built (Paddle checks values only in dynamic mode)."""
    return not _program.in_static_mode() and T.any(condition).item()


def _safe_denominator(total):
    """total, with 0 replaced by 1 (so an all-ignored batch averages to 0, as Paddle)."""
    return total + T.cast(total == 0, total.dtype)


# ---------------------------------------------------------------------------
# cross-entropy
# ---------------------------------------------------------------------------

def _class_weights(weight, label, soft_label, ignore_index, axis, api):
    """The weight of each sample's class (soft labels: the label-weighted mean of the
    class weights), 0 where the label is ignored; shaped like the loss."""
    nd = label.ndim
    ax = axis % nd
    if soft_label:
        along = T.reshape(weight, [-1 if i == ax else 1 for i in range(nd)])
        return T.sum(T.multiply(T.cast(label, weight.dtype), along), axis=ax, keepdim=True)
    keep = label != ignore_index
    safe = T.where(keep, label, T.zeros_like(label))
    picked = T.reshape(T.gather(weight, T.reshape(safe, [-1])), label.shape)
    return T.multiply(picked, T.cast(keep, weight.dtype))


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean",
                  soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0,
                  name=None):
    """Softmax cross-entropy of ``input`` (logits, or probabilities with use_softmax=False)
    against class indices (shape of input without axis, or 1 on axis) or, with soft_label,
    a distribution. ``weight`` [C] weighs each sample by its class; ``label_smoothing``
    eps uses (1 - eps) * one_hot + eps / C. 'mean' divides by the summed weights of the
    samples not ignored (without weight and with a negative ignore_index: by the count of
    all samples, as Paddle)."""
    api = "cross_entropy"
    check_reduction(reduction, api)
    _check_float(input, api, "input")
    check_tensor(label, api, "label")
    if ignore_index > 0 and soft_label:
        raise ValueError(f"{api}: with soft_label=True, ignore_index must be -100, got "
                         f"{ignore_index}")
    nd = input.ndim
    if nd == 0:
        raise ValueError(f"{api}: input must have at least 1 dimension, got a 0-D tensor")
    if label.ndim not in (nd - 1, nd):
        raise ValueError(f"{api}: label must have rank {nd - 1} or {nd} for input of shape "
                         f"{input.shape}, got label shape {label.shape}")
    ax = axis % nd if -nd <= axis < nd else axis  # an out-of-range axis: the op says so
    squeeze_out = label.ndim == nd - 1
    if not soft_label:
        _check_index(label, api, "label")
    if label_smoothing > 0.0:
        num_classes = input.shape[ax]
        if not soft_label:
            index = label if squeeze_out else T.squeeze(label, ax)
            label = T.moveaxis(ops.one_hot(index, num_classes=num_classes), -1, ax)
        label = T.cast(label, input.dtype) * (1.0 - label_smoothing) + \
            label_smoothing / num_classes
        soft_label, squeeze_out = True, False
    elif squeeze_out:
        label = T.unsqueeze(label, ax)
    if weight is not None:
        check_tensor(weight, api, "weight")
        if weight.shape != [input.shape[ax]]:
            raise ValueError(f"{api}: input's class dimension ({input.shape[ax]}) must equal "
                             f"weight's ({weight.shape}) when weight is provided")
    _, loss = ops.softmax_with_cross_entropy(input, label, soft_label=bool(soft_label),
                                             ignore_index=int(ignore_index), axis=int(ax),
                                             use_softmax=bool(use_softmax))
    w = None
    if weight is not None:
        w = _class_weights(weight, label, soft_label, ignore_index, ax, api)
        loss = T.multiply(loss, w)
    if reduction == "sum":
        return T.sum(loss)
    if reduction == "mean":
        if ignore_index >= 0 and not soft_label:
            total = T.sum(w) if w is not None else T.sum(T.cast(label != ignore_index,
                                                               loss.dtype))
            return T.sum(loss) / _safe_denominator(total)
        if w is not None:
            return T.sum(loss) / _safe_denominator(T.sum(w))
        return T.mean(loss)
    return T.squeeze(loss, ax) if squeeze_out else loss


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    """The cross-entropy of softmax(logits) per sample, keeping a dimension of 1 on axis;
    a label without that dimension gets it. With return_softmax: (loss, softmax). Always
    computed stably (numeric_stable_mode is accepted for compatibility)."""
    api = "softmax_with_cross_entropy"
    _check_float(logits, api, "logits")
    check_tensor(label, api, "label")
    nd = logits.ndim
    if nd == 0:
        raise ValueError(f"{api}: logits must have at least 1 dimension, got a 0-D tensor")
    if label.ndim not in (nd - 1, nd):
        raise ValueError(f"{api}: label must have rank {nd - 1} or {nd} for logits of shape "
                         f"{logits.shape}, got label shape {label.shape}")
    if label.ndim == nd - 1:
        label = T.unsqueeze(label, axis)
    softmax, loss = ops.softmax_with_cross_entropy(
        logits, label, soft_label=bool(soft_label), ignore_index=int(ignore_index),
        axis=int(axis), use_softmax=True)
    return (loss, softmax) if return_softmax else loss


def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean", name=None):
    """-input[n, label[n], d...] * weight[label[n]] for log-probabilities input [N, C, d...]
    and labels [N, d...]; 'mean' divides by the summed weights of the labels not ignored."""
    api = "nll_loss"
    check_reduction(reduction, api)
    _check_float(input, api, "input")
    _check_index(label, api, "label")
    if input.ndim < 2:
        raise ValueError(f"{api}: input must be [N, C] or [N, C, d1, ...], got shape "
                         f"{input.shape}")
    if input.ndim == 2 and label.shape == [input.shape[0], 1]:
        label = T.squeeze(label, 1)
    want = [input.shape[0]] + input.shape[2:]
    if label.shape != want:
        raise ValueError(f"{api}: label must have shape {want} for input of shape "
                         f"{input.shape}, got {label.shape}")
    num_classes = input.shape[1]
    keep = label != ignore_index
    if T.any(T.logical_and(keep, T.logical_or(label < 0, label >= num_classes))).item():
        raise IndexError(f"{api}: label values must be in [0, {num_classes}) or equal "
                         f"ignore_index ({ignore_index})")
    safe = T.where(keep, label, T.zeros_like(label))
    picked = T.squeeze(T.take_along_axis(input, T.unsqueeze(safe, 1), axis=1), 1)
    if weight is not None:
        check_tensor(weight, api, "weight")
        if weight.shape != [num_classes]:
            raise ValueError(f"{api}: weight must have shape [{num_classes}] (one per class), "
                             f"got {weight.shape}")
        w = T.reshape(T.gather(weight, T.reshape(safe, [-1])), safe.shape)
        w = T.multiply(w, T.cast(keep, w.dtype))
    else:
        w = T.cast(keep, input.dtype)
    loss = -T.multiply(picked, w)
    if reduction == "mean":
        return T.sum(loss) / _safe_denominator(T.sum(w))
    return _reduce(loss, reduction)


# ---------------------------------------------------------------------------
# regression losses
# ---------------------------------------------------------------------------

def mse_loss(input, label, reduction="mean", name=None):
    """(input - label)^2, averaged ('mean', a 0-D tensor), summed ('sum') or elementwise
    ('none'); label broadcasts against input. Input and label of one shape and one float
    dtype, reduced, run the fused op ``mse_loss``; other cases are the composite."""
    if reduction not in _REDUCTIONS:
        check_reduction(reduction, "mse_loss")
    if not (isinstance(input, Tensor) and isinstance(label, Tensor)):
        check_tensor(input, "mse_loss", "input")
        check_tensor(label, "mse_loss", "label")
    x, y = input._data, label._data
    if reduction != "none" and x.dtype == y.dtype and x.dtype.kind == "f" and \
            x.shape == y.shape:
        return ops.mse_loss(input, label, reduction=reduction)
    return _reduce(T.square(T.subtract(input, label)), reduction)


def square_error_cost(input, label):
    """(input - label)^2, elementwise."""
    check_tensor(input, "square_error_cost", "input")
    check_tensor(label, "square_error_cost", "label")
    return T.square(T.subtract(input, label))


def l1_loss(input, label, reduction="mean", name=None):
    """|input - label|, reduced; label broadcasts against input."""
    check_reduction(reduction, "L1Loss")
    check_tensor(input, "l1_loss", "input")
    check_tensor(label, "l1_loss", "label")
    return _reduce(T.abs(T.subtract(input, label)), reduction)


def smooth_l1_loss(input, label, reduction="mean", delta=1.0, name=None):
    """The Huber loss of d = |input - label|: 0.5 * d^2 below delta, delta * (d - 0.5 *
    delta) above (Paddle's smooth L1, not divided by delta)."""
    check_reduction(reduction, "SmoothL1Loss")
    check_tensor(input, "smooth_l1_loss", "input")
    check_tensor(label, "smooth_l1_loss", "label")
    d = T.abs(T.subtract(input, label))
    loss = T.where(d < delta, 0.5 * T.square(d), delta * (d - 0.5 * delta))
    return _reduce(loss, reduction)


# ---------------------------------------------------------------------------
# binary and distribution losses
# ---------------------------------------------------------------------------

def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):
    """-(label * log(input) + (1 - label) * log(1 - input)) for probabilities input, each
    log clipped at -100 (as Paddle); ``weight`` broadcasts against the loss."""
    api = "binary_cross_entropy"
    check_reduction(reduction, api)
    _check_float(input, api, "input")
    _check_float(label, api, "label")
    _check_same_shape(input, label, api)
    log_p = T.clip(T.log(input), min=-100.0)
    log_q = T.clip(T.log(1.0 - input), min=-100.0)
    loss = -(label * log_p + (1.0 - label) * log_q)
    if weight is not None:
        loss = T.multiply(loss, check_tensor(weight, api, "weight"))
    return _reduce(loss, reduction)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean",
                                     pos_weight=None, name=None):
    """Binary cross-entropy of sigmoid(logit), computed stably as (1 - label) * logit +
    (1 + (pos_weight - 1) * label) * softplus(-logit) with softplus(-x) = log(1 +
    exp(-|x|)) + max(-x, 0); ``weight`` and ``pos_weight`` broadcast."""
    api = "binary_cross_entropy_with_logits"
    check_reduction(reduction, api)
    _check_float(logit, api, "logit")
    _check_float(label, api, "label")
    _check_same_shape(logit, label, api, "logit")
    softplus_neg = T.log1p(T.exp(-T.abs(logit))) + T.maximum(-logit, T.zeros_like(logit))
    if pos_weight is not None:
        check_tensor(pos_weight, api, "pos_weight")
        softplus_neg = softplus_neg * (1.0 + (pos_weight - 1.0) * label)
    loss = (1.0 - label) * logit + softplus_neg
    if weight is not None:
        loss = T.multiply(loss, check_tensor(weight, api, "weight"))
    return _reduce(loss, reduction)


def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0,
                       reduction="sum", name=None):
    """Focal loss: binary cross-entropy with logits times alpha_t * (1 - p_t)^gamma, where
    p = sigmoid(logit), p_t = p for label 1 and 1 - p for label 0 (alpha_t likewise alpha
    and 1 - alpha); divided by ``normalizer`` (a one-element tensor) when given."""
    api = "sigmoid_focal_loss"
    check_reduction(reduction, api)
    _check_float(logit, api, "logit")
    _check_float(label, api, "label")
    _check_same_shape(logit, label, api, "logit")
    p = T.sigmoid(logit)
    ce = binary_cross_entropy_with_logits(logit, label, reduction="none")
    p_t = p * label + (1.0 - p) * (1.0 - label)
    alpha_t = alpha * label + (1.0 - alpha) * (1.0 - label)
    loss = alpha_t * ce * T.pow(1.0 - p_t, gamma) if gamma else alpha_t * ce
    if normalizer is not None:
        check_tensor(normalizer, api, "normalizer")
        if normalizer.size != 1:
            raise ValueError(f"{api}: normalizer must hold one value (shape [1] or []), got "
                             f"shape {normalizer.shape}")
        loss = loss / T.reshape(normalizer, [])
    return _reduce(loss, reduction)


def log_loss(input, label, epsilon=0.0001, name=None):
    """-label * log(input + epsilon) - (1 - label) * log(1 - input + epsilon), elementwise."""
    api = "log_loss"
    _check_float(input, api, "input")
    _check_float(label, api, "label")
    _check_same_shape(input, label, api)
    return -label * T.log(input + epsilon) - (1.0 - label) * T.log(1.0 - input + epsilon)


def kl_div(input, label, reduction="mean", log_target=False, name=None):
    """label * (log(label) - input) for log-probabilities input (0 where label is 0; with
    log_target, label is log-probabilities too: exp(label) * (label - input)). 'batchmean'
    divides the sum by the batch size (input.shape[0])."""
    api = "kl_div"
    check_reduction(reduction, api, ("mean", "batchmean", "sum", "none"))
    _check_float(input, api, "input")
    _check_float(label, api, "label")
    if log_target:
        loss = T.exp(label) * (label - input)
    else:
        positive = label > 0
        safe = T.where(positive, label, T.ones_like(label))
        loss = T.where(positive, label * (T.log(safe) - input), T.zeros_like(safe))
    if reduction == "batchmean":
        return T.sum(loss) / input.shape[0] if input.ndim else T.sum(loss)
    return _reduce(loss, reduction)


# ---------------------------------------------------------------------------
# ranking and embedding losses
# ---------------------------------------------------------------------------

def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean", name=None):
    """max(0, -label * (input - other) + margin), reduced (label is 1 or -1)."""
    api = "margin_ranking_loss"
    check_reduction(reduction, api)
    for x, arg in ((input, "input"), (other, "other"), (label, "label")):
        _check_float(x, api, arg)
    out = -label * (input - other) + margin
    return _reduce(T.maximum(out, T.zeros_like(out)), reduction)


def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    """1 - cos(input1, input2) where label is 1, max(0, cos - margin) where it is -1, 0
    elsewhere; inputs [N, M] (or [M]) and label [N] (or [1])."""
    api = "cosine_embedding_loss"
    check_reduction(reduction, api)
    _check_float(input1, api, "input1")
    _check_float(input2, api, "input2")
    check_tensor(label, api, "label")
    _check_same_shape(input1, input2, api, "input1", "input2")
    if input1.ndim not in (1, 2):
        raise ValueError(f"{api}: input1 and input2 must be [N, M] or [M], got shape "
                         f"{input1.shape}")
    batch = input1.shape[0] if input1.ndim == 2 else 1
    if label.ndim != 1 or label.shape[0] != batch:
        raise ValueError(f"{api}: label must have shape [{batch}] for inputs of shape "
                         f"{input1.shape}, got {label.shape}")
    dot = T.sum(input1 * input2, axis=-1)
    norms = (T.sum(T.square(input1), axis=-1) + 1e-11) * (T.sum(T.square(input2), axis=-1) +
                                                         1e-11)
    cos = dot / T.sqrt(norms)
    if input1.ndim == 1:
        cos = T.reshape(cos, [1])
    zero = T.zeros_like(cos)
    loss = T.where(label == 1, 1.0 - cos, zero) + \
        T.where(label == -1, T.maximum(cos - margin, zero), zero)
    return _reduce(loss, reduction)


# ---------------------------------------------------------------------------
# margin and embedding losses
# ---------------------------------------------------------------------------

def soft_margin_loss(input, label, reduction="mean", name=None):
    """log(1 + exp(-label * input)) for labels 1 or -1 (any dtype, cast to input's),
    computed as a softplus so large margins do not overflow."""
    api = "soft_margin_loss"
    check_reduction(reduction, api)
    _check_float(input, api, "input")
    check_tensor(label, api, "label")
    _check_same_shape(input, label, api)
    z = -T.cast(label, input.dtype) * input
    return _reduce(ops.softplus(z, beta=1.0, threshold=20.0), reduction)


def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None):
    """input where label is 1, max(0, margin - input) where it is -1, 0 elsewhere; label
    broadcasts against input."""
    api = "hinge_embedding_loss"
    check_reduction(reduction, api)
    _check_float(input, api, "input")
    check_tensor(label, api, "label")
    zero = T.zeros_like(input)
    loss = T.where(label == 1.0, input, zero) + \
        T.where(label == -1.0, T.maximum(margin - input, zero), zero)
    return _reduce(loss, reduction)


def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean", name=None):
    """-(label * log sigmoid(input) + (1 - label) * log sigmoid(-input)), times ``weight``
    (broadcast), averaged over the last axis: one loss per sample before the reduction."""
    api = "multi_label_soft_margin_loss"
    check_reduction(reduction, api)
    _check_float(input, api, "input")
    _check_float(label, api, "label")
    _check_same_shape(input, label, api)
    loss = -(label * ops.logsigmoid(input) + (1.0 - label) * ops.logsigmoid(-input))
    if weight is not None:
        loss = loss * _check_float(weight, api, "weight")
    return _reduce(T.mean(loss, axis=-1), reduction)


def multi_margin_loss(input, label, p=1, margin=1.0, weight=None, reduction="mean",
                      name=None):
    """The multi-class hinge loss of scores input [N, C] and class indices label [N] (or
    [N, 1]): sum over i != y of max(0, margin - input[y] + input[i])^p / C, times
    weight[y] when ``weight`` [C] is given."""
    api = "multi_margin_loss"
    check_reduction(reduction, api)
    _check_float(input, api, "input")
    _check_index(label, api, "label")
    if input.ndim != 2:
        raise ValueError(f"{api}: input must be [N, C], got shape {input.shape}")
    num, classes = input.shape
    label = T.reshape(label, [-1])
    if label.shape[0] != num:
        raise ValueError(f"{api}: label must hold one class per sample ({num}) for input of "
                         f"shape {input.shape}, got label shape {label.shape}")
    if _any_eager(T.logical_or(label < 0, label >= classes)):
        raise ValueError(f"{api}: label values must be in [0, {classes})")
    column = T.unsqueeze(label, 1)
    target = T.take_along_axis(input, column, axis=1)
    others = T.cast(column != T.arange(classes, dtype=label.dtype), input.dtype)
    hinge = T.maximum(margin - target + input, T.zeros_like(input))
    loss = T.sum(T.pow(hinge, p) * others, axis=1) / classes
    if weight is not None:
        _check_float(weight, api, "weight")
        if weight.shape != [classes]:
            raise ValueError(f"{api}: weight must have shape [{classes}] (one per class), "
                             f"got {weight.shape}")
        loss = loss * T.gather(weight, label)
    return _reduce(loss, reduction)


def _distance(x, y, p, epsilon):
    """The p-norm of x - y + epsilon over the last axis (Paddle's PairwiseDistance)."""
    d = x - y + epsilon if epsilon else x - y
    if p == float("inf"):
        return T.max(T.abs(d), axis=-1)
    if p == float("-inf"):
        return T.min(T.abs(d), axis=-1)
    if p == 0:
        return T.sum(T.cast(d != 0, d.dtype), axis=-1)
    if p == 2:
        return T.sqrt(T.sum(T.square(d), axis=-1))
    return T.pow(T.sum(T.pow(T.abs(d), p), axis=-1), 1.0 / p)


def _check_triplet(input, positive, negative, margin, reduction, api):
    check_reduction(reduction, api)
    if margin < 0:
        raise ValueError(f"{api}: margin must be at least 0, got {margin}")
    for x, arg in ((input, "input"), (positive, "positive"), (negative, "negative")):
        _check_float(x, api, arg)
    if not input.shape == positive.shape == negative.shape:
        raise ValueError(f"{api}: input, positive and negative must have the same shape, got "
                         f"{input.shape}, {positive.shape} and {negative.shape}")


def _triplet(distance, input, positive, negative, margin, swap, reduction, api):
    """max(0, d(input, positive) - d(input, negative) + margin), with swap the negative
    distance the smaller of d(input, negative) and d(positive, negative)."""
    d_pos = distance(input, positive)
    d_neg = distance(input, negative)
    if swap:
        d_neg = T.minimum(d_neg, distance(positive, negative))
    if _any_eager(d_pos < 0) or _any_eager(d_neg < 0):
        raise ValueError(f"{api}: the distances must be at least 0; check distance_function")
    loss = d_pos - d_neg + margin
    return _reduce(T.maximum(loss, T.zeros_like(loss)), reduction)


def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-06,
                        swap=False, reduction="mean", name=None):
    """The triplet loss with p-norm distances over the last axis, ||a - b + epsilon||_p."""
    api = "triplet_margin_loss"
    _check_triplet(input, positive, negative, margin, reduction, api)
    return _triplet(lambda a, b: _distance(a, b, p, epsilon), input, positive, negative,
                    margin, swap, reduction, api)


def triplet_margin_with_distance_loss(input, positive, negative, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean", name=None):
    """The triplet loss with ``distance_function(a, b)`` (default: the Euclidean distance
    over the last axis, ||a - b + 1e-6||_2); distances must not be negative."""
    api = "triplet_margin_with_distance_loss"
    _check_triplet(input, positive, negative, margin, reduction, api)
    distance = distance_function or (lambda a, b: _distance(a, b, 2, 1e-6))
    return _triplet(distance, input, positive, negative, margin, swap, reduction, api)


# ---------------------------------------------------------------------------
# likelihood losses
# ---------------------------------------------------------------------------

def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-08,
                     reduction="mean", name=None):
    """The Poisson negative log-likelihood: exp(input) - label * input for log-rates
    (log_input), else input - label * log(input + epsilon); ``full`` adds Stirling's
    label * log(label) - label + 0.5 * log(2 pi label) where label > 1."""
    api = "poisson_nll_loss"
    if epsilon <= 0:
        raise ValueError(f"{api}: epsilon must be positive, got {epsilon}")
    check_reduction(reduction, api)
    _check_float(input, api, "input")
    _check_float(label, api, "label")
    _check_same_shape(input, label, api)
    if log_input:
        loss = T.exp(input) - label * input
    else:
        loss = input - label * T.log(input + epsilon)
    if full:
        above = label > 1
        safe = T.where(above, label, T.ones_like(label))
        stirling = safe * T.log(safe) - safe + 0.5 * T.log(2 * math.pi * safe)
        loss = loss + T.where(above, stirling, T.zeros_like(stirling))
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-06, reduction="mean",
                      name=None):
    """The Gaussian negative log-likelihood 0.5 * (log(v) + (input - label)^2 / v), v the
    variance clipped below at epsilon (+ 0.5 * log(2 pi) with ``full``). variance has
    input's shape, or input's without the last axis (or with 1 there): one variance per
    row. Unlike Paddle (which clips it under no_grad), variance gets its gradient."""
    api = "gaussian_nll_loss"
    for x, arg in ((input, "input"), (label, "label"), (variance, "variance")):
        _check_float(x, api, arg)
    if variance.shape != input.shape:
        if variance.shape == input.shape[:-1]:
            variance = T.unsqueeze(variance, -1)
        elif not (variance.shape[:-1] == input.shape[:-1] and variance.shape[-1:] == [1]):
            raise ValueError(f"{api}: variance must have input's shape {input.shape}, or it "
                             f"without the last axis or with 1 there, got {variance.shape}")
    check_reduction(reduction, api)
    if _any_eager(variance < 0):
        raise ValueError(f"{api}: variance has negative entries")
    variance = T.clip(variance, min=epsilon)
    loss = 0.5 * (T.log(variance) + T.square(input - label) / variance)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


# ---------------------------------------------------------------------------
# CTC
# ---------------------------------------------------------------------------

def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean",
             norm_by_times=False):
    """Connectionist temporal classification loss of log_probs [T, N, C] (normalised
    inside with a softmax, as Paddle's warpctc does) against padded labels [N, S]; one
    loss per sequence ('none', shape [N]); 'mean' divides each by its label length and
    averages. norm_by_times divides the gradient (not the loss) by each input length."""
    api = "ctc_loss"
    check_reduction(reduction, api)
    _check_float(log_probs, api, "log_probs")
    for x, arg in ((labels, "labels"), (input_lengths, "input_lengths"),
                   (label_lengths, "label_lengths")):
        check_tensor(x, api, arg)
    _, loss = ops.warpctc(log_probs, labels, input_lengths, label_lengths, blank=int(blank),
                          norm_by_times=bool(norm_by_times))
    loss = T.squeeze(loss, -1)
    if reduction == "mean":
        return T.mean(loss / T.cast(label_lengths, loss.dtype))
    return _reduce(loss, reduction)


__all__ = ["cross_entropy", "softmax_with_cross_entropy", "nll_loss", "mse_loss",
           "square_error_cost", "l1_loss", "smooth_l1_loss", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "sigmoid_focal_loss", "log_loss", "kl_div",
           "margin_ranking_loss", "cosine_embedding_loss", "ctc_loss", "soft_margin_loss",
           "hinge_embedding_loss", "multi_label_soft_margin_loss", "multi_margin_loss",
           "triplet_margin_loss", "triplet_margin_with_distance_loss", "poisson_nll_loss",
           "gaussian_nll_loss"]
