"""Activation layers: each calls its paddle.nn.functional counterpart."""

from __future__ import annotations

from .._core.dtype import get_default_dtype
from . import functional as F
from .initializer import Constant
from .layer import Layer


class _Activation(Layer):
    """An activation with no settings but an optional ``name`` (shown in the repr)."""

    _fn = None

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return self._fn(x, name=self._name)

    def extra_repr(self):
        return f"name={self._name}" if self._name else ""


class ReLU(_Activation):
    """max(x, 0), elementwise."""

    _fn = staticmethod(F.relu)


class Sigmoid(_Activation):
    """1 / (1 + exp(-x)), elementwise."""

    _fn = staticmethod(F.sigmoid)


class Tanh(_Activation):
    """tanh(x), elementwise."""

    _fn = staticmethod(F.tanh)


class _SoftmaxBase(Layer):
    _fn = None

    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x):
        return self._fn(x, self._axis, name=self._name)

    def extra_repr(self):
        return f"axis={self._axis}" + (f", name={self._name}" if self._name else "")


class Softmax(_SoftmaxBase):
    """softmax(x) along ``axis``."""

    _fn = staticmethod(F.softmax)


class LogSoftmax(_SoftmaxBase):
    """log(softmax(x)) along ``axis``."""

    _fn = staticmethod(F.log_softmax)

class ReLU6(_Activation):
    """min(max(x, 0), 6), elementwise."""

    _fn = staticmethod(F.relu6)


class Silu(_Activation):
    """x * sigmoid(x), elementwise."""

    _fn = staticmethod(F.silu)


class Swish(_Activation):
    """x * sigmoid(x), elementwise (the same as Silu)."""

    _fn = staticmethod(F.swish)


class Hardswish(_Activation):
    """x * min(max(x + 3, 0), 6) / 6, elementwise."""

    _fn = staticmethod(F.hardswish)


class Hardsigmoid(_Activation):
    """min(max(x / 6 + 1/2, 0), 1), elementwise (F.hardsigmoid's default slope and offset)."""

    _fn = staticmethod(F.hardsigmoid)


class Mish(_Activation):
    """x * tanh(softplus(x)), elementwise."""

    _fn = staticmethod(F.mish)


class LogSigmoid(_Activation):
    """log(sigmoid(x)), elementwise."""

    _fn = staticmethod(F.log_sigmoid)


class Softsign(_Activation):
    """x / (1 + |x|), elementwise."""

    _fn = staticmethod(F.softsign)


class Tanhshrink(_Activation):
    """x - tanh(x), elementwise."""

    _fn = staticmethod(F.tanhshrink)


class _Configured(Layer):
    """An activation with settings, passed by keyword to its functional form and shown in
    the repr in order."""

    _fn = None

    def __init__(self, name=None, **settings):
        super().__init__()
        self._settings = settings
        self._name = name

    def forward(self, x):
        return self._fn(x, **self._settings, name=self._name)

    def extra_repr(self):
        parts = [f"{k}={v}" for k, v in self._settings.items()]
        return ", ".join(parts + ([f"name={self._name}"] if self._name else []))


class LeakyReLU(_Configured):
    """x where x > 0, negative_slope * x elsewhere."""

    _fn = staticmethod(F.leaky_relu)

    def __init__(self, negative_slope=0.01, name=None):
        super().__init__(name, negative_slope=negative_slope)


class ELU(_Configured):
    """x where x > 0, alpha * (exp(x) - 1) elsewhere."""

    _fn = staticmethod(F.elu)

    def __init__(self, alpha=1.0, name=None):
        super().__init__(name, alpha=alpha)


class CELU(_Configured):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    _fn = staticmethod(F.celu)

    def __init__(self, alpha=1.0, name=None):
        super().__init__(name, alpha=alpha)


class SELU(_Configured):
    """scale * x where x > 0, scale * alpha * (exp(x) - 1) elsewhere."""

    _fn = staticmethod(F.selu)

    def __init__(self, scale=1.0507009873554804934193349852946,
                 alpha=1.6732632423543772848170429916717, name=None):
        super().__init__(name, scale=scale, alpha=alpha)


class GELU(_Configured):
    """x * Phi(x) (Phi: the standard normal CDF), or its tanh approximation."""

    _fn = staticmethod(F.gelu)

    def __init__(self, approximate=False, name=None):
        super().__init__(name, approximate=approximate)


