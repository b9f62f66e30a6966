"""A Linear inside the second of two blocks gets 3 features where it expects 4."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "MyNet.block2.fc (Linear)", "has": ["[2, 3]", "[4, 2]"]}


class Block(nn.Layer):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)

    def forward(self, x):
        return self.fc(x)  # ERROR


class MyNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.block1 = Block(4, 3)
        self.block2 = Block(4, 2)

    def forward(self, x):
        return self.block2(self.block1(x))


def main():
    MyNet()(paddle.ones([2, 4]))
