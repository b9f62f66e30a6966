"""Elementwise ops: arithmetic, math functions, comparisons, logic and bitwise ops.

Binary ops broadcast; their gradient rules undo the broadcasting with ``sum_to``.
Math functions (exp, sin, divide, ...) of integer inputs give float32, as Paddle 3's
integer autocast does. Rounding-like ops (sign, floor, ceil, round, trunc) have zero
gradients, as in Paddle, so that backward passes through them.
"""

from __future__ import annotations

import math

import numpy as np

from ..autograd import sum_to
from ..dispatch import ops
from ..optable import Meta, OpDef, broadcast_shapes, register

_BOOL = np.dtype(np.bool_)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_KINDS = {"b": "bool", "i": "integer", "u": "unsigned integer", "f": "floating-point",
          "c": "complex"}


# ---------------------------------------------------------------------------
# infer_meta helpers
# ---------------------------------------------------------------------------

def _check_kinds(op, kinds, **metas):
    """TypeError naming the op and the argument unless every input's dtype kind is in ``kinds``."""
    for arg, m in metas.items():
        if m.dtype.kind not in kinds:
            allowed = ", ".join(dict.fromkeys(_KINDS[k] for k in kinds))
            raise TypeError(f"{op}: {arg} has dtype {m.dtype.name}, but {op} supports "
                            f"{allowed} tensors")


def _same(d):
    return d


def _floating(d):
    return d if d.kind in "fc" else _F32


def _boolean(d):
    return _BOOL


def _floating64(d):
    """Integers give float64 (atan2's rule in Paddle)."""
    return d if d.kind in "fc" else _F64


def _binary_meta(op, kinds, out=_same):
    """infer_meta of a broadcasting binary op with inputs of dtype ``kinds``; the output
    dtype is ``out`` of the inputs' common dtype."""
    def meta(x, y, **attrs):
        _check_kinds(op, kinds, x=x, y=y)
        return Meta(broadcast_shapes(x.shape, y.shape, op=op), out(np.result_type(x.dtype, y.dtype)))
    return meta


def _unary_meta(op, kinds, out=_same):
    """infer_meta of a unary op with an input of dtype ``kinds``."""
    def meta(x, **attrs):
        _check_kinds(op, kinds, x=x)
        return Meta(tuple(x.shape), out(x.dtype))
    return meta


# ---------------------------------------------------------------------------
# gradient helpers. Rules write scalar arithmetic as ops.scale(t, scale=a, bias=b), that
# is a * t + b: one op of the table, cheaper than a Python number in a binary op.
# ---------------------------------------------------------------------------

def _grads(ctx, gx, gy):
    """The gradients of a broadcasting binary op, summed back to the inputs' shapes
    (None for an input that needs none)."""
    return (sum_to(gx, ctx.shape("x")) if ctx.needs("x") else None,
            sum_to(gy, ctx.shape("y")) if ctx.needs("y") else None)


def _zero_grad(ctx, g):
    """A step function: zero gradient (Paddle gives 0 at the jumps too)."""
    return (ops.full_like(g, fill_value=0),)


def _mask(t, g):
    """A bool tensor as 0/1 in the gradient's dtype."""
    return ops.cast(t, dtype=g._data.dtype)


# ---------------------------------------------------------------------------
# arithmetic
# ---------------------------------------------------------------------------

def _add_grad(ctx, g):
    """d(x + y) = dx + dy"""
    return _grads(ctx, g, g)


register(OpDef("add", ("x", "y"), _binary_meta("add", "biufc"), "x + y (broadcasting)",
               grad=_add_grad))


def _subtract_grad(ctx, g):
    """d(x - y) = dx - dy"""
    return _grads(ctx, g, ops.neg(g) if ctx.needs("y") else None)


register(OpDef("subtract", ("x", "y"), _binary_meta("subtract", "iufc"), "x - y (broadcasting)",
               grad=_subtract_grad))


def _multiply_grad(ctx, g):
    """d(x * y) = y dx + x dy"""
    return _grads(ctx, ops.multiply(g, ctx["y"]) if ctx.needs("x") else None,
                  ops.multiply(g, ctx["x"]) if ctx.needs("y") else None)


register(OpDef("multiply", ("x", "y"), _binary_meta("multiply", "biufc"), "x * y (broadcasting)",
               grad=_multiply_grad, saves=("x", "y")))


