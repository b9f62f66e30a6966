"""paddle.nn.functional: the stateless forms of the layers.

One module per family, as Paddle's: every name in a module's ``__all__`` is exported here.
"""

from importlib import import_module

_MODULES = ("activation", "common", "input", "conv", "pooling", "norm", "vision", "loss")
_MODULES += ("extension", "distance")  # as Paddle's nn.functional modules

__all__: list = []
for _name in _MODULES:
    _mod = import_module(f"{__name__}.{_name}")
    for _fn in _mod.__all__:
        globals()[_fn] = getattr(_mod, _fn)
    __all__ += list(_mod.__all__)
del _name, _mod, _fn
