"""paddle.nn.functional: interpolate / upsample, pixel_shuffle / pixel_unshuffle,
channel_shuffle, unfold.

All are linear maps written with ops of the table, so they need no rows of their
own and differentiate (twice) for free:

- resizing is separable: along each spatial axis the output is ``M @ x`` for a constant
  [out, in] matrix ``M`` whose rows hold the nearest / linear / cubic / area weights of
  Paddle's source positions, applied with ``matmul``;
- pixel_shuffle, pixel_unshuffle and channel_shuffle are a reshape, a transpose and a
  reshape;
- unfold (im2col) is a grouped conv2d with one-hot filters, one per kernel position, and
  fold (col2im) the conv2d_transpose with the same filters;
- affine_grid is one matmul of the base grid with theta, and grid_sample (4-D and 5-D)
  reads x at the grid's neighbouring positions (take_along_axis) weighted by the distances
  to them, so both differentiate with respect to x, theta and grid.
"""

from __future__ import annotations

import itertools
import numbers

import numpy as np

from ... import tensor as T
from ..._core.creation import to_tensor
from ..._core.tensor import Tensor
from ._check import check_tensor
from .conv import as_tuple, conv2d, conv2d_transpose

_MODES = {"nearest": (4, 5), "linear": (3,), "bilinear": (4,), "trilinear": (5,),
          "bicubic": (4,), "area": (3, 4, 5)}
_FIRST = {3: "NCW", 4: "NCHW", 5: "NCDHW"}
_LAST = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


def _cubic_weights(t, a=-0.75):
    """Keys' cubic convolution weights of the 4 neighbours at offsets -1, 0, 1, 2."""
    def near(d):
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return far(t + 1), near(t), near(1 - t), far(2 - t)


def resize_matrix(n_in, n_out, mode, align_corners=False, align_mode=0, scale=None):
    """The [n_out, n_in] matrix of one axis's resize, with Paddle's source positions:
    ratio (n_in - 1) / (n_out - 1) with align_corners, else 1 / scale_factor when one was
    given, else n_in / n_out; half-pixel centres for linear (align_mode 0) and cubic."""
    k = np.arange(n_out, dtype=np.float64)
    rows = np.arange(n_out)
    m = np.zeros((n_out, n_in))
    if mode == "area":
        start, end = (rows * n_in) // n_out, -((-(rows + 1) * n_in) // n_out)
        pos = np.arange(n_in)
        return ((pos >= start[:, None]) & (pos < end[:, None])) / (end - start)[:, None]
    if align_corners:
        ratio = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    else:
        ratio = 1.0 / scale if scale else n_in / n_out
    if mode == "nearest":
        m[rows, np.minimum((k * ratio).astype(np.int64), n_in - 1)] = 1.0
    elif mode == "cubic":
        src = k * ratio if align_corners else (k + 0.5) * ratio - 0.5
        base = np.floor(src)
        for off, w in zip(range(-1, 3), _cubic_weights(src - base)):
            np.add.at(m, (rows, np.clip(base.astype(np.int64) + off, 0, n_in - 1)), w)
    else:
        half = not align_corners and align_mode == 0
        src = np.maximum((k + 0.5) * ratio - 0.5, 0.0) if half else k * ratio
        i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
        lam = src - i0
        np.add.at(m, (rows, i0), 1.0 - lam)
        np.add.at(m, (rows, np.minimum(i0 + 1, n_in - 1)), lam)
    return m


def _ints(value, n, api, arg):
    """Ints, one-element Tensors, lists of them or a Tensor, as a tuple of n numbers."""
    if isinstance(value, Tensor):
        value = value.numpy().reshape(-1).tolist()
    if not isinstance(value, (list, tuple)):
        value = [value] * n
    value = [v.item() if isinstance(v, Tensor) else v for v in value]
    if len(value) != n or not all(isinstance(v, numbers.Real) for v in value):
        raise ValueError(f"interpolate: {arg} must give {n} numbers (one per spatial axis), "
                         f"got {value!r}")
    return tuple(value)


