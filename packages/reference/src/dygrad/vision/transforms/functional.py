"""Image transforms as functions (paddle.vision.transforms.functional).

An image is a NumPy array of shape [H, W] or [H, W, C] (HWC, as image files decode), a dygrad
Tensor of shape [C, H, W] or [N, C, H, W] (CHW, as networks take it), or a PIL image (read as
a NumPy array). NumPy in, NumPy out; Tensor in, new Tensor out. Transforms prepare data: they
run in NumPy and record no gradient. Resizing is implemented here in NumPy (no OpenCV or
Pillow) with the sampling OpenCV and ``paddle.nn.functional.interpolate`` use.

Every kind of image gets one behaviour, the one Paddle gives Tensors and Pillow images (its
OpenCV path for arrays differs): colour adjustments blend as Pillow does (integer results
truncated), rotate/affine/perspective place pixel centres at half-integers and turn about
the true image centre, as Paddle's Tensor path (``grid_sample``) does.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..._core.creation import to_tensor as _to_tensor
from ..._core.tensor import Tensor

__all__ = ["to_tensor", "normalize", "resize", "pad", "crop", "center_crop", "hflip", "vflip",
           "adjust_brightness", "adjust_contrast", "adjust_saturation", "adjust_hue",
           "to_grayscale", "rotate", "affine", "perspective", "erase"]

_INTERPOLATIONS = ("nearest", "bilinear")
_GRAY_WEIGHTS = (0.299, 0.587, 0.114)  # ITU-R BT.601 luma, as Pillow and OpenCV convert
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


def _channel_axis(array, is_tensor):
    """The channel axis (-3 of a Tensor, 2 of an HWC array), or None for a [H, W] image."""
    if array.ndim == 2:
        return None
    return array.ndim - 3 if is_tensor else 2


def _fill_value(fill, array, is_tensor, api):
    """``fill`` (one number, or one per channel) shaped to broadcast against the image."""
    fill = np.asarray(fill, dtype=array.dtype)
    if fill.ndim:
        c_axis = _channel_axis(array, is_tensor)
        if c_axis is None or fill.size != array.shape[c_axis]:
            raise ValueError(f"{api}: fill has {fill.size} values but the image of shape "
                             f"{list(array.shape)} does not have {fill.size} channels")
        fill = fill.reshape((-1, 1, 1) if is_tensor else (-1,))
    return fill


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
    fill = _fill_value(fill, array, is_tensor, "pad")
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


def vflip(img):
    """The image mirrored top to bottom."""
    array, is_tensor = _pixels(img, "vflip")
    return _result(np.flip(array, axis=_hw_axes(array, is_tensor)[0]).copy(), is_tensor)


# ---------------------------------------------------------------------------
# colour
# ---------------------------------------------------------------------------

def _color_image(img, api):
    """``(array, is_tensor, channels)`` of an image with 1 or 3 (RGB) channels."""
    array, is_tensor = _pixels(img, api)
    c_axis = _channel_axis(array, is_tensor)
    channels = 1 if c_axis is None else array.shape[c_axis]
    if channels not in (1, 3):
        raise ValueError(f"{api}: the image should have 1 or 3 (RGB) channels, got shape "
                         f"{list(array.shape)}")
    return array, is_tensor, channels


def _gray(array, is_tensor):
    """The luma of an RGB image in floating point, keeping a channel axis of size 1."""
    weights = np.asarray(_GRAY_WEIGHTS, dtype=np.result_type(array.dtype, np.float32))
    c_axis = _channel_axis(array, is_tensor)
    return np.moveaxis(np.tensordot(np.moveaxis(array, c_axis, -1), weights, axes=1)[..., None],
                       -1, c_axis)


def _rounded(values, dtype):
    """Floating-point pixels back to ``dtype``: integer images are rounded and clipped."""
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        values = np.clip(np.rint(values), info.min, info.max)
    return values.astype(dtype)


def _blend(array, other, factor):
    """``factor * array + (1 - factor) * other`` clipped to the pixel range ([0, 1] for floats,
    [0, 255] for integers) and cast back, truncating integers as Paddle and Pillow do."""
    work = np.result_type(array.dtype, np.float32)
    top = 1.0 if np.issubdtype(array.dtype, np.floating) else 255.0
    out = factor * array.astype(work) + (1 - factor) * np.asarray(other, dtype=work)
    return np.clip(out, 0, top).astype(array.dtype)


def _non_negative(factor, name, api):
    if not factor >= 0:
        raise ValueError(f"{api}: {name} should be a non-negative number, got {factor}")


def adjust_brightness(img, brightness_factor):
    """The image times ``brightness_factor`` (0: black, 1: unchanged), clipped to the pixel range."""
    _non_negative(brightness_factor, "brightness_factor", "adjust_brightness")
    array, is_tensor, _ = _color_image(img, "adjust_brightness")
    return _result(_blend(array, 0, brightness_factor), is_tensor)


def _gray_image(array, is_tensor, channels):
    """The grayscale version used by the colour adjustments (rounded for integer images)."""
    gray = array if channels == 1 else _gray(array, is_tensor)
    return _rounded(gray, array.dtype) if np.issubdtype(array.dtype, np.integer) else gray


def adjust_contrast(img, contrast_factor):
    """The image blended with the mean of its grayscale version (0: solid gray, 1: unchanged,
    2: twice the contrast). Each image of an [N, C, H, W] Tensor has its own mean; integer
    images use the rounded mean of the rounded gray image, as Pillow does."""
    _non_negative(contrast_factor, "contrast_factor", "adjust_contrast")
    array, is_tensor, channels = _color_image(img, "adjust_contrast")
    gray = _gray_image(array, is_tensor, channels)
    axes = (-3, -2, -1) if is_tensor and array.ndim >= 3 else None
    mean = np.mean(gray, axis=axes, dtype=np.float64, keepdims=axes is not None)
    if np.issubdtype(array.dtype, np.integer):
        mean = np.floor(mean + 0.5)
    return _result(_blend(array, mean, contrast_factor), is_tensor)


def adjust_saturation(img, saturation_factor):
    """The image blended with its grayscale version (0: gray, 1: unchanged, 2: twice as
    saturated). A one-channel image is returned unchanged."""
    _non_negative(saturation_factor, "saturation_factor", "adjust_saturation")
    array, is_tensor, channels = _color_image(img, "adjust_saturation")
    if channels == 1:
        return img
    return _result(_blend(array, _gray_image(array, is_tensor, 3), saturation_factor), is_tensor)


def _rgb_to_hsv(r, g, b):
    """Hue in [0, 1), saturation and value of RGB values in [0, 1]."""
    v = np.maximum(np.maximum(r, g), b)
    delta = v - np.minimum(np.minimum(r, g), b)
    grey = delta == 0
    s = np.where(v > 0, delta / np.where(v > 0, v, 1), 0)
    d = np.where(grey, 1, delta)
    h = np.where(v == r, (g - b) / d, np.where(v == g, 2 + (b - r) / d, 4 + (r - g) / d))
    return np.where(grey, 0, h / 6) % 1.0, s, v


def _hsv_to_rgb(h, s, v):
    """RGB values of hue in [0, 1), saturation and value."""
    sector = np.floor(h * 6)
    f = h * 6 - sector
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    sector = sector.astype(np.int64) % 6
    r = np.choose(sector, [v, q, p, p, t, v])
    g = np.choose(sector, [t, v, v, q, p, p])
    b = np.choose(sector, [p, p, t, v, v, q])
    return r, g, b


def adjust_hue(img, hue_factor):
    """The image with its hue (in HSV) shifted cyclically by ``hue_factor`` in [-0.5, 0.5]
    (±0.5: complementary colours). A one-channel image is returned unchanged. Integer images
    are converted to [0, 1] and rounded back."""
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"adjust_hue: hue_factor should be in [-0.5, 0.5], got {hue_factor}")
    array, is_tensor, channels = _color_image(img, "adjust_hue")
    if channels == 1:
        return img
    integer = np.issubdtype(array.dtype, np.integer)
    work = array.astype(np.result_type(array.dtype, np.float32))
    if integer:
        work = work / 255
    c_axis = _channel_axis(array, is_tensor)
    h, s, v = _rgb_to_hsv(*np.moveaxis(work, c_axis, 0))
    out = np.stack(_hsv_to_rgb((h + hue_factor) % 1.0, s, v), axis=c_axis)
    return _result(_rounded(out * 255, array.dtype) if integer else out.astype(array.dtype),
                   is_tensor)


def to_grayscale(img, num_output_channels=1):
    """The luma ``0.299 R + 0.587 G + 0.114 B`` of an RGB image (rounded for integer images,
    as Pillow and OpenCV convert) in 1 channel, or repeated in 3. A one-channel image is
    already gray."""
    if num_output_channels not in (1, 3):
        raise ValueError(f"to_grayscale: num_output_channels should be 1 or 3, got "
                         f"{num_output_channels}")
    array, is_tensor, channels = _color_image(img, "to_grayscale")
    c_axis = _channel_axis(array, is_tensor)
    if c_axis is None:
        c_axis = 0 if is_tensor else 2
        array = np.expand_dims(array, c_axis)
    gray = array if channels == 1 else _rounded(_gray(array, is_tensor), array.dtype)
    return _result(np.repeat(gray, num_output_channels, axis=c_axis), is_tensor)


# ---------------------------------------------------------------------------
# geometry: rotate, affine, perspective
# ---------------------------------------------------------------------------

def _sample(array, is_tensor, x, y, interpolation, fill, api):
    """The image sampled at pixel coordinates ``x``, ``y`` (arrays of the output's [H, W];
    pixel centres at integers), 'nearest' or 'bilinear' with zeros outside the image. As in
    Paddle, with ``inside`` the sample of an all-ones image, the result is
    ``sample * inside + (1 - inside) * fill``: ``fill`` wherever the image is not."""
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"{api}: interpolation should be one of {list(_INTERPOLATIONS)} (the "
                         f"NumPy implementations dygrad has), got {interpolation!r}")
    h, w = _size_of(array, is_tensor)
    work = np.result_type(array.dtype, np.float32)
    if interpolation == "nearest":
        taps = [(np.rint(y), np.rint(x), 1.0)]
    else:
        x0, y0 = np.floor(x), np.floor(y)
        fx, fy = x - x0, y - y0
        taps = [(y0, x0, (1 - fy) * (1 - fx)), (y0, x0 + 1, (1 - fy) * fx),
                (y0 + 1, x0, fy * (1 - fx)), (y0 + 1, x0 + 1, fy * fx)]
    out, inside = 0, 0
    for ty, tx, weight in taps:
        weight = weight * ((ty >= 0) & (ty < h) & (tx >= 0) & (tx < w))
        iy = np.clip(ty, 0, h - 1).astype(np.int64)
        ix = np.clip(tx, 0, w - 1).astype(np.int64)
        weight = weight.astype(work)
        if not is_tensor and array.ndim == 3:
            weight = weight[:, :, None]
        out = out + (array[..., iy, ix] if is_tensor else array[iy, ix]) * weight
        inside = inside + weight
    fill = _fill_value(fill, array, is_tensor, api).astype(work)
    return _rounded(out * inside + (1 - inside) * fill, array.dtype)


def _warp_affine(array, is_tensor, inverse, size, interpolation, fill, api):
    """Apply the 2x3 matrix ``inverse`` (output -> input, both measured from the image centre
    with pixel centres at half-integers) to produce an image of ``size`` = (height, width)."""
    h, w = _size_of(array, is_tensor)
    oh, ow = size
    xs = np.arange(ow) + 0.5 - ow / 2
    ys = (np.arange(oh) + 0.5 - oh / 2)[:, None]
    x = inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2] + w / 2 - 0.5
    y = inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2] + h / 2 - 0.5
    return _result(_sample(array, is_tensor, x, y, interpolation, fill, api), is_tensor)


def _centred(center, w, h, api):
    """A (x, y) centre measured from the top-left corner, moved to the image centre's frame."""
    if center is None:
        return np.zeros(2)
    if not isinstance(center, (list, tuple)) or len(center) != 2:
        raise TypeError(f"{api}: center should be a (x, y) pair, got {center!r}")
    return np.asarray(center, dtype=np.float64) - (w / 2, h / 2)


