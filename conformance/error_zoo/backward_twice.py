"""backward() a second time without retain_graph."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": RuntimeError, "has": ["retain_graph", "paddle.sum"], "created": "loss = y.sum()"}


def main():
    x = paddle.ones([3])
    x.stop_gradient = False
    y = x * x
    loss = y.sum()
    loss.backward()
    loss.backward()  # ERROR
