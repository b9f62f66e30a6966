"""paddle.stack of tensors of different shapes."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["[2, 3]", "[3, 3]"]}


def main():
    return paddle.stack([paddle.ones([2, 3]), paddle.ones([3, 3])])  # ERROR
