"""A Conv2D for 3 input channels fed a 1-channel image, inside a backbone."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net.backbone.conv (Conv2D)", "has": ["[2, 1, 8, 8]", "3"]}


class Backbone(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3)

    def forward(self, x):
        return F.relu(self.conv(x))  # ERROR


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()

    def forward(self, x):
        return self.backbone(x)


def main():
    Net()(paddle.ones([2, 1, 8, 8]))