def _about(matrix, center):
    """The 2x2 ``matrix`` acting about ``center``, as a 3x3 homogeneous matrix."""
    out = np.eye(3)
    out[:2, :2] = matrix
    out[:2, 2] = center - matrix @ center
    return out


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    """The image rotated by ``angle`` degrees counter-clockwise about ``center`` ((x, y) from
    the top-left corner; default the image centre). ``expand`` makes the output large enough
    for the whole rotated image; ``fill`` (a number or one per channel) fills the corners."""
    if not isinstance(angle, numbers.Real):
        raise TypeError(f"rotate: angle should be a number, got {angle!r}")
    array, is_tensor = _pixels(img, "rotate")
    h, w = _size_of(array, is_tensor)
    theta = np.radians(angle)
    # rotating the output grid clockwise in y-down coordinates finds the source of each pixel
    turn = np.round([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]], 15)
    inverse = _about(turn, _centred(center, w, h, "rotate"))[:2]
    size = (h, w)
    if expand:
        corners = np.array([[-w, -h, 2], [-w, h, 2], [w, h, 2], [w, -h, 2]]) / 2.0
        reach = corners @ inverse.T
        ow, oh = (np.ceil(reach.max(axis=0)) - np.floor(reach.min(axis=0))).astype(int)
        size = (int(oh), int(ow))
    return _warp_affine(array, is_tensor, inverse, size, interpolation, fill, "rotate")


