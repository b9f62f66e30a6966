"""nn.Sequential: the second Linear's in_features does not match the first's output."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net.body.2 (Linear)", "has": ["[8, 16]", "[10, 1]"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(10, 1))

    def forward(self, x):
        return self.body(x)  # ERROR


def main():
    Net()(paddle.ones([8, 4]))
