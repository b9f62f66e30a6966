"""Image transforms as functions (paddle.vision.transforms.functional).

An image is a NumPy array of shape [H, W] or [H, W, C] (HWC, as image files decode), a dygrad
Tensor of shape [C, H, W] or [N, C, H, W] (CHW, as networks take it), or a PIL image (read as
a NumPy array). NumPy in, NumPy out; Tensor in, new Tensor out. Transforms prepare data: they
run in NumPy and record no gradient. Resizing is implemented here in NumPy (no OpenCV or
Pillow) with the sampling OpenCV and ``paddle.nn.functional.interpolate`` use.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..._core.creation import to_tensor as _to_tensor
from ..._core.tensor import Tensor

__all__ = ["to_tensor", "normalize", "resize", "pad", "crop", "center_crop", "hflip"]

_INTERPOLATIONS = ("nearest", "bilinear")
_PAD_MODES = {"constant": "constant", "edge": "edge", "reflect": "reflect",
              "symmetric": "symmetric"}


def _is_pil(img) -> bool:
    return type(img).__module__.startswith("PIL.")


def _pixels(img, api):
    """``(array, is_tensor)``: the image's pixels as a NumPy array, and whether it is a Tensor."""
    if isinstance(img, Tensor):
        if not 2 <= img.ndim <= 4:
            raise ValueError(f"{api}: a Tensor image has shape [C, H, W] or [N, C, H, W], "
                             f"got {img.shape}")
        return img.numpy(), True
    if _is_pil(img):
        img = np.asarray(img)
    if isinstance(img, np.ndarray) and img.ndim in (2, 3):
        return img, False
    what = f"an array of shape {list(img.shape)}" if isinstance(img, np.ndarray) else type(img).__name__
    raise TypeError(f"{api}: img should be a NumPy array of shape [H, W] or [H, W, C], a Tensor "
                    f"of shape [C, H, W] or a PIL image, got {what}")


def _hw_axes(array, is_tensor):
    """The height and width axes: the last two of a Tensor (CHW), the first two of an array."""
    return (array.ndim - 2, array.ndim - 1) if is_tensor else (0, 1)


def _result(array, is_tensor):
    return _to_tensor(np.ascontiguousarray(array)) if is_tensor else array


def _data_format(data_format, api):
    if not isinstance(data_format, str) or data_format.upper() not in ("CHW", "HWC"):
        raise ValueError(f"{api}: data_format should be 'CHW' or 'HWC', got {data_format!r}")
    return data_format.upper()


def to_tensor(pic, data_format="CHW"):
    """An HWC image as a Tensor in ``data_format``; uint8 values become float32 in [0, 1].

    A [H, W] image gets one channel. Other dtypes keep their values and dtype. A Tensor
    (already CHW) is returned as is for 'CHW' and transposed to HWC for 'HWC'.
    """
    data_format = _data_format(data_format, "to_tensor")
    array, is_tensor = _pixels(pic, "to_tensor")
    if is_tensor:
        return pic if data_format == "CHW" else _to_tensor(np.moveaxis(array, -3, -1))
    if array.ndim == 2:
        array = array[:, :, None]
    if data_format == "CHW":
        array = array.transpose(2, 0, 1)
    if array.dtype == np.uint8:
        array = array.astype(np.float32) / np.float32(255)
    return _to_tensor(np.ascontiguousarray(array))


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    """``(img - mean) / std`` channel by channel; ``to_rgb`` first reverses the channels (BGR).

    ``mean`` and ``std`` are one number for every channel or one per channel (float32). Unlike
    Paddle, a single number keeps a one-channel image one channel (Paddle repeats it 3 times).
    """
    data_format = _data_format(data_format, "normalize")
    array, is_tensor = _pixels(img, "normalize")
    c_axis = -3 if data_format == "CHW" else -1
    shape = (-1, 1, 1) if data_format == "CHW" else (-1,)
    mean = np.asarray(mean, dtype=np.float32)
    std = np.asarray(std, dtype=np.float32)
    if mean.ndim:
        mean = mean.reshape(shape)
    if std.ndim:
        std = std.reshape(shape)
    if to_rgb and array.ndim >= 3:
        array = np.flip(array, axis=c_axis)
    return _result((array - mean) / std, is_tensor)


def _size_of(array, is_tensor):
    h_axis, w_axis = _hw_axes(array, is_tensor)
    return array.shape[h_axis], array.shape[w_axis]


def _resize_axis(array, axis, size, mode, dtype):
    """Resample one axis to ``size`` points.

    'nearest' takes source pixel ``floor(i * in / out)``. 'bilinear' samples the source at
    ``(i + 0.5) * in / out - 0.5`` (pixel centres line up; clamped at the first pixel) and
    mixes the two neighbouring pixels linearly.
    """
    n = array.shape[axis]
    scale = n / size
    out = np.arange(size)
    if mode == "nearest":
        return np.take(array, np.minimum(np.floor(out * scale).astype(np.int64), n - 1), axis=axis)
    src = np.maximum((out + 0.5) * scale - 0.5, 0.0)
    lo = np.minimum(np.floor(src).astype(np.int64), n - 1)
    hi = np.minimum(lo + 1, n - 1)
    weight = (src - lo).astype(dtype).reshape([-1 if a == axis else 1 for a in range(array.ndim)])
    return np.take(array, lo, axis=axis) * (1 - weight) + np.take(array, hi, axis=axis) * weight


