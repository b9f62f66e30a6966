"""Elementwise math of the tensor API (paddle.tensor.math and paddle.tensor.ops).

Binary functions take Tensors, NumPy arrays or Python numbers and follow Paddle's dtype
rules (see :func:`dygrad._core.dispatch.as_operands`). Math functions of integer tensors
(exp, sqrt, divide, ...) give float32, as Paddle 3 does. The in-place variants (``add_``,
``exp_``, ...) write into their first argument and keep its dtype.
"""

from __future__ import annotations

import math

import numpy as np

from .._core import dispatch as _dispatch
from .._core.dispatch import as_operands, ops
from .._core.dtype import default_float
from .._core.optable import TABLE, broadcast_shapes, normalize_axes
from .._core.tensor import Tensor
from .reduce import axis_arg, cast_to, check_tensor, dtype_arg, single_axis_arg

__all__ = [
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "mod", "floor_mod",
    "pow", "maximum", "minimum", "clip", "scale", "neg", "abs", "sign", "square", "exp", "log",
    "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tan", "tanh", "sinh",
    "cosh", "asin", "acos", "atan", "sigmoid", "erf", "floor", "ceil", "round", "trunc", "isnan",
    "isinf", "isfinite", "subtract_", "multiply_", "tanh_", "atan2", "expm1", "lerp", "logit",
    "deg2rad", "rad2deg", "frac", "heaviside", "add_n", "nansum", "nanmean",
    "erfinv", "lgamma", "digamma", "polygamma", "frac_", "logit_", "expm1_", "lgamma_",
    "digamma_", "polygamma_", "cummax", "cummin", "logcumsumexp", "nan_to_num", "logaddexp",
    "copysign", "hypot", "sinc", "signbit", "sgn", "gcd", "lcm", "diff", "count_nonzero",
    "isin", "take", "renorm", "index_fill", "i0", "i0e", "i1", "i1e", "acosh", "asinh", "atanh",
    "fmax", "fmin", "stanh", "frexp", "ldexp", "nextafter",
    "increment",
]
# Paddle has these in-place variants as Tensor methods only (paddle.add_ does not exist)
_METHOD_ONLY = ["add_", "scale_", "clip_", "exp_", "sqrt_", "floor_", "ceil_", "reciprocal_",
                "round_", "lerp_", "erfinv_"]
METHODS = [*__all__, *_METHOD_ONLY]

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


# ---------------------------------------------------------------------------
# binary arithmetic
# ---------------------------------------------------------------------------

def _binary_function(op_name, doc):
    """A public ``f(x, y, name=None)`` running the table's binary op ``op_name``."""
    op = TABLE[op_name]

    def fn(x, y, name=None):
        return _dispatch.binary(op, x, y)
    fn.__name__ = fn.__qualname__ = op_name
    fn.__doc__ = doc
    return fn


add = _binary_function("add", "x + y, broadcasting.")
subtract = _binary_function("subtract", "x - y, broadcasting.")
multiply = _binary_function("multiply", "x * y, broadcasting.")
divide = _binary_function("divide", "x / y (true division), broadcasting; integers give float32.")
floor_divide = _binary_function(
    "floor_divide", "floor(x / y), broadcasting; integer division by zero raises ZeroDivisionError.")
remainder = _binary_function(
    "remainder", "x % y with the sign of y (as Python's %), broadcasting.")
mod = floor_mod = remainder
maximum = _binary_function("maximum", "The larger of x and y, broadcasting (NaN if either is).")
minimum = _binary_function("minimum", "The smaller of x and y, broadcasting (NaN if either is).")


def atan2(x, y, name=None):
    """The angle of the point (y, x) in [-pi, pi], elementwise: arctan(x / y) in the right
    quadrant. Broadcasting; integer tensors give float64, as Paddle."""
    check_tensor("atan2", x)
    check_tensor("atan2", y, "y")
    return _dispatch.binary(TABLE["atan2"], x, y)


def fmax(x, y, name=None):
    """The larger of x and y, ignoring a NaN (NaN only where both are); broadcasting. The
    gradient goes to x on ties, as Paddle."""
    check_tensor("fmax", x)
    check_tensor("fmax", y, "y")
    return _dispatch.binary(TABLE["fmax"], x, y)


def fmin(x, y, name=None):
    """The smaller of x and y, ignoring a NaN (NaN only where both are); broadcasting. The
    gradient goes to x on ties, as Paddle."""
    check_tensor("fmin", x)
    check_tensor("fmin", y, "y")
    return _dispatch.binary(TABLE["fmin"], x, y)


