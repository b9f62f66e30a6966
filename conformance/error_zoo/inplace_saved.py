"""Changing in place a tensor that backward needs."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": RuntimeError, "has": ["modified in place", "paddle.exp"], "created": "y = paddle.exp(x)"}


def main():
    x = paddle.ones([3])
    x.stop_gradient = False
    y = paddle.exp(x)
    y.add_(paddle.ones([3]))
    y.sum().backward()  # ERROR
