"""ParamAttr: how a layer creates one of its parameters (name, initializer, learning rate
multiplier, trainable, ...), as Paddle's ``paddle.ParamAttr``."""

from __future__ import annotations

from ..regularizer import WeightDecayRegularizer
from .initializer import Initializer


class ParamAttr:
    """Options for creating a parameter.

    ``learning_rate`` multiplies the optimizer's learning rate for this parameter;
    ``trainable=False`` gives a parameter with ``stop_gradient=True`` (optimizers skip it).
    ``regularizer`` (``paddle.regularizer.L1Decay``/``L2Decay``) is this parameter's weight
    decay; it takes precedence over the optimizer's ``weight_decay``.
    """

    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None,
                 trainable=True, do_model_average=True, need_clip=True):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"ParamAttr: name must be a str or None, got {type(name).__name__}")
        if initializer is not None and not isinstance(initializer, Initializer):
            raise TypeError(f"ParamAttr: initializer must be an Initializer (e.g. "
                            f"paddle.nn.initializer.Normal()), got {type(initializer).__name__}")
        if not isinstance(learning_rate, (int, float)) or isinstance(learning_rate, bool):
            raise TypeError(f"ParamAttr: learning_rate must be a number, got "
                            f"{type(learning_rate).__name__}")
        if regularizer is not None and not isinstance(regularizer, WeightDecayRegularizer):
            raise TypeError(f"ParamAttr: regularizer must be paddle.regularizer.L1Decay or "
                            f"L2Decay, got {type(regularizer).__name__}")
        self.name = name
        self.initializer = initializer
        self.learning_rate = float(learning_rate)
        self.regularizer = regularizer
        self.trainable = bool(trainable)
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg):
        """What layers accept as ``weight_attr``/``bias_attr``: None (defaults), a
        ParamAttr, a name, an Initializer, or False (no such parameter)."""
        if arg is None or arg is True:
            return ParamAttr()
        if arg is False:
            return False
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        raise TypeError(f"{type(arg).__name__} cast to ParamAttr: expected None, a ParamAttr, "
                        f"a name (str), an Initializer or False")
