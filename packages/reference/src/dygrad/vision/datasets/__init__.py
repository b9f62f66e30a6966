"""paddle.vision.datasets: MNIST and Fashion-MNIST."""

from .mnist import MNIST, FashionMNIST

__all__ = ["MNIST", "FashionMNIST"]
