"""A LayerList of blocks whose widths do not chain."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net.blocks.2.fc (Linear)", "has": ["[5, 6]", "[8, 8]"]}


class Block(nn.Layer):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)

    def forward(self, x):
        return paddle.tanh(self.fc(x))  # ERROR


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.blocks = nn.LayerList([Block(8, 8), Block(8, 6), Block(8, 8)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def main():
    Net()(paddle.ones([5, 8]))