def nextafter(x, y, name=None):
    """The next float32/float64 number after x toward y, elementwise; broadcasting (no
    gradient)."""
    check_tensor("nextafter", x)
    check_tensor("nextafter", y, "y")
    return _dispatch.binary(TABLE["nextafter"], x, y)


def ldexp(x, y, name=None):
    """x * 2 ** y, broadcasting; float64 when either is float64, else the default float
    dtype (integers too), as Paddle."""
    check_tensor("ldexp", x)
    check_tensor("ldexp", y, "y")
    dtype = _F64 if _F64 in (x._data.dtype, y._data.dtype) else default_float().np
    x, y = cast_to(x, dtype), cast_to(y, dtype)
    return ops.multiply(x, ops.elementwise_pow(ops.full_like(y, fill_value=2), y))


def frexp(x, name=None):
    """(mantissa, exponent) with x = mantissa * 2 ** exponent, 0.5 <= |mantissa| < 1 (0 for
    0), the exponent in x's dtype; inf gives (inf, 1) and NaN (NaN, NaN), as Paddle. Only
    float32 and float64; the mantissa carries x's gradient."""
    check_tensor("frexp", x)
    if x._data.dtype not in (_F32, _F64):
        raise TypeError(f"frexp: x has dtype {x.dtype.name}, but frexp supports float32 and "
                        f"float64 tensors")
    a = ops.abs(x)
    zero, one = ops.full_like(a, fill_value=0), ops.full_like(a, fill_value=1)
    # log2 of 1 instead of 0 (exponent 0 either way) keeps the gradient at 0 finite
    exponent = ops.floor(ops.log2(ops.where(ops.equal(a, zero), one, a)))
    exponent = ops.where(ops.isinf(exponent), zero, exponent)
    mantissa = a / ops.elementwise_pow(ops.full_like(a, fill_value=2), exponent)
    # |x| / 2 ** floor(log2 |x|) lies in [1, 2) (below 1 only where log2 rounded up): halve it
    carry = ops.greater_equal(mantissa, one)
    exponent = ops.where(carry, exponent + one, exponent)
    mantissa = ops.where(carry, ops.scale(mantissa, scale=0.5), mantissa)
    return ops.where(ops.less_than(x, zero), -mantissa, mantissa), exponent


def heaviside(x, y, name=None):
    """The step function of x, elementwise: 0 where x < 0, y where x == 0, 1 where x > 0
    (broadcasting). As Paddle, NaN in x gives 0 and only y gets a gradient."""
    check_tensor("heaviside", x)
    check_tensor("heaviside", y, "y")
    return _dispatch.binary(TABLE["heaviside"], x, y)


def pow(x, y, name=None):
    """x ** y for a Tensor or scalar exponent y. An integer x keeps its dtype with an int
    exponent (>= 0); a float exponent makes it float32 first, as ``x ** 2.5`` does."""
    if isinstance(y, Tensor):
        return _dispatch.binary(TABLE["elementwise_pow"], x, y)
    check_tensor("pow", x)
    if x._data.dtype.kind == "b":
        raise TypeError("pow: x has dtype bool; cast it to an integer or floating-point dtype first")
    if isinstance(y, (bool, int, np.integer)):
        return ops.pow(x, factor=int(y))
    if isinstance(y, (float, np.floating)):
        if x._data.dtype.kind in "iu":
            x = ops.cast(x, dtype=_F32)
        return ops.pow(x, factor=float(y))
    raise TypeError(f"pow: y must be a float, an int or a Tensor, got {type(y).__name__}")


# ---------------------------------------------------------------------------
# clip and scale
# ---------------------------------------------------------------------------

def _number(api, value, arg):
    """A bound or factor as a Python number (a one-element Tensor gives its value)."""
    if value is None:
        return None
    if isinstance(value, Tensor):
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"{api}: {arg} must be a number or a one-element Tensor, got "
                        f"{type(value).__name__}")
    return value.item() if isinstance(value, np.number) else value


def _clip_bounds(api, x, min, max):
    lo, hi = _number(api, min, "min"), _number(api, max, "max")
    floats = any(isinstance(v, float) for v in (lo, hi))
    return lo, hi, floats and x._data.dtype.kind in "iu"


def clip(x, min=None, max=None, name=None):
    """x limited to [min, max] (a None bound leaves that side open). An integer x with a
    float bound gives float32, as Paddle."""
    check_tensor("clip", x)
    lo, hi, to_float = _clip_bounds("clip", x, min, max)
    if to_float:
        x = ops.cast(x, dtype=_F32)
    return ops.clip(x, min=lo, max=hi)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """x * scale + bias (or (x + bias) * scale), then the activation op ``act`` if given
    ('relu', 'tanh', 'sigmoid', ...). An integer x uses int(scale) and int(bias), as Paddle."""
    check_tensor("scale", x)
    out = ops.scale(x, scale=float(_number("scale", scale, "scale")),
                    bias=float(_number("scale", bias, "bias")), bias_after_scale=bool(bias_after_scale))
    if act is None:
        return out
    op = TABLE.get(act)
    if op is None or len(op.inputs) != 1:
        raise ValueError(f"scale: act must name an activation op such as 'relu', 'tanh' or "
                         f"'sigmoid', got {act!r}")
    return _dispatch.apply(op, out)


