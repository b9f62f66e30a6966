"""paddle.grad for an input the output does not depend on."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": RuntimeError, "has": ["allow_unused", "[2]"]}


def main():
    x = paddle.ones([2])
    y = paddle.ones([2])
    x.stop_gradient = False
    y.stop_gradient = False
    out = (x * 3).sum()
    return paddle.grad(out, [x, y])  # ERROR
