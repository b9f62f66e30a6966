"""``fluid.layers``: the Paddle 1.x functions, in dygraph mode, as thin adapters over the 2.x
tensor and functional API (every computation is an op of the table).

1.x behaviours kept: ``elementwise_*`` take ``axis`` (``y``'s dimensions line up with
``x``'s from ``axis`` on), an optional ``act`` (an activation's name) runs on the result,
``reduce_*`` take ``dim``/``keep_dim``, ``cross_entropy`` takes probabilities, and every
result keeps its gradient after backward (``Variable.gradient()``). One 2.x behaviour is
kept instead: a reduction over every element (``mean``, ``reduce_sum(x)``, ``accuracy``)
gives a 0-D tensor, not 1.x's shape [1], as Paddle >= 2.5 does (``'{:.3}'.format(
loss.numpy())`` then works on NumPy's 0-D array).
"""

from __future__ import annotations

import functools

from .. import metric, static
from .. import tensor as T
from .._core.tensor import Tensor
from ..nn import functional as F
from ..static.nn import cond, while_loop
from .dygraph.layers import keep_gradient

__all__ = ["relu", "elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div",
           "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "mean", "sums",
           "cross_entropy", "softmax_with_cross_entropy", "softmax", "concat", "reshape",
           "transpose", "matmul", "accuracy", "fill_constant", "data", "fc", "conv2d", "pool2d",
           "cond", "while_loop"]


def static_by_default():
    """Static mode, when dygraph mode was not asked for: 1.x programs that build with
    ``fluid.data``/``fluid.layers.data`` ran in static mode, Paddle 1.x's default."""
    if static.in_dynamic_mode():
        static.enable_static()


def data(name, shape, append_batch_size=True, dtype="float32", lod_level=0, type=None,
         stop_gradient=True):
    """1.x's input of a static program: ``shape`` gets a leading -1 (the batch) unless
    ``append_batch_size=False`` or it already has an unknown (-1 or None) dimension.
    Called in dygraph mode, it turns static mode on (1.x's default mode)."""
    static_by_default()
    shape = [shape] if isinstance(shape, int) else list(shape)
    if append_batch_size and all(d is not None and d != -1 for d in shape):
        shape = [-1] + shape
    return static.data(name, shape, dtype, lod_level)


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCHW"):
    """1.x's functional conv2d: a fluid ``Conv2D`` layer made for ``input``'s channels (its
    filter and bias become parameters of the program, initialised by the startup program in
    static mode), applied to ``input``, then ``act``."""
    from .dygraph.nn import Conv2D
    _check_variable(input, "fluid.layers.conv2d", "input")
    if data_format != "NCHW":
        raise ValueError(f"fluid.layers.conv2d: data_format must be 'NCHW', got {data_format!r}")
    layer = Conv2D(num_channels=input.shape[1], num_filters=num_filters,
                   filter_size=filter_size, stride=stride, padding=padding, dilation=dilation,
                   groups=groups, param_attr=param_attr, bias_attr=bias_attr,
                   use_cudnn=use_cudnn, act=act, dtype=input.dtype)
    return layer(input)


def fc(input, size, num_flatten_dims=1, param_attr=None, bias_attr=None, act=None,
       is_test=False, name=None):
    """1.x's functional fully connected layer: ``act(sum_i flatten(input_i) @ W_i + b)``,
    each input (a Variable or a list of them) flattened to 2-D at ``num_flatten_dims``,
    with its own weight (``param_attr``: one, or a list with one per input) and one bias;
    the parameters are new ones of the program (of the startup program in static mode)."""
    from .dygraph.nn import FC
    inputs = list(input) if isinstance(input, (list, tuple)) else [input]
    if not inputs:
        raise ValueError("fluid.layers.fc: input must be a Variable or a non-empty list of them")
    attrs = list(param_attr) if isinstance(param_attr, (list, tuple)) else [param_attr] * len(
        inputs)
    if len(attrs) != len(inputs):
        raise ValueError(f"fluid.layers.fc: param_attr holds {len(attrs)} attributes for "
                         f"{len(inputs)} inputs")
    outs = []
    for i, (x, attr) in enumerate(zip(inputs, attrs)):
        _check_variable(x, "fluid.layers.fc", "input")
        layer = FC(name or "fc", size, num_flatten_dims, attr, bias_attr if i == 0 else False,
                   dtype=x.dtype)
        outs.append(layer(x))
    return keep_gradient(apply_act(functools.reduce(T.add, outs), act, "fluid.layers.fc"))


