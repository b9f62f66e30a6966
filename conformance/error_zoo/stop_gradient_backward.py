"""backward() of a loss computed from tensors that need no gradient."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": RuntimeError, "has": ["stop_gradient=True", "shape []"]}


def main():
    x = paddle.ones([3])
    loss = (x * 2).sum()
    loss.backward()  # ERROR
