"""Pooling layers: max, average and adaptive pooling (no parameters; they call the
functions of :mod:`dygrad.nn.functional.pooling` with their settings)."""

from __future__ import annotations

from . import functional as F
from .layer import Layer


class _Pool(Layer):
    """Keeps the arguments; ``extra_repr`` shows those Paddle shows."""

    _shown = ("kernel_size", "stride", "padding")

    def __init__(self, **settings):
        super().__init__()
        self._settings = settings

    def forward(self, x):
        return self._fn(x, **self._settings)

    def extra_repr(self):
        return ", ".join(f"{k}={self._settings[k]}" for k in self._shown)


class MaxPool1D(_Pool):
    """The maximum of each window of x [N, C, L]; with return_mask also its index."""

    _fn = staticmethod(F.max_pool1d)

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 name=None):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding,
                         return_mask=return_mask, ceil_mode=ceil_mode)


class MaxPool2D(_Pool):
    """The maximum of each window of x [N, C, H, W] (or NHWC); with return_mask also its
    flat index into H * W."""

    _fn = staticmethod(F.max_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCHW", name=None):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding,
                         return_mask=return_mask, ceil_mode=ceil_mode, data_format=data_format)


class MaxPool3D(_Pool):
    """The maximum of each window of x [N, C, D, H, W] (or NDHWC); with return_mask also its
    flat index into D * H * W."""

    _fn = staticmethod(F.max_pool3d)

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCDHW", name=None):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding,
                         return_mask=return_mask, ceil_mode=ceil_mode, data_format=data_format)


class AvgPool1D(_Pool):
    """The mean of each window of x [N, C, L]."""

    _fn = staticmethod(F.avg_pool1d)

    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
                 name=None):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding,
                         exclusive=exclusive, ceil_mode=ceil_mode)


class AvgPool2D(_Pool):
    """The mean of each window of x [N, C, H, W] (or NHWC)."""

    _fn = staticmethod(F.avg_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCHW", name=None):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding,
                         ceil_mode=ceil_mode, exclusive=exclusive,
                         divisor_override=divisor_override, data_format=data_format)


class AvgPool3D(_Pool):
    """The mean of each window of x [N, C, D, H, W] (or NDHWC)."""

    _fn = staticmethod(F.avg_pool3d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCDHW", name=None):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding,
                         ceil_mode=ceil_mode, exclusive=exclusive,
                         divisor_override=divisor_override, data_format=data_format)


class AdaptiveAvgPool1D(_Pool):
    """The mean of x [N, C, L] over each of output_size adaptive bins."""

    _fn = staticmethod(F.adaptive_avg_pool1d)
    _shown = ("output_size",)

    def __init__(self, output_size, name=None):
        super().__init__(output_size=output_size)


class AdaptiveAvgPool2D(_Pool):
    """The mean of x [N, C, H, W] (or NHWC) over each of output_size adaptive bins."""

    _fn = staticmethod(F.adaptive_avg_pool2d)
    _shown = ("output_size",)

    def __init__(self, output_size, data_format="NCHW", name=None):
        super().__init__(output_size=output_size, data_format=data_format)


class AdaptiveAvgPool3D(_Pool):
    """The mean of x [N, C, D, H, W] (or NDHWC) over each of output_size adaptive bins."""

    _fn = staticmethod(F.adaptive_avg_pool3d)
    _shown = ("output_size",)

    def __init__(self, output_size, data_format="NCDHW", name=None):
        super().__init__(output_size=output_size, data_format=data_format)


class AdaptiveMaxPool1D(_Pool):
    """The maximum of x [N, C, L] over each adaptive bin (and its index with return_mask)."""

    _fn = staticmethod(F.adaptive_max_pool1d)
    _shown = ("output_size", "return_mask")

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(output_size=output_size, return_mask=return_mask)


class AdaptiveMaxPool2D(_Pool):
    """The maximum of x [N, C, H, W] over each adaptive bin (and its index with
    return_mask)."""

    _fn = staticmethod(F.adaptive_max_pool2d)
    _shown = ("output_size", "return_mask")

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(output_size=output_size, return_mask=return_mask)


class AdaptiveMaxPool3D(_Pool):
    """The maximum of x [N, C, D, H, W] over each adaptive bin (and its index with
    return_mask)."""

    _fn = staticmethod(F.adaptive_max_pool3d)
    _shown = ("output_size", "return_mask")

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__(output_size=output_size, return_mask=return_mask)


class _MaxUnPool(_Pool):
    """max_unpool's settings; Paddle shows only output_size."""

    _shown = ("output_size",)

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding,
                         data_format=data_format, output_size=output_size)

    def forward(self, x, indices):
        return self._fn(x, indices, **self._settings)


class MaxUnPool1D(_MaxUnPool):
    """max_pool1d undone: x [N, C, L] written at its indices (max_pool1d's mask)."""

    _fn = staticmethod(F.max_unpool1d)

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size)


class MaxUnPool2D(_MaxUnPool):
    """max_pool2d undone: x [N, C, H, W] written at its indices (max_pool2d's mask)."""

    _fn = staticmethod(F.max_unpool2d)


class MaxUnPool3D(_MaxUnPool):
    """max_pool3d undone: x [N, C, D, H, W] written at its indices (max_pool3d's mask)."""

    _fn = staticmethod(F.max_unpool3d)

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size)


__all__ = ["MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
           "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D",
           "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "MaxUnPool1D", "MaxUnPool2D", "MaxUnPool3D"]
