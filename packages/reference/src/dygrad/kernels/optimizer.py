"""Optimizer update kernels."""
