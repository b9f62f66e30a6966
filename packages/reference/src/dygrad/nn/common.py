"""Common layers: Linear."""

from __future__ import annotations

from .._core.dtype import get_default_dtype
from . import functional as F
from .layer import Layer


class Linear(Layer):
    """y = x @ weight + bias with weight [in_features, out_features] (XavierUniform by
    default) and bias [out_features] (zeros by default; ``bias_attr=False`` removes it).

    ``weight_attr``/``bias_attr`` take a ParamAttr, an Initializer, a name or None.
    """

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        self._dtype = get_default_dtype()
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self.weight = self.create_parameter(shape=[in_features, out_features],
                                            attr=weight_attr, dtype=self._dtype, is_bias=False)
        self.bias = self.create_parameter(shape=[out_features], attr=bias_attr,
                                          dtype=self._dtype, is_bias=True)
        self.name = name

    def forward(self, input):
        return F.linear(input, self.weight, self.bias, name=self.name)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return (f"in_features={self.weight.shape[0]}, out_features={self.weight.shape[1]}, "
                f"dtype={self._dtype}{name}")

__all__ = ["Linear"]
