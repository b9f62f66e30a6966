"""A Layer kept in a plain list is called: it shows as unregistered in the path."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net.<unregistered Linear>", "has": ["[2, 5]"], "warns": True}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.heads = [nn.Linear(4, 2)]

    def forward(self, x):
        return self.heads[0](x)  # ERROR


def main():
    Net()(paddle.ones([2, 5]))
