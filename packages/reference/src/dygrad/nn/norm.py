"""Normalization layers: batch, layer, group, instance and local response norm.

Parameter and buffer names, shapes and initial values are Paddle's, so a Paddle state_dict
loads unchanged: batch norm has ``weight``, ``bias`` and the running statistics ``_mean``
and ``_variance`` (parameters with ``stop_gradient=True``, as in Paddle); instance norm
calls its weight ``scale``; layer norm's weight and bias are flat (the product of
``normalized_shape``).
"""

from __future__ import annotations

import math
import numbers

from .._core.dtype import get_default_dtype
from . import functional as F
from .initializer import Constant
from .layer import Layer
from .param_attr import ParamAttr


class _BatchNormBase(Layer):
    """Batch normalization over every axis but the channels. In training mode (``train()``)
    the batch's statistics normalize and update the running ones; in eval mode the running
    ones normalize. ``use_global_stats`` True/False forces running/batch statistics."""

    # accepted data_format -> whether the channels come first
    _FORMATS: dict = {}
    _FORMAT_ERROR = ""
    _NDIMS = ()

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", use_global_stats=None, name=None):
        super().__init__()
        self._num_features = num_features
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._use_global_stats = use_global_stats
        self._dtype = "float32" if get_default_dtype() == "float16" else get_default_dtype()
        shape = [num_features]
        self.weight = self.create_parameter(shape, weight_attr, self._dtype,
                                            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(shape, bias_attr, self._dtype, is_bias=True)
        self._mean = _running_stat(self, shape, None if name is None else f"{name}_mean", 0.0)
        self._variance = _running_stat(self, shape, None if name is None else f"{name}_variance",
                                       1.0)
        self._data_format = data_format
        self._momentum = momentum
        self._epsilon = epsilon
        self._name = name

    def forward(self, input):
        name = type(self).__name__
        if self._data_format not in self._FORMATS:
            raise ValueError(f"{name}: {self._FORMAT_ERROR}, got {self._data_format!r}")
        if input.ndim not in self._NDIMS:
            raise ValueError(f"{name}: expected {' or '.join(f'{n}D' for n in self._NDIMS)} "
                             f"input (got {input.ndim}D input with shape {list(input.shape)})")
        return F.batch_norm(input, self._mean, self._variance, weight=self.weight,
                            bias=self.bias, training=self.training, momentum=self._momentum,
                            epsilon=self._epsilon,
                            data_format="NCHW" if self._FORMATS[self._data_format] else "NHWC",
                            use_global_stats=self._use_global_stats)

    def extra_repr(self):
        s = (f"num_features={self._num_features}, momentum={self._momentum}, "
             f"epsilon={self._epsilon}")
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


def _running_stat(layer, shape, name, value):
    """A running statistic: a parameter that is not trained (stop_gradient), as Paddle's."""
    p = layer.create_parameter(shape, ParamAttr(name=name, initializer=Constant(value),
                                                trainable=False), layer._dtype)
    p.stop_gradient = True
    return p


class BatchNorm1D(_BatchNormBase):
    """Batch normalization of [N, C] or [N, C, L] inputs (``data_format`` 'NC'/'NCL', or
    'NLC' for [N, L, C])."""

    _FORMATS = {"NC": True, "NCL": True, "NCHW": True, "NLC": False, "NHWC": False}
    _FORMAT_ERROR = "expected NC, NCL or NLC for data_format"
    _NDIMS = (2, 3)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCL", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm2D(_BatchNormBase):
    """Batch normalization of [N, C, H, W] inputs ('NCHW'), or [N, H, W, C] ('NHWC')."""

    _FORMATS = {"NCHW": True, "NHWC": False}
    _FORMAT_ERROR = "expected NCHW or NHWC for data_format"
    _NDIMS = (4,)


class BatchNorm3D(_BatchNormBase):
    """Batch normalization of [N, C, D, H, W] inputs ('NCDHW'), or [N, D, H, W, C]
    ('NDHWC')."""

    _FORMATS = {"NCDHW": True, "NCHW": True, "NDHWC": False, "NHWC": False}
    _FORMAT_ERROR = "expected NCDHW or NDHWC for data_format"
    _NDIMS = (5,)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm(Layer):
    """Paddle 1.x batch normalization (any rank from 2 to 5), with an optional activation
    ``act`` (a name in ``paddle.nn.functional``, e.g. 'relu').

    Statistics: the running ones when ``use_global_stats``, or in eval mode unless
    ``trainable_statistics``; otherwise the batch's, which also update the running ones.
    ``is_test``, ``in_place`` and ``do_model_average_for_mean_and_var`` are kept as
    attributes only: as in Paddle's dygraph mode, the mode comes from ``train()``/``eval()``.
    """

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-05,
                 param_attr=None, bias_attr=None, dtype="float32", data_layout="NCHW",
                 in_place=False, moving_mean_name=None, moving_variance_name=None,
                 do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):
        super().__init__()
        if data_layout not in ("NCHW", "NHWC"):
            raise ValueError(f"BatchNorm: data_layout must be 'NCHW' or 'NHWC', got "
                             f"{data_layout!r}")
        if act is not None and not callable(getattr(F, act, None)):
            raise ValueError(f"BatchNorm: act must name an activation of "
                             f"paddle.nn.functional (e.g. 'relu'), got {act!r}")
        self._act = act
        self._dtype = "float32" if dtype == "float16" else dtype
        shape = [num_channels]
        self.weight = self.create_parameter(shape, param_attr, self._dtype,
                                            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(shape, bias_attr, self._dtype, is_bias=True)
        self._mean = _running_stat(self, shape, moving_mean_name, 0.0)
        self._variance = _running_stat(self, shape, moving_variance_name, 1.0)
        self._mean.do_model_average = self._variance.do_model_average = \
            do_model_average_for_mean_and_var
        self._is_test = is_test
        self._in_place = in_place
        self._data_layout = data_layout
        self._momentum = momentum
        self._epsilon = epsilon
        self._use_global_stats = use_global_stats
        self._trainable_statistics = trainable_statistics

    def forward(self, input):
        use_global = self._use_global_stats or not (self.training or self._trainable_statistics)
        out = F.batch_norm(input, self._mean, self._variance, weight=self.weight, bias=self.bias,
                           training=self.training, momentum=self._momentum,
                           epsilon=self._epsilon, data_format=self._data_layout,
                           use_global_stats=use_global)
        return out if self._act is None else getattr(F, self._act)(out)


class LayerNorm(Layer):
    """Normalization over the trailing dimensions ``normalized_shape`` of each sample, then
    a flat weight and bias of their total size (``weight_attr``/``bias_attr=False`` leave
    them out)."""

    def __init__(self, normalized_shape, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 name=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._dtype = get_default_dtype()
        self._epsilon = epsilon
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        shape = [math.prod(self._normalized_shape)]
        self.weight = self.create_parameter(shape, weight_attr,
                                            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(shape, bias_attr, is_bias=True)
        self._name = name

    def forward(self, input):
        return F.layer_norm(input, self._normalized_shape, weight=self.weight, bias=self.bias,
                            epsilon=self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    """Normalization over groups of channels of each sample (``num_channels`` must be
    divisible by ``num_groups``), then a per-channel weight and bias."""

    _FORMATS = ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")

    def __init__(self, num_groups, num_channels, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        if data_format not in self._FORMATS:
            raise ValueError(f"GroupNorm: unsupported data layout {data_format!r} (expected "
                             f"one of {', '.join(self._FORMATS)})")
        self._dtype = get_default_dtype()
        self._num_groups = num_groups
        self._num_channels = num_channels
        self._epsilon = epsilon
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._data_format = data_format
        self.weight = self.create_parameter([num_channels], weight_attr,
                                            default_initializer=Constant(1.0))
        self.bias = self.create_parameter([num_channels], bias_attr, is_bias=True)
        self._name = name

    def forward(self, input):
        return F.group_norm(input, self._num_groups, self._epsilon, weight=self.weight,
                            bias=self.bias, data_format=self._data_format)

    def extra_repr(self):
        return (f"num_groups={self._num_groups}, num_channels={self._num_channels}, "
                f"epsilon={self._epsilon}")


class _InstanceNormBase(Layer):
    """Normalization of each channel of each sample over its spatial positions, then a
    per-channel ``scale`` and ``bias`` (both left out when weight_attr and bias_attr are
    False). As in Paddle, the statistics are always the input's own (``momentum`` is kept
    only as an attribute) and the input is read channels-first whatever ``data_format``
    says."""

    _NDIMS = ()

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        if (weight_attr is False) != (bias_attr is False):
            raise ValueError(f"{type(self).__name__}: weight_attr and bias_attr must be set to "
                             f"False at the same time")
        self._dtype = get_default_dtype()
        self._num_features = num_features
        self._epsilon = epsilon
        self._momentum = momentum
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._data_format = data_format
        self.scale = self.create_parameter([num_features], weight_attr,
                                           default_initializer=Constant(1.0))
        self.bias = self.create_parameter([num_features], bias_attr, is_bias=True)
        self._name = name

    def forward(self, input):
        if input.ndim not in self._NDIMS:
            raise ValueError(f"{type(self).__name__}: expected "
                             f"{' or '.join(f'{n}D' for n in self._NDIMS)} input (got "
                             f"{input.ndim}D input with shape {list(input.shape)})")
        return F.instance_norm(input, weight=self.scale, bias=self.bias, eps=self._epsilon)

    def extra_repr(self):
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    """Instance normalization of [N, C] or [N, C, L] inputs."""

    _NDIMS = (2, 3)

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCL", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format,
                         name)


class InstanceNorm2D(_InstanceNormBase):
    """Instance normalization of [N, C, H, W] inputs."""

    _NDIMS = (4,)


class InstanceNorm3D(_InstanceNormBase):
    """Instance normalization of [N, C, D, H, W] inputs."""

    _NDIMS = (5,)

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format,
                         name)


class LocalResponseNorm(Layer):
    """x / (k + alpha / size * the sum of x^2 over ``size`` neighbouring channels) ** beta."""

    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k
        self.data_format = data_format
        self.name = name

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k,
                                     self.data_format)

    def extra_repr(self):
        s = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            s += f", data_format={self.data_format}"
        if self.name is not None:
            s += f", name={self.name}"
        return s


__all__ = ["BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "LayerNorm", "GroupNorm",
           "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D", "LocalResponseNorm"]
