"""paddle.nn: layers, losses and initializers. (``ParamAttr`` lives in :mod:`.param_attr`;
Paddle exports it as ``paddle.ParamAttr``.)"""

from . import functional, initializer
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from .common import Linear
from .container import LayerList, Sequential
from .layer import Layer
from .loss import MSELoss

__all__ = ["Layer", "Sequential", "LayerList", "Linear", "ReLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "MSELoss", "ClipGradByValue", "ClipGradByNorm", "ClipGradByGlobalNorm",
           "functional", "initializer"]