class Softplus(_Configured):
    """log(1 + exp(beta * x)) / beta, and x where beta * x > threshold."""

    _fn = staticmethod(F.softplus)

    def __init__(self, beta=1, threshold=20, name=None):
        super().__init__(name, beta=beta, threshold=threshold)


class Hardtanh(_Configured):
    """x clipped to [min, max]."""

    _fn = staticmethod(F.hardtanh)

    def __init__(self, min=-1.0, max=1.0, name=None):
        super().__init__(name, min=min, max=max)


class Hardshrink(_Configured):
    """x where |x| >= threshold, else 0."""

    _fn = staticmethod(F.hardshrink)

    def __init__(self, threshold=0.5, name=None):
        super().__init__(name, threshold=threshold)


class Softshrink(_Configured):
    """x - threshold above threshold, x + threshold below -threshold, else 0."""

    _fn = staticmethod(F.softshrink)

    def __init__(self, threshold=0.5, name=None):
        super().__init__(name, threshold=threshold)


class ThresholdedReLU(_Configured):
    """x where x > threshold, else value."""

    _fn = staticmethod(F.thresholded_relu)

    def __init__(self, threshold=1.0, value=0.0, name=None):
        super().__init__(name, threshold=threshold, value=value)


class GLU(_Configured):
    """The gated linear unit along ``axis``: a * sigmoid(b) for the two halves a, b."""

    _fn = staticmethod(F.glu)

    def __init__(self, axis=-1, name=None):
        super().__init__(name, axis=axis)


class Maxout(_Configured):
    """The maximum over each run of ``groups`` consecutive channels (axis 1, or 3)."""

    _fn = staticmethod(F.maxout)

    def __init__(self, groups, axis=1, name=None):
        super().__init__(name, groups=groups, axis=axis)


class Softmax2D(Layer):
    """softmax over the channel axis (-3) of a 3-D [C, H, W] or 4-D [N, C, H, W] input."""

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        if x.ndim not in (3, 4):
            raise ValueError(f"Softmax2D: x must be 3-D or 4-D, got shape {x.shape}")
        return F.softmax(x, axis=-3, name=self._name)

    def extra_repr(self):
        return f"name={self._name}" if self._name else ""


class RReLU(Layer):
    """Randomized leaky ReLU (F.rrelu) with this layer's training flag: random slopes in
    [lower, upper] when training, their mean otherwise."""

    def __init__(self, lower=1.0 / 8.0, upper=1.0 / 3.0, name=None):
        super().__init__()
        self._lower, self._upper, self._name = lower, upper, name
        self._dtype = get_default_dtype()

    def forward(self, x):
        return F.rrelu(x, lower=self._lower, upper=self._upper, training=self.training,
                       name=self._name)

    def extra_repr(self):
        name = f", name={self._name}" if self._name else ""
        return (f"lower={self._lower}, upper={self._upper}, training={self.training}, "
                f"dtype={self._dtype}{name}")


class PReLU(Layer):
    """x where x > 0, weight * x elsewhere, with a learnt ``_weight`` of ``num_parameters``
    values (1: shared by all; else one per channel of ``data_format``) starting at ``init``."""

    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW",
                 name=None):
        super().__init__()
        self._num_parameters = num_parameters
        self._init = init
        self._weight_attr = weight_attr
        self._data_format = data_format
        self._name = name
        self._dtype = get_default_dtype()
        self._weight = self.create_parameter(shape=[num_parameters], attr=weight_attr,
                                             dtype=self._dtype, is_bias=False,
                                             default_initializer=Constant(init))

    def forward(self, x):
        return F.prelu(x, self._weight, data_format=self._data_format, name=self._name)

    def extra_repr(self):
        name = f", name={self._name}" if self._name else ""
        return (f"num_parameters={self._num_parameters}, data_format={self._data_format}, "
                f"init={self._init}, dtype={self._dtype}{name}")


__all__ = ["ReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "ReLU6", "LeakyReLU", "PReLU",
           "ELU", "SELU", "CELU", "GELU", "Silu", "Swish", "Hardswish", "Hardsigmoid", "Mish",
           "Softplus", "Hardtanh", "LogSigmoid", "Softsign", "Tanhshrink", "Hardshrink",
           "Softshrink", "ThresholdedReLU", "GLU", "Maxout", "Softmax2D", "RReLU"]
