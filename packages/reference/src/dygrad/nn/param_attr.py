"""ParamAttr: how a layer creates one of its parameters (name, initializer, learning rate
multiplier, regularizer, trainable, ...), as Paddle's ``paddle.ParamAttr``."""

from __future__ import annotations

from ..regularizer import WeightDecayRegularizer
from .initializer import Initializer


def _check_type(value, arg, types):
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        names = ", ".join(t.__name__ for t in types)
        raise TypeError(f"The type of '{arg}' in ParamAttr must be ({names}), but received "
                        f"{type(value).__name__}.")


class ParamAttr:
    """Options for creating a parameter (``Layer.create_parameter`` applies them).

    ``name`` names the parameter (else '<layer>.w_<n>'); ``initializer`` gives its first
    values (else the layer's default); ``learning_rate`` multiplies the optimizer's learning
    rate for it (``param.optimize_attr['learning_rate']``); ``regularizer`` (an L1Decay or
    L2Decay) is its weight decay, used in place of the optimizer's; ``trainable=False``
    gives ``stop_gradient=True`` (optimizers skip it); ``do_model_average`` is read by
    model averaging; ``need_clip=False`` exempts it from gradient clipping.
    """

    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None,
                 trainable=True, do_model_average=True, need_clip=True):
        _check_type(name, "name", (str, type(None)))
        _check_type(learning_rate, "learning_rate", (float, int))
        _check_type(trainable, "trainable", (bool,))
        _check_type(do_model_average, "do_model_average", (bool,))
        _check_type(need_clip, "need_clip", (bool,))
        _check_type(initializer, "initializer", (Initializer, type(None)))
        if name == "":
            raise ValueError("name of ParamAttr can not be empty str")
        if regularizer is not None and not isinstance(regularizer, WeightDecayRegularizer):
            raise TypeError(f"ParamAttr: regularizer must be paddle.regularizer.L1Decay or "
                            f"L2Decay, got {type(regularizer).__name__}")
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg):
        """What layers accept as ``weight_attr``/``bias_attr``: None or True (defaults), a
        ParamAttr, a name, an Initializer, False (no such parameter: returns False), or a
        list/tuple of these (a list of results)."""
        if arg is None or arg is True:
            return ParamAttr()
        if arg is False:
            return False
        if isinstance(arg, (list, tuple)):
            return [ParamAttr._to_attr(a) for a in arg]
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        raise TypeError(f"{type(arg)} cast to ParamAttr")
