"""paddle.nn.functional: convolutions.

The functions turn Paddle's flexible arguments into the plain attributes of the op table's
rows: ``stride``/``dilation`` (an int or one per spatial axis), ``padding`` (an int, one per
axis, (before, after) per axis as a flat list [top, bottom, left, right] or as pairs that
include zero pairs for the batch and channel axes, or 'SAME' / 'VALID'). 1-D convolutions
run as 2-D ones over an added axis of size 1, as Paddle's do.
"""

from __future__ import annotations

import numbers

from ... import tensor as T
from ..._core import errors as _errors
from ..._core import program as _program
from ..._core.dispatch import debug_hook, ops
from ..._core.ops.conv import FORMATS, channels_last, spatial, transpose_out_size
from ..._core.tensor import Tensor
from ._check import check_tensor


def as_tuple(value, n, api, arg) -> tuple:
    """An int or a list/tuple of n ints as a tuple of n ints."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return (int(value),) * n
    if isinstance(value, (list, tuple)) and len(value) == n and all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in value):
        return tuple(int(v) for v in value)
    raise _errors.user_error(ValueError(
        f"{api}: {arg} must be an int or a list of {n} ints, got {value!r}"))


def resolve_padding(padding, nd, size, ksize, strides, data_format, api):
    """Paddle's padding forms -> ((before, after) per spatial axis, same): 'SAME' pads so that
    out = ceil(in / stride), the extra element after (and Paddle then uses dilation 1)."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode not in ("SAME", "VALID"):
            raise _errors.user_error(ValueError(
                f"{api}: unknown padding {padding!r}; it can only be 'SAME' or "
                f"'VALID'"))
        if mode == "VALID":
            return ((0, 0),) * nd, False
        pairs = []
        for n, k, s in zip(size, ksize, strides):
            total = max((-(-n // s) - 1) * s + k - n, 0)
            pairs.append((total // 2, total - total // 2))
        return tuple(pairs), True
    if isinstance(padding, (list, tuple)) and len(padding) == nd + 2 and all(
            isinstance(p, (list, tuple)) for p in padding):
        outer = (0, -1) if channels_last(data_format) else (0, 1)
        if any(tuple(padding[i]) != (0, 0) for i in outer):
            raise _errors.user_error(ValueError(
                f"{api}: non-zero padding {list(padding)} in the batch or channel "
                f"dimensions is not supported"))
        inner = padding[1:-1] if channels_last(data_format) else padding[2:]
        flat = [v for pair in inner for v in pair]
    elif isinstance(padding, (list, tuple)) and len(padding) == 2 * nd and nd > 1:
        flat = list(padding)
    elif isinstance(padding, (list, tuple)) and len(padding) == 2 and nd == 1:
        flat = list(padding)
    else:
        flat = [v for v in as_tuple(padding, nd, api, "padding") for _ in range(2)]
    flat = as_tuple(list(flat), 2 * nd, api, "padding")
    if min(flat) < 0:
        raise _errors.user_error(ValueError(
            f"{api}: padding must be >= 0, got {padding!r}"))
    return tuple(zip(flat[0::2], flat[1::2])), False


def _check_format(data_format, nd, api):
    if data_format not in FORMATS[nd]:
        raise _errors.user_error(ValueError(
            f"{api}: data_format must be one of {FORMATS[nd]}, got "
            f"{data_format!r}"))


def _check_rank(x, nd, api, data_format):
    if x.ndim != nd + 2:
        raise _errors.user_error(ValueError(
            f"{api}: x must be a {nd + 2}-D tensor ({data_format}), got shape "
            f"{x.shape}"))


def _add_bias(out, bias, data_format, api):
    if bias is None:
        return out
    check_tensor(bias, api, "bias")
    if channels_last(data_format):
        return T.add(out, bias)
    return T.add(out, T.reshape(bias, [1, -1] + [1] * (out.ndim - 2)))


def _conv_nd(nd, api, x, weight, bias, stride, padding, dilation, groups, data_format):
    check_tensor(x, api)
    check_tensor(weight, api, "weight")
    _check_format(data_format, nd, api)
    _check_rank(x, nd, api, data_format)
    strides = as_tuple(stride, nd, api, "stride")
    dilations = as_tuple(dilation, nd, api, "dilation")
    if weight.ndim != nd + 2:
        raise _errors.user_error(ValueError(
            f"{api}: weight must be a {nd + 2}-D tensor [out_channels, "
            f"in_channels / groups, *kernel_size], got shape {weight.shape}"))
    paddings, same = resolve_padding(padding, nd, spatial(x.shape, data_format),
                                     weight.shape[2:], strides, data_format, api)
    if same:
        dilations = (1,) * nd
    attrs = {"strides": strides, "paddings": paddings, "dilations": dilations, "groups": groups,
             "data_format": data_format}
    if nd == 2 and _one_op(x._data, weight._data, bias):
        return ops.fused_conv2d_bias(x, weight, bias, **attrs)
    out = (ops.conv2d if nd == 2 else ops.conv3d)(x, weight, **attrs)
    return _add_bias(out, bias, data_format, api)


def _one_op(xd, wd, bias):
    """Whether conv2d and its bias run as one op (``fused_conv2d_bias``): in eager mode with
    no debugging mode on, for a bias Tensor [out_channels] of the float dtype of x and the
    weight. Otherwise they are conv2d and add, so static programs, anomaly checks, profiles
    and a misfit bias's errors name those two ops, as before."""
    if not isinstance(bias, Tensor) or _program.state.static or debug_hook() is not None:
        return False
    bd = bias._data
    return (xd.dtype == wd.dtype == bd.dtype and xd.dtype.kind == "f" and wd.ndim == 4
            and bd.shape == wd.shape[:1])


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW",
           name=None):
    """2-D convolution of x [N, C, H, W] (or NHWC) with weight [out_channels, C / groups,
    kh, kw], plus bias [out_channels]."""
    return _conv_nd(2, "conv2d", x, weight, bias, stride, padding, dilation, groups,
                    data_format)


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCDHW", name=None):
    """3-D convolution of x [N, C, D, H, W] (or NDHWC) with weight [out_channels,
    C / groups, kd, kh, kw], plus bias [out_channels]."""
    return _conv_nd(3, "conv3d", x, weight, bias, stride, padding, dilation, groups,
                    data_format)


def _as_2d(x, weight, padding, stride, dilation, data_format, api):
    """A 1-D call's arguments for the 2-D op: an axis of size 1 before L."""
    if data_format not in ("NCL", "NLC"):
        raise _errors.user_error(ValueError(
            f"{api}: data_format must be 'NCL' or 'NLC', got {data_format!r}"))
    check_tensor(x, api)
    check_tensor(weight, api, "weight")
    _check_rank(x, 1, api, data_format)
    if weight.ndim != 3:
        raise _errors.user_error(ValueError(
            f"{api}: weight must be a 3-D tensor, got shape {weight.shape}"))
    fmt = "NHWC" if data_format == "NLC" else "NCHW"
    axis = 1 if data_format == "NLC" else 2
    if not isinstance(padding, str):
        pairs, _ = resolve_padding(padding, 1, None, None, None, data_format, api)
        padding = [0, 0, *pairs[0]]
    return (T.unsqueeze(x, axis), T.unsqueeze(weight, 2), padding,
            (1, *as_tuple(stride, 1, api, "stride")), (1, *as_tuple(dilation, 1, api, "dilation")),
            fmt, axis)


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCL",
           name=None):
    """1-D convolution of x [N, C, L] (or NLC) with weight [out_channels, C / groups, k]."""
    x2, w2, padding, stride, dilation, fmt, axis = _as_2d(x, weight, padding, stride, dilation,
                                                         data_format, "conv1d")
    out = _conv_nd(2, "conv1d", x2, w2, None, stride, padding, dilation, groups, fmt)
    return _add_bias(T.squeeze(out, axis), bias, data_format, "conv1d")


def _transpose_nd(nd, api, x, weight, bias, stride, padding, output_padding, dilation,
                  groups, output_size, data_format):
    check_tensor(x, api)
    check_tensor(weight, api, "weight")
    _check_format(data_format, nd, api)
    _check_rank(x, nd, api, data_format)
    if weight.ndim != nd + 2:
        raise _errors.user_error(ValueError(
            f"{api}: weight must be a {nd + 2}-D tensor [in_channels, out_channels / "
            f"groups, *kernel_size], got shape {weight.shape}"))
    strides = as_tuple(stride, nd, api, "stride")
    dilations = as_tuple(dilation, nd, api, "dilation")
    size, ksize = spatial(x.shape, data_format), tuple(weight.shape[2:])
    paddings, same = resolve_padding(padding, nd, size, ksize, strides, data_format, api)
    if same:
        dilations = (1,) * nd
    least = tuple((n - 1) * s - a - b + (k - 1) * d + 1
                  for n, s, (a, b), k, d in zip(size, strides, paddings, ksize, dilations))
    if output_size is None:
        extra = as_tuple(output_padding, nd, api, "output_padding")
        if any(e >= max(s, d) or e < 0 for e, s, d in zip(extra, strides, dilations)):
            raise _errors.user_error(ValueError(
                f"{api}: output_padding {list(extra)} must be >= 0 and smaller "
                f"than stride {list(strides)} or dilation {list(dilations)}"))
        out_size = tuple(a + e for a, e in zip(least, extra))
    else:
        if output_padding not in (0, [0] * nd, (0,) * nd):
            raise _errors.user_error(ValueError(
                f"{api}: output_padding and output_size cannot both be given"))
        out_size = as_tuple(list(output_size) if isinstance(output_size, (list, tuple))
                            else output_size, nd, api, "output_size")
    transpose_out_size(api, size, ksize, strides, paddings, dilations, out_size)
    out = getattr(ops, f"conv{nd}d_transpose")(
        x, weight, output_size=out_size, strides=strides, paddings=paddings,
        dilations=dilations, groups=groups, data_format=data_format)
    return _add_bias(out, bias, data_format, api)


def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1,
                     groups=1, output_size=None, data_format="NCHW", name=None):
    """2-D transposed convolution of x [N, C, H, W] with weight [C, out_channels / groups,
    kh, kw]: output size (H - 1) * stride - pad + dilation * (kh - 1) + 1 + output_padding, or
    output_size."""
    return _transpose_nd(2, "conv2d_transpose", x, weight, bias, stride, padding, output_padding,
                         dilation, groups, output_size, data_format)


def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCL", name=None):
    """1-D transposed convolution of x [N, C, L] with weight [C, out_channels / groups, k]."""
    api = "conv1d_transpose"
    x2, w2, padding, stride, dilation, fmt, axis = _as_2d(x, weight, padding, stride, dilation,
                                                         data_format, api)
    output_padding = (0, *as_tuple(output_padding, 1, api, "output_padding"))
    if output_size is not None:
        output_size = (1, *as_tuple(output_size, 1, api, "output_size"))
    out = _transpose_nd(2, api, x2, w2, None, stride, padding, output_padding, dilation, groups,
                        output_size, fmt)
    return _add_bias(T.squeeze(out, axis), bias, data_format, api)


def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCDHW", name=None):
    """3-D transposed convolution of x [N, C, D, H, W] (or NDHWC) with weight [C,
    out_channels / groups, kd, kh, kw]: output size (D - 1) * stride - pad + dilation *
    (kd - 1) + 1 + output_padding (alike for H, W), or output_size."""
    return _transpose_nd(3, "conv3d_transpose", x, weight, bias, stride, padding,
                         output_padding, dilation, groups, output_size, data_format)


__all__ = ["conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose",
           "conv3d_transpose"]
