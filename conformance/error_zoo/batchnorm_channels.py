"""BatchNorm2D(16) after a conv with 8 output channels."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net.bn (BatchNorm2D)", "has": ["[2, 8, 4, 4]", "16"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2D(16)

    def forward(self, x):
        return self.bn(self.conv(x))  # ERROR


def main():
    Net()(paddle.ones([2, 3, 4, 4]))
