"""LayerNorm(32) on 16 features."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net.norm (LayerNorm)", "has": ["[4, 16]", "32"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(32)

    def forward(self, x):
        return self.norm(x)  # ERROR


def main():
    Net()(paddle.ones([4, 16]))
