"""dygrad.fluid: Paddle 1.x's ``paddle.fluid`` API in dygraph mode, as thin adapters over
the 2.x API (``import dygrad.fluid as fluid``, or ``import paddle.fluid`` under
``python -m dygrad.compat``).

What is here: ``fluid.dygraph`` (guard, to_variable, Layer with name_scope and build_once,
FC, Conv2D, Pool2D, Linear, BatchNorm, Embedding, checkpoints), ``fluid.PyLayer``, ``fluid.layers`` (the
functions that run in dygraph mode), ``fluid.initializer``, ``fluid.ParamAttr``,
``fluid.optimizer``, places and ``fluid.core``; from static mode (``dygrad.static``) the
Program, Executor and default programs. ``fluid.data`` and ``fluid.layers.data`` start static
mode when called in dygraph mode (1.x's default mode was static); the ``fluid.layers``
functions (``fc``, ``conv2d`` and ``pool2d`` included) build static programs as well.
"""

from .._core.place import CPUPlace, CUDAPlace
from .._core.tensor import Tensor as Variable
from ..static import (
                      Executor,
                      Program,
                      default_main_program,
                      default_startup_program,
                      global_scope,
                      program_guard,
                      scope_guard,
)
from . import core, dygraph, initializer, layers, optimizer, param_attr
from .dygraph import Layer, load_dygraph, save_dygraph
from .dygraph.base import disable_dygraph, enable_dygraph, in_dygraph_mode
from .dygraph.py_layer import PyLayer
from .param_attr import ParamAttr

enable_imperative = enable_dygraph


def data(name, shape, dtype="float32", lod_level=0):
    """1.x's ``fluid.data``: an input of the static program (-1 or None dimensions take the
    fed size); called in dygraph mode, it turns static mode on (1.x's default mode)."""
    layers.static_by_default()
    from .. import static
    return static.data(name, shape, dtype, lod_level)


disable_imperative = disable_dygraph

__all__ = ["core", "dygraph", "initializer", "layers", "optimizer", "param_attr", "CPUPlace",
           "CUDAPlace", "Variable", "Layer", "ParamAttr", "save_dygraph", "load_dygraph",
           "enable_dygraph", "enable_imperative", "disable_dygraph", "disable_imperative",
           "in_dygraph_mode", "PyLayer", "data", "Executor", "Program", "default_main_program",
           "default_startup_program", "global_scope", "program_guard", "scope_guard"]
