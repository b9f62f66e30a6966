"""Labels for 3 samples with logits for 4."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["[4, 3]", "[3, 1]"]}


def main():
    logits = paddle.ones([4, 3])
    label = paddle.to_tensor([[0], [1], [2]])
    return F.cross_entropy(logits, label)  # ERROR
