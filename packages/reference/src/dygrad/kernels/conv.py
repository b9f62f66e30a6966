"""Convolution and pooling kernels."""
