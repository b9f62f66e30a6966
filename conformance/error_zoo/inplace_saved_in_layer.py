"""A model's forward scales its activation in place after tanh saved it."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": RuntimeError, "has": ["in place", "paddle.tanh"], "created": "h = paddle.tanh(self.fc(x))"}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = paddle.tanh(self.fc(x))
        h.scale_(2.0)
        return h


def main():
    loss = Net()(paddle.ones([2, 4])).mean()
    loss.backward()  # ERROR
