"""Image transforms as callable objects (paddle.vision.transforms), usually chained with
:class:`Compose` and given to a dataset as ``transform=``.

Random transforms draw from the current engine's generator, so ``dygrad.seed(n)`` makes
them reproducible. They draw once per call, and every key of a tuple input (an image and its
mask, say) gets the same random choice; Paddle draws again for each key.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..._core.creation import to_tensor as _to_tensor
from ..._core.engine import current
from ..._core.tensor import Tensor
from . import functional as F

__all__ = ["BaseTransform", "Compose", "ToTensor", "Normalize", "Resize", "RandomResizedCrop",
           "CenterCrop", "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip", "Pad",
           "Transpose", "BrightnessTransform", "ContrastTransform", "SaturationTransform",
           "HueTransform", "ColorJitter", "Grayscale", "RandomRotation", "RandomAffine",
           "RandomPerspective", "RandomErasing"]


class Compose:
    """Apply ``transforms`` one after another."""

    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, data):
        for t in self.transforms:
            data = t(data)
        return data

    def __repr__(self):
        return "Compose(" + "".join(f"\n    {t}" for t in self.transforms) + "\n)"


class BaseTransform:
    """A transform of an image, or of several inputs given as a tuple.

    ``keys`` names what each element of a tuple input is ('image' by default); element ``i``
    goes through ``self._apply_<keys[i]>``, and elements past the keys pass unchanged.
    ``_get_params(inputs)`` runs once per call first (random choices shared by all keys go
    there) and its result is ``self.params``. Subclasses write ``_apply_image``.
    """

    def __init__(self, keys=None):
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, (list, tuple)):
            raise ValueError(f"keys should be a sequence of input kinds, got keys={keys!r}")
        for k in keys:
            if not hasattr(self, f"_apply_{k}"):
                raise NotImplementedError(f"{type(self).__name__}: inputs of kind {k!r} are not "
                                          f"supported (no _apply_{k} method)")
        self.keys = keys
        self.params = None

    def _get_params(self, inputs):
        return None

    def __call__(self, inputs):
        single = not isinstance(inputs, tuple)
        inputs = (inputs,) if single else inputs
        self.params = self._get_params(inputs)
        outputs = [getattr(self, f"_apply_{key}")(x) for key, x in zip(self.keys, inputs)]
        outputs += inputs[len(self.keys):]
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _apply_image(self, image):
        raise NotImplementedError(f"{type(self).__name__} does not define _apply_image")

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if k not in ("keys", "params"))
        return f"{type(self).__name__}({shown})"


class ToTensor(BaseTransform):
    """HWC image -> Tensor in ``data_format`` (uint8 becomes float32 in [0, 1]); see
    :func:`~dygrad.vision.transforms.functional.to_tensor`."""

    def __init__(self, data_format="CHW", keys=None):
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img):
        return F.to_tensor(img, self.data_format)


class Normalize(BaseTransform):
    """``(img - mean) / std`` per channel; see :func:`~dygrad.vision.transforms.functional.normalize`."""

    def __init__(self, mean=0.0, std=1.0, data_format="CHW", to_rgb=False, keys=None):
        super().__init__(keys)
        self.mean, self.std = mean, std
        self.data_format = data_format
        self.to_rgb = to_rgb

    def _apply_image(self, img):
        return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)


class Resize(BaseTransform):
    """Resize to ``size`` ((height, width), or an int for the shorter side) with 'bilinear'
    or 'nearest' ``interpolation``."""

    def __init__(self, size, interpolation="bilinear", keys=None):
        super().__init__(keys)
        if not (isinstance(size, numbers.Integral)
                or (isinstance(size, (list, tuple)) and len(size) == 2)):
            raise TypeError(f"Resize: size should be an int or a (height, width) pair, got {size!r}")
        self.size = size
        self.interpolation = interpolation

    def _apply_image(self, img):
        return F.resize(img, self.size, self.interpolation)


def _pair(size):
    return (int(size), int(size)) if isinstance(size, numbers.Number) else tuple(size)


class CenterCrop(BaseTransform):
    """The central ``size`` ((height, width) or int) part of the image."""

    def __init__(self, size, keys=None):
        super().__init__(keys)
        self.size = _pair(size)

    def _apply_image(self, img):
        return F.center_crop(img, self.size)


class Pad(BaseTransform):
    """Add a border; see :func:`~dygrad.vision.transforms.functional.pad`."""

    def __init__(self, padding, fill=0, padding_mode="constant", keys=None):
        super().__init__(keys)
        self.padding, self.fill, self.padding_mode = padding, fill, padding_mode

    def _apply_image(self, img):
        return F.pad(img, self.padding, self.fill, self.padding_mode)


def _image_size(img):
    """(height, width) of an HWC array, a CHW Tensor or a PIL image."""
    if isinstance(img, Tensor):
        return img.shape[-2], img.shape[-1]
    return np.asarray(img).shape[:2]


def _image_channels(img):
    """The number of channels of an HWC array, a CHW Tensor or a PIL image (1 for [H, W])."""
    shape = img.shape if isinstance(img, Tensor) else np.shape(np.asarray(img))
    if len(shape) == 2:
        return 1
    return shape[-3] if isinstance(img, Tensor) else shape[2]


class RandomCrop(BaseTransform):
    """A ``size`` ((height, width) or int) crop at a random place.

    ``padding`` first adds a border (see :class:`Pad`); with ``pad_if_needed`` an image smaller
    than ``size`` is padded on both sides by the missing amount, as Paddle does.
    """

    def __init__(self, size, padding=None, pad_if_needed=False, fill=0, padding_mode="constant",
                 keys=None):
        super().__init__(keys)
        self.size = _pair(size)
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    def _apply_image(self, img):
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        th, tw = self.size
        h, w = _image_size(img)
        if self.pad_if_needed and w < tw:
            img = F.pad(img, (tw - w, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and h < th:
            img = F.pad(img, (0, th - h), self.fill, self.padding_mode)
        h, w = _image_size(img)
        if h < th or w < tw:
            raise ValueError(f"RandomCrop: the crop size {th}x{tw} is larger than the image "
                             f"({h}x{w}); pass padding= or pad_if_needed=True")
        if (h, w) == (th, tw):
            return img
        rng = current().generator
        top, left = int(rng.integers(0, h - th + 1)), int(rng.integers(0, w - tw + 1))
        return F.crop(img, top, left, th, tw)


class _RandomFlip(BaseTransform):
    """Flip with probability ``prob`` (one draw per call, shared by every key of a tuple input)."""

    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError(f"{type(self).__name__}: prob must be between 0 and 1, got {prob}")
        self.prob = prob

    def _get_params(self, inputs):
        return current().generator.random() < self.prob

    def _apply_image(self, img):
        return self._flip(img) if self.params else img


class RandomHorizontalFlip(_RandomFlip):
    """Mirror the image left to right with probability ``prob`` (one draw per call, shared by
    every key of a tuple input)."""

    _flip = staticmethod(F.hflip)


class Transpose(BaseTransform):
    """Permute the axes by ``order``; the default (2, 0, 1) turns HWC into CHW. A [H, W]
    array first gets a channel axis; PIL images become arrays."""

    def __init__(self, order=(2, 0, 1), keys=None):
        super().__init__(keys)
        self.order = order

    def _apply_image(self, img):
        if isinstance(img, Tensor):
            return _to_tensor(np.ascontiguousarray(img.numpy().transpose(self.order)))
        img = np.asarray(img)
        if img.ndim == 2:
            img = img[..., np.newaxis]
        return img.transpose(self.order)


class RandomVerticalFlip(_RandomFlip):
    """Mirror the image top to bottom with probability ``prob`` (one draw per call, shared by
    every key of a tuple input)."""

    _flip = staticmethod(F.vflip)


def _min_max(pair, name, api):
    if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and pair[0] <= pair[1]):
        raise ValueError(f"{api}: {name} should be a (min, max) pair, got {pair!r}")
    return tuple(pair)


class RandomResizedCrop(BaseTransform):
    """A random crop resized to ``size`` ((height, width) or int).

    The crop covers a fraction of the image's area drawn uniformly from ``scale`` and has an
    aspect ratio (width / height) drawn log-uniformly from ``ratio``. After 10 draws that do
    not fit, the largest central crop with an aspect ratio within ``ratio`` is taken.
    """

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4, 4.0 / 3),
                 interpolation="bilinear", keys=None):
        super().__init__(keys)
        self.size = _pair(size)
        self.scale = _min_max(scale, "scale", "RandomResizedCrop")
        self.ratio = _min_max(ratio, "ratio", "RandomResizedCrop")
        self.interpolation = interpolation

    def _get_params(self, inputs):
        h, w = _image_size(inputs[0])
        rng = current().generator
        log_ratio = np.log(self.ratio)
        for _ in range(10):
            area = rng.uniform(*self.scale) * h * w
            aspect = math.exp(rng.uniform(*log_ratio))
            cw, ch = round(math.sqrt(area * aspect)), round(math.sqrt(area / aspect))
            if 0 < cw <= w and 0 < ch <= h:
                return int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1)), ch, cw
        ch, cw = h, w
        if w / h < self.ratio[0]:
            ch = round(w / self.ratio[0])
        elif w / h > self.ratio[1]:
            cw = round(h * self.ratio[1])
        return (h - ch) // 2, (w - cw) // 2, ch, cw

    def _apply_image(self, img):
        return F.resize(F.crop(img, *self.params), self.size, self.interpolation)


def _jitter_range(value, name, center, bound):
    """(low, high) for a jitter of ``value`` (a number: ``center`` +- value, the low end clipped
    at 0 when ``center`` is 1; or a (low, high) pair within ``bound``); None for no change."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"{name}: a single number must be non-negative, got {value}")
        low, high = center - value, center + value
        if center == 1:
            low = max(low, 0)
    elif isinstance(value, (list, tuple)) and len(value) == 2:
        low, high = value
    else:
        raise TypeError(f"{name}: value should be a number or a (low, high) pair, got {value!r}")
    if not bound[0] <= low <= high <= bound[1]:
        raise ValueError(f"{name}: values should be ordered and between {bound}, got {value!r}")
    return None if low == high == center else (float(low), float(high))


