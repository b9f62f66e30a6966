"""Image transforms as callable objects (paddle.vision.transforms), usually chained with
:class:`Compose` and given to a dataset as ``transform=``.

Random transforms draw from the current engine's generator, so ``dygrad.seed(n)`` makes
them reproducible.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..._core.creation import to_tensor as _to_tensor
from ..._core.engine import current
from ..._core.tensor import Tensor
from . import functional as F

__all__ = ["BaseTransform", "Compose", "ToTensor", "Normalize", "Resize", "CenterCrop",
           "RandomCrop", "RandomHorizontalFlip", "Pad", "Transpose"]


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


class RandomHorizontalFlip(BaseTransform):
    """Mirror the image left to right with probability ``prob`` (one draw per call, shared by
    every key of a tuple input)."""

    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError(f"RandomHorizontalFlip: prob must be between 0 and 1, got {prob}")
        self.prob = prob

    def _get_params(self, inputs):
        return current().generator.random() < self.prob

    def _apply_image(self, img):
        return F.hflip(img) if self.params else img


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
