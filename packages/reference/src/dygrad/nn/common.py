"""Common layers: Linear, Bilinear, Embedding, the dropouts, Flatten, Unflatten, Identity,
the Pad and ZeroPad layers, CosineSimilarity."""

from __future__ import annotations

from .. import tensor as T
from .._core.autograd import no_grad
from .._core.dtype import get_default_dtype
from .._core.tensor import Tensor
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


class Bilinear(Layer):
    """out[b, o] = x1[b] @ weight[o] @ x2[b] + bias[0, o] with weight [out_features,
    in1_features, in2_features] (XavierUniform by default) and bias [1, out_features]
    (zeros by default; ``bias_attr=False`` removes it)."""

    def __init__(self, in1_features, in2_features, out_features, weight_attr=None,
                 bias_attr=None, name=None):
        super().__init__()
        self._dtype = get_default_dtype()
        self._in1_features, self._in2_features = in1_features, in2_features
        self._out_features = out_features
        self._name = name
        self.weight = self.create_parameter(shape=[out_features, in1_features, in2_features],
                                            attr=weight_attr, dtype=self._dtype, is_bias=False)
        self.bias = self.create_parameter(shape=[1, out_features], attr=bias_attr,
                                          dtype=self._dtype, is_bias=True)

    def forward(self, x1, x2):
        return F.bilinear(x1, x2, self.weight, self.bias, self._name)

    def extra_repr(self):
        name = f", name={self._name}" if self._name else ""
        return (f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
                f"out_features={self._out_features}, dtype={self._dtype}{name}")


class Embedding(Layer):
    """A lookup table: ``weight`` [num_embeddings, embedding_dim] (XavierUniform by
    default) and, for int ids x, the output x.shape + [embedding_dim].

    With ``padding_idx`` (negative values count from the end) that row of the weight starts
    at zero, its lookups give zeros and it gets no gradient. ``sparse`` is accepted and
    changes nothing here: the gradient is computed densely (the same values).
    ``max_norm``/``norm_type`` (keyword-only, from Paddle 3): see F.embedding."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, sparse=False,
                 weight_attr=None, name=None, *, max_norm=None, norm_type=2.0):
        super().__init__()
        for value, what in ((num_embeddings, "num_embeddings"), (embedding_dim, "embedding_dim")):
            if value <= 0:
                raise ValueError(f"Embedding: {what} must be greater than 0, got {value}")
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"Embedding: padding_idx must be within [-{num_embeddings}, "
                             f"{num_embeddings}), got {padding_idx}")
        self._num_embeddings, self._embedding_dim = num_embeddings, embedding_dim
        self._padding_idx = padding_idx
        self._sparse = sparse
        self._max_norm, self._norm_type = max_norm, norm_type
        self._weight_attr = weight_attr
        self._name = name
        self._dtype = get_default_dtype()
        self._size = [num_embeddings, embedding_dim]
        self.weight = self.create_parameter(shape=self._size, attr=weight_attr,
                                            dtype=self._dtype, is_bias=False)
        if padding_idx is not None:
            with no_grad():
                self.weight[padding_idx % num_embeddings] = 0.0

    def forward(self, x):
        return F.embedding(x, self.weight, padding_idx=self._padding_idx, sparse=self._sparse,
                           name=self._name, max_norm=self._max_norm, norm_type=self._norm_type)

    def extra_repr(self):
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        s += f", sparse={self._sparse}"
        return s + (f", name={self._name}" if self._name else "")


# ---------------------------------------------------------------------------
# dropout: training/inference behaviour follows Layer.training (train() / eval())
# ---------------------------------------------------------------------------

class Dropout(Layer):
    """F.dropout with this layer's training flag: when training, elements are zeroed with
    probability ``p`` (with ``axis``, one draw shared along the other axes)."""

    def __init__(self, p=0.5, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        self.p, self.axis, self.mode, self.name = p, axis, mode, name

    def forward(self, input):
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training,
                         mode=self.mode, name=self.name)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{name}"


class _ChannelDropout(Layer):
    _fn = None

    def __init__(self, p, data_format, name):
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input):
        return self._fn(input, p=self.p, training=self.training, data_format=self.data_format,
                        name=self.name)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return f"p={self.p}, data_format={self.data_format}{name}"


class Dropout2D(_ChannelDropout):
    """F.dropout2d: whole channels of a 4-D input are zeroed with probability ``p``."""

    _fn = staticmethod(F.dropout2d)

    def __init__(self, p=0.5, data_format="NCHW", name=None):
        super().__init__(p, data_format, name)


class Dropout3D(_ChannelDropout):
    """F.dropout3d: whole channels of a 5-D input are zeroed with probability ``p``."""

    _fn = staticmethod(F.dropout3d)

    def __init__(self, p=0.5, data_format="NCDHW", name=None):
        super().__init__(p, data_format, name)


class AlphaDropout(Layer):
    """F.alpha_dropout (for SELU networks) with this layer's training flag."""

    def __init__(self, p=0.5, name=None):
        super().__init__()
        self.p, self.name = p, name

    def forward(self, input):
        return F.alpha_dropout(input, p=self.p, training=self.training, name=self.name)

    def extra_repr(self):
        return f"p={self.p}" + (f", name={self.name}" if self.name else "")


