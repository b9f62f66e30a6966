"""Argument checks shared by the functional API."""

from __future__ import annotations

from ..._core import errors as _errors
from ..._core.tensor import Tensor


def check_tensor(x, api: str, arg: str = "x"):
    """Raise TypeError unless ``x`` is a Tensor (Paddle's functional API takes only Tensors)."""
    if not isinstance(x, Tensor):
        raise _errors.user_error(TypeError(
            f"{api}: {arg} must be a Tensor, got {type(x).__name__}; convert it "
            f"with paddle.to_tensor first"))
    return x