def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
                align_mode=0, data_format=None, name=None):
    """x resized over its spatial axes to ``size`` (or floor(in * scale_factor)).

    Modes: 'nearest' (4-D, 5-D), 'linear' (3-D), 'bilinear' (4-D), 'trilinear' (5-D),
    'bicubic' (4-D), 'area' (adaptive average pooling). data_format None means channels
    first (NCW, NCHW, NCDHW)."""
    api = "interpolate"
    check_tensor(x, api)
    mode = mode.lower()
    if mode not in _MODES:
        raise ValueError(f"{api}: mode must be one of {', '.join(_MODES)}, got {mode!r}")
    if x.ndim not in _MODES[mode]:
        raise ValueError(f"{api}: mode {mode!r} needs a {' or '.join(map(str, _MODES[mode]))}"
                         f"-D tensor, got shape {x.shape}")
    if align_corners and mode not in ("linear", "bilinear", "trilinear", "bicubic"):
        raise ValueError(f"{api}: align_corners can only be set with the interpolating modes "
                         f"linear | bilinear | bicubic | trilinear")
    if align_mode not in (0, 1):
        raise ValueError(f"{api}: align_mode must be 0 or 1, got {align_mode!r}")
    fmt = _FIRST[x.ndim] if data_format is None else data_format
    if fmt not in (_FIRST[x.ndim], _LAST[x.ndim]):
        raise ValueError(f"{api}: data_format for a {x.ndim}-D tensor must be "
                         f"{_FIRST[x.ndim]!r} or {_LAST[x.ndim]!r}, got {data_format!r}")
    if (size is None) == (scale_factor is None):
        raise ValueError(f"{api}: give exactly one of size and scale_factor")
    nd = x.ndim - 2
    if fmt == _LAST[x.ndim]:
        x = T.transpose(x, [0, nd + 1, *range(1, nd + 1)])
    size_in = x.shape[2:]
    scales = None
    if size is None:
        scales = _ints(scale_factor, nd, api, "scale_factor")
        if min(scales) <= 0:
            raise ValueError(f"{api}: scale_factor must be positive, got {scale_factor!r}")
        size = tuple(int(n * s) for n, s in zip(size_in, scales))
    size = tuple(int(s) for s in _ints(size, nd, api, "size"))
    if min(size) <= 0:
        raise ValueError(f"{api}: the output size {list(size)} must be positive")
    kind = {"bilinear": "linear", "trilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    for axis in range(nd):
        m = resize_matrix(size_in[axis], size[axis], kind, align_corners, align_mode,
                          None if scales is None else scales[axis])
        perm = list(range(x.ndim))
        perm[axis + 2], perm[-1] = perm[-1], perm[axis + 2]
        moved = T.transpose(x, perm) if axis + 2 != x.ndim - 1 else x
        out = T.matmul(moved, to_tensor(m, dtype=x.dtype, place=x.place), transpose_y=True)
        x = T.transpose(out, perm) if axis + 2 != x.ndim - 1 else out
    if fmt == _LAST[x.ndim]:
        x = T.transpose(x, [0, *range(2, nd + 2), 1])
    return x


def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
             align_mode=0, data_format=None, name=None):
    """The same as interpolate."""
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)


