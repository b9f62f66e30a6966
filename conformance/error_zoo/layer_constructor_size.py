"""A model builds a Linear layer with a negative output size."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["create_parameter", "[16, -4]"]}


class Net(nn.Layer):
    def __init__(self, hidden):
        super().__init__()
        self.fc = nn.Linear(16, hidden - 8)  # ERROR

    def forward(self, x):
        return self.fc(x)


def main():
    Net(hidden=4)
