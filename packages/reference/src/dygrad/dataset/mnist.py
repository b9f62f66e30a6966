"""``paddle.dataset.mnist``: readers of the MNIST digits as Paddle 1.x gave them, each sample
(784 float32 pixels scaled to [-1, 1], int label), in file order.

The digits are those of :class:`dygrad.vision.datasets.MNIST` (the files in the dataset
cache, else the subset shipped with dygrad).
"""

from __future__ import annotations

import numpy as np

from ..vision.datasets.mnist import MNIST

__all__ = ["train", "test"]


def _reader_creator(mode):
    def reader():
        data = MNIST(mode=mode)
        images = data.images.reshape(len(data.images), -1).astype(np.float32) / 255.0 * 2.0 - 1.0
        for image, label in zip(images, data.labels[:, 0]):
            yield image, int(label)
    return reader


def train():
    """A reader of the training digits: (784 float32 in [-1, 1], int label)."""
    return _reader_creator("train")


def test():
    """A reader of the test digits: (784 float32 in [-1, 1], int label)."""
    return _reader_creator("test")
