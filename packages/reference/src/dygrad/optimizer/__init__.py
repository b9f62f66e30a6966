"""paddle.optimizer: optimizers (learning rates are floats for now)."""

from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam"]
