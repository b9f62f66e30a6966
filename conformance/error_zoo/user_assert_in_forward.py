"""The user's own check inside a nested block fails."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": AssertionError, "layer": "Model.encoder (Encoder)", "has": ["[2, 5]"]}


class Encoder(nn.Layer):
    def forward(self, x):
        assert x.shape[-1] == 4, f"expected 4 features, got shape {x.shape}"  # ERROR
        return x


class Model(nn.Layer):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()

    def forward(self, x):
        return self.encoder(x)


def main():
    Model()(paddle.ones([2, 5]))
