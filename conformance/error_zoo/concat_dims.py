"""paddle.concat of [2, 3] and [2, 4] along axis 0."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["paddle.concat", "[2, 3]", "[2, 4]"]}


def main():
    a = paddle.ones([2, 3])
    b = paddle.ones([2, 4])
    return paddle.concat([a, b], axis=0)  # ERROR
