"""paddle.nn.functional: pooling.

The rows pool channels-first [N, C, H, W] input; channels-last input is transposed there and
back, and 1-D pooling runs as 2-D pooling over an added axis of size 1 (as Paddle does).
Adaptive average pooling is a composite: with A_h [OH, H] averaging each of Paddle's bins
[floor(i H / OH), ceil((i + 1) H / OH)), it is A_h @ x @ A_w^T.
"""

from __future__ import annotations

import numpy as np

from ... import tensor as T
from ..._core.creation import to_tensor
from ..._core.dispatch import ops
from ._check import check_tensor
from .conv import as_tuple, resolve_padding


def _pool_args(api, x, kernel_size, stride, padding, data_format, nd=2):
    check_tensor(x, api)
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: data_format must be 'NCHW' or 'NHWC', got {data_format!r}")
    if x.ndim != 4:
        raise ValueError(f"{api}: x must be a 4-D tensor ({data_format}), got shape {x.shape}")
    ksize = as_tuple(kernel_size, 2, api, "kernel_size")
    strides = ksize if stride is None else as_tuple(stride, 2, api, "stride")
    size = x.shape[1:3] if data_format == "NHWC" else x.shape[2:]
    paddings, _ = resolve_padding(padding, 2, size, ksize, strides, data_format, api)
    if data_format == "NHWC":
        x = T.transpose(x, [0, 3, 1, 2])
    return x, {"kernel_size": ksize, "strides": strides, "paddings": paddings}


def _back(out, data_format):
    return T.transpose(out, [0, 2, 3, 1]) if data_format == "NHWC" else out


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCHW", name=None):
    """The maximum of each window; with return_mask also its flat index into H * W."""
    if return_mask and data_format != "NCHW":
        raise ValueError("max_pool2d: when return_mask is True, data_format must be 'NCHW'")
    x, attrs = _pool_args("max_pool2d", x, kernel_size, stride, padding, data_format)
    out, mask = ops.max_pool2d(x, ceil_mode=bool(ceil_mode), **attrs)
    return (out, mask) if return_mask else _back(out, data_format)


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCHW", name=None):
    """The mean of each window (exclusive: over its elements inside x); with
    divisor_override, the mean times kh * kw / divisor_override, as Paddle."""
    x, attrs = _pool_args("avg_pool2d", x, kernel_size, stride, padding, data_format)
    out = ops.avg_pool2d(x, ceil_mode=bool(ceil_mode), exclusive=bool(exclusive), **attrs)
    if divisor_override is not None:
        kh, kw = attrs["kernel_size"]
        out = T.scale(out, kh * kw / float(divisor_override))
    return _back(out, data_format)


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


def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    """The mean of x over each of Paddle's adaptive bins."""
    api = "adaptive_avg_pool2d"
    check_tensor(x, api)
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: data_format must be 'NCHW' or 'NHWC', got {data_format!r}")
    if x.ndim != 4:
        raise ValueError(f"{api}: x must be a 4-D tensor ({data_format}), got shape {x.shape}")
    if data_format == "NHWC":
        x = T.transpose(x, [0, 3, 1, 2])
    (h, w) = x.shape[2:]
    oh, ow = _output_size(api, output_size, (h, w))
    rows = _bin_matrix(h, oh, x.dtype, x.place)
    cols = _bin_matrix(w, ow, x.dtype, x.place)
    return _back(T.matmul(T.matmul(rows, x), cols, transpose_y=True), data_format)


def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    """The maximum of x [N, C, H, W] over each of Paddle's adaptive bins; with return_mask
    also its flat index into H * W."""
    api = "adaptive_max_pool2d"
    check_tensor(x, api)
    if x.ndim != 4:
        raise ValueError(f"{api}: x must be a 4-D tensor [N, C, H, W], got shape {x.shape}")
    out, mask = ops.adaptive_max_pool2d(x, output_size=_output_size(api, output_size,
                                                                    x.shape[2:]))
    return (out, mask) if return_mask else out


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


__all__ = ["max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
           "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d"]