def _divide_grad(ctx, g):
    """With out = x / y: dx = g / y, dy = -g * out / y."""
    y = ctx["y"]
    return _grads(ctx, g / y if ctx.needs("x") else None,
                  -(g * ctx["out"]) / y if ctx.needs("y") else None)


register(OpDef("divide", ("x", "y"), _binary_meta("divide", "biuf", _floating),
               "x / y, true division (broadcasting); integers give float32",
               grad=_divide_grad, saves=("y", "out")))

register(OpDef("floor_divide", ("x", "y"), _binary_meta("floor_divide", "iuf"),
               "floor(x / y) (broadcasting); integer division by zero is an error"))


def _remainder_grad(ctx, g):
    """x % y = x - floor(x / y) * y, so dx = g and dy = -floor(x / y) * g."""
    return _grads(ctx, g if ctx.needs("x") else None,
                  -(g * ops.floor_divide(ctx["x"], ctx["y"])) if ctx.needs("y") else None)


register(OpDef("remainder", ("x", "y"), _binary_meta("remainder", "iuf"),
               "x - floor(x / y) * y, with the sign of y as Python's % (broadcasting)",
               grad=_remainder_grad, saves=("x", "y")))


def _pow_meta(x, factor=1.0):
    _check_kinds("pow", "iuf", x=x)
    if x.dtype.kind in "iu" and not (float(factor).is_integer() and factor >= 0):
        raise ValueError(f"pow: an integer x needs a whole exponent >= 0, got {factor}; cast x "
                         f"to a floating-point dtype first")
    return Meta(tuple(x.shape), x.dtype)


def _pow_grad(ctx, g):
    """d(x ** a) = a * x ** (a - 1) dx (zero for a = 0, also at x = 0)."""
    a = ctx.attrs["factor"]
    if a == 0:
        return (ops.full_like(g, fill_value=0),)
    return (g * ops.scale(ops.pow(ctx["x"], factor=a - 1), scale=float(a)),)


register(OpDef("pow", ("x",), _pow_meta, "x ** factor for a scalar factor (dtype of x)",
               attrs={"factor": 1.0}, grad=_pow_grad, saves=("x",)))


def _elementwise_pow_grad(ctx, g):
    """With out = x ** y: dx = y * x ** (y - 1) g and dy = out * log(x) g (taken as 0 where
    x = 0, as Paddle)."""
    x, y = ctx["x"], ctx["y"]
    gx = gy = None
    if ctx.needs("x"):
        gx = g * y * x ** ops.scale(y, bias=-1.0)
    if ctx.needs("y"):
        zero = ops.equal(x, ops.full_like(x, fill_value=0))
        gy = g * ctx["out"] * ops.log(ops.where(zero, ops.full_like(x, fill_value=1), x))
    return _grads(ctx, gx, gy)


register(OpDef("elementwise_pow", ("x", "y"), _binary_meta("elementwise_pow", "iuf"),
               "x ** y (broadcasting)", grad=_elementwise_pow_grad, saves=("x", "y", "out")))


def _extremum_grad(pick):
    def rule(ctx, g):
        """g goes to the input that is picked; on ties each input gets half, as Paddle."""
        x, y = ctx["x"], ctx["y"]
        picked, tied = _mask(getattr(ops, pick)(x, y), g), _mask(ops.equal(x, y), g)
        gx = g * (picked + ops.scale(tied, scale=0.5))
        return _grads(ctx, gx, g - gx)
    return rule


register(OpDef("maximum", ("x", "y"), _binary_meta("maximum", "biuf"),
               "the larger of x and y (broadcasting; NaN if either is NaN)",
               grad=_extremum_grad("greater_than"), saves=("x", "y")))
register(OpDef("minimum", ("x", "y"), _binary_meta("minimum", "biuf"),
               "the smaller of x and y (broadcasting; NaN if either is NaN)",
               grad=_extremum_grad("less_than"), saves=("x", "y")))


def _nan_ignoring_grad(pick):
    def rule(ctx, g):
        """g goes to x where it is picked or y is NaN (ties too), else to y, as Paddle."""
        x, y = ctx["x"], ctx["y"]
        gx = g * _mask(ops.logical_or(getattr(ops, pick)(x, y), ops.isnan(y)), g)
        return _grads(ctx, gx, g - gx)
    return rule