def _affine_inverse(angle, translate, scale, shear, center):
    """The output -> input matrix of a clockwise rotation by ``angle`` and a shear
    ``shear`` = (x, y) degrees, scaled by ``scale`` about ``center``, then moved by
    ``translate`` pixels."""
    theta, sx, sy = np.radians([angle, *shear])
    turn = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    shear_y = np.array([[1.0, 0.0], [-np.tan(sy), 1.0]])
    shear_x = np.array([[1.0, -np.tan(sx)], [0.0, 1.0]])
    forward = _about(scale * turn @ shear_y @ shear_x, center)
    forward[:2, 2] += translate
    return np.linalg.inv(forward)[:2]


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    """The image rotated clockwise by ``angle`` degrees, sheared by ``shear`` degrees (a number
    for x, or (x, y)) and scaled by ``scale`` about ``center`` (default the image centre),
    then moved by ``translate`` = (dx, dy) pixels."""
    if not isinstance(angle, numbers.Real):
        raise TypeError(f"affine: angle should be a number, got {angle!r}")
    if not isinstance(translate, (list, tuple)) or len(translate) != 2:
        raise TypeError(f"affine: translate should be a (dx, dy) pair, got {translate!r}")
    if not scale > 0:
        raise ValueError(f"affine: scale should be positive, got {scale}")
    if isinstance(shear, numbers.Real):
        shear = (shear, 0.0)
    elif isinstance(shear, (list, tuple)) and len(shear) in (1, 2):
        shear = (shear[0], shear[0]) if len(shear) == 1 else tuple(shear)
    else:
        raise TypeError(f"affine: shear should be a number or 1 or 2 numbers, got {shear!r}")
    array, is_tensor = _pixels(img, "affine")
    h, w = _size_of(array, is_tensor)
    inverse = _affine_inverse(angle, np.asarray(translate, dtype=np.float64), scale,
                              shear, _centred(center, w, h, "affine"))
    return _warp_affine(array, is_tensor, inverse, (h, w), interpolation, fill, "affine")


