"""``fluid.dygraph.nn``: Paddle 1.x's dygraph layers, computed by the 2.x functional API.

``FC`` and the name_scope forms of ``Conv2D``/``Pool2D`` are Paddle 1.4's (the seed's);
``Linear``, ``Embedding`` and the name-scope-less forms are Paddle 1.8's. A first positional
argument that is a string is a name_scope. Every layer applies ``act`` (an activation's
name) when it has one, and its output keeps its gradient (``Variable.gradient()``).
"""

from __future__ import annotations

import numpy as np

from ... import tensor as T
from ...nn import BatchNorm
from ...nn import functional as F
from ...nn.initializer import Normal
from ..layers import apply_act
from .layers import Layer, keep_gradient

__all__ = ["FC", "Conv2D", "Pool2D", "Linear", "BatchNorm", "Embedding"]


def _split_name_scope(args, kwargs):
    """(name_scope, the other positional arguments): a leading str is the name scope."""
    if args and isinstance(args[0], str):
        return args[0], args[1:]
    return kwargs.pop("name_scope", None), args


class FC(Layer):
    """Fully connected: ``act(reshape(input, [-1, K]) @ weight + bias)`` where K is the
    product of ``input``'s dimensions from ``num_flatten_dims`` on, found at the first call
    (the weight [K, size] is created then); the output has shape
    ``input.shape[:num_flatten_dims] + [size]``."""

    def __init__(self, name_scope, size, num_flatten_dims=1, param_attr=None, bias_attr=None,
                 act=None, is_test=False, dtype="float32"):
        super().__init__(name_scope, dtype)
        if int(size) <= 0 or int(num_flatten_dims) <= 0:
            raise ValueError(f"FC: size ({size}) and num_flatten_dims ({num_flatten_dims}) "
                             f"must be positive")
        self._size, self._num_flatten_dims = int(size), int(num_flatten_dims)
        self._param_attr, self._bias_attr = param_attr, bias_attr
        self._act, self._is_test = act, is_test
        self.weight = self.bias = None

    def _build_once(self, input):
        if input.ndim <= self._num_flatten_dims:
            raise ValueError(f"FC: input of shape {input.shape} needs more than "
                             f"num_flatten_dims ({self._num_flatten_dims}) dimensions")
        in_features = int(np.prod(input.shape[self._num_flatten_dims:]))
        self.weight = self.create_parameter([in_features, self._size], self._param_attr,
                                            self._dtype)
        self.bias = self.create_parameter([self._size], self._bias_attr, self._dtype,
                                          is_bias=True)

    def forward(self, input):
        lead = input.shape[:self._num_flatten_dims]
        x = T.reshape(input, [int(np.prod(lead)), self.weight.shape[0]])
        out = T.reshape(F.linear(x, self.weight, self.bias), lead + [self._size])
        return keep_gradient(apply_act(out, self._act, "FC"))


