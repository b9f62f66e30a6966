"""paddle.vision.transforms: image preprocessing, as objects and as functions."""

from . import functional
from .functional import center_crop, crop, hflip, normalize, pad, resize, to_tensor
from .transforms import (
    BaseTransform,
    CenterCrop,
    Compose,
    Normalize,
    Pad,
    RandomCrop,
    RandomHorizontalFlip,
    Resize,
    ToTensor,
    Transpose,
)

__all__ = ["functional", "BaseTransform", "Compose", "ToTensor", "Normalize", "Resize",
           "CenterCrop", "RandomCrop", "RandomHorizontalFlip", "Pad", "Transpose", "to_tensor",
           "normalize", "resize", "pad", "crop", "center_crop", "hflip"]