# ---------------------------------------------------------------------------
# shapes
# ---------------------------------------------------------------------------

class Flatten(Layer):
    """paddle.flatten(x, start_axis, stop_axis): axes start_axis..stop_axis become one."""

    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input):
        return T.flatten(input, start_axis=self.start_axis, stop_axis=self.stop_axis)


class Unflatten(Layer):
    """Axis ``axis`` of the input split into ``shape`` (a list, tuple or 1-D Tensor of
    ints; one entry may be -1), the other axes unchanged."""

    def __init__(self, axis, shape, name=None):
        super().__init__()
        self.axis, self.shape, self.name = axis, shape, name

    def forward(self, input):
        shape = self.shape.tolist() if isinstance(self.shape, Tensor) else list(self.shape)
        ndim = input.ndim
        if not -ndim <= self.axis < ndim:
            raise ValueError(f"Unflatten: axis {self.axis} is out of range for a tensor of "
                             f"rank {ndim}")
        axis = self.axis % ndim
        return T.reshape(input, input.shape[:axis] + shape + input.shape[axis + 1:])

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return f"axis={self.axis}, shape={self.shape}{name}"


class Identity(Layer):
    """Returns its input; takes (and ignores) any arguments."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


# ---------------------------------------------------------------------------
# padding
# ---------------------------------------------------------------------------

class _Pad(Layer):
    """F.pad with fixed padding: an int pads every side of each spatial axis alike."""

    _spatial = 0

    def __init__(self, padding, mode, value, data_format, name):
        super().__init__()
        if isinstance(padding, int):
            padding = [padding] * (2 * self._spatial)
        elif isinstance(padding, Tensor):
            padding = padding.tolist()
        self._pad, self._mode, self._value = list(padding), mode, value
        self._data_format, self._name = data_format, name

    def forward(self, x):
        return F.pad(x, self._pad, mode=self._mode, value=self._value,
                     data_format=self._data_format, name=self._name)

    def extra_repr(self):
        name = f", name={self._name}" if self._name else ""
        return (f"padding={self._pad}, mode={self._mode}, value={self._value}, "
                f"data_format={self._data_format}{name}")


class Pad1D(_Pad):
    """Pads the last axis of a 3-D input: padding [left, right] (or an int for both)."""

    _spatial = 1

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCL", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad2D(_Pad):
    """Pads the two spatial axes of a 4-D input: padding [left, right, top, bottom]."""

    _spatial = 2

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad3D(_Pad):
    """Pads the three spatial axes of a 5-D input: padding [left, right, top, bottom,
    front, back]."""

    _spatial = 3

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCDHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


class ZeroPad1D(Pad1D):
    """Pad1D with zeros."""

    def __init__(self, padding, data_format="NCL", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)


class ZeroPad2D(Pad2D):
    """Pad2D with zeros."""

    def __init__(self, padding, data_format="NCHW", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)


class ZeroPad3D(Pad3D):
    """Pad3D with zeros."""

    def __init__(self, padding, data_format="NCDHW", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)


class CosineSimilarity(Layer):
    """F.cosine_similarity(x1, x2, axis, eps)."""

    def __init__(self, axis=1, eps=1e-8):
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)

    def extra_repr(self):
        return f"axis={self._axis}, eps={self._eps}"


__all__ = ["Linear", "Bilinear", "Embedding", "Dropout", "Dropout2D", "Dropout3D",
           "AlphaDropout", "Flatten", "Unflatten", "Identity", "Pad1D", "Pad2D", "Pad3D",
           "ZeroPad1D", "ZeroPad2D", "ZeroPad3D", "CosineSimilarity"]
