"""paddle.nn.functional: normalization.

``batch_norm`` and ``layer_norm`` are ops of the table; group, instance and local response
normalization and ``normalize`` are composites of ops (group and instance norm run
``layer_norm`` on a reshaped x, then apply their per-channel weight and bias).
"""

from __future__ import annotations

import math

from ..._core.autograd import no_grad
from ..._core.dispatch import ops
from ..._core.dtype import from_numpy
from ..._core.ops.norm import DATA_FORMATS, channel_axis, channel_shape, uses_global_stats
from ._check import check_tensor


def _check_float(x, api):
    if x._data.dtype.kind != "f":
        raise TypeError(f"{api}: x must be a floating-point tensor (float16, float32 or "
                        f"float64), got {from_numpy(x._data.dtype).name}; cast it first")


def batch_norm(x, running_mean, running_var, weight, bias, training=False, momentum=0.9,
               epsilon=1e-05, data_format="NCHW", use_global_stats=None, name=None):
    """Normalize each channel by the batch's mean and biased variance (training) or by
    ``running_mean``/``running_var`` (``use_global_stats``; by default when not training),
    then scale by ``weight`` and shift by ``bias`` (ones/zeros when None). With batch
    statistics the running ones are updated in place: running = momentum * running +
    (1 - momentum) * batch statistic (the biased variance, as Paddle)."""
    api = "batch_norm"
    for arg, t in (("x", x), ("running_mean", running_mean), ("running_var", running_var)):
        check_tensor(t, api, arg)
    weight = ops.full_like(running_mean, fill_value=1.0) if weight is None else check_tensor(weight, api,
                                                                                  "weight")
    bias = ops.full_like(running_mean, fill_value=0.0) if bias is None else check_tensor(bias, api, "bias")
    out, mean, var, _, _ = ops.batch_norm(
        x, running_mean, running_var, weight, bias, momentum=float(momentum),
        epsilon=float(epsilon), training=bool(training), data_format=data_format,
        use_global_stats=use_global_stats)
    if not uses_global_stats(training, use_global_stats):
        with no_grad():
            running_mean.set_value(mean)
            running_var.set_value(var)
    return out


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Normalize over the trailing dimensions ``normalized_shape`` by their mean and biased
    variance, then scale by ``weight`` and shift by ``bias`` (flat, of the normalized size;
    ones/zeros when None)."""
    api = "layer_norm"
    check_tensor(x, api)
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    if x.ndim < len(shape) or list(x.shape[x.ndim - len(shape):]) != shape:
        raise ValueError(f"{api}: given normalized_shape {shape}, x must have shape "
                         f"[*, {', '.join(map(str, shape))}], got {list(x.shape)}")
    _check_float(x, api)
    size = math.prod(shape)
    weight = _or_full(weight, size, 1.0, x, api, "weight")
    bias = _or_full(bias, size, 0.0, x, api, "bias")
    return ops.layer_norm(x, weight, bias, epsilon=float(epsilon),
                          begin_norm_axis=x.ndim - len(shape))[0]


def _or_full(t, size, value, x, api, arg):
    """``t`` (checked to be a Tensor), or a constant vector of ``size`` in x's dtype."""
    if t is None:
        return ops.full(shape=[size], fill_value=value, dtype=x._data.dtype)
    return check_tensor(t, api, arg)


def _normalize_groups(x, groups, epsilon):
    """x of shape [N, C, *] normalized over each of ``groups`` groups of channels (with
    their spatial positions) of each sample."""
    n = x.shape[0]
    rows = ops.reshape(x, shape=[n, groups, -1])
    size = rows.shape[2]
    ones = ops.full(shape=[size], fill_value=1.0, dtype=x._data.dtype)
    zeros = ops.full(shape=[size], fill_value=0.0, dtype=x._data.dtype)
    out = ops.layer_norm(rows, ones, zeros, epsilon=float(epsilon), begin_norm_axis=2)[0]
    return ops.reshape(out, shape=list(x.shape))


def _affine(out, weight, bias, api, c_axis):
    """out * weight + bias, both per channel along ``c_axis`` (either may be None)."""
    c = out.shape[c_axis]
    shape = list(channel_shape(out.ndim, c_axis))
    for arg, t in (("weight", weight), ("bias", bias)):
        if t is not None and list(check_tensor(t, api, arg).shape) != [c]:
            raise ValueError(f"{api}: {arg} must have shape [{c}] (the channels of x with "
                             f"shape {list(out.shape)}), got {list(t.shape)}")
    if weight is not None:
        out = ops.multiply(out, ops.reshape(weight, shape=shape))
    if bias is not None:
        out = ops.add(out, ops.reshape(bias, shape=shape))
    return out


