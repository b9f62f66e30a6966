"""``fluid.param_attr.ParamAttr``: the 2.x :class:`dygrad.ParamAttr` (same arguments)."""

from ..nn.param_attr import ParamAttr

__all__ = ["ParamAttr"]