def check_data_format(data_format, api):
    """data_format, which must be 'NCHW' or 'NHWC' (ValueError naming ``api`` otherwise)."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: data_format must be 'NCHW' or 'NHWC', got {data_format!r}")
    return data_format


def _as_nchw(x, data_format, api):
    """4-D x checked, transposed to NCHW when data_format is 'NHWC'."""
    check_tensor(x, api)
    check_data_format(data_format, api)
    if x.ndim != 4:
        raise ValueError(f"{api}: x must be a 4-D tensor, got shape {x.shape}")
    return T.transpose(x, [0, 3, 1, 2]) if data_format == "NHWC" else x


def check_positive_int(value, api, arg):
    """value as an int: TypeError unless it is an integer, ValueError unless positive."""
    if not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}: {arg} must be an int, got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{api}: {arg} must be positive, got {value}")
    return int(value)


def pixel_shuffle(x, upscale_factor, data_format="NCHW", name=None):
    """[N, C * r * r, H, W] -> [N, C, H * r, W * r]: each group of r * r channels becomes an
    r x r block of pixels (NHWC is transposed there and back)."""
    api = "pixel_shuffle"
    x = _as_nchw(x, data_format, api)
    r = int(upscale_factor)
    n, c, h, w = x.shape
    if r <= 0 or c % (r * r):
        raise ValueError(f"{api}: the square of upscale_factor ({r}) must divide the number "
                         f"of channels ({c}) of x of shape {x.shape}")
    out = T.reshape(x, [n, c // (r * r), r, r, h, w])
    out = T.reshape(T.transpose(out, [0, 1, 4, 2, 5, 3]), [n, c // (r * r), h * r, w * r])
    return T.transpose(out, [0, 2, 3, 1]) if data_format == "NHWC" else out


def _unfold_args(api, kernel_sizes, paddings, channels, dtype, place):
    """(kh, kw), [top, bottom, left, right] and the one-hot filters [C * kh * kw, 1, kh, kw]
    of unfold and fold. paddings: an int, [ph, pw] or [top, left, bottom, right]."""
    kh, kw = as_tuple(kernel_sizes, 2, api, "kernel_sizes")
    if isinstance(paddings, (list, tuple)) and len(paddings) == 4:
        top, left, bottom, right = as_tuple(list(paddings), 4, api, "paddings")
    else:
        (top, left), (bottom, right) = [as_tuple(paddings, 2, api, "paddings")] * 2
    eye = np.eye(kh * kw).reshape(kh * kw, 1, kh, kw)
    filters = to_tensor(np.tile(eye, (channels, 1, 1, 1)), dtype=dtype, place=place)
    return (kh, kw), [top, bottom, left, right], filters


def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """im2col: the sliding blocks of x [N, C, H, W] as columns, [N, C * kh * kw, L] (channel
    first, then kernel position; L output positions in row-major order). paddings: an int,
    [ph, pw] or [top, left, bottom, right]."""
    api = "unfold"
    check_tensor(x, api)
    if x.ndim != 4:
        raise ValueError(f"{api}: x must be a 4-D tensor [N, C, H, W], got shape {x.shape}")
    c = x.shape[1]
    (kh, kw), padding, filters = _unfold_args(api, kernel_sizes, paddings, c, x.dtype, x.place)
    cols = conv2d(x, filters, stride=strides, padding=padding, dilation=dilations, groups=c)
    return T.reshape(cols, [x.shape[0], c * kh * kw, -1])


def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """col2im, the adjoint of unfold: the columns x [N, C * kh * kw, L] added into [N, C,
    *output_sizes] at the places of their sliding blocks (a conv2d_transpose with unfold's
    one-hot filters)."""
    api = "fold"
    check_tensor(x, api)
    if x.ndim != 3:
        raise ValueError(f"{api}: x must be a 3-D tensor [N, C * kh * kw, L], got shape "
                         f"{x.shape}")
    size = as_tuple(output_sizes, 2, api, "output_sizes")
    k = as_tuple(kernel_sizes, 2, api, "kernel_sizes")
    if x.shape[1] % (k[0] * k[1]):
        raise ValueError(f"{api}: x's dimension 1 ({x.shape[1]}, x of shape {x.shape}) must be "
                         f"divisible by the kernel's size {k[0]} * {k[1]}")
    c = x.shape[1] // (k[0] * k[1])
    k, padding, filters = _unfold_args(api, k, paddings, c, x.dtype, x.place)
    s, d = as_tuple(strides, 2, api, "strides"), as_tuple(dilations, 2, api, "dilations")
    pads = (padding[:2], padding[2:])
    blocks = [(n + a + b - (kk - 1) * dd - 1) // ss + 1
              for n, (a, b), kk, ss, dd in zip(size, pads, k, s, d)]
    if min(blocks) <= 0 or blocks[0] * blocks[1] != x.shape[2]:
        raise ValueError(f"{api}: x's dimension 2 ({x.shape[2]}) must be the number of sliding "
                         f"blocks, {blocks[0]} * {blocks[1]}, of output_sizes {list(size)} "
                         f"(kernel_sizes {list(k)}, strides {list(s)}, paddings {padding}, "
                         f"dilations {list(d)})")
    cols = T.reshape(x, [x.shape[0], x.shape[1], *blocks])
    return conv2d_transpose(cols, filters, stride=s, padding=padding, dilation=d, groups=c,
                            output_size=list(size))


def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None):
    """[N, C, H * r, W * r] -> [N, C * r * r, H, W], the inverse of pixel_shuffle: each
    r x r block of pixels becomes r * r channels (NHWC is transposed there and back)."""
    api = "pixel_unshuffle"
    x = _as_nchw(x, data_format, api)
    r = check_positive_int(downscale_factor, api, "downscale_factor")
    n, c, h, w = x.shape
    if h % r or w % r:
        raise ValueError(f"{api}: downscale_factor ({r}) must divide the height and width of "
                         f"x (shape {x.shape} as NCHW)")
    out = T.reshape(x, [n, c, h // r, r, w // r, r])
    out = T.reshape(T.transpose(out, [0, 1, 3, 5, 2, 4]), [n, c * r * r, h // r, w // r])
    return T.transpose(out, [0, 2, 3, 1]) if data_format == "NHWC" else out


def channel_shuffle(x, groups, data_format="NCHW", name=None):
    """The channels of x [N, C, H, W] split into ``groups`` groups and interleaved: output
    channel j * groups + g is channel g * (C / groups) + j."""
    api = "channel_shuffle"
    x = _as_nchw(x, data_format, api)
    g = check_positive_int(groups, api, "groups")
    n, c, h, w = x.shape
    if c % g:
        raise ValueError(f"{api}: groups ({g}) must divide the number of channels ({c}) of x "
                         f"of shape {x.shape} (as NCHW)")
    out = T.reshape(x, [n, g, c // g, h, w])
    out = T.reshape(T.transpose(out, [0, 2, 1, 3, 4]), [n, c, h, w])
    return T.transpose(out, [0, 2, 3, 1]) if data_format == "NHWC" else out


def _base_coords(n, align_corners):
    """Paddle's normalised coordinates of n positions along an axis: in [-1, 1] at the
    corner pixels' centres (align_corners) or at their outer edges."""
    if n == 1:
        return np.zeros(1)
    return np.linspace(-1.0, 1.0, n) if align_corners else (np.arange(n) * 2 + 1) / n - 1


