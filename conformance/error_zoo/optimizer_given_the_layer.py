"""The model itself passed as an optimizer's parameters (not model.parameters())."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": TypeError, "has": ["'Net' object is not iterable"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x)


def main():
    model = Net()
    paddle.optimizer.SGD(learning_rate=0.1, parameters=model)  # ERROR
