"""Pooling layers: max, average and adaptive pooling."""

__all__: list = []