# ---------------------------------------------------------------------------
# unary functions
# ---------------------------------------------------------------------------

def _unary_function(op_name, doc):
    """A public ``f(x, name=None)`` running the table's unary op ``op_name``."""
    op = TABLE[op_name]

    def fn(x, name=None):
        check_tensor(op_name, x)
        return _dispatch.apply(op, x)
    fn.__name__ = fn.__qualname__ = op_name
    fn.__doc__ = doc
    return fn


neg = _unary_function("neg", "-x.")
abs = _unary_function("abs", "|x| (the gradient at 0 is 0).")
sign = _unary_function("sign", "-1, 0 or 1 by the sign of x (zero gradient).")
square = _unary_function("square", "x * x.")
exp = _unary_function("exp", "e ** x; integers give float32.")
log = _unary_function("log", "Natural logarithm; integers give float32.")
log2 = _unary_function("log2", "Base-2 logarithm; integers give float32.")
log10 = _unary_function("log10", "Base-10 logarithm; integers give float32.")
log1p = _unary_function("log1p", "log(1 + x), accurate for small x; integers give float32.")
sqrt = _unary_function("sqrt", "Square root; integers give float32.")
rsqrt = _unary_function("rsqrt", "1 / sqrt(x); integers give float32.")
reciprocal = _unary_function("reciprocal", "1 / x; integers give float32.")
sin = _unary_function("sin", "Sine; integers give float32.")
cos = _unary_function("cos", "Cosine; integers give float32.")
tan = _unary_function("tan", "Tangent; integers give float32.")
tanh = _unary_function("tanh", "Hyperbolic tangent; integers give float32.")
sinh = _unary_function("sinh", "Hyperbolic sine; integers give float32.")
cosh = _unary_function("cosh", "Hyperbolic cosine; integers give float32.")
asin = _unary_function("asin", "Inverse sine; integers give float32.")
acos = _unary_function("acos", "Inverse cosine; integers give float32.")
atan = _unary_function("atan", "Inverse tangent; integers give float32.")
acosh = _unary_function("acosh", "Inverse hyperbolic cosine (NaN below 1); integers give float32.")
asinh = _unary_function("asinh", "Inverse hyperbolic sine; integers give float32.")
atanh = _unary_function("atanh", "Inverse hyperbolic tangent (NaN outside [-1, 1]); integers "
                                 "give float32.")
sigmoid = _unary_function("sigmoid", "1 / (1 + exp(-x)); integers give float32.")
erf = _unary_function("erf", "The error function; integers give float32.")
erfinv = _unary_function("erfinv", "The inverse of erf: NaN outside [-1, 1], -inf and inf at "
                                   "-1 and 1; integers give float32.")
lgamma = _unary_function("lgamma", "log |Gamma(x)| (inf at 0 and the negative integers); "
                                   "integers give float32.")
digamma = _unary_function("digamma", "The derivative of lgamma (-inf at 0, NaN at the negative "
                                     "integers); integers give float32.")
expm1 = _unary_function("expm1", "exp(x) - 1, accurate for small x; integers give float32.")
floor = _unary_function("floor", "Largest integer <= x (zero gradient; integers unchanged).")
ceil = _unary_function("ceil", "Smallest integer >= x (zero gradient; integers unchanged).")
isnan = _unary_function("isnan", "Whether each element is NaN (bool).")
isinf = _unary_function("isinf", "Whether each element is +inf or -inf (bool).")
isfinite = _unary_function("isfinite", "Whether each element is neither infinite nor NaN (bool).")


def round(x, decimals=0, name=None):
    """x rounded to ``decimals`` places, halves to even (zero gradient). Integer tensors
    come back unchanged, as in Paddle."""
    check_tensor("round", x)
    return ops.round(x, decimals=int(decimals))


def trunc(input, name=None):
    """input rounded toward zero (zero gradient; integers unchanged)."""
    check_tensor("trunc", input, "input")
    return ops.trunc(input)


def logit(x, eps=None, name=None):
    """log(x / (1 - x)), with x first limited to [eps, 1 - eps] when eps is given (not None
    or 0). Paddle's gradient: 0 outside [eps, 1 - eps], NaN outside [0, 1] without eps.
    Integers give float32."""
    check_tensor("logit", x)
    return ops.logit(x, eps=0.0 if eps is None else float(_number("logit", eps, "eps")))


