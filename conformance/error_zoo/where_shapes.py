"""paddle.where with x and y that do not broadcast."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["[2, 3]", "[4]"]}


def main():
    cond = paddle.ones([2, 3]) > 0
    return paddle.where(cond, paddle.ones([2, 3]), paddle.zeros([4]))  # ERROR
