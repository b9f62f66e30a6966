"""paddle.vision: image datasets and transforms (the models come with Conv2D)."""

from . import datasets, transforms
from .datasets import MNIST, FashionMNIST
from .image import get_image_backend, set_image_backend

__all__ = ["datasets", "transforms", "MNIST", "FashionMNIST", "get_image_backend",
           "set_image_backend"]