register(OpDef("fmax", ("x", "y"), _binary_meta("fmax", "iuf"),
               "the larger of x and y, ignoring a NaN (NaN only where both are; broadcasting)",
               grad=_nan_ignoring_grad("greater_equal"), saves=("x", "y")))
register(OpDef("fmin", ("x", "y"), _binary_meta("fmin", "iuf"),
               "the smaller of x and y, ignoring a NaN (NaN only where both are; broadcasting)",
               grad=_nan_ignoring_grad("less_equal"), saves=("x", "y")))


def _clip_meta(x, min=None, max=None):
    _check_kinds("clip", "iuf", x=x)
    if min is not None and max is not None and min > max:
        raise ValueError(f"clip: max should be greater than or equal to min, got min={min} "
                         f"and max={max}")
    if x.dtype.kind in "iu" and any(v is not None and not float(v).is_integer() for v in (min, max)):
        raise TypeError(f"clip: an integer x ({x.dtype.name}) needs whole-number bounds, got "
                        f"min={min} and max={max}; cast x to a floating-point dtype first")
    return Meta(tuple(x.shape), x.dtype)


def _clip_grad(ctx, g):
    """g passes where min <= x <= max (bounds included, as Paddle), else 0."""
    x, lo, hi = ctx["x"], ctx.attrs["min"], ctx.attrs["max"]
    keep = ops.full_like(x, fill_value=True, dtype=_BOOL)
    if lo is not None:
        keep = ops.logical_and(keep, ops.greater_equal(x, ops.full_like(x, fill_value=lo)))
    if hi is not None:
        keep = ops.logical_and(keep, ops.less_equal(x, ops.full_like(x, fill_value=hi)))
    return (g * _mask(keep, g),)


register(OpDef("clip", ("x",), _clip_meta, "x limited to [min, max] (None: unbounded side)",
               attrs={"min": None, "max": None}, grad=_clip_grad, saves=("x",)))


def _scale_grad(ctx, g):
    """d(x * scale + bias) = scale dx (bias first or after)."""
    return (ops.scale(g, scale=ctx.attrs["scale"]),)


register(OpDef("scale", ("x",), _unary_meta("scale", "iuf"),
               "x * scale + bias, or (x + bias) * scale when not bias_after_scale; an integer x "
               "uses int(scale) and int(bias), as Paddle",
               attrs={"scale": 1.0, "bias": 0.0, "bias_after_scale": True},
               grad=_scale_grad))


# ---------------------------------------------------------------------------
# unary functions
# ---------------------------------------------------------------------------

def _unary(name, doc, rule=None, saves=(), kinds="biuf", out=_floating):
    """Register a unary elementwise op (a math function by default: ints give float32)."""
    register(OpDef(name, ("x",), _unary_meta(name, kinds, out), doc, grad=rule, saves=saves))


def _neg_grad(ctx, g):
    """d(-x) = -dx"""
    return (ops.neg(g),)


def _abs_grad(ctx, g):
    """d|x| = sign(x) dx (0 at x = 0)"""
    return (g * ops.sign(ctx["x"]),)


def _square_grad(ctx, g):
    """d(x * x) = 2 x dx"""
    return (g * ops.scale(ctx["x"], scale=2.0),)


_unary("neg", "-x", _neg_grad, kinds="iufc", out=_same)
_unary("abs", "|x|", _abs_grad, ("x",), out=_same)
_unary("sign", "-1, 0 or 1 by the sign of x (zero gradient)", _zero_grad, kinds="iuf", out=_same)
_unary("square", "x * x", _square_grad, ("x",), kinds="iuf", out=_same)


def _exp_grad(ctx, g):
    """d exp(x) = exp(x) dx"""
    return (g * ctx["out"],)


def _log_grad(ctx, g):
    """d log(x) = dx / x"""
    return (g / ctx["x"],)


def _log2_grad(ctx, g):
    """d log2(x) = dx / (x log 2)"""
    return (g / ops.scale(ctx["x"], scale=math.log(2.0)),)


def _log10_grad(ctx, g):
    """d log10(x) = dx / (x log 10)"""
    return (g / ops.scale(ctx["x"], scale=math.log(10.0)),)


def _log1p_grad(ctx, g):
    """d log(1 + x) = dx / (1 + x)"""
    return (g / ops.scale(ctx["x"], bias=1.0),)


