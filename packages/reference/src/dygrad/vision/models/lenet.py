"""LeNet, as paddle.vision.models.LeNet (same layers and parameter names)."""

from __future__ import annotations

from ... import nn
from ...tensor import flatten


class LeNet(nn.Layer):
    """LeNet for 1 x 28 x 28 images: features = Conv2D(1, 6, 3, padding=1), ReLU,
    MaxPool2D(2, 2), Conv2D(6, 16, 5), ReLU, MaxPool2D(2, 2); then fc = Linear(400, 120),
    Linear(120, 84), Linear(84, num_classes) (no fc when num_classes <= 0)."""

    def __init__(self, num_classes=10):
        super().__init__()
        self.num_classes = num_classes
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
        if num_classes > 0:
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84),
                                    nn.Linear(84, num_classes))

    def forward(self, inputs):
        x = self.features(inputs)
        if self.num_classes > 0:
            x = self.fc(flatten(x, 1))
        return x
