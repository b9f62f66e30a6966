"""paddle.unsqueeze at axis 5 of a 2-D tensor."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["[2, 3]", "5"]}


def main():
    return paddle.unsqueeze(paddle.ones([2, 3]), axis=5)  # ERROR