def _order(api, n):
    """polygamma's n: an int >= 0."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{api}: n must be an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"{api}: n must be >= 0, got {n}")
    return int(n)


def polygamma(x, n, name=None):
    """The n-th derivative of digamma (n = 0: digamma itself); integers give float32."""
    check_tensor("polygamma", x)
    return ops.polygamma(x, n=_order("polygamma", n))


def _check_numeric(api, x):
    """Raise a TypeError naming the API unless x is an integer or floating-point Tensor."""
    check_tensor(api, x)
    if x._data.dtype.kind not in "iuf":
        raise TypeError(f"{api}: x has dtype {x.dtype.name}, but {api} supports integer and "
                        f"floating-point tensors")
    return x


def _angle(api, x, factor):
    """x * factor in x's float dtype (integers as float32, as Paddle)."""
    _check_numeric(api, x)
    return ops.scale(x if x._data.dtype.kind == "f" else ops.cast(x, dtype=_F32), scale=factor)


def deg2rad(x, name=None):
    """Degrees to radians: x * pi / 180; integers give float32."""
    return _angle("deg2rad", x, math.pi / 180.0)


def rad2deg(x, name=None):
    """Radians to degrees: x * 180 / pi; integers give float32."""
    return _angle("rad2deg", x, 180.0 / math.pi)


def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    """The scaled tanh scale_b * tanh(scale_a * x); integers give float32."""
    return ops.scale(ops.tanh(_angle("stanh", x, scale_a)), scale=scale_b)


def frac(x, name=None):
    """The fractional part x - trunc(x), with the sign of x (gradient 1); integer tensors
    give zeros of their dtype, as Paddle."""
    _check_numeric("frac", x)
    return ops.subtract(x, ops.trunc(x))


# ---------------------------------------------------------------------------
# lerp
# ---------------------------------------------------------------------------

def _lerp_operands(api, x, y, weight):
    """x, y and weight (a number becomes a 0-D Tensor) as floating-point Tensors of one
    dtype whose shapes broadcast."""
    check_tensor(api, x)
    check_tensor(api, y, "y")
    if not isinstance(weight, Tensor):
        weight = Tensor._wrap(np.asarray(_number(api, weight, "weight"), dtype=x._data.dtype))
    dtypes = [t._data.dtype for t in (x, y, weight)]
    if dtypes[0].kind != "f" or len(set(dtypes)) > 1:
        raise TypeError(f"{api}: x, y and weight must be floating-point tensors of one dtype, "
                        f"got {', '.join(t.dtype.name for t in (x, y, weight))}")
    broadcast_shapes(x._data.shape, y._data.shape, weight._data.shape, op=api)
    return y, weight


def lerp(x, y, weight, name=None):
    """Linear interpolation x + weight * (y - x); weight is a number or a Tensor, and all
    three broadcast. Unlike Paddle, which leaves a Tensor weight without a gradient, weight
    gets its gradient y - x."""
    y, weight = _lerp_operands("lerp", x, y, weight)
    return ops.add(x, ops.multiply(weight, ops.subtract(y, x)))


def lerp_(x, y, weight, name=None):
    """x = x + weight * (y - x) in place (y and weight broadcast to x's shape)."""
    y, weight = _lerp_operands("lerp_", x, y, weight)
    return _dispatch.apply_inplace(TABLE["add"], x, ops.multiply(weight, ops.subtract(y, x)))


# ---------------------------------------------------------------------------
# add_n, nansum, nanmean
# ---------------------------------------------------------------------------

def add_n(inputs, name=None):
    """The elementwise sum of a list (or tuple) of Tensors of one shape and dtype (no
    broadcasting, as Paddle); a single Tensor comes back as a copy."""
    tensors = [inputs] if isinstance(inputs, Tensor) else inputs
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"add_n: inputs must be a Tensor or a non-empty list of Tensors, got "
                        f"{inputs!r}")
    for i, t in enumerate(tensors):
        check_tensor("add_n", t, f"inputs[{i}]")
        if t._data.dtype.kind == "b":
            raise TypeError(f"add_n: inputs[{i}] has dtype bool, but add_n supports integer and "
                            f"floating-point tensors")
        if t.shape != tensors[0].shape or t._data.dtype != tensors[0]._data.dtype:
            raise ValueError(f"add_n: the inputs must have one shape and dtype, but inputs[0] is "
                             f"{tensors[0].shape} {tensors[0].dtype.name} and inputs[{i}] is "
                             f"{t.shape} {t.dtype.name}")
    out = ops.assign(tensors[0]) if len(tensors) == 1 else tensors[0]
    for t in tensors[1:]:
        out = ops.add(out, t)
    return out


