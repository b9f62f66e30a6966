"""Convolution layers: Conv1D, Conv2D, Conv3D, Conv1DTranspose, Conv2DTranspose,
Conv3DTranspose.

Parameters follow Paddle's layouts, names and defaults, so a Paddle state_dict loads:
weight [out_channels, in_channels / groups, *kernel_size] (transposed: [in_channels,
out_channels / groups, *kernel_size]), bias [out_channels]. The weight's default
initializer is Normal(0, sqrt(2 / (in_channels * prod(kernel_size)))) (transposed:
XavierUniform), the bias's zeros.
"""

from __future__ import annotations

import numpy as np

from .._core.dtype import get_default_dtype
from ..tensor.manipulation import pad
from . import functional as F
from .functional.conv import as_tuple
from .initializer import Normal
from .layer import Layer

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")
_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


class _ConvNd(Layer):
    """What every convolution layer shares: arguments, parameters, repr."""

    _nd = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCHW", output_padding=0):
        super().__init__()
        api, nd = type(self).__name__, self._nd
        if weight_attr is False:
            raise ValueError(f"{api}: weight_attr cannot be False (a convolution needs its "
                             f"weight)")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"{api}: padding_mode must be one of {_PADDING_MODES}, got "
                             f"{padding_mode!r}")
        if padding_mode != "zeros" and not isinstance(padding, int):
            raise TypeError(f"{api}: with padding_mode {padding_mode!r}, padding must be an "
                            f"int, got {padding!r}")
        if data_format not in _FORMATS[nd]:
            raise ValueError(f"{api}: data_format must be one of {_FORMATS[nd]}, got "
                             f"{data_format!r}")
        if in_channels <= 0 or out_channels <= 0 or groups <= 0:
            raise ValueError(f"{api}: in_channels ({in_channels}), out_channels "
                             f"({out_channels}) and groups ({groups}) must be positive")
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"{api}: in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must be divisible by groups ({groups})")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = list(as_tuple(kernel_size, nd, api, "kernel_size"))
        self._stride = list(as_tuple(stride, nd, api, "stride"))
        self._dilation = list(as_tuple(dilation, nd, api, "dilation"))
        self._padding, self._padding_mode = padding, padding_mode
        self._groups, self._data_format = groups, data_format
        self.output_padding = output_padding
        self._dtype = get_default_dtype()
        if self._transposed:
            shape = [in_channels, out_channels // groups, *self._kernel_size]
            init = None
        else:
            shape = [out_channels, in_channels // groups, *self._kernel_size]
            std = (2.0 / (in_channels * int(np.prod(self._kernel_size)))) ** 0.5
            init = Normal(0.0, std)
        self.weight = self.create_parameter(shape=shape, attr=weight_attr, dtype=self._dtype,
                                            default_initializer=init)
        self.bias = self.create_parameter(shape=[out_channels], attr=bias_attr, dtype=self._dtype,
                                          is_bias=True)

    def _padded(self, x):
        """x padded as padding_mode says (the convolution then pads nothing)."""
        if self._padding_mode == "zeros":
            return x, self._padding
        return pad(x, [self._padding] * (2 * self._nd), mode=self._padding_mode,
                     data_format=self._data_format), 0

    def extra_repr(self):
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self._nd:
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            s += f", output_padding={self.output_padding}"
        if self._dilation != [1] * self._nd:
            s += f", dilation={self._dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s + f", data_format={self._data_format}"


class Conv1D(_ConvNd):
    """1-D convolution over x [N, C, L] (or NLC)."""

    _nd = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format)

    def forward(self, x):
        x, padding = self._padded(x)
        return F.conv1d(x, self.weight, self.bias, self._stride, padding, self._dilation,
                        self._groups, self._data_format)


class Conv2D(_ConvNd):
    """2-D convolution over x [N, C, H, W] (or NHWC)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format)

    def forward(self, x):
        x, padding = self._padded(x)
        return F.conv2d(x, self.weight, self.bias, self._stride, padding, self._dilation,
                        self._groups, self._data_format)


class Conv3D(_ConvNd):
    """3-D convolution over x [N, C, D, H, W] (or NDHWC)."""

    _nd = 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCDHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, padding_mode, weight_attr, bias_attr, data_format)

    def forward(self, x):
        x, padding = self._padded(x)
        return F.conv3d(x, self.weight, self.bias, self._stride, padding, self._dilation,
                        self._groups, self._data_format)


class Conv1DTranspose(_ConvNd):
    """1-D transposed convolution over x [N, C, L] (or NLC); forward takes output_size."""

    _nd = 1
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, dilation=1, weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, "zeros", weight_attr, bias_attr, data_format, output_padding)

    def forward(self, x, output_size=None):
        return F.conv1d_transpose(x, self.weight, self.bias, self._stride, self._padding,
                                  self.output_padding, self._groups, self._dilation,
                                  output_size, self._data_format)


class Conv2DTranspose(_ConvNd):
    """2-D transposed convolution over x [N, C, H, W] (or NHWC); forward takes
    output_size."""

    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, "zeros", weight_attr, bias_attr, data_format, output_padding)

    def forward(self, x, output_size=None):
        return F.conv2d_transpose(x, self.weight, self.bias, self._stride, self._padding,
                                  self.output_padding, self._dilation, self._groups,
                                  output_size, self._data_format)


class Conv3DTranspose(_ConvNd):
    """3-D transposed convolution over x [N, C, D, H, W] (or NDHWC); forward takes
    output_size."""

    _nd = 3
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCDHW"):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, "zeros", weight_attr, bias_attr, data_format, output_padding)

    def forward(self, x, output_size=None):
        return F.conv3d_transpose(x, self.weight, self.bias, self._stride, self._padding,
                                  self.output_padding, self._groups, self._dilation,
                                  output_size, self._data_format)


__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
           "Conv3DTranspose"]
