"""paddle.framework: saving and loading (paddle.save / paddle.load), global flags."""

from .flags import get_flags, set_flags
from .io import load, save

__all__ = ["save", "load", "set_flags", "get_flags"]
