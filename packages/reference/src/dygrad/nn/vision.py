"""Vision layers: Upsample (and its nearest / bilinear 2-D forms), PixelShuffle,
PixelUnshuffle, ChannelShuffle, Unfold, Fold."""

from __future__ import annotations

from . import functional as F
from .functional.vision import check_data_format, check_positive_int
from .layer import Layer


class Upsample(Layer):
    """x resized to ``size`` or by ``scale_factor`` (see ``F.interpolate`` for the modes)."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False,
                 align_mode=0, data_format=None, name=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode = align_corners, align_mode
        self.data_format = data_format

    def forward(self, x):
        return F.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.align_mode, self.data_format)

    def _what(self):
        return (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                else f"size={self.size}")

    def extra_repr(self):
        return (f"{self._what()}, mode={self.mode}, align_corners={self.align_corners}, "
                f"align_mode={self.align_mode}, data_format={self.data_format}")


class _Upsampling2D(Upsample):
    def extra_repr(self):
        return f"{self._what()}, data_format={self.data_format}"


class UpsamplingNearest2D(_Upsampling2D):
    """Nearest-neighbour resize of 4-D x."""

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__(size, scale_factor, "nearest", data_format=data_format)


class UpsamplingBilinear2D(_Upsampling2D):
    """Bilinear resize of 4-D x with align_corners=True."""

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__(size, scale_factor, "bilinear", align_corners=True,
                         data_format=data_format)


class PixelShuffle(Layer):
    """[N, C * r * r, H, W] -> [N, C, H * r, W * r]."""

    def __init__(self, upscale_factor, data_format="NCHW", name=None):
        super().__init__()
        self._upscale_factor, self._data_format = upscale_factor, data_format

    def forward(self, x):
        return F.pixel_shuffle(x, self._upscale_factor, self._data_format)

    def extra_repr(self):
        fmt = f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        return f"upscale_factor={self._upscale_factor}{fmt}"


class Unfold(Layer):
    """im2col: the sliding blocks of x [N, C, H, W] as columns [N, C * kh * kw, L]."""

    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.kernel_sizes, self.dilations = kernel_sizes, dilations
        self.paddings, self.strides = paddings, strides

    def forward(self, x):
        return F.unfold(x, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
                f"padding={self.paddings}, stride={self.strides}")


class Fold(Layer):
    """col2im: the columns x [N, C * kh * kw, L] added into [N, C, *output_sizes]."""

    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1,
                 name=None):
        super().__init__()
        self.output_sizes, self.kernel_sizes = output_sizes, kernel_sizes
        self.dilations, self.paddings, self.strides = dilations, paddings, strides

    def forward(self, x):
        return F.fold(x, self.output_sizes, self.kernel_sizes, self.strides, self.paddings,
                      self.dilations)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
                f"padding={self.paddings}, stride={self.strides}")


class PixelUnshuffle(Layer):
    """[N, C, H * r, W * r] -> [N, C * r * r, H, W], as F.pixel_unshuffle."""

    def __init__(self, downscale_factor, data_format="NCHW", name=None):
        super().__init__()
        api = "PixelUnshuffle"
        self._downscale_factor = check_positive_int(downscale_factor, api, "downscale_factor")
        self._data_format = check_data_format(data_format, api)

    def forward(self, x):
        return F.pixel_unshuffle(x, self._downscale_factor, self._data_format)

    def extra_repr(self):
        fmt = f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        return f"downscale_factor={self._downscale_factor}{fmt}"


class ChannelShuffle(Layer):
    """The channels interleaved across ``groups`` groups, as F.channel_shuffle."""

    def __init__(self, groups, data_format="NCHW", name=None):
        super().__init__()
        api = "ChannelShuffle"
        self._groups = check_positive_int(groups, api, "groups")
        self._data_format = check_data_format(data_format, api)

    def forward(self, x):
        return F.channel_shuffle(x, self._groups, self._data_format)

    def extra_repr(self):
        fmt = f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        return f"groups={self._groups}{fmt}"


__all__ = ["Upsample", "UpsamplingNearest2D", "UpsamplingBilinear2D", "PixelShuffle", "Unfold", "Fold",
           "PixelUnshuffle", "ChannelShuffle"]