def _sqrt_grad(ctx, g):
    """d sqrt(x) = dx / (2 sqrt(x))"""
    return (g / ops.scale(ctx["out"], scale=2.0),)


def _rsqrt_grad(ctx, g):
    """d x**(-1/2) = -x**(-3/2) / 2 dx = -out**3 / 2 dx"""
    out = ctx["out"]
    return (g * ops.scale(out * out * out, scale=-0.5),)


def _reciprocal_grad(ctx, g):
    """d(1 / x) = -dx / x**2 = -out**2 dx"""
    out = ctx["out"]
    return (-(g * out * out),)


def _sin_grad(ctx, g):
    """d sin(x) = cos(x) dx"""
    return (g * ops.cos(ctx["x"]),)


def _cos_grad(ctx, g):
    """d cos(x) = -sin(x) dx"""
    return (-(g * ops.sin(ctx["x"])),)


def _tan_grad(ctx, g):
    """d tan(x) = (1 + tan(x)**2) dx"""
    out = ctx["out"]
    return (g * ops.scale(out * out, bias=1.0),)


def _tanh_grad(ctx, g):
    """d tanh(x) = (1 - tanh(x)**2) dx"""
    out = ctx["out"]
    return (g * ops.scale(out * out, scale=-1.0, bias=1.0),)


def _sinh_grad(ctx, g):
    """d sinh(x) = cosh(x) dx"""
    return (g * ops.cosh(ctx["x"]),)


def _cosh_grad(ctx, g):
    """d cosh(x) = sinh(x) dx"""
    return (g * ops.sinh(ctx["x"]),)


def _asin_grad(ctx, g):
    """d asin(x) = dx / sqrt(1 - x**2)"""
    x = ctx["x"]
    return (g * ops.rsqrt(ops.scale(x * x, scale=-1.0, bias=1.0)),)


def _acos_grad(ctx, g):
    """d acos(x) = -dx / sqrt(1 - x**2)"""
    x = ctx["x"]
    return (-(g * ops.rsqrt(ops.scale(x * x, scale=-1.0, bias=1.0))),)


def _atan_grad(ctx, g):
    """d atan(x) = dx / (1 + x**2)"""
    x = ctx["x"]
    return (g / ops.scale(x * x, bias=1.0),)


def _acosh_grad(ctx, g):
    """d acosh(x) = dx / sqrt(x**2 - 1)"""
    x = ctx["x"]
    return (g * ops.rsqrt(ops.scale(x * x, bias=-1.0)),)


def _asinh_grad(ctx, g):
    """d asinh(x) = dx / sqrt(x**2 + 1)"""
    x = ctx["x"]
    return (g * ops.rsqrt(ops.scale(x * x, bias=1.0)),)


def _atanh_grad(ctx, g):
    """d atanh(x) = dx / (1 - x**2)"""
    x = ctx["x"]
    return (g / ops.scale(x * x, scale=-1.0, bias=1.0),)


def _sigmoid_grad(ctx, g):
    """d sigmoid(x) = sigmoid(x) (1 - sigmoid(x)) dx"""
    out = ctx["out"]
    return (g * out * ops.scale(out, scale=-1.0, bias=1.0),)


def _erf_grad(ctx, g):
    """d erf(x) = 2 / sqrt(pi) exp(-x**2) dx"""
    x = ctx["x"]
    return (g * ops.scale(ops.exp(-(x * x)), scale=2 / math.sqrt(math.pi)),)


_unary("exp", "e ** x", _exp_grad, ("out",))
_unary("log", "natural logarithm", _log_grad, ("x",))
_unary("log2", "base-2 logarithm", _log2_grad, ("x",))
_unary("log10", "base-10 logarithm", _log10_grad, ("x",))
_unary("log1p", "log(1 + x), accurate for small x", _log1p_grad, ("x",))
_unary("sqrt", "square root", _sqrt_grad, ("out",))
_unary("rsqrt", "1 / sqrt(x)", _rsqrt_grad, ("out",))
_unary("reciprocal", "1 / x", _reciprocal_grad, ("out",))
_unary("sin", "sine", _sin_grad, ("x",))
_unary("cos", "cosine", _cos_grad, ("x",))
_unary("tan", "tangent", _tan_grad, ("out",))
_unary("tanh", "hyperbolic tangent", _tanh_grad, ("out",))
_unary("sinh", "hyperbolic sine", _sinh_grad, ("x",))
_unary("cosh", "hyperbolic cosine", _cosh_grad, ("x",))
_unary("asin", "inverse sine", _asin_grad, ("x",))
_unary("acos", "inverse cosine", _acos_grad, ("x",))
_unary("atan", "inverse tangent", _atan_grad, ("x",))
_unary("acosh", "inverse hyperbolic cosine (NaN below 1)", _acosh_grad, ("x",), kinds="iuf")
_unary("asinh", "inverse hyperbolic sine", _asinh_grad, ("x",), kinds="iuf")
_unary("atanh", "inverse hyperbolic tangent (NaN outside [-1, 1])", _atanh_grad, ("x",),
       kinds="iuf")
