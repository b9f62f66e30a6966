"""A NumPy array among an optimizer's parameters."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": TypeError, "has": ["must be Tensors", "ndarray"]}


def main():
    model = nn.Linear(3, 2)
    scale = np.ones([2], "float32")
    paddle.optimizer.Momentum(parameters=model.parameters() + [scale])  # ERROR