class _ColorTransform(BaseTransform):
    """Adjust one colour property by a factor drawn uniformly from ``value``'s range."""

    _center, _bound = 1.0, (0.0, math.inf)

    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _jitter_range(value, type(self).__name__, self._center, self._bound)

    def _draw(self, rng):
        return None if self.value is None else float(rng.uniform(*self.value))

    def _get_params(self, inputs):
        return self._draw(current().generator)

    def _apply_image(self, img):
        return img if self.params is None else self._adjust(img, self.params)


class BrightnessTransform(_ColorTransform):
    """Scale the brightness by a factor from [max(0, 1 - value), 1 + value] (or the given
    (low, high)); see :func:`~dygrad.vision.transforms.functional.adjust_brightness`."""

    _adjust = staticmethod(F.adjust_brightness)


class ContrastTransform(_ColorTransform):
    """Scale the contrast by a factor from [max(0, 1 - value), 1 + value] (or the given
    (low, high)); see :func:`~dygrad.vision.transforms.functional.adjust_contrast`."""

    _adjust = staticmethod(F.adjust_contrast)


class SaturationTransform(_ColorTransform):
    """Scale the saturation by a factor from [max(0, 1 - value), 1 + value] (or the given
    (low, high)); see :func:`~dygrad.vision.transforms.functional.adjust_saturation`."""

    _adjust = staticmethod(F.adjust_saturation)


