"""A Conv2D fed one image without its batch dimension."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net.conv (Conv2D)", "has": ["[1, 8, 8]"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(1, 4, 3)

    def forward(self, x):
        return self.conv(x)  # ERROR


def main():
    Net()(paddle.ones([1, 8, 8]))
