"""Elementwise math of the tensor API (paddle.tensor.math)."""

from __future__ import annotations

from .._core.dispatch import binary, ops
from .._core.optable import TABLE

__all__ = ["add", "multiply"]
METHODS = ["add", "multiply"]


def add(x, y, name=None):
    """x + y, broadcasting."""
    return binary(TABLE["add"], x, y)


def multiply(x, y, name=None):
    """x * y, broadcasting."""
    return binary(TABLE["multiply"], x, y)
