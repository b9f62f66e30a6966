"""paddle.framework: saving and loading (paddle.save / paddle.load)."""

from .io import load, save

__all__ = ["save", "load"]
