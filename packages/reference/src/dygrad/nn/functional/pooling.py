"""paddle.nn.functional: pooling.

The rows pool channels-first [N, C, *spatial] input; channels-last input is transposed there
and back, and 1-D pooling runs as 2-D pooling over an added axis of size 1 (as Paddle does).
Adaptive average pooling is a composite: with A_h [OH, H] averaging each of Paddle's bins
[floor(i H / OH), ceil((i + 1) H / OH)), it is A_h @ x @ A_w^T (then A_d @ that in 3-D).
"""

from __future__ import annotations

import numpy as np

from ... import tensor as T
from ..._core.creation import to_tensor
from ..._core.dispatch import ops
from ..._core.ops.conv import FORMATS, channels_last, spatial
from ._check import check_tensor
from .conv import as_tuple, resolve_padding


def _check_layout(api, x, data_format, nd):
    """x is a Tensor of nd + 2 dims and data_format one of the nd-D formats."""
    check_tensor(x, api)
    if data_format not in FORMATS[nd]:
        raise ValueError(f"{api}: data_format must be " + " or ".join(map(repr, FORMATS[nd]))
                         + f", got {data_format!r}")
    if x.ndim != nd + 2:
        raise ValueError(f"{api}: x must be a {nd + 2}-D tensor ({data_format}), got shape "
                         f"{x.shape}")


def _pool_args(api, x, kernel_size, stride, padding, data_format, nd=2):
    _check_layout(api, x, data_format, nd)
    ksize = as_tuple(kernel_size, nd, api, "kernel_size")
    strides = ksize if stride is None else as_tuple(stride, nd, api, "stride")
    paddings, _ = resolve_padding(padding, nd, spatial(x.shape, data_format), ksize, strides,
                                  data_format, api)
    return _first(x, data_format), {"kernel_size": ksize, "strides": strides,
                                    "paddings": paddings}


def _first(x, data_format):
    """x with its channel axis at 1."""
    return T.transpose(x, [0, x.ndim - 1, *range(1, x.ndim - 1)]) if channels_last(
        data_format) else x


def _back(out, data_format):
    """out with its channel axis moved from 1 to where data_format puts it."""
    return T.transpose(out, [0, *range(2, out.ndim), 1]) if channels_last(data_format) else out


def _max_pool_nd(nd, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format):
    api = f"max_pool{nd}d"
    if return_mask and data_format != FORMATS[nd][0]:
        raise ValueError(f"{api}: when return_mask is True, data_format must be "
                         f"{FORMATS[nd][0]!r}")
    x, attrs = _pool_args(api, x, kernel_size, stride, padding, data_format, nd)
    out, mask = getattr(ops, api)(x, ceil_mode=bool(ceil_mode), **attrs)
    return (out, mask) if return_mask else _back(out, data_format)


def _avg_pool_nd(nd, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
                 data_format):
    api = f"avg_pool{nd}d"
    x, attrs = _pool_args(api, x, kernel_size, stride, padding, data_format, nd)
    out = getattr(ops, api)(x, ceil_mode=bool(ceil_mode), exclusive=bool(exclusive), **attrs)
    if divisor_override is not None:
        out = T.scale(out, float(np.prod(attrs["kernel_size"])) / float(divisor_override))
    return _back(out, data_format)


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCHW", name=None):
    """The maximum of each window; with return_mask also its flat index into H * W."""
    return _max_pool_nd(2, x, kernel_size, stride, padding, return_mask, ceil_mode,
                        data_format)


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCHW", name=None):
    """The mean of each window (exclusive: over its elements inside x); with
    divisor_override, the mean times kh * kw / divisor_override, as Paddle."""
    return _avg_pool_nd(2, x, kernel_size, stride, padding, ceil_mode, exclusive,
                        divisor_override, data_format)


def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCDHW", name=None):
    """The maximum of each window of x [N, C, D, H, W] (or NDHWC); with return_mask also its
    flat index into D * H * W."""
    return _max_pool_nd(3, x, kernel_size, stride, padding, return_mask, ceil_mode,
                        data_format)


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCDHW", name=None):
    """The mean of each window of x [N, C, D, H, W] (or NDHWC); with divisor_override, the
    mean times kd * kh * kw / divisor_override, as Paddle."""
    return _avg_pool_nd(3, x, kernel_size, stride, padding, ceil_mode, exclusive,
                        divisor_override, data_format)


