"""paddle.nn: layers, losses, initializers and gradient clipping.

One module per family of layers, as Paddle's ``paddle.nn.layer``: every name in a module's
``__all__`` is exported here (``paddle.nn.Conv2D``).
"""

from importlib import import_module

from . import functional, initializer
from .param_attr import ParamAttr

_MODULES = ("layer", "container", "common", "activation", "conv", "pooling", "norm", "loss",
            "vision", "rnn", "transformer", "clip")
_MODULES += ("distance",)  # as Paddle's nn.layer.distance

__all__ = ["functional", "initializer", "ParamAttr"]
for _name in _MODULES:
    _mod = import_module(f"{__name__}.{_name}")
    for _obj in _mod.__all__:
        globals()[_obj] = getattr(_mod, _obj)
    __all__ += list(_mod.__all__)
del _name, _mod, _obj