def pool2d(input, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0,
           global_pooling=False, use_cudnn=True, ceil_mode=False, name=None, exclusive=True,
           data_format="NCHW"):
    """1.x's functional pooling: max or average windows of ``pool_size`` moved by
    ``pool_stride`` (1.x's default 1), or a whole channel with ``global_pooling`` (see
    ``fluid.dygraph.Pool2D``)."""
    from .dygraph.nn import Pool2D
    _check_variable(input, "fluid.layers.pool2d", "input")
    return Pool2D(pool_size=pool_size, pool_type=pool_type, pool_stride=pool_stride,
                  pool_padding=pool_padding, global_pooling=global_pooling,
                  use_cudnn=use_cudnn, ceil_mode=ceil_mode, exclusive=exclusive,
                  data_format=data_format)(input)


def _check_variable(x, api, arg):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: {arg} must be a Variable (Tensor), got {type(x).__name__}")


def apply_act(x, act, api):
    """``x`` through the activation named ``act`` ('relu', 'softmax', ... of
    ``paddle.nn.functional``), or ``x`` when ``act`` is None."""
    if act is None:
        return x
    fn = getattr(F, act, None) if isinstance(act, str) else None
    if not callable(fn):
        raise ValueError(f"{api}: act must name an activation of paddle.nn.functional (e.g. "
                         f"'relu', 'softmax'), got {act!r}")
    return fn(x)


def relu(x, name=None):
    """max(x, 0)."""
    _check_variable(x, "relu", "x")
    return keep_gradient(F.relu(x))


def _align(x, y, axis, api):
    """``y`` reshaped so that its dimensions sit at ``x``'s ``axis``.. (1.x broadcasting):
    x [2, 3, 4] with y [3] and axis=1 gives y [3, 1]. axis=-1 aligns the trailing ones."""
    _check_variable(x, api, "x")
    _check_variable(y, api, "y")
    if axis == -1 or y.ndim >= x.ndim:
        return y
    if not 0 <= axis <= x.ndim - y.ndim:
        raise ValueError(f"{api}: axis must be -1 or in [0, {x.ndim - y.ndim}] for x of shape "
                         f"{x.shape} and y of shape {y.shape}, got {axis}")
    span = x.shape[axis:axis + y.ndim]
    if any(b not in (a, 1) for a, b in zip(span, y.shape)):
        raise ValueError(f"{api}: y of shape {y.shape} does not match x of shape {x.shape} "
                         f"from axis {axis} (dimensions {span})")
    return T.reshape(y, y.shape + [1] * (x.ndim - axis - y.ndim))


def _elementwise(op, api):
    def fn(x, y, axis=-1, act=None, name=None):
        return keep_gradient(apply_act(op(x, _align(x, y, axis, api)), act, api))
    fn.__name__ = api
    symbol = {"add": "+", "sub": "-", "mul": "*", "div": "/"}[api.split("_")[1]]
    fn.__doc__ = (f"``x {symbol} y``, ``y`` broadcast from ``axis`` of ``x`` (-1: its "
                  f"trailing dimensions), then ``act``.")
    return fn


elementwise_add = _elementwise(T.add, "elementwise_add")
elementwise_sub = _elementwise(T.subtract, "elementwise_sub")
elementwise_mul = _elementwise(T.multiply, "elementwise_mul")
elementwise_div = _elementwise(T.divide, "elementwise_div")


def _reduce(op, api):
    def fn(input, dim=None, keep_dim=False, name=None):
        _check_variable(input, api, "input")
        return keep_gradient(op(input, axis=dim, keepdim=keep_dim))
    fn.__name__ = api
    fn.__doc__ = (f"{api.split('_')[1].capitalize()} over ``dim`` (an int, a list, or None: "
                  f"every element), keeping those dimensions as 1 with ``keep_dim``.")
    return fn