def affine_grid(theta, out_shape, align_corners=True, name=None):
    """The sampling grid [N, H, W, 2] (or [N, D, H, W, 3]) of the affine maps theta [N, 2, 3]
    (or [N, 3, 4]) over out_shape [N, C, H, W] (or [N, C, D, H, W]): each output position's
    (x, y[, z], 1) times theta."""
    api = "affine_grid"
    check_tensor(theta, api, "theta")
    if isinstance(out_shape, Tensor):
        out_shape = out_shape.numpy().tolist()
    out_shape = [int(v) for v in out_shape]
    if len(out_shape) not in (4, 5):
        raise ValueError(f"{api}: out_shape must have 4 ([N, C, H, W]) or 5 ([N, C, D, H, W]) "
                         f"entries, got {out_shape}")
    nd = len(out_shape) - 2
    if tuple(theta.shape) != (out_shape[0], nd, nd + 1):
        raise ValueError(f"{api}: theta must have shape [{out_shape[0]}, {nd}, {nd + 1}] for "
                         f"out_shape {out_shape}, got {theta.shape}")
    size = out_shape[2:]
    axes = [_base_coords(n, align_corners) for n in reversed(size)]          # x, y[, z]
    mesh = list(np.meshgrid(*axes[::-1], indexing="ij"))[::-1]              # each [*size]
    base = np.stack(mesh + [np.ones(size)], axis=-1).reshape(-1, nd + 1)
    grid = T.matmul(to_tensor(base, dtype=theta.dtype, place=theta.place), theta,
                    transpose_y=True)
    return T.reshape(grid, [out_shape[0], *size, nd])


