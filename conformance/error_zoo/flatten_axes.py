"""paddle.flatten with start_axis after stop_axis."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["[2, 3, 4]"]}


def main():
    return paddle.flatten(paddle.ones([2, 3, 4]), start_axis=2, stop_axis=1)  # ERROR
