"""An int64 batch fed to a Linear (float32 weights)."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": TypeError, "layer": "Net.fc (Linear)", "has": ["int64", "float32"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x)  # ERROR


def main():
    Net()(paddle.to_tensor([[1, 2, 3]]))
