"""Token id 12 in an Embedding of 10 rows."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Net.emb (Embedding)", "has": ["12", "10"]}


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)

    def forward(self, ids):
        return self.emb(ids)  # ERROR


def main():
    Net()(paddle.to_tensor([[1, 12]]))
