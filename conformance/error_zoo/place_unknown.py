"""A model moves its input to a device dygrad does not know ('xpu:0')."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net", "has": ["xpu:0"]}


class Net(nn.Layer):
    def forward(self, x):
        x = paddle.to_tensor(x, place="xpu:0")  # ERROR
        return x * 2


def main():
    Net()(paddle.ones([2]))
