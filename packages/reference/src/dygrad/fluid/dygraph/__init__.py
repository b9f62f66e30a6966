"""``fluid.dygraph``: Paddle 1.x's dygraph API (guard, to_variable, Layer, the layers of
``fluid.dygraph.nn``, checkpoints)."""

from . import base, checkpoint, layers, nn
from .base import enable_dygraph, enabled, guard, in_dygraph_mode, no_grad, to_variable
from .checkpoint import load_dygraph, load_persistables, save_dygraph, save_persistables
from .layers import Layer
from .nn import FC, BatchNorm, Conv2D, Embedding, Linear, Pool2D

__all__ = ["base", "checkpoint", "layers", "nn", "guard", "to_variable", "enabled", "no_grad",
           "enable_dygraph", "in_dygraph_mode", "Layer", "FC", "Conv2D", "Pool2D", "Linear",
           "BatchNorm", "Embedding", "save_dygraph", "load_dygraph", "save_persistables",
           "load_persistables"]
