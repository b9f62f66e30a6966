"""``paddle.dataset``: Paddle 1.x's reader creators (a reader is a function that returns an
iterator over samples; ``paddle.batch`` groups them)."""

from . import mnist

__all__ = ["mnist"]