class HueTransform(_ColorTransform):
    """Shift the hue by a factor from [-value, value] (value at most 0.5, or a (low, high)
    within [-0.5, 0.5]); see :func:`~dygrad.vision.transforms.functional.adjust_hue`."""

    _center, _bound = 0.0, (-0.5, 0.5)
    _adjust = staticmethod(F.adjust_hue)


class ColorJitter(BaseTransform):
    """Randomly change brightness, contrast, saturation and hue (each as the matching
    ``*Transform`` with that value; 0 leaves it alone), in a random order per call."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0, keys=None):
        super().__init__(keys)
        self.brightness, self.contrast = brightness, contrast
        self.saturation, self.hue = saturation, hue
        self._parts()  # check the values now rather than at the first image

    def _parts(self):
        return [BrightnessTransform(self.brightness), ContrastTransform(self.contrast),
                SaturationTransform(self.saturation), HueTransform(self.hue)]

    def _get_params(self, inputs):
        rng = current().generator
        parts = [p for p in self._parts() if p.value is not None]
        return [(parts[k]._adjust, parts[k]._draw(rng)) for k in rng.permutation(len(parts))]

    def _apply_image(self, img):
        for adjust, factor in self.params:
            img = adjust(img, factor)
        return img


class Grayscale(BaseTransform):
    """The image in grayscale with ``num_output_channels`` (1 or 3) channels; see
    :func:`~dygrad.vision.transforms.functional.to_grayscale`."""

    def __init__(self, num_output_channels=1, keys=None):
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img):
        return F.to_grayscale(img, self.num_output_channels)


def _angle_range(value, name, api, lengths=(2,)):
    """[-value, value] for a non-negative number, else the sequence (of a length in ``lengths``)
    as floats."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"{api}: if {name} is a single number it must be non-negative, got "
                             f"{value}")
        return [-float(value), float(value)]
    if not isinstance(value, (list, tuple)) or len(value) not in lengths:
        raise ValueError(f"{api}: {name} should be a number or a sequence of length "
                         f"{' or '.join(map(str, lengths))}, got {value!r}")
    return [float(v) for v in value]


