"""Parameters kept in a plain list, filled after assignment (a warning at parameters())."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": UserWarning, "has": ["Net.scales", "ParameterList"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.scales = []
        for _ in range(3):
            self.scales.append(self.create_parameter([4]))


def main():
    net = Net()
    return net.parameters()  # ERROR
