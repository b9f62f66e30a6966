"""Convolution and pooling ops."""