def resize(img, size, interpolation="bilinear"):
    """The image resized to ``size`` = (height, width), or with its shorter side made ``size``
    (an int; the aspect ratio is kept). ``interpolation``: 'bilinear' or 'nearest'."""
    array, is_tensor = _pixels(img, "resize")
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"resize: interpolation should be one of {list(_INTERPOLATIONS)} (the "
                         f"NumPy implementations dygrad has), got {interpolation!r}")
    h, w = _size_of(array, is_tensor)
    if isinstance(size, numbers.Integral):
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        oh, ow = (int(size * h / w), int(size)) if w < h else (int(size), int(size * w / h))
    elif isinstance(size, (list, tuple)) and len(size) == 2:
        oh, ow = (int(s) for s in size)
    else:
        raise TypeError(f"resize: size should be an int or a (height, width) pair, got {size!r}")
    if oh <= 0 or ow <= 0 or h == 0 or w == 0:
        raise ValueError(f"resize: cannot resize an image of size {h}x{w} to {oh}x{ow}")
    work = np.result_type(array.dtype, np.float32)
    h_axis, w_axis = _hw_axes(array, is_tensor)
    out = _resize_axis(_resize_axis(array, h_axis, oh, interpolation, work),
                       w_axis, ow, interpolation, work)
    if out.dtype != array.dtype:  # integer images: round back to the nearest integer
        info = np.iinfo(array.dtype)
        out = np.clip(np.rint(out), info.min, info.max).astype(array.dtype)
    return _result(out, is_tensor)


def _padding(padding):
    """(left, top, right, bottom) from an int, a (left/right, top/bottom) pair or 4 numbers."""
    if isinstance(padding, numbers.Integral):
        return (int(padding),) * 4
    if isinstance(padding, (list, tuple)) and len(padding) in (2, 4) and all(
            isinstance(p, numbers.Integral) for p in padding):
        return tuple(int(p) for p in (padding * 2 if len(padding) == 2 else padding))
    raise ValueError(f"pad: padding should be an int, or 2 or 4 ints, got {padding!r}")


def pad(img, padding, fill=0, padding_mode="constant"):
    """The image with a border: ``padding`` is an int (every side), (left/right, top/bottom)
    or (left, top, right, bottom). ``padding_mode``: 'constant' (``fill``, a number or one
    per channel), 'edge' (repeat the edge pixel), 'reflect' (mirror without repeating the
    edge: 2 1 | 1 2 3 -> 3 2 1 2 3) or 'symmetric' (mirror repeating it: 2 1 1 2 3)."""
    left, top, right, bottom = _padding(padding)
    if padding_mode not in _PAD_MODES:
        raise ValueError(f"pad: padding_mode should be one of {list(_PAD_MODES)}, got "
                         f"{padding_mode!r}")
    array, is_tensor = _pixels(img, "pad")
    h_axis, w_axis = _hw_axes(array, is_tensor)
    widths = [(0, 0)] * array.ndim
    widths[h_axis], widths[w_axis] = (top, bottom), (left, right)
    if padding_mode != "constant":
        return _result(np.pad(array, widths, mode=_PAD_MODES[padding_mode]), is_tensor)
    fill = np.asarray(fill, dtype=array.dtype)
    if fill.ndim:
        c_axis = array.ndim - 3 if is_tensor else 2
        if c_axis < 0 or c_axis >= array.ndim or fill.size != array.shape[c_axis]:
            raise ValueError(f"pad: fill has {fill.size} values but the image of shape "
                             f"{list(array.shape)} does not have {fill.size} channels")
        fill = fill.reshape((-1, 1, 1) if is_tensor else (-1,))
    out = np.empty([n + a + b for n, (a, b) in zip(array.shape, widths)], dtype=array.dtype)
    out[...] = fill
    inside = [slice(a, a + n) for n, (a, _) in zip(array.shape, widths)]
    out[tuple(inside)] = array
    return _result(out, is_tensor)


def crop(img, top, left, height, width):
    """The ``height`` x ``width`` part of the image whose top-left corner is (top, left)."""
    array, is_tensor = _pixels(img, "crop")
    h, w = _size_of(array, is_tensor)
    if top < 0 or left < 0 or top + height > h or left + width > w:
        raise ValueError(f"crop: the box top={top}, left={left}, height={height}, width={width} "
                         f"does not fit in an image of size {h}x{w}")
    h_axis, w_axis = _hw_axes(array, is_tensor)
    index = [slice(None)] * array.ndim
    index[h_axis], index[w_axis] = slice(top, top + height), slice(left, left + width)
    return _result(array[tuple(index)], is_tensor)


def center_crop(img, output_size):
    """The central ``output_size`` = (height, width) (or int: square) part of the image."""
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    array, is_tensor = _pixels(img, "center_crop")
    h, w = _size_of(array, is_tensor)
    th, tw = output_size
    return crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw)


def hflip(img):
    """The image mirrored left to right."""
    array, is_tensor = _pixels(img, "hflip")
    return _result(np.flip(array, axis=_hw_axes(array, is_tensor)[1]).copy(), is_tensor)
