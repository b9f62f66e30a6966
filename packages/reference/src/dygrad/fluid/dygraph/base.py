"""Dygraph mode of Paddle 1.x: ``guard``, ``to_variable``, ``enabled``, ``no_grad``.

``guard(place)`` runs its block in dygraph (eager) mode even when static mode is on, makes
``place`` the device for its block (then restores both), as 1.x's guard chose where the block
runs, and gives the block fresh name counters (the first layer named 'mnist' is
'mnist_0' in every guard, and so are its parameters' names), as 1.x's did. 1.x Variables
need a gradient unless told otherwise: ``to_variable`` returns a tensor with
``stop_gradient=False``.
"""

from __future__ import annotations

import contextlib

import numpy as np

from ..._core.autograd import no_grad
from ..._core.creation import to_tensor
from ..._core.device import current_place, set_device
from ..._core.tensor import Tensor
from ...nn import layer as _layer
from ...static import disable_static, enable_static, in_dynamic_mode

__all__ = ["guard", "to_variable", "enabled", "no_grad", "enable_dygraph", "disable_dygraph",
           "in_dygraph_mode"]


@contextlib.contextmanager
def guard(place=None):
    """Run the block in dygraph mode on ``place`` (a CPUPlace or CUDAPlace; None keeps the
    current device)."""
    previous, counters, static = current_place(), _layer._counters, not in_dynamic_mode()
    if static:
        disable_static()
    if place is not None:
        set_device(place)
    _layer._counters = {}
    try:
        yield
    finally:
        set_device(previous)
        _layer._counters = counters
        if static:
            enable_static()


def enabled() -> bool:
    """Whether dygraph (eager) mode is on (dygrad's default; static mode turns it off)."""
    return in_dynamic_mode()


in_dygraph_mode = enabled


def enable_dygraph(place=None):
    """Dygraph mode from here on, on ``place`` when given."""
    disable_static()
    if place is not None:
        set_device(place)


def disable_dygraph():
    """Static mode from here on: ops build the current Program (``paddle.enable_static``)."""
    enable_static()


def to_variable(value, name=None, zero_copy=None, dtype=None):
    """A Variable (Tensor) holding ``value`` (a NumPy array, or a Tensor, returned as it is),
    with ``stop_gradient=False`` as 1.x Variables have. ``zero_copy`` is accepted and
    ignored (the data is always copied); ``dtype`` casts."""
    if isinstance(value, Tensor):
        return value if dtype is None else value.astype(dtype)
    if not isinstance(value, (np.ndarray, np.generic, list, tuple)):
        raise TypeError(f"to_variable: the type of 'value' must be numpy.ndarray or Variable "
                        f"(a list or tuple is also accepted), got {type(value).__name__}")
    t = to_tensor(value, dtype=dtype, stop_gradient=False)
    if name is not None:
        t.name = name
    return t
