"""paddle.matmul of [4, 3] and [5, 2]: the contracted sizes differ."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["paddle.matmul", "float32[4, 3]", "float32[5, 2]"]}


def main():
    x = paddle.ones([4, 3])
    y = paddle.ones([5, 2])
    return paddle.matmul(x, y)  # ERROR
