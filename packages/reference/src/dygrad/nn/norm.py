"""Normalization layers: batch, layer, group, instance and local response norm."""

__all__: list = []