def _perspective_coefficients(startpoints, endpoints):
    """(a, b, c, d, e, f, g, h) of the map ``(x, y) -> ((a x + b y + c) / (g x + h y + 1),
    (d x + e y + f) / (g x + h y + 1))`` that takes each end point to its start point."""
    start = np.asarray(startpoints, dtype=np.float64)
    end = np.asarray(endpoints, dtype=np.float64)
    if start.shape != (4, 2) or end.shape != (4, 2):
        raise ValueError(f"perspective: startpoints and endpoints should be 4 (x, y) points "
                         f"each, got shapes {list(start.shape)} and {list(end.shape)}")
    ones, zeros = np.ones(4), np.zeros(4)
    (x, y), (u, v) = end.T, start.T
    rows_u = np.stack([x, y, ones, zeros, zeros, zeros, -u * x, -u * y], axis=1)
    rows_v = np.stack([zeros, zeros, zeros, x, y, ones, -v * x, -v * y], axis=1)
    system = np.stack([rows_u, rows_v], axis=1).reshape(8, 8)
    return np.linalg.lstsq(system, start.reshape(8), rcond=None)[0]


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    """The image warped so that the 4 ``startpoints`` ([x, y] of top-left, top-right,
    bottom-right, bottom-left) land on ``endpoints``; the same size as the input."""
    a, b, c, d, e, f, g, h_ = _perspective_coefficients(startpoints, endpoints)
    array, is_tensor = _pixels(img, "perspective")
    h, w = _size_of(array, is_tensor)
    xs = np.arange(w) + 0.5
    ys = (np.arange(h) + 0.5)[:, None]
    denominator = g * xs + h_ * ys + 1
    x = (a * xs + b * ys + c) / denominator - 0.5
    y = (d * xs + e * ys + f) / denominator - 0.5
    return _result(_sample(array, is_tensor, x, y, interpolation, fill, "perspective"), is_tensor)


def erase(img, i, j, h, w, v, inplace=False):
    """The image with the ``h`` x ``w`` box at row ``i``, column ``j`` set to ``v`` (a value
    broadcasting against the box: [C, h, w] for a Tensor, [h, w, C] for an array; rounded
    and clipped for integer images).
    ``inplace`` writes into ``img`` itself (not possible for a PIL image)."""
    array, is_tensor = _pixels(img, "erase")
    if isinstance(v, Tensor):
        v = v.numpy()
    if not (inplace and (is_tensor or isinstance(img, np.ndarray))):
        array = array.copy()
    h_axis, w_axis = _hw_axes(array, is_tensor)
    index = [slice(None)] * array.ndim
    index[h_axis], index[w_axis] = slice(i, i + h), slice(j, j + w)
    array[tuple(index)] = _rounded(np.asarray(v), array.dtype)
    if is_tensor and inplace:
        return img.set_value(array)
    return _result(array, is_tensor)
