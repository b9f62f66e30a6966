"""A two-headed layer splits 7 features into 2 equal halves."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Heads", "has": ["7", "2"]}


class Heads(nn.Layer):
    def forward(self, x):
        a, b = paddle.split(x, 2, axis=1)  # ERROR
        return a * b


def main():
    Heads()(paddle.ones([4, 7]))
