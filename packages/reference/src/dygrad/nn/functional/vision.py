"""paddle.nn.functional: interpolate, pixel_shuffle."""

__all__: list = []
