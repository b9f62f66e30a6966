"""paddle.vision: image datasets and transforms (the models come with Conv2D)."""

from . import datasets, models, transforms
from .datasets import MNIST, FashionMNIST
from .image import get_image_backend, set_image_backend

__all__ = ["datasets", "models", "transforms", "MNIST", "FashionMNIST", "get_image_backend",
           "set_image_backend"]
