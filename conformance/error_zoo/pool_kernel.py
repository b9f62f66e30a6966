"""A 5x5 max pool over a 3x3 feature map."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net.pool (MaxPool2D)", "has": ["[1, 2, 3, 3]"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2D(5)

    def forward(self, x):
        return self.pool(x)  # ERROR


def main():
    Net()(paddle.ones([1, 2, 3, 3]))
