"""Adding a float32 and an int64 tensor: Paddle does not promote them."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": TypeError, "has": ["float32", "int64"]}


def main():
    x = paddle.ones([3], dtype="float32")
    i = paddle.arange(3)
    return x + i  # ERROR
