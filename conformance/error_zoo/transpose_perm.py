"""paddle.transpose of a 3-D tensor with a 2-entry perm."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["[2, 3, 4]", "[1, 0]"]}


def main():
    x = paddle.ones([2, 3, 4])
    return paddle.transpose(x, perm=[1, 0])  # ERROR
