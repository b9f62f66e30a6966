"""Layers kept in a plain dict are missing from parameters() (a warning)."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": UserWarning, "has": ["Net.heads", "LayerDict"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.heads = {"a": nn.Linear(4, 2), "b": nn.Linear(4, 3)}  # ERROR


def main():
    Net()