def _nan_reduce_args(api, x, axis):
    """The axis attribute, after checking x and that axis is in range."""
    _check_numeric(api, x)
    axis = axis_arg(api, axis)
    normalize_axes(axis, x.ndim, op=api)
    return axis


def _zero_nans(x):
    """x with its NaNs replaced by zeros (the gradient there is 0)."""
    if x._data.dtype.kind != "f":
        return x
    return ops.where(ops.isnan(x), ops.full_like(x, fill_value=0), x)


def nansum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over axis (all when None) counting NaNs as zeros; integers sum to int64 unless
    dtype is given, as paddle.sum."""
    axis = _nan_reduce_args("nansum", x, axis)
    return ops.sum(_zero_nans(x), axis=axis, dtype=dtype_arg(dtype), keepdim=bool(keepdim))


def nanmean(x, axis=None, keepdim=False, name=None):
    """Mean over axis (all when None) of the elements that are not NaN (NaN where there are
    none); integers give float32, as Paddle."""
    axis = _nan_reduce_args("nanmean", x, axis)
    if x._data.dtype.kind != "f":
        x = ops.cast(x, dtype=_F32)
    count = ops.sum(ops.logical_not(ops.isnan(x)), axis=axis, dtype=x._data.dtype,
                    keepdim=bool(keepdim))
    return ops.divide(ops.sum(_zero_nans(x), axis=axis, keepdim=bool(keepdim)), count)


# ---------------------------------------------------------------------------
# in-place variants: the result is written into x (which keeps its dtype and shape)
# ---------------------------------------------------------------------------

def _operand_like(api, x, y):
    """y as a Tensor of x's dtype, for an in-place op on x."""
    check_tensor(api, x)
    promoted, y = as_operands(api, x, y)
    if promoted._data.dtype != x._data.dtype:
        raise TypeError(f"{api}: the result would have dtype {promoted.dtype.name}, which cannot "
                        f"be written into x of dtype {x.dtype.name}")
    return y


def _float_inplace(api, x):
    check_tensor(api, x)
    if x._data.dtype.kind != "f":
        raise TypeError(f"{api}: x has dtype {x.dtype.name}, but its result is floating-point and "
                        f"cannot be written into x; use the out-of-place function")
    return x


def add_(x, y, name=None):
    """x += y in place (y broadcasts to x's shape)."""
    return _dispatch.apply_inplace(TABLE["add"], x, _operand_like("add_", x, y))


def subtract_(x, y, name=None):
    """x -= y in place (y broadcasts to x's shape)."""
    return _dispatch.apply_inplace(TABLE["subtract"], x, _operand_like("subtract_", x, y))


def multiply_(x, y, name=None):
    """x *= y in place (y broadcasts to x's shape)."""
    return _dispatch.apply_inplace(TABLE["multiply"], x, _operand_like("multiply_", x, y))


