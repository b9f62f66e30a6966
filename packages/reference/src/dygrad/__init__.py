"""dygrad: a define-by-run deep-learning framework with PaddlePaddle 2.x's public API.

``import dygrad as paddle`` and every op runs at once; ``loss.backward()`` walks the graph
the run recorded. The reference engine (this package) is plain NumPy written to be read;
``dygrad-accelerated`` is the same protocol compiled. See docs/architecture.md.
"""

from __future__ import annotations

__version__ = "0.1.0"

from ._core import dtype as _dtype_mod
from ._core.autograd import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from ._core.device import get_device, get_rng_state, seed, set_device, set_rng_state
from ._core.dtype import (bool_ as bool, complex64, complex128, float16, float32, float64,
                          int8, int16, int32, int64, uint8, get_default_dtype, set_default_dtype)
from ._core.engine import (available_engines, get_engine, get_num_threads, set_engine,
                           set_num_threads)
from ._core.place import CPUPlace, CUDAPinnedPlace, CUDAPlace, Place
from ._core.tensor import Parameter, Tensor, is_tensor

from .tensor import *  # noqa: F401,F403
from .tensor import __all__ as _tensor_all

from . import (  # noqa: F401
    autograd, callbacks, dataset, debug, device, distributed, framework, hapi, io, jit,
    linalg, metric, nn, optimizer, profiler, regularizer, static, utils, vision)
from .batch import batch
from .autograd import grad
from .device import is_compiled_with_cuda
from .distributed import DataParallel
from .framework import get_flags, load, save, set_flags
from .hapi import *  # noqa: F401,F403  (Model, summary, flops)
from .hapi import __all__ as _hapi_all
from .nn.param_attr import ParamAttr
from .static import create_parameter, disable_static, enable_static, in_dynamic_mode

dtype = _dtype_mod.DType

__all__ = ["__version__", "Tensor", "Parameter", "is_tensor", "no_grad", "enable_grad",
           "set_grad_enabled", "is_grad_enabled", "seed", "get_device", "set_device",
           "get_rng_state", "set_rng_state", "set_engine", "get_engine", "available_engines",
           "set_num_threads", "get_num_threads", "is_compiled_with_cuda",
           "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "Place", "set_default_dtype",
           "get_default_dtype", "grad", "bool", "uint8", "int8", "int16", "int32", "int64",
           "float16", "float32", "float64", "complex64", "complex128", "dtype",
           "save", "load", "set_flags", "get_flags", "ParamAttr", "batch", "enable_static",
           "disable_static", "in_dynamic_mode", "create_parameter", "DataParallel", *_hapi_all, *_tensor_all]
