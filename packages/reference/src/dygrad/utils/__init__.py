"""paddle.utils (the parts dygrad has): ``graph``, a viewer of autograd graphs and programs."""

from .graph import graph

__all__ = ["graph"]
