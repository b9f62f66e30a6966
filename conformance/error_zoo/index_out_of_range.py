"""Indexing row 10 of a [3, 2] tensor."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": IndexError, "has": ["[3, 2]", "10"]}


def main():
    x = paddle.ones([3, 2])
    return x[10]  # ERROR
