"""An optimizer built in dygraph mode without the parameters it should update."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": AttributeError, "has": ["should not be None in dygraph mode"]}


def main():
    model = nn.Linear(3, 2)
    opt = paddle.optimizer.Adam(learning_rate=1e-3)  # ERROR
    model(paddle.ones([4, 3])).mean().backward()
    opt.step()
