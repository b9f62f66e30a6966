"""A flatten by hand with the wrong feature count inside a model."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net", "has": ["[4, 3, 5, 5]", "[4, 64]"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = paddle.reshape(x, [x.shape[0], 64])  # ERROR
        return self.fc(x)


def main():
    Net()(paddle.ones([4, 3, 5, 5]))
