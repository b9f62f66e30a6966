"""logic functions of the tensor API."""

__all__ = []
METHODS = []
