"""A gradient hook that returns a gradient of the wrong shape."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["backward of"], "created": "h = x * 2"}


def main():
    x = paddle.ones([3])
    x.stop_gradient = False
    h = x * 2
    h.register_hook(lambda g: paddle.ones([4]))
    h.sum().backward()  # ERROR
