"""paddle.matmul of a float32 and an int64 tensor."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": TypeError, "has": ["float32", "int64"]}


def main():
    x = paddle.ones([2, 3])
    y = paddle.ones([3, 2], dtype="int64")
    return paddle.matmul(x, y)  # ERROR
