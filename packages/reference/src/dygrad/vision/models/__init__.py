"""paddle.vision.models: classic networks (LeNet)."""

__all__: list = []
