"""paddle.nn.functional: the stateless forms of layers (activations, losses, linear)."""

from .activation import log_softmax, relu, sigmoid, softmax, tanh
from .common import linear
from .loss import mse_loss

__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "linear", "mse_loss"]