def _as_2d(api, x, kernel_size, stride, padding):
    """A 1-D call's arguments for the 2-D function: an axis of size 1 before L."""
    check_tensor(x, api)
    if x.ndim != 3:
        raise ValueError(f"{api}: x must be a 3-D tensor [N, C, L], got shape {x.shape}")
    k = as_tuple(kernel_size, 1, api, "kernel_size")
    s = k if stride is None else as_tuple(stride, 1, api, "stride")
    if not isinstance(padding, str):
        (pair,), _ = resolve_padding(padding, 1, None, None, None, "NCL", api)
        padding = [0, 0, *pair]
    return T.unsqueeze(x, 2), (1, *k), (1, *s), padding


def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               name=None):
    """The maximum of each window of x [N, C, L]; with return_mask also its index."""
    x2, k, s, p = _as_2d("max_pool1d", x, kernel_size, stride, padding)
    out, mask = max_pool2d(x2, k, s, p, return_mask=True, ceil_mode=ceil_mode)
    out = T.squeeze(out, 2)
    return (out, T.squeeze(mask, 2)) if return_mask else out


def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
               name=None):
    """The mean of each window of x [N, C, L]."""
    x2, k, s, p = _as_2d("avg_pool1d", x, kernel_size, stride, padding)
    return T.squeeze(avg_pool2d(x2, k, s, p, ceil_mode=ceil_mode, exclusive=exclusive), 2)


def _output_size(api, output_size, size):
    """An int or a pair (None keeps the input's size) as a pair of positive ints."""
    if isinstance(output_size, (list, tuple)):
        output_size = [n if o is None else o for o, n in zip(output_size, size)] \
            if len(output_size) == len(size) else output_size
    out = as_tuple(output_size, len(size), api, "output_size")
    if min(out) <= 0:
        raise ValueError(f"{api}: output_size must be positive, got {output_size!r}")
    return out


def _bin_matrix(n, m, dtype, place):
    """A [m, n] matrix averaging each of Paddle's adaptive bins of n positions into m."""
    i = np.arange(m)
    start, end = (i * n) // m, -((-(i + 1) * n) // m)
    pos = np.arange(n)
    inside = (pos >= start[:, None]) & (pos < end[:, None])
    return to_tensor(inside / (end - start)[:, None], dtype=dtype, place=place)


def _adaptive_avg_pool_nd(nd, x, output_size, data_format):
    """With A_i [O_i, S_i] averaging each bin along spatial axis i: A_h @ x @ A_w^T over the
    last two axes, then (3-D) A_d @ the result with H and W flattened."""
    api = f"adaptive_avg_pool{nd}d"
    _check_layout(api, x, data_format, nd)
    x = _first(x, data_format)
    size = tuple(x.shape[2:])
    out = _output_size(api, output_size, size)
    a = [_bin_matrix(n, m, x.dtype, x.place) for n, m in zip(size, out)]
    x = T.matmul(T.matmul(a[-2], x), a[-1], transpose_y=True)
    if nd == 3:
        x = T.reshape(T.matmul(a[0], T.reshape(x, [x.shape[0], x.shape[1], size[0], -1])),
                      [x.shape[0], x.shape[1], *out])
    return _back(x, data_format)


def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    """The mean of x over each of Paddle's adaptive bins."""
    return _adaptive_avg_pool_nd(2, x, output_size, data_format)


def adaptive_avg_pool3d(x, output_size, data_format="NCDHW", name=None):
    """The mean of x [N, C, D, H, W] (or NDHWC) over each of Paddle's adaptive bins."""
    return _adaptive_avg_pool_nd(3, x, output_size, data_format)


def _adaptive_max_pool_nd(nd, x, output_size, return_mask):
    api = f"adaptive_max_pool{nd}d"
    check_tensor(x, api)
    if x.ndim != nd + 2:
        raise ValueError(f"{api}: x must be a {nd + 2}-D tensor [N, C, "
                         f"{', '.join(FORMATS[nd][0][2:])}], got shape {x.shape}")
    out, mask = getattr(ops, api)(x, output_size=_output_size(api, output_size, x.shape[2:]))
    return (out, mask) if return_mask else out


def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    """The maximum of x [N, C, H, W] over each of Paddle's adaptive bins; with return_mask
    also its flat index into H * W."""
    return _adaptive_max_pool_nd(2, x, output_size, return_mask)


def adaptive_max_pool3d(x, output_size, return_mask=False, name=None):
    """The maximum of x [N, C, D, H, W] over each of Paddle's adaptive bins; with return_mask
    also its flat index into D * H * W."""
    return _adaptive_max_pool_nd(3, x, output_size, return_mask)


