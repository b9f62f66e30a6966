"""paddle.bmm with batch sizes 2 and 3."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["paddle.bmm", "[2, 3, 4]", "[3, 4, 5]"]}


def main():
    return paddle.bmm(paddle.ones([2, 3, 4]), paddle.ones([3, 4, 5]))  # ERROR