_unary("sigmoid", "1 / (1 + exp(-x))", _sigmoid_grad, ("out",))
_unary("erf", "the error function 2/sqrt(pi) * integral of exp(-t**2) from 0 to x",
       _erf_grad, ("x",))


# ---------------------------------------------------------------------------
# more math functions: expm1, the gamma family, erfinv, atan2, logit, heaviside
# ---------------------------------------------------------------------------

def _expm1_grad(ctx, g):
    """d(exp(x) - 1) = exp(x) dx = (out + 1) dx"""
    return (g * ops.scale(ctx["out"], bias=1.0),)


def _atan2_grad(ctx, g):
    """d atan2(x, y) = (y dx - x dy) / (x**2 + y**2) (NaN at x = y = 0, as Paddle)."""
    x, y = ctx["x"], ctx["y"]
    r2 = x * x + y * y
    return _grads(ctx, g * y / r2 if ctx.needs("x") else None,
                  -(g * x) / r2 if ctx.needs("y") else None)


def _erfinv_grad(ctx, g):
    """d erfinv(x) = sqrt(pi) / 2 exp(erfinv(x)**2) dx"""
    out = ctx["out"]
    return (g * ops.scale(ops.exp(out * out), scale=math.sqrt(math.pi) / 2),)


def _lgamma_grad(ctx, g):
    """d lgamma(x) = digamma(x) dx"""
    return (g * ops.digamma(ctx["x"]),)


def _digamma_grad(ctx, g):
    """d digamma(x) = polygamma(x, 1) dx"""
    return (g * ops.polygamma(ctx["x"], n=1),)


def _polygamma_meta(x, n=1):
    _check_kinds("polygamma", "iuf", x=x)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"polygamma: n must be an int >= 0, got {n!r}")
    return Meta(tuple(x.shape), _floating(x.dtype))


def _polygamma_grad(ctx, g):
    """d polygamma(x, n) = polygamma(x, n + 1) dx"""
    return (g * ops.polygamma(ctx["x"], n=ctx.attrs["n"] + 1),)


_unary("expm1", "exp(x) - 1, accurate for small x", _expm1_grad, ("out",), kinds="iuf")
_unary("lgamma", "log |Gamma(x)| (inf at 0, the negative integers and +-inf)", _lgamma_grad,
       ("x",), kinds="iuf")
_unary("digamma", "the derivative of lgamma (-inf at 0, inf at -0, NaN at the negative "
       "integers, as Paddle)", _digamma_grad, ("x",), kinds="iuf")


def _half_at_zero(x, value):
    """``value`` where x != 0, 1/2 (the limit of I1(x) / x) where x == 0."""
    return ops.where(x == 0, ops.full_like(value, fill_value=0.5), value)


def _over(y, x):
    """y / x, with x == 0 replaced by 1 (the caller takes the limit there)."""
    return y / ops.where(x == 0, ops.full_like(x, fill_value=1), x)


def _i0_grad(ctx, g):
    """d I0(x) = I1(x) dx"""
    return (g * ops.i1(ctx["x"]),)


def _i0e_grad(ctx, g):
    """d (I0(x) e^-|x|) = (I1e(x) - sign(x) I0e(x)) dx"""
    x = ctx["x"]
    return (g * (ops.i1e(x) - ops.sign(x) * ops.i0e(x)),)


def _i1_grad(ctx, g):
    """d I1(x) = (I0(x) - I1(x) / x) dx, 1/2 at x = 0"""
    x = ctx["x"]
    return (g * _half_at_zero(x, ops.i0(x) - _over(ops.i1(x), x)),)


