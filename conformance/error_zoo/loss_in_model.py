"""A loss layer called with mismatched prediction and label shapes."""

import numpy as np  # noqa: F401

import dygrad as paddle  # noqa: F401
import dygrad.nn.functional as F  # noqa: F401
from dygrad import nn  # noqa: F401

EXPECT = {"type": ValueError, "layer": "Trainer.loss (MSELoss)", "has": ["[8, 1]", "[6, 1]"]}


class Trainer(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)
        self.loss = nn.MSELoss()

    def forward(self, x, y):
        return self.loss(self.fc(x), y)  # ERROR


def main():
    Trainer()(paddle.ones([8, 4]), paddle.ones([6, 1]))
