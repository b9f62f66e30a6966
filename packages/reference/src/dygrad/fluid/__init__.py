"""dygrad.fluid: Paddle 1.x's ``paddle.fluid`` API in dygraph mode, as thin adapters over
the 2.x API (``import dygrad.fluid as fluid``, or ``import paddle.fluid`` under
``python -m dygrad.compat``).

What is here: ``fluid.dygraph`` (guard, to_variable, Layer with name_scope and build_once,
FC, Conv2D, Pool2D, Linear, BatchNorm, Embedding, checkpoints), ``fluid.PyLayer``, ``fluid.layers`` (the
functions that run in dygraph mode), ``fluid.initializer``, ``fluid.ParamAttr``,
``fluid.optimizer``, places and ``fluid.core``; from static mode (``dygrad.static``) the
Program, Executor and default programs. Not yet here: ``fluid.data``, ``fluid.layers.data``
and the static forms of ``fluid.layers.fc/conv2d/pool2d``.
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
disable_imperative = disable_dygraph

__all__ = ["core", "dygraph", "initializer", "layers", "optimizer", "param_attr", "CPUPlace",
           "CUDAPlace", "Variable", "Layer", "ParamAttr", "save_dygraph", "load_dygraph",
           "enable_dygraph", "enable_imperative", "disable_dygraph", "disable_imperative",
           "in_dygraph_mode", "PyLayer", "Executor", "Program", "default_main_program",
           "default_startup_program", "global_scope", "program_guard", "scope_guard"]