def _unpool_nd(nd, api, x, indices, kernel_size, stride, padding, data_format, output_size):
    """max_unpool{nd}d's checks and output size: by default (in - 1) * stride - pad_before -
    pad_after + kernel_size, else output_size (the last nd of a list of nd or nd + 2 ints),
    which must lie strictly within stride of that default, as Paddle."""
    check_tensor(x, api)
    check_tensor(indices, api, "indices")
    fmt = FORMATS[nd][0]
    if data_format != fmt:
        raise ValueError(f"{api}: data_format must be {fmt!r}, got {data_format!r}")
    if x.ndim != nd + 2:
        raise ValueError(f"{api}: x must be a {nd + 2}-D tensor [N, C, {', '.join(fmt[2:])}], "
                         f"got shape {x.shape}")
    if indices.shape != x.shape:
        raise ValueError(f"{api}: indices of shape {indices.shape} must have the shape of x "
                         f"({x.shape})")
    ksize = as_tuple(kernel_size, nd, api, "kernel_size")
    strides = ksize if stride is None else as_tuple(stride, nd, api, "stride")
    paddings, _ = resolve_padding(padding, nd, spatial(x.shape, fmt), ksize, strides, fmt, api)
    default = [(n - 1) * s - a - b + k
               for n, s, (a, b), k in zip(x.shape[2:], strides, paddings, ksize)]
    if output_size is None:
        return tuple(default)
    out = list(output_size)[-nd:] if isinstance(output_size, (list, tuple)) and len(
        output_size) in (nd, nd + 2) else None
    if out is None or any(not d - s < o < d + s for o, d, s in zip(out, default, strides)):
        raise ValueError(f"{api}: output_size must be {nd} (or {nd + 2}) sizes each within "
                         f"stride {list(strides)} of the default {default} (exclusive), got "
                         f"{output_size!r}")
    return tuple(int(o) for o in out)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
    """max_pool2d undone: zeros with each value of x [N, C, H, W] at the flat index into the
    output's H * W that indices (max_pool2d's mask) gives."""
    size = _unpool_nd(2, "max_unpool2d", x, indices, kernel_size, stride, padding,
                      data_format, output_size)
    return ops.max_unpool2d(x, indices, output_size=size)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
    """max_pool3d undone: zeros with each value of x [N, C, D, H, W] at the flat index into
    the output's D * H * W that indices (max_pool3d's mask) gives."""
    size = _unpool_nd(3, "max_unpool3d", x, indices, kernel_size, stride, padding,
                      data_format, output_size)
    return ops.max_unpool3d(x, indices, output_size=size)


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
    """max_pool1d undone (as max_unpool2d over an added axis of size 1)."""
    api = "max_unpool1d"
    if data_format != "NCL":
        raise ValueError(f"{api}: data_format must be 'NCL', got {data_format!r}")
    check_tensor(indices, api, "indices")
    x2, k, s, p = _as_2d(api, x, kernel_size, stride, padding)
    if isinstance(output_size, (list, tuple)) and len(output_size) in (1, 3):
        output_size = (1, output_size[-1])
    size = _unpool_nd(2, api, x2, T.unsqueeze(indices, 2), k, s, p, "NCHW", output_size)
    return T.squeeze(ops.max_unpool2d(x2, T.unsqueeze(indices, 2), output_size=size), 2)


def _check_1d(api, x):
    check_tensor(x, api)
    if x.ndim != 3:
        raise ValueError(f"{api}: x must be a 3-D tensor [N, C, L], got shape {x.shape}")
    return T.unsqueeze(x, 2)


def adaptive_avg_pool1d(x, output_size, name=None):
    """The mean of x [N, C, L] over each of Paddle's adaptive bins."""
    x2 = _check_1d("adaptive_avg_pool1d", x)
    return T.squeeze(adaptive_avg_pool2d(
        x2, (1, *as_tuple(output_size, 1, "adaptive_avg_pool1d", "output_size"))), 2)


def adaptive_max_pool1d(x, output_size, return_mask=False, name=None):
    """The maximum of x [N, C, L] over each of Paddle's adaptive bins (and its index)."""
    x2 = _check_1d("adaptive_max_pool1d", x)
    out, mask = adaptive_max_pool2d(
        x2, (1, *as_tuple(output_size, 1, "adaptive_max_pool1d", "output_size")), True)
    out = T.squeeze(out, 2)
    return (out, T.squeeze(mask, 2)) if return_mask else out


__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "max_unpool1d",
           "max_unpool2d", "max_unpool3d"]