def _i1e_grad(ctx, g):
    """d (I1(x) e^-|x|) = (I0e(x) - I1e(x) (sign(x) + 1 / x)) dx, 1/2 at x = 0"""
    x = ctx["x"]
    i1e = ops.i1e(x)
    return (g * _half_at_zero(x, ops.i0e(x) - ops.sign(x) * i1e - _over(i1e, x)),)


_unary("i0", "the modified Bessel function of the first kind of order 0", _i0_grad, ("x",),
       kinds="iuf")
_unary("i0e", "I0(x) e^-|x| (exponentially scaled I0)", _i0e_grad, ("x",), kinds="iuf")
_unary("i1", "the modified Bessel function of the first kind of order 1", _i1_grad, ("x",),
       kinds="iuf")
_unary("i1e", "I1(x) e^-|x| (exponentially scaled I1)", _i1e_grad, ("x",), kinds="iuf")
register(OpDef("polygamma", ("x",), _polygamma_meta,
               "the n-th derivative of digamma (digamma for n = 0); (-1)**(n+1) inf at 0 and "
               "the negative integers, as Paddle; integers give float32",
               attrs={"n": 1}, grad=_polygamma_grad, saves=("x",)))
_unary("erfinv", "the inverse of erf: NaN outside [-1, 1], -inf and inf at -1 and 1",
       _erfinv_grad, ("out",), kinds="iuf")
register(OpDef("atan2", ("x", "y"), _binary_meta("atan2", "iuf", _floating64),
               "the angle of the point (y, x) from the positive first axis, in [-pi, pi] "
               "(broadcasting; integers give float64, as Paddle)",
               grad=_atan2_grad, saves=("x", "y")))


def _nextafter_meta(x, y):
    for arg, m in (("x", x), ("y", y)):
        if m.dtype not in (_F32, _F64):
            raise TypeError(f"nextafter: {arg} has dtype {m.dtype.name}, but nextafter supports "
                            f"float32 and float64 tensors")
    return Meta(broadcast_shapes(x.shape, y.shape, op="nextafter"),
                np.result_type(x.dtype, y.dtype))


register(OpDef("nextafter", ("x", "y"), _nextafter_meta,
               "the next floating-point number after x toward y (broadcasting; no gradient, "
               "as Paddle)"))


def _logit_meta(x, eps=1e-6):
    _check_kinds("logit", "iuf", x=x)
    return Meta(tuple(x.shape), _floating(x.dtype))


def _logit_grad(ctx, g):
    """Paddle's rule: dx = g / (x (1 - x)) inside [eps, 1 - eps] and 0 outside it; with
    eps = 0 (no clipping), NaN outside [0, 1]."""
    x, eps = ctx["x"], ctx.attrs["eps"]
    lo, hi = (0.0, 1.0) if eps == 0 else (eps, 1.0 - eps)
    outside = ops.logical_or(ops.less_than(x, ops.full_like(x, fill_value=lo)),
                             ops.greater_than(x, ops.full_like(x, fill_value=hi)))
    inside = g / (x * ops.scale(x, scale=-1.0, bias=1.0))
    return (ops.where(outside, ops.full_like(g, fill_value=math.nan if eps == 0 else 0.0), inside),)


register(OpDef("logit", ("x",), _logit_meta,
               "log(x / (1 - x)), x first limited to [eps, 1 - eps] unless eps is 0 (paddle.logit "
               "passes 0 for eps=None); integers give float32",
               attrs={"eps": 1e-6}, grad=_logit_grad, saves=("x",)))


def _heaviside_grad(ctx, g):
    """dy = g where x == 0; x gets a zero gradient, as Paddle."""
    x = ctx["x"]
    at_zero = _mask(ops.equal(x, ops.full_like(x, fill_value=0)), g)
    return _grads(ctx, ops.full_like(g, fill_value=0) if ctx.needs("x") else None,
                  g * at_zero if ctx.needs("y") else None)


register(OpDef("heaviside", ("x", "y"), _binary_meta("heaviside", "iuf"),
               "the step function: 0 where x < 0 (or NaN, as Paddle), y where x == 0, 1 where "
               "x > 0 (broadcasting)", grad=_heaviside_grad, saves=("x",)))

# step functions (integers come back unchanged), with zero gradients
_unary("floor", "largest integer <= x", _zero_grad, out=_same)
_unary("ceil", "smallest integer >= x", _zero_grad, out=_same)
_unary("trunc", "x rounded toward zero", _zero_grad, out=_same)
register(OpDef("round", ("x",), _unary_meta("round", "biuf"),
               "x rounded to decimals places, halves to even (integer x unchanged, as Paddle)",
               attrs={"decimals": 0}, grad=_zero_grad))