class Conv2D(Layer):
    """2-D convolution of x [N, C, H, W], then ``act``: ``Conv2D(num_channels, num_filters,
    filter_size, stride=1, padding=0, dilation=1, groups=None, param_attr=None,
    bias_attr=None, use_cudnn=True, act=None, dtype='float32')``, or the same after a
    name_scope. The filter [num_filters, num_channels / groups, kh, kw] starts as
    N(0, 2 / (kh * kw * num_channels)), the bias [num_filters] at 0; the seed reads them as
    ``_filter_param`` and ``_bias_param`` (also ``weight`` and ``bias``). In the name_scope
    form they are created at the first call (``build_once``, as Paddle 1.5 did), so a
    model made before static mode starts gets static parameters when a program calls it."""

    def __init__(self, *args, **kwargs):
        name_scope, args = _split_name_scope(args, kwargs)
        self._settings(*args, **kwargs)
        super().__init__(name_scope, self._dtype)
        self.weight = self.bias = None
        if name_scope is None:
            self._create_parameters()

    def _build_once(self, input):
        if self.weight is None:
            self._create_parameters()

    def _create_parameters(self):
        fh, fw = self._filter_size
        std = (2.0 / (fh * fw * self._num_channels)) ** 0.5
        self.weight = self.create_parameter(
            [self._num_filters, self._num_channels // self._groups, fh, fw], self._param_attr,
            self._dtype, default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter([self._num_filters], self._bias_attr, self._dtype,
                                          is_bias=True)

    def _settings(self, num_channels, num_filters, filter_size, stride=1, padding=0, dilation=1,
                  groups=None, param_attr=None, bias_attr=None, use_cudnn=True, act=None,
                  dtype="float32"):
        groups = 1 if groups is None else int(groups)
        if num_channels <= 0 or num_filters <= 0 or groups <= 0 or num_channels % groups:
            raise ValueError(f"Conv2D: num_channels ({num_channels}), num_filters "
                             f"({num_filters}) and groups ({groups}) must be positive, and "
                             f"num_channels divisible by groups")
        pair = (lambda v: [int(v)] * 2 if np.isscalar(v) else [int(d) for d in v])
        self._num_channels, self._num_filters, self._groups = num_channels, num_filters, groups
        self._filter_size, self._stride = pair(filter_size), pair(stride)
        self._padding, self._dilation = padding, pair(dilation)
        self._param_attr, self._bias_attr = param_attr, bias_attr
        self._use_cudnn, self._act, self._dtype = use_cudnn, act, dtype

    @property
    def _filter_param(self):
        return self.weight

    @property
    def _bias_param(self):
        return self.bias

    def forward(self, input):
        out = F.conv2d(input, self.weight, self.bias, self._stride, self._padding,
                       self._dilation, self._groups)
        return keep_gradient(apply_act(out, self._act, "Conv2D"))


class Pool2D(Layer):
    """Max or average pooling of x [N, C, H, W]: ``Pool2D(pool_size=-1, pool_type='max',
    pool_stride=1, pool_padding=0, global_pooling=False, use_cudnn=True, ceil_mode=False,
    exclusive=True, data_format='NCHW')``, or the same after a name_scope. Note 1.x's
    default stride of 1. ``global_pooling`` pools each whole channel to 1x1 (pool_size,
    stride and padding are then ignored); ``exclusive`` (average pooling) leaves padding
    out of the count."""

    def __init__(self, *args, **kwargs):
        name_scope, args = _split_name_scope(args, kwargs)
        super().__init__(name_scope)
        self._settings(*args, **kwargs)

    def _settings(self, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0,
                  global_pooling=False, use_cudnn=True, ceil_mode=False, exclusive=True,
                  data_format="NCHW"):
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"Pool2D: data_format must be 'NCHW' or 'NHWC', got "
                             f"{data_format!r}")
        if pool_type not in ("max", "avg"):
            raise ValueError(f"Pool2D: pool_type must be 'max' or 'avg', got {pool_type!r}")
        if not global_pooling and np.isscalar(pool_size) and pool_size <= 0:
            raise ValueError(f"Pool2D: pool_size must be positive when global_pooling is "
                             f"False, got {pool_size}")
        self._pool_size, self._pool_type = pool_size, pool_type
        self._pool_stride, self._pool_padding = pool_stride, pool_padding
        self._global_pooling, self._use_cudnn = global_pooling, use_cudnn
        self._ceil_mode, self._exclusive, self._data_format = ceil_mode, exclusive, data_format

    def forward(self, input):
        fmt = self._data_format
        if self._global_pooling:
            reduce = T.max if self._pool_type == "max" else T.mean
            out = reduce(input, axis=[2, 3] if fmt == "NCHW" else [1, 2], keepdim=True)
        elif self._pool_type == "max":
            out = F.max_pool2d(input, self._pool_size, self._pool_stride, self._pool_padding,
                               ceil_mode=self._ceil_mode, data_format=fmt)
        else:
            out = F.avg_pool2d(input, self._pool_size, self._pool_stride, self._pool_padding,
                               ceil_mode=self._ceil_mode, exclusive=self._exclusive,
                               data_format=fmt)
        return keep_gradient(out)


class Linear(Layer):
    """``act(input @ weight + bias)`` with weight [input_dim, output_dim] (Xavier by
    default) and bias [output_dim] (zeros; ``bias_attr=False`` removes it)."""

    def __init__(self, input_dim, output_dim, param_attr=None, bias_attr=None, act=None,
                 dtype="float32"):
        super().__init__(None, dtype)
        self._act = act
        self.weight = self.create_parameter([input_dim, output_dim], param_attr, dtype)
        self.bias = self.create_parameter([output_dim], bias_attr, dtype, is_bias=True)

    def forward(self, input):
        return keep_gradient(apply_act(F.linear(input, self.weight, self.bias), self._act,
                                       "Linear"))


class Embedding(Layer):
    """A lookup table ``weight`` of shape ``size`` = [vocabulary, dim]: int64 ids of any
    shape give that shape + [dim]. Ids equal to ``padding_idx`` (negative: counted from
    the end) look up zeros and give the row no gradient. ``is_sparse`` and
    ``is_distributed`` are accepted (the gradient is dense here, with the same values)."""

    def __init__(self, size, is_sparse=False, is_distributed=False, padding_idx=None,
                 param_attr=None, dtype="float32"):
        super().__init__(None, dtype)
        if len(size) != 2 or min(size) <= 0:
            raise ValueError(f"Embedding: size must be [vocabulary size, embedding dim] of "
                             f"positive ints, got {size}")
        if padding_idx is not None and not -size[0] <= padding_idx < size[0]:
            raise ValueError(f"Embedding: padding_idx must be in [-{size[0]}, {size[0]}), got "
                             f"{padding_idx}")
        self._size = list(size)
        self._is_sparse, self._is_distributed = is_sparse, is_distributed
        self._padding_idx = None if padding_idx is None else padding_idx % size[0]
        self.weight = self.create_parameter(self._size, param_attr, dtype)

    def forward(self, input):
        return keep_gradient(F.embedding(input, self.weight, padding_idx=self._padding_idx))