reduce_sum = _reduce(T.sum, "reduce_sum")
reduce_mean = _reduce(T.mean, "reduce_mean")
reduce_max = _reduce(T.max, "reduce_max")
reduce_min = _reduce(T.min, "reduce_min")


def mean(x, name=None):
    """The mean of every element (a 0-D tensor)."""
    _check_variable(x, "mean", "x")
    return keep_gradient(T.mean(x))


def sums(input):
    """The elementwise sum of a list of Variables of one shape and dtype."""
    if isinstance(input, Tensor):
        input = [input]
    if not isinstance(input, (list, tuple)) or not input:
        raise TypeError(f"sums: input must be a non-empty list of Variables, got {input!r}")
    for i, x in enumerate(input):
        _check_variable(x, "sums", f"input[{i}]")
        if x.shape != input[0].shape:
            raise ValueError(f"sums: every input must have shape {input[0].shape} (that of "
                             f"input[0]), got {x.shape} for input[{i}]")
    return keep_gradient(functools.reduce(T.add, input))


def cross_entropy(input, label, soft_label=False, ignore_index=-100):
    """-log(input[label]) per sample: ``input`` holds probabilities (e.g. a softmax output)
    [N, C], ``label`` class indices [N, 1] (or a distribution [N, C] with ``soft_label``);
    the result has shape [N, 1]."""
    _check_variable(input, "cross_entropy", "input")
    _check_variable(label, "cross_entropy", "label")
    return keep_gradient(F.cross_entropy(input, label, soft_label=soft_label,
                                         ignore_index=ignore_index, reduction="none",
                                         use_softmax=False))


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    """Cross-entropy of softmax(logits), keeping a dimension of 1 on ``axis`` (and the
    softmax with ``return_softmax``)."""
    return keep_gradient(F.softmax_with_cross_entropy(
        logits, label, soft_label, ignore_index, numeric_stable_mode, return_softmax, axis))


def softmax(input, use_cudnn=False, name=None, axis=-1):
    """Softmax over ``axis`` (``use_cudnn`` is accepted and changes nothing)."""
    _check_variable(input, "softmax", "input")
    return keep_gradient(F.softmax(input, axis=axis))


def concat(input, axis=0, name=None):
    """The Variables of ``input`` joined along ``axis``."""
    return keep_gradient(T.concat(input, axis=axis))


def reshape(x, shape, actual_shape=None, act=None, inplace=False, name=None):
    """``x`` with a new shape (0 copies x's dimension, -1 is inferred); ``actual_shape`` (a
    Variable), when given, is the shape instead. ``inplace`` is accepted (the result never
    shares storage with ``x`` here: the values are the same). Then ``act``."""
    _check_variable(x, "reshape", "x")
    if actual_shape is not None:
        shape = [int(d) for d in actual_shape.numpy().reshape(-1)]
    return keep_gradient(apply_act(T.reshape(x, shape), act, "reshape"))


def transpose(x, perm, name=None):
    """``x`` with its dimensions permuted by ``perm``."""
    return keep_gradient(T.transpose(x, perm))


def matmul(x, y, transpose_x=False, transpose_y=False, alpha=1.0, name=None):
    """``alpha * (x @ y)``, transposing the last two dimensions of x or y first when asked."""
    out = T.matmul(x, y, transpose_x=transpose_x, transpose_y=transpose_y)
    return keep_gradient(out if alpha == 1.0 else T.scale(out, scale=float(alpha)))


def accuracy(input, label, k=1, correct=None, total=None):
    """The fraction of rows of ``input`` [N, C] whose ``label`` [N, 1] is among the ``k``
    largest scores."""
    return metric.accuracy(input, label, k=k, correct=correct, total=total)


def fill_constant(shape, dtype, value, force_cpu=False):
    """A Variable of ``shape`` and ``dtype`` filled with ``value`` (``force_cpu`` is accepted:
    the tensor is on the current device)."""
    return T.full(shape, value, dtype=dtype)
