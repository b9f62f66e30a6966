"""A label of 5 for 3 classes."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": IndexError, "has": ["5", "[0, 3)", "int64[4, 1]"]}


def main():
    logits = paddle.ones([4, 3])
    label = paddle.to_tensor([[0], [1], [5], [2]])
    return F.cross_entropy(logits, label)  # ERROR