def _channels_first(x, c_axis):
    """x with its channel axis moved to 1, and the perm that moves it back (None if none)."""
    if c_axis == 1:
        return x, None
    perm = [0, x.ndim - 1, *range(1, x.ndim - 1)]
    back = [0, *range(2, x.ndim), 1]
    return ops.transpose(x, perm=perm), back


def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW",
               name=None):
    """Normalize each of ``num_groups`` groups of channels of each sample (with all their
    spatial positions) by its mean and biased variance, then scale and shift per channel."""
    api = "group_norm"
    check_tensor(x, api)
    _check_float(x, api)
    if x.ndim < 2:
        raise ValueError(f"{api}: x must have at least 2 dimensions [N, C, *], got shape "
                         f"{list(x.shape)}")
    c_axis = channel_axis(api, data_format, x.ndim)
    c = x.shape[c_axis]
    if num_groups <= 0 or c % num_groups:
        raise ValueError(f"{api}: the channels of x ({c}, shape {list(x.shape)}, data_format "
                         f"{data_format!r}) must be divisible by num_groups ({num_groups})")
    xf, back = _channels_first(x, c_axis)
    out = _normalize_groups(xf, num_groups, epsilon)
    out = out if back is None else ops.transpose(out, perm=back)
    return _affine(out, weight, bias, api, c_axis)


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.9, eps=1e-05, data_format="NCHW", name=None):
    """Normalize each channel of each sample over its spatial positions by their mean and
    biased variance, then scale and shift per channel. As in Paddle, the statistics are
    always the input's own: running_mean, running_var, use_input_stats and momentum are
    accepted and not used."""
    api = "instance_norm"
    check_tensor(x, api)
    _check_float(x, api)
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW"):
        raise ValueError(f"{api}: data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW' "
                         f"(channels first), got {data_format!r}")
    if x.ndim < 2:
        raise ValueError(f"{api}: x must have at least 2 dimensions [N, C, *], got shape "
                         f"{list(x.shape)}")
    out = _normalize_groups(x, x.shape[1], eps)
    return _affine(out, weight, bias, api, 1)


def local_response_norm(x, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW",
                        name=None):
    """x / (k + alpha / size * sum of x^2 over a window of ``size`` neighbouring channels)
    ** beta; the window of channel c spans c - size // 2 to c + (size - 1) // 2 (zeros
    beyond the edges)."""
    api = "local_response_norm"
    check_tensor(x, api)
    _check_float(x, api)
    if x.ndim < 3:
        raise ValueError(f"{api}: x must have 3 or more dimensions, got shape {list(x.shape)}")
    if not isinstance(size, int) or size < 1:
        raise ValueError(f"{api}: size must be a positive int, got {size!r}")
    if data_format not in DATA_FORMATS:
        raise ValueError(f"{api}: data_format must be one of "
                         f"{', '.join(map(repr, DATA_FORMATS))}, got {data_format!r}")
    c_axis = channel_axis(api, data_format, x.ndim)
    c = x.shape[c_axis]
    paddings = [(size // 2, (size - 1) // 2) if i == c_axis else (0, 0) for i in range(x.ndim)]
    padded = ops.pad(ops.square(x), paddings=paddings)
    window = ops.slice(padded, axes=[c_axis], starts=[0], ends=[c])
    for i in range(1, size):
        window = ops.add(window, ops.slice(padded, axes=[c_axis], starts=[i], ends=[i + c]))
    div = ops.pow(ops.scale(window, scale=alpha / size, bias=k), factor=beta)
    return ops.divide(x, div)


def normalize(x, p=2, axis=1, epsilon=1e-12, name=None):
    """x / max(||x||_p, epsilon), the p-norm taken along ``axis``."""
    api = "normalize"
    check_tensor(x, api)
    _check_float(x, api)
    norm = ops.p_norm(x, porder=float(p), axis=axis, keepdim=True)
    return ops.divide(x, ops.maximum(norm, ops.full_like(norm, fill_value=epsilon)))


__all__ = ["batch_norm", "layer_norm", "group_norm", "instance_norm", "local_response_norm",
           "normalize"]
