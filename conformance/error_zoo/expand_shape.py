"""paddle.expand of [2, 3] to [4, 5]."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["[2, 3]", "[4, 5]"]}


def main():
    x = paddle.ones([2, 3])
    return paddle.expand(x, [4, 5])  # ERROR
