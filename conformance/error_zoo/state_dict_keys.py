"""A state dict saved from another model: every key is missing (a warning, as Paddle)."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": UserWarning, "has": ["fc.weight", "is not found"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)


def main():
    other = nn.Sequential(nn.Linear(3, 2))
    Net().set_state_dict(other.state_dict())  # ERROR
