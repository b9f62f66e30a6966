"""Adding [3, 4] and [5]: the shapes do not broadcast."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["paddle.add", "float32[3, 4]", "float32[5]"]}


def main():
    x = paddle.ones([3, 4])
    y = paddle.ones([5])
    return x + y  # ERROR