def scale_(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """x = x * scale + bias (or (x + bias) * scale) in place; as in Paddle, act is ignored."""
    check_tensor("scale_", x)
    return _dispatch.apply_inplace(TABLE["scale"], x, scale=float(_number("scale_", scale, "scale")),
                         bias=float(_number("scale_", bias, "bias")),
                         bias_after_scale=bool(bias_after_scale))


def clip_(x, min=None, max=None, name=None):
    """x limited to [min, max] in place (an integer x needs integer bounds)."""
    check_tensor("clip_", x)
    lo, hi, to_float = _clip_bounds("clip_", x, min, max)
    if to_float:
        raise TypeError(f"clip_: x has dtype {x.dtype.name}, so its bounds must be integers, got "
                        f"min={lo} and max={hi}")
    return _dispatch.apply_inplace(TABLE["clip"], x, min=lo, max=hi)


def exp_(x, name=None):
    """x = exp(x) in place (x must be floating-point)."""
    return _dispatch.apply_inplace(TABLE["exp"], _float_inplace("exp_", x))


def sqrt_(x, name=None):
    """x = sqrt(x) in place (x must be floating-point)."""
    return _dispatch.apply_inplace(TABLE["sqrt"], _float_inplace("sqrt_", x))


def tanh_(x, name=None):
    """x = tanh(x) in place (x must be floating-point)."""
    return _dispatch.apply_inplace(TABLE["tanh"], _float_inplace("tanh_", x))


def reciprocal_(x, name=None):
    """x = 1 / x in place (x must be floating-point)."""
    return _dispatch.apply_inplace(TABLE["reciprocal"], _float_inplace("reciprocal_", x))


def increment(x, value=1.0, name=None):
    """x += value in place for a one-element x (an integer x adds int(value)); returns x."""
    check_tensor("increment", x)
    if x.size != 1:
        raise ValueError(f"increment: x must have exactly one element, got shape {x.shape}")
    return _dispatch.apply_inplace(TABLE["scale"], x, bias=float(_number("increment", value, "value")))


def _float_inplace_function(op_name):
    """A public ``f_(x, name=None)`` writing the table's unary op ``op_name`` into x."""
    op, api = TABLE[op_name], f"{op_name}_"

    def fn(x, name=None):
        return _dispatch.apply_inplace(op, _float_inplace(api, x))
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = f"x = {op_name}(x) in place (x must be floating-point)."
    return fn


expm1_ = _float_inplace_function("expm1")
erfinv_ = _float_inplace_function("erfinv")
lgamma_ = _float_inplace_function("lgamma")
digamma_ = _float_inplace_function("digamma")


def logit_(x, eps=None, name=None):
    """x = logit(x, eps) in place (x must be floating-point)."""
    _float_inplace("logit_", x)
    return _dispatch.apply_inplace(TABLE["logit"], x,
                                   eps=0.0 if eps is None else float(_number("logit_", eps, "eps")))


def polygamma_(x, n, name=None):
    """x = polygamma(x, n) in place (x must be floating-point)."""
    _float_inplace("polygamma_", x)
    return _dispatch.apply_inplace(TABLE["polygamma"], x, n=_order("polygamma_", n))


def frac_(x, name=None):
    """x = x - trunc(x) in place."""
    _check_numeric("frac_", x)
    return _dispatch.apply_inplace(TABLE["subtract"], x, ops.trunc(x))


def floor_(x, name=None):
    """x = floor(x) in place."""
    check_tensor("floor_", x)
    return _dispatch.apply_inplace(TABLE["floor"], x)


def ceil_(x, name=None):
    """x = ceil(x) in place."""
    check_tensor("ceil_", x)
    return _dispatch.apply_inplace(TABLE["ceil"], x)


def round_(x, decimals=0, name=None):
    """x rounded to ``decimals`` places in place, halves to even."""
    check_tensor("round_", x)
    return _dispatch.apply_inplace(TABLE["round"], x, decimals=int(decimals))


# ---------------------------------------------------------------------------
# running extremes and log-sum-exp
# ---------------------------------------------------------------------------

def cummax(x, axis=None, dtype="int64", name=None):
    """Running maximum along axis (of flattened x when None) and the indices (``dtype``)
    it was taken from; ties take the later index."""
    check_tensor("cummax", x)
    return ops.cummax(x, axis=single_axis_arg("cummax", axis), dtype=dtype_arg(dtype))


def cummin(x, axis=None, dtype="int64", name=None):
    """Running minimum along axis (of flattened x when None) and the indices (``dtype``)
    it was taken from; ties take the later index."""
    check_tensor("cummin", x)
    return ops.cummin(x, axis=single_axis_arg("cummin", axis), dtype=dtype_arg(dtype))


def logcumsumexp(x, axis=None, dtype=None, name=None):
    """Running log(sum(exp(x))) along axis (of flattened x when None), without overflow.
    x is cast to dtype first when given; integer x is computed in float32."""
    check_tensor("logcumsumexp", x)
    d = dtype_arg(dtype)
    if d is None and x._data.dtype.kind in "biu":
        d = _F32
    return ops.logcumsumexp(x if d is None else cast_to(x, d),
                            axis=single_axis_arg("logcumsumexp", axis))


# ---------------------------------------------------------------------------
# more elementwise functions (compositions of the table's ops, but signbit, gcd, lcm)
# ---------------------------------------------------------------------------

def _float_tensor(api, x):
    check_tensor(api, x)
    if x._data.dtype.kind != "f":
        raise TypeError(f"{api}: x must be a floating-point tensor (float16, float32, "
                        f"float64), got {x.dtype}")
    return x


def _floats(api, x, y):
    """x and y as operands of one dtype; integers become float32."""
    x, y = as_operands(api, x, y)
    if x._data.dtype.kind != "f":
        x, y = ops.cast(x, dtype=_F32), ops.cast(y, dtype=_F32)
    return x, y


def nan_to_num(x, nan=0.0, posinf=None, neginf=None, name=None):
    """x with NaN replaced by ``nan``, +inf by ``posinf`` and -inf by ``neginf`` (by
    default the largest and the lowest finite value of x's dtype); gradient 1 where x is
    finite, 0 elsewhere."""
    _float_tensor("nan_to_num", x)
    info = np.finfo(x._data.dtype)
    big = ops.full_like(x, fill_value=info.max if posinf is None else posinf)
    low = ops.full_like(x, fill_value=info.min if neginf is None else neginf)
    out = ops.where(ops.isinf(x), ops.where(x > 0, big, low), x)
    return ops.where(ops.isnan(x), ops.full_like(x, fill_value=nan), out)


def logaddexp(x, y, name=None):
    """log(exp(x) + exp(y)) without overflow, as max(x, y) + log1p(exp(-|x - y|))
    (broadcasting; integers give float32)."""
    x, y = _floats("logaddexp", x, y)
    same, zero = x == y, ops.full(shape=(), fill_value=0, dtype=x._data.dtype)
    d = ops.where(same, zero, x) - ops.where(same, zero, y)  # no inf - inf
    return ops.maximum(x, y) + ops.log1p(ops.exp(-ops.abs(d)))


def copysign(x, y, name=None):
    """|x| with the sign (bit) of y, elementwise (broadcasting; y may be a number). x gets
    the gradient sign(x) * (-1 where y's sign bit is set, else 1); y gets none."""
    check_tensor("copysign", x)
    x, y = as_operands("copysign", x, y)
    size = ops.abs(x)
    return ops.where(ops.signbit(y), -size, size)


def hypot(x, y, name=None):
    """sqrt(x * x + y * y), elementwise (broadcasting; integers give float32)."""
    x, y = _floats("hypot", x, y)
    return ops.sqrt(x * x + y * y)


def sinc(x, name=None):
    """sin(pi x) / (pi x), and 1 at x = 0."""
    _float_tensor("sinc", x)
    zero = x == 0
    one = ops.full_like(x, fill_value=1)
    pix = ops.where(zero, one, ops.scale(x, scale=math.pi))
    return ops.where(zero, one, ops.sin(pix) / pix)


def sgn(x, name=None):
    """The sign of x: -1, 0 or 1 (real tensors)."""
    check_tensor("sgn", x)
    return ops.sign(x)


i0 = _unary_function("i0", "The modified Bessel function of the first kind of order 0; "
                           "integers give float32.")
i0e = _unary_function("i0e", "I0(x) * exp(-|x|), without overflow; integers give float32.")
i1 = _unary_function("i1", "The modified Bessel function of the first kind of order 1; "
                           "integers give float32.")
i1e = _unary_function("i1e", "I1(x) * exp(-|x|), without overflow; integers give float32.")
signbit = _unary_function("signbit", "Whether the sign bit of x is set: x < 0, -0.0 and -NaN "
                                     "included (bool).")


def gcd(x, y, name=None):
    """The greatest common divisor of |x| and |y|, elementwise (integers, broadcasting)."""
    check_tensor("gcd", x)
    check_tensor("gcd", y, "y")
    return _dispatch.binary(TABLE["gcd"], x, y)


def lcm(x, y, name=None):
    """The least common multiple of |x| and |y|, elementwise (integers, broadcasting)."""
    check_tensor("lcm", x)
    check_tensor("lcm", y, "y")
    return _dispatch.binary(TABLE["lcm"], x, y)


# ---------------------------------------------------------------------------
# differences, counts, membership, indexing and renormalisation (compositions)
# ---------------------------------------------------------------------------

def _axis(api, ndim, axis):
    """One axis of a tensor of rank ndim, made non-negative (IndexError when out of range)."""
    axis = single_axis_arg(api, axis)
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise IndexError(f"{api}: axis {axis} is out of range for a tensor of rank {ndim}")
    return axis % max(ndim, 1)


def diff(x, n=1, axis=-1, prepend=None, append=None, name=None):
    """The n-th forward difference along axis (x[i + 1] - x[i], n times; for bool x, xor),
    after putting ``prepend`` before x and ``append`` after it along that axis."""
    check_tensor("diff", x)
    if x.ndim == 0:
        raise ValueError("diff: x must be at least 1-D, got a 0-D tensor")
    if n < 1:
        raise ValueError(f"diff: n must be >= 1, got {n}")
    axis = _axis("diff", x.ndim, axis)
    parts = [t for t in (prepend, x, append) if t is not None]
    if len(parts) > 1:
        x = ops.concat([as_operands("diff", t, x)[0] for t in parts], axis=axis)
    for _ in range(n):
        size = x._data.shape[axis]
        later = ops.slice(x, axes=(axis,), starts=(min(1, size),), ends=(size,))
        earlier = ops.slice(x, axes=(axis,), starts=(0,), ends=(max(size - 1, 0),))
        x = ops.logical_xor(later, earlier) if x._data.dtype.kind == "b" else later - earlier
    return x


def count_nonzero(x, axis=None, keepdim=False, name=None):
    """How many elements over axis (all axes when None) are nonzero (int64)."""
    check_tensor("count_nonzero", x)
    return ops.sum(x != 0, axis=axis_arg("count_nonzero", axis), dtype=np.dtype(np.int64),
                   keepdim=bool(keepdim))


def isin(x, test_x, assume_unique=False, invert=False, name=None):
    """Whether each element of x occurs in test_x (bool, x's shape; not, with invert), by
    a binary search in sorted test_x. ``assume_unique`` only allows a faster method in
    Paddle; the result is the same."""
    check_tensor("isin", x)
    check_tensor("isin", test_x, "test_x")
    if x._data.dtype != test_x._data.dtype:
        raise TypeError(f"isin: x and test_x must have the same dtype, got {x.dtype} and "
                        f"{test_x.dtype}")
    pool = ops.sort(ops.reshape(test_x, shape=(-1,)), axis=0)
    if pool._data.size == 0:
        found = ops.full_like(x, fill_value=False, dtype=np.dtype(np.bool_))
    else:
        at = ops.searchsorted(pool, ops.reshape(x, shape=(-1,)), out_int32=False, right=False)
        at = ops.clip(at, min=0, max=pool._data.size - 1)
        found = ops.reshape(ops.gather(pool, at, axis=0) == ops.reshape(x, shape=(-1,)),
                            shape=tuple(x._data.shape))
    return ops.logical_not(found) if invert else found


def take(x, index, mode="raise", name=None):
    """The elements of flattened x at ``index`` (int32/int64), in index's shape. mode:
    'raise' (index in [-n, n), negatives from the end), 'wrap' (index modulo n), 'clip'
    (index clipped to [0, n - 1])."""
    check_tensor("take", x)
    check_tensor("take", index, "index")
    if index._data.dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"take: the data type of index must be int32 or int64, got "
                        f"{index.dtype}")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    n = x._data.size
    flat = ops.reshape(x, shape=(-1,))
    i = ops.reshape(index, shape=(-1,))
    if mode == "raise":
        values = index.numpy()
        if values.size and (values.min() < -n or values.max() >= n):
            raise ValueError(f"take: index must be in [-{n}, {n}) for x with {n} elements, "
                             f"got values in [{values.min()}, {values.max()}]")
        i = ops.remainder(i, ops.full_like(i, fill_value=max(n, 1)))
    elif mode == "wrap":
        i = ops.remainder(i, ops.full_like(i, fill_value=max(n, 1)))
    else:
        i = ops.clip(i, min=0, max=max(n - 1, 0))
    return ops.reshape(ops.gather(flat, i, axis=0), shape=tuple(index._data.shape))