class RandomRotation(BaseTransform):
    """Rotate by an angle drawn uniformly from ``degrees`` ((min, max), or a number d for
    (-d, d)), counter-clockwise; see :func:`~dygrad.vision.transforms.functional.rotate`."""

    def __init__(self, degrees, interpolation="nearest", expand=False, center=None, fill=0,
                 keys=None):
        super().__init__(keys)
        self.degrees = _angle_range(degrees, "degrees", "RandomRotation")
        self.interpolation = interpolation
        self.expand = expand
        self.center = center
        self.fill = fill

    def _get_params(self, inputs):
        return float(current().generator.uniform(*self.degrees))

    def _apply_image(self, img):
        return F.rotate(img, self.params, self.interpolation, self.expand, self.center, self.fill)


class RandomAffine(BaseTransform):
    """A random :func:`~dygrad.vision.transforms.functional.affine` transform: a clockwise
    angle from ``degrees``, a shift of up to ``translate`` = (fx, fy) times the width and
    height (truncated to whole pixels), a scale from ``scale`` = (min, max), and shear angles
    from ``shear`` (a number s: x in (-s, s); 2 numbers: x range; 4: x and y ranges)."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, interpolation="nearest",
                 fill=0, center=None, keys=None):
        super().__init__(keys)
        self.degrees = _angle_range(degrees, "degrees", "RandomAffine")
        if translate is not None and not (
                isinstance(translate, (list, tuple)) and len(translate) == 2
                and all(0 <= t <= 1 for t in translate)):
            raise ValueError(f"RandomAffine: translate should be 2 fractions in [0, 1], got "
                             f"{translate!r}")
        if scale is not None and not (isinstance(scale, (list, tuple)) and len(scale) == 2
                                      and all(s > 0 for s in scale)):
            raise ValueError(f"RandomAffine: scale should be 2 positive numbers, got {scale!r}")
        self.translate, self.scale = translate, scale
        self.shear = None if shear is None else _angle_range(shear, "shear", "RandomAffine",
                                                             (2, 4))
        self.interpolation = interpolation
        self.fill = 0 if fill is None else fill
        self.center = center

    def _get_params(self, inputs):
        h, w = _image_size(inputs[0])
        rng = current().generator
        angle = float(rng.uniform(*self.degrees))
        translate = (0, 0)
        if self.translate is not None:
            dx, dy = self.translate[0] * w, self.translate[1] * h
            translate = (int(rng.uniform(-dx, dx)), int(rng.uniform(-dy, dy)))
        scale = 1.0 if self.scale is None else float(rng.uniform(*self.scale))
        shear = [0.0, 0.0]
        if self.shear is not None:
            shear[0] = float(rng.uniform(*self.shear[:2]))
            if len(self.shear) == 4:
                shear[1] = float(rng.uniform(*self.shear[2:]))
        return angle, translate, scale, shear

    def _apply_image(self, img):
        return F.affine(img, *self.params, interpolation=self.interpolation, fill=self.fill,
                        center=self.center)


class RandomPerspective(BaseTransform):
    """With probability ``prob``, a :func:`~dygrad.vision.transforms.functional.perspective`
    warp moving each corner inwards by a random amount of up to ``distortion_scale`` times
    half the width and height."""

    def __init__(self, prob=0.5, distortion_scale=0.5, interpolation="nearest", fill=0,
                 keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError(f"RandomPerspective: prob must be between 0 and 1, got {prob}")
        if not 0 <= distortion_scale <= 1:
            raise ValueError(f"RandomPerspective: distortion_scale must be between 0 and 1, "
                             f"got {distortion_scale}")
        self.prob = prob
        self.distortion_scale = distortion_scale
        self.interpolation = interpolation
        self.fill = fill

    def get_params(self, width, height, distortion_scale):
        """(startpoints, endpoints): the corners [top-left, top-right, bottom-right,
        bottom-left] of the image, and each moved inwards by a random whole number of pixels."""
        rng = current().generator
        dx, dy = int(distortion_scale * (width // 2)), int(distortion_scale * (height // 2))

        def inwards(edge, reach):  # a pixel within `reach` of 0 (edge 0) or of edge - 1
            return int(rng.uniform(0, reach + 1)) if edge == 0 else int(
                rng.uniform(edge - reach - 1, edge))

        ends = [[inwards(0, dx), inwards(0, dy)], [inwards(width, dx), inwards(0, dy)],
                [inwards(width, dx), inwards(height, dy)], [inwards(0, dx), inwards(height, dy)]]
        starts = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return starts, ends

    def _get_params(self, inputs):
        if current().generator.random() >= self.prob:
            return None
        h, w = _image_size(inputs[0])
        return self.get_params(w, h, self.distortion_scale)

    def _apply_image(self, img):
        if self.params is None:
            return img
        return F.perspective(img, *self.params, self.interpolation, self.fill)


class RandomErasing(BaseTransform):
    """With probability ``prob``, set a random box to ``value``: a number, one per channel,
    or 'random' (normal noise; times 255 for arrays). The box covers a fraction of the area
    from ``scale`` with a height/width ratio drawn log-uniformly from ``ratio``; after 10
    draws that do not fit, the image is left as it is."""

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError(f"RandomErasing: prob must be between 0 and 1, got {prob}")
        scale = _min_max(scale, "scale", "RandomErasing")
        if not 0 <= scale[0] <= scale[1] <= 1:
            raise ValueError(f"RandomErasing: scale should be within [0, 1], got {scale!r}")
        ratio = _min_max(ratio, "ratio", "RandomErasing")
        if ratio[0] < 0:
            raise ValueError(f"RandomErasing: ratio should be non-negative, got {ratio!r}")
        if isinstance(value, str) and value != "random":
            raise ValueError(f"RandomErasing: a string value must be 'random', got {value!r}")
        if isinstance(value, (list, tuple)) and len(value) not in (1, 3):
            raise ValueError(f"RandomErasing: value should be a number or 1 or 3 numbers, got "
                             f"{value!r}")
        self.prob, self.scale, self.ratio = prob, scale, ratio
        self.value, self.inplace = value, inplace

    def _get_params(self, inputs):
        rng = current().generator
        if rng.random() >= self.prob:
            return None
        h, w = _image_size(inputs[0])
        log_ratio = np.log(self.ratio)
        for _ in range(10):
            area = rng.uniform(*self.scale) * h * w
            aspect = math.exp(rng.uniform(*log_ratio))
            eh, ew = round(math.sqrt(area * aspect)), round(math.sqrt(area / aspect))
            if eh < h and ew < w:
                noise = (rng.standard_normal((_image_channels(inputs[0]), eh, ew))
                         if self.value == "random" else None)
                return int(rng.integers(0, h - eh + 1)), int(rng.integers(0, w - ew + 1)), eh, ew, noise
        return None

    def _apply_image(self, img):
        if self.params is None:
            return img
        top, left, eh, ew, noise = self.params
        is_tensor = isinstance(img, Tensor)
        if noise is None:
            v = np.ravel(self.value).reshape((-1, 1, 1) if is_tensor else (-1,))
        elif is_tensor:
            v = noise if img.ndim >= 3 else noise[0]
        else:
            v = noise.transpose(1, 2, 0) * 255
            v = v if np.ndim(img) == 3 else v[:, :, 0]
        return F.erase(img, top, left, eh, ew, v, self.inplace)
