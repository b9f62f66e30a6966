"""Indexing with a float tensor."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": IndexError, "has": ["float32"]}


def main():
    x = paddle.ones([3, 2])
    i = paddle.to_tensor([0.0, 1.0])
    return x[i]  # ERROR
