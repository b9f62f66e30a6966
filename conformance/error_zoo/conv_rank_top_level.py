"""F.conv2d called from a script on one image without its batch dimension."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "has": ["conv2d: x must be a 4-D tensor", "[3, 8, 8]"]}


def main():
    image = paddle.ones([3, 8, 8])
    weight = paddle.ones([4, 3, 3, 3])
    return F.conv2d(image, weight, padding=1)  # ERROR