def renorm(x, p, axis, max_norm):
    """x with each slice along ``axis`` whose p-norm exceeds ``max_norm`` scaled to norm
    max_norm (by max_norm / (norm + 1e-7)); differentiable through the norm."""
    _float_tensor("renorm", x)
    axis = _axis("renorm", x.ndim, axis)
    others = tuple(a for a in range(x.ndim) if a != axis)
    norm = ops.abs(x)  # the norm of one element
    if others:
        norm = ops.pow(ops.sum(ops.pow(norm, factor=float(p)), axis=others, keepdim=True),
                       factor=1.0 / float(p))
    over = norm > max_norm
    scale = ops.where(over, ops.full_like(norm, fill_value=max_norm) /
                      ops.scale(norm, bias=1e-7), ops.full_like(norm, fill_value=1))
    return x * scale


def index_fill(x, index, axis, value, name=None):
    """x with the slices at ``index`` (1-D int) along ``axis`` set to ``value`` (cast to
    x's dtype); x gets the gradient elsewhere."""
    check_tensor("index_fill", x)
    check_tensor("index_fill", index, "index")
    if index._data.dtype.kind not in "iu":
        raise TypeError(f"index_fill: index must be an int32 or int64 tensor, got {index.dtype}")
    axis = _axis("index_fill", x.ndim, axis)
    size = x._data.shape[axis] if x.ndim else 1
    positions = ops.arange(start=0, end=size, step=1, dtype=index._data.dtype)
    hit = ops.reshape(positions, shape=(size, 1)) == ops.reshape(
        ops.remainder(index, ops.full_like(index, fill_value=size)), shape=(1, -1))
    mask = ops.reshape(ops.any(hit, axis=1),
                       shape=tuple(size if a == axis else 1 for a in range(x.ndim)))
    if isinstance(value, Tensor):
        value = value.item()
    fill = ops.full(shape=(), fill_value=np.asarray(value).astype(x._data.dtype),
                    dtype=x._data.dtype)
    return ops.where(mask, fill, x)
