"""F.softmax over axis 2 of a [4, 10] tensor inside a classifier."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Classifier", "has": ["[4, 10]", "2"]}


class Classifier(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 10)

    def forward(self, x):
        return F.softmax(self.fc(x), axis=2)  # ERROR


def main():
    Classifier()(paddle.ones([4, 6]))
