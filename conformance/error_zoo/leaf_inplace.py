"""An in-place change of a parameter while gradients are recorded."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": RuntimeError, "has": ["leaf tensor", "float32[3, 2]"]}


def main():
    fc = nn.Linear(3, 2)
    fc.weight.add_(paddle.ones([3, 2]))  # ERROR
