"""Reshaping 12 elements to [5, 7]."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["[3, 4]", "[5, 7]"]}


def main():
    x = paddle.ones([3, 4])
    return paddle.reshape(x, [5, 7])  # ERROR
