"""Convolution layers: Conv1D, Conv2D, Conv3D, Conv2DTranspose."""

__all__: list = []
