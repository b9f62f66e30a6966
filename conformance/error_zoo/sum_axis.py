"""paddle.sum over axis 3 of a 2-D tensor."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["paddle.sum", "float32[2, 3]", "axis 3"]}


def main():
    x = paddle.ones([2, 3])
    return paddle.sum(x, axis=3)  # ERROR