def _source(g, n, padding_mode, align_corners):
    """The grid's normalised coordinates g as source positions along an axis of size n,
    with padding_mode's border clamping or reflection."""
    pos = (g + 1) * ((n - 1) / 2) if align_corners else ((g + 1) * n - 1) / 2
    if padding_mode == "reflection":
        low, span = (0.0, n - 1.0) if align_corners else (-0.5, float(n))
        if span > 0:
            dist = T.abs(pos - low)
            flips = T.floor(dist / span)
            extra = dist - flips * span
            even = T.equal(T.remainder(flips, to_tensor(2.0, dtype=g.dtype)),
                           to_tensor(0.0, dtype=g.dtype))
            pos = T.where(even, extra + low, span - extra + low)
        else:
            pos = T.zeros_like(pos)
    if padding_mode in ("border", "reflection"):
        pos = T.clip(pos, 0.0, n - 1.0)
    return pos


def _read(flat, coords, size):
    """flat [N, C, prod(size)] at the integer positions coords (one [N, L] float tensor per
    spatial axis), 0 outside."""
    inside, index = None, 0
    for c, n in zip(coords, size):
        ok = T.logical_and(c >= 0, c <= n - 1)
        inside = ok if inside is None else T.logical_and(inside, ok)
        index = index * n + T.clip(c, 0, n - 1)
    index = T.cast(index, "int64")
    n, c = flat.shape[:2]
    got = T.take_along_axis(flat, T.expand(T.unsqueeze(index, 1), [n, c, index.shape[1]]),
                            axis=2)
    return got * T.unsqueeze(T.cast(inside, flat.dtype), 1)


def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True,
                name=None):
    """x [N, C, H, W] sampled at grid [N, H_out, W_out, 2] ((x, y) in [-1, 1] per output
    position), or x [N, C, D, H, W] at grid [N, D_out, H_out, W_out, 3] ((x, y, z)):
    (tri)linear weights of the neighbours or the nearest one; positions outside read zeros,
    the border, or x reflected at its borders (padding_mode)."""
    api = "grid_sample"
    check_tensor(x, api)
    check_tensor(grid, api, "grid")
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"{api}: mode must be 'bilinear' or 'nearest', got {mode!r}")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"{api}: padding_mode must be 'zeros', 'border' or 'reflection', got "
                         f"{padding_mode!r}")
    if x.ndim not in (4, 5):
        raise ValueError(f"{api}: x must be a 4-D tensor [N, C, H, W] or a 5-D tensor [N, C, "
                         f"D, H, W], got shape {x.shape}")
    nd = x.ndim - 2
    if grid.ndim != nd + 2 or grid.shape[-1] != nd or grid.shape[0] != x.shape[0]:
        want = "[N, H_out, W_out, 2]" if nd == 2 else "[N, D_out, H_out, W_out, 3]"
        raise ValueError(f"{api}: grid must have shape {want} with x's N ({x.shape[0]}), got "
                         f"{grid.shape}")
    if grid.dtype != x.dtype:
        raise TypeError(f"{api}: x ({x.dtype}) and grid ({grid.dtype}) must have the same "
                        f"dtype")
    n, c, size, out = x.shape[0], x.shape[1], x.shape[2:], grid.shape[1:-1]
    g = T.reshape(grid, [n, int(np.prod(out)), nd])
    # the grid's last axis is (x, y[, z]): spatial axis i reads its entry nd - 1 - i
    pos = [_source(g[:, :, nd - 1 - i], size[i], padding_mode, align_corners)
           for i in range(nd)]
    flat = T.reshape(x, [n, c, int(np.prod(size))])
    if mode == "nearest":
        result = _read(flat, [T.round(p) for p in pos], size)
    else:
        low = [T.floor(p) for p in pos]
        frac = [T.unsqueeze(p - lo, 1) for p, lo in zip(pos, low)]
        result = 0
        for corner in itertools.product((0, 1), repeat=nd):
            weight = 1
            for bit, f in zip(corner, frac):
                weight = weight * (f if bit else 1 - f)
            result = result + _read(flat, [lo + bit for lo, bit in zip(low, corner)],
                                    size) * weight
    return T.reshape(result, [n, c, *out])


__all__ = ["interpolate", "upsample", "pixel_shuffle", "unfold", "pixel_unshuffle",
           "channel_shuffle", "affine_grid", "grid_sample", "fold"]
