"""Optimizer update ops."""
