"""paddle.vision.models: classic networks (LeNet)."""

from .lenet import LeNet

__all__ = ["LeNet"]
