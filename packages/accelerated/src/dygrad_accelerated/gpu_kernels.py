"""The GPU kernels: the reference kernels run on an array namespace other than NumPy.

``build(xp)`` returns ``{op name: kernel}`` for every op of the table. Each kernel is the
reference kernel's own code with the module globals of ``dygrad.kernels`` copied and ``np``
(and any NumPy function imported by name, such as ``sliding_window_view``) replaced by
``xp``, a :class:`~dygrad_accelerated.gpu_compat.Compat`. So the GPU computes what the
reference computes, by the same formulas: elementwise ops are CuPy's ufuncs, matrix
products ``cupy.matmul`` (cuBLAS), conv2d im2col (a sliding-window view copied once)
followed by one GEMM, reductions CuPy's (CUB) reductions, scatter-adds ``cupy.add.at``.

``build(Compat(numpy))`` is the same code on NumPy restricted to CuPy's API: the CPU tests
compare it with the reference kernels op by op. ``CUDA_KERNELS`` lists hand-written CUDA
kernels (``ElementwiseKernel``/``RawKernel``); there are none: every op runs as above.
"""

from __future__ import annotations

import sys
import types

import numpy

from dygrad import kernels as _reference
from dygrad._core.optable import TABLE

CUDA_KERNELS: tuple = ()


def _kernel_modules():
    """The reference engine's kernel modules (dygrad.kernels and its submodules)."""
    prefix = _reference.__name__ + "."
    return [m for name, m in sorted(sys.modules.items())
            if name == _reference.__name__ or name.startswith(prefix)]


def _replacement(name, value, xp):
    """What a module global becomes on ``xp``: NumPy itself -> xp; a NumPy function imported
    by name -> xp's function of that name; anything else stays."""
    if value is numpy:
        return xp
    module = getattr(value, "__module__", None) or ""
    if callable(value) and (module == "numpy" or module.startswith("numpy.")):
        try:
            return getattr(xp, name)
        except AttributeError:
            raise NotImplementedError(
                f"GPU kernels: dygrad.kernels uses NumPy's {name!r}, which the GPU array "
                f"namespace has no equivalent of; add a fill-in to gpu_compat.Compat") from None
    return value


def rebind_all(xp) -> dict:
    """{reference function: the same function with its globals on ``xp``} for every function
    defined in a reference kernel module (helpers included, so they call each other's
    rebound versions)."""
    modules = _kernel_modules()
    new_globals = {}
    for m in modules:
        g = dict(vars(m))
        for name, value in vars(m).items():
            g[name] = _replacement(name, value, xp)
        new_globals[id(vars(m))] = g
    rebound = {}
    for m in modules:
        for value in vars(m).values():
            if isinstance(value, types.FunctionType) and id(value.__globals__) in new_globals \
                    and value not in rebound:
                f = types.FunctionType(value.__code__, new_globals[id(value.__globals__)],
                                       value.__name__, value.__defaults__, value.__closure__)
                f.__kwdefaults__ = value.__kwdefaults__
                f.__doc__, f.__qualname__ = value.__doc__, value.__qualname__
                rebound[value] = f
    for g in new_globals.values():  # module globals now name the rebound functions
        for name, value in g.items():
            if isinstance(value, types.FunctionType) and value in rebound:
                g[name] = rebound[value]
    return rebound


def build(xp) -> dict:
    """{op name: kernel on ``xp`` arrays} for every op of the table."""
    rebound = rebind_all(xp)
    out = {}
    for name in TABLE:
        ref = _reference.KERNELS[name]
        if ref not in rebound:
            raise NotImplementedError(f"GPU kernels: the reference kernel of {name!r} is not "
                                      f"defined in dygrad.kernels, so it cannot be rebound")
        out[name] = rebound[ref]
    return out