# ---------------------------------------------------------------------------
# comparisons and tests: bool results, no gradient
# ---------------------------------------------------------------------------

for _name, _doc, _kinds in [("equal", "x == y", "biufc"), ("not_equal", "x != y", "biufc"),
                            ("less_than", "x < y", "biuf"), ("less_equal", "x <= y", "biuf"),
                            ("greater_than", "x > y", "biuf"), ("greater_equal", "x >= y", "biuf")]:
    register(OpDef(_name, ("x", "y"), _binary_meta(_name, _kinds, _boolean),
                   f"{_doc} (broadcasting; bool)"))

_CLOSE = {"rtol": 1e-05, "atol": 1e-08, "equal_nan": False}
register(OpDef("isclose", ("x", "y"), _binary_meta("isclose", "biuf", _boolean),
               "|x - y| <= atol + rtol * |y| (broadcasting; NaNs equal only with equal_nan)",
               attrs=dict(_CLOSE)))


def _allclose_meta(x, y, **attrs):
    _check_kinds("allclose", "biuf", x=x, y=y)
    broadcast_shapes(x.shape, y.shape, op="allclose")
    return Meta((), _BOOL)


register(OpDef("allclose", ("x", "y"), _allclose_meta,
               "whether isclose(x, y) holds everywhere (a 0-D bool)", attrs=dict(_CLOSE)))

for _name, _doc in [("isnan", "x is NaN"), ("isinf", "x is +inf or -inf"),
                    ("isfinite", "x is neither infinite nor NaN")]:
    register(OpDef(_name, ("x",), _unary_meta(_name, "biuf", _boolean), f"{_doc} (bool)"))

register(OpDef("signbit", ("x",), _unary_meta("signbit", "iuf", _boolean),
               "whether the sign bit of x is set: x < 0, and -0.0 and -NaN too (bool)"))

# ---------------------------------------------------------------------------
# logic and bits: no gradient
# ---------------------------------------------------------------------------

for _name, _doc in [("logical_and", "x and y"), ("logical_or", "x or y"),
                    ("logical_xor", "x xor y")]:
    register(OpDef(_name, ("x", "y"), _binary_meta(_name, "biufc", _boolean),
                   f"{_doc}, nonzero counting as true (broadcasting; bool)"))
register(OpDef("logical_not", ("x",), _unary_meta("logical_not", "biufc", _boolean),
               "not x, nonzero counting as true (bool)"))

for _name, _doc in [("bitwise_and", "x & y"), ("bitwise_or", "x | y"), ("bitwise_xor", "x ^ y")]:
    register(OpDef(_name, ("x", "y"), _binary_meta(_name, "biu"),
                   f"{_doc}, bit by bit (broadcasting; bool or integer)"))
register(OpDef("bitwise_not", ("x",), _unary_meta("bitwise_not", "biu"),
               "~x, bit by bit (bool or integer)"))
del _name, _doc, _kinds


# ---------------------------------------------------------------------------
# selection
# ---------------------------------------------------------------------------

def _where_meta(condition, x, y):
    shape = broadcast_shapes(condition.shape, x.shape, y.shape, op="where")
    return Meta(shape, np.result_type(x.dtype, y.dtype))


def _where_grad(ctx, g):
    """g goes to x where condition holds, to y elsewhere."""
    c, zero = ctx["condition"], ops.full_like(g, fill_value=0)
    return (None,
            sum_to(ops.where(c, g, zero), ctx.shape("x")) if ctx.needs("x") else None,
            sum_to(ops.where(c, zero, g), ctx.shape("y")) if ctx.needs("y") else None)


register(OpDef("where", ("condition", "x", "y"), _where_meta,
               "x where condition is true (nonzero), else y (all three broadcast)",
               grad=_where_grad, saves=("condition",)))

for _name, _doc in [("gcd", "the greatest common divisor of |x| and |y| (0 when both are 0)"),
                    ("lcm", "the least common multiple of |x| and |y| (0 when either is 0)")]:
    register(OpDef(_name, ("x", "y"), _binary_meta(_name, "iu"), f"{_doc} (broadcasting; "
                   f"integers)"))
