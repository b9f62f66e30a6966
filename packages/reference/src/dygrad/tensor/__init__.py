"""The tensor API, as Paddle's ``paddle.tensor``: one module per family of functions.

Every function listed in a module's ``__all__`` is public (``dygrad.<name>``); the names in
its ``METHODS`` are also attached to :class:`~dygrad.Tensor` as methods (``x.sum()``), as
Paddle attaches its tensor functions.
"""

from __future__ import annotations

from importlib import import_module

from .._core.tensor import Tensor

_MODULES = ("creation", "random", "math", "logic", "reduce", "stat", "search",
            "manipulation", "linalg", "attribute")

__all__: list = []
for _name in _MODULES:
    _mod = import_module(f"{__name__}.{_name}")
    for _fn in _mod.__all__:
        globals()[_fn] = getattr(_mod, _fn)
    __all__ += list(_mod.__all__)
    for _meth in getattr(_mod, "METHODS", ()):
        _attr, _fn = (_meth, _meth) if isinstance(_meth, str) else _meth
        setattr(Tensor, _attr, getattr(_mod, _fn))
del _name, _mod, _fn, _meth, _attr
