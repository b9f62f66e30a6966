"""paddle.dot of vectors of lengths 3 and 4."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["paddle.dot", "[3]", "[4]"]}


def main():
    return paddle.dot(paddle.ones([3]), paddle.ones([4]))  # ERROR
