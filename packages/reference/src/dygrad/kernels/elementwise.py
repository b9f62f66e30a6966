"""Elementwise kernels (NumPy broadcasting does the work).

Math functions of integer (and bool) inputs compute in float32, as Paddle's integer
autocast does; everything else keeps the inputs' dtype.
"""

import numpy as np

from ._registry import kernel


def _floating(ufunc, *args):
    """``ufunc(*args)``; float32 when no argument is a float (or complex) array."""
    if args[0].dtype.kind in "fc" or args[-1].dtype.kind in "fc":
        return ufunc(*args)
    return ufunc(*args, dtype=np.float32)


def _no_bool(*arrays):
    """Refuse bool inputs where NumPy would quietly compute in int8 instead."""
    for a in arrays:
        if a.dtype.kind == "b":
            raise TypeError("bool input")


def _nonzero_divisor(op, x, y):
    """Integer division by zero has no answer: refuse it (NumPy would give 0)."""
    if x.dtype.kind in "iu" and y.dtype.kind in "iu" and not np.all(y):
        raise ZeroDivisionError(f"{op}: integer division by zero (y has a zero element)")


# ---------------------------------------------------------------------------
# arithmetic
# ---------------------------------------------------------------------------

@kernel
def add(x, y):
    """x + y"""
    return np.add(x, y)


@kernel
def subtract(x, y):
    """x - y"""
    return np.subtract(x, y)


@kernel
def multiply(x, y):
    """x * y"""
    return np.multiply(x, y)


@kernel
def divide(x, y):
    """x / y (true division)"""
    return _floating(np.true_divide, x, y)


@kernel
def floor_divide(x, y):
    """floor(x / y)"""
    _no_bool(x, y)
    _nonzero_divisor("floor_divide", x, y)
    return np.floor_divide(x, y)


@kernel
def remainder(x, y):
    """x - floor(x / y) * y (the result has the sign of y, as Python's %)"""
    _no_bool(x, y)
    _nonzero_divisor("remainder", x, y)
    return np.remainder(x, y)


@kernel
def pow_(x, factor=1.0):
    """x ** factor for a scalar factor"""
    _no_bool(x)
    return np.power(x, np.asarray(factor, dtype=x.dtype))


@kernel
def elementwise_pow(x, y):
    """x ** y"""
    _no_bool(x, y)
    return np.power(x, y)


@kernel
def maximum(x, y):
    """the larger of x and y (NaN if either is NaN)"""
    return np.maximum(x, y)


@kernel
def minimum(x, y):
    """the smaller of x and y (NaN if either is NaN)"""
    return np.minimum(x, y)


@kernel
def clip(x, min=None, max=None):
    """x limited to [min, max] (None: no limit on that side), in x's dtype"""
    _no_bool(x)
    if min is None and max is None:
        return x.copy()
    if min is not None and max is not None and min > max:
        raise ValueError("clip: min > max")
    return np.clip(x, min, max).astype(x.dtype, copy=False)


@kernel
def scale(x, scale=1.0, bias=0.0, bias_after_scale=True):
    """x * scale + bias, or (x + bias) * scale; integer x uses int(scale) and int(bias)"""
    _no_bool(x)
    s, b = np.asarray(scale, dtype=x.dtype), np.asarray(bias, dtype=x.dtype)
    return x * s + b if bias_after_scale else (x + b) * s


# ---------------------------------------------------------------------------
# unary functions
# ---------------------------------------------------------------------------

@kernel
def neg(x):
    """-x"""
    return np.negative(x)


@kernel
def abs_(x):
    """|x|"""
    return np.abs(x)


@kernel
def sign(x):
    """-1, 0 or 1 by the sign of x"""
    return np.sign(x)


@kernel
def square(x):
    """x * x"""
    _no_bool(x)
    return np.square(x)


@kernel
def exp(x):
    """e ** x"""
    return _floating(np.exp, x)


@kernel
def log(x):
    """natural logarithm"""
    return _floating(np.log, x)


@kernel
def log2(x):
    """base-2 logarithm"""
    return _floating(np.log2, x)


@kernel
def log10(x):
    """base-10 logarithm"""
    return _floating(np.log10, x)


@kernel
def log1p(x):
    """log(1 + x), accurate for small x"""
    return _floating(np.log1p, x)


@kernel
def sqrt(x):
    """square root"""
    return _floating(np.sqrt, x)


@kernel
def rsqrt(x):
    """1 / sqrt(x)"""
    return np.reciprocal(_floating(np.sqrt, x))


@kernel
def reciprocal(x):
    """1 / x"""
    return _floating(np.reciprocal, x)


@kernel
def sin(x):
    """sine"""
    return _floating(np.sin, x)


@kernel
def cos(x):
    """cosine"""
    return _floating(np.cos, x)


@kernel
def tan(x):
    """tangent"""
    return _floating(np.tan, x)


@kernel
def tanh(x):
    """hyperbolic tangent"""
    return _floating(np.tanh, x)


@kernel
def sinh(x):
    """hyperbolic sine"""
    return _floating(np.sinh, x)


@kernel
def cosh(x):
    """hyperbolic cosine"""
    return _floating(np.cosh, x)


@kernel
def asin(x):
    """inverse sine"""
    return _floating(np.arcsin, x)


@kernel
def acos(x):
    """inverse cosine"""
    return _floating(np.arccos, x)


@kernel
def atan(x):
    """inverse tangent"""
    return _floating(np.arctan, x)


@kernel
def sigmoid(x):
    """1 / (1 + exp(-x)), as exp(-log(exp(0) + exp(-x))) so that nothing overflows"""
    x = x if x.dtype.kind == "f" else x.astype(np.float32)
    return np.exp(-np.logaddexp(0, -x))


@kernel
def erf(x):
    """the error function 2/sqrt(pi) * integral from 0 to x of exp(-t**2) dt"""
    return _erf64(x.astype(np.float64)).astype(x.dtype if x.dtype.kind == "f" else np.float32)


def _erf64(x):
    """erf in float64, correct to about 1e-15 relative (NumPy has no erf of its own).

    erf is odd, so it works on |x| (see :func:`_erf_parts`) and puts the sign back."""
    a = np.abs(x)
    small, large_erfc = _erf_parts(a)
    return np.copysign(np.where(a < 2.5, small, 1 - large_erfc), x)


def _erfc64(a):
    """erfc = 1 - erf in float64 for a >= 0, to about 1e-15 relative from 2.5 on (before
    that 1 - erf, which is at least 4e-4)."""
    small, large_erfc = _erf_parts(a)
    return np.where(a < 2.5, 1 - small, large_erfc)


def _erf_parts(a):
    """For a >= 0: erf(min(a, 2.5)) and erfc(max(a, 2.5)).

    Below 2.5 the everywhere-positive series (no cancellation)
        erf(a) = 2/sqrt(pi) * exp(-a**2) * sum_n (2 a**2)**n * a / (1 * 3 * ... * (2n+1));
    from 2.5 on Laplace's continued fraction
        erfc(a) = exp(-a**2)/sqrt(pi) / (a + (1/2)/(a + 1/(a + (3/2)/(a + 2/(a + ...))))).
    """
    s = np.minimum(a, 2.5)
    term, total, r = s, s, 2 * s * s
    for n in range(1, 40):
        term = term * r / (2 * n + 1)
        total = total + term
    small = 2 / np.sqrt(np.pi) * np.exp(-s * s) * total
    b = np.maximum(a, 2.5)
    f = b
    for k in range(30, 0, -1):
        f = b + (k / 2) / f
    return small, np.exp(-b * b) / np.sqrt(np.pi) / f


@kernel
def erfinv(x):
    """the inverse of erf: NaN outside [-1, 1], -inf and inf at -1 and 1"""
    _no_bool(x)
    return _erfinv64(x.astype(np.float64)).astype(x.dtype if x.dtype.kind == "f" else np.float32)


def _erfinv64(x):
    """erfinv in float64, to about 1e-13 relative.

    Winitzki's closed form (relative error below 2e-3) as the start, then three Halley steps
    y -= d / (1 + y d), d = f(y) / f'(y), on f(y) = erf(y) - |x| (cubic convergence). Beyond
    |x| = 0.5 f is computed as (1 - |x|) - erfc(y), where 1 - |x| is exact and erfc keeps
    its relative accuracy, so the tails lose no digits to 1 - erf(y).
    """
    a = np.abs(x)
    inside = a < 1
    a_in = np.where(inside, a, 0.5)
    ln = np.log1p(-a_in) + np.log1p(a_in)  # log(1 - a**2) without cancellation
    k = 0.147
    c = 2 / (np.pi * k) + ln / 2
    y = np.sqrt(np.sqrt(c * c - ln / k) - c)
    tail = a_in > 0.5
    for _ in range(3):
        f = np.where(tail, (1 - a_in) - _erfc64(y), _erf64(y) - a_in)
        d = f / (2 / np.sqrt(np.pi) * np.exp(-y * y))
        y = y - d / (1 + y * d)
    y = np.where(inside, y, np.where(a == 1, np.inf, np.nan))
    return np.copysign(y, x)


@kernel
def expm1(x):
    """exp(x) - 1, accurate for small x"""
    _no_bool(x)
    return _floating(np.expm1, x)


@kernel
def atan2(x, y):
    """the angle of the point (y, x) in [-pi, pi]; integers compute in float64"""
    _no_bool(x, y)
    if x.dtype.kind in "iu":
        x, y = x.astype(np.float64), y.astype(np.float64)
    return np.arctan2(x, y)


@kernel
def logit(x, eps=1e-6):
    """log(x / (1 - x)), x first limited to [eps, 1 - eps] unless eps is 0 (-inf and inf
    at 0 and 1, NaN outside [0, 1], without warnings)"""
    _no_bool(x)
    x = x if x.dtype.kind == "f" else x.astype(np.float32)
    if eps:
        x = np.maximum(np.minimum(x, 1 - eps), eps)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(x / (1 - x))


@kernel
def heaviside(x, y):
    """0 where x < 0 (or NaN), y where x == 0, 1 where x > 0"""
    _no_bool(x, y)
    return np.where(x == 0, y, x > 0).astype(np.result_type(x, y), copy=False)


@kernel
def floor(x):
    """largest integer <= x (integers unchanged)"""
    return np.floor(x) if x.dtype.kind == "f" else x.copy()


@kernel
def ceil(x):
    """smallest integer >= x (integers unchanged)"""
    return np.ceil(x) if x.dtype.kind == "f" else x.copy()


@kernel
def round_(x, decimals=0):
    """x rounded to decimals places, halves to even (integers unchanged, as Paddle)"""
    return np.round(x, decimals) if x.dtype.kind == "f" else x.copy()


@kernel
def trunc(x):
    """x rounded toward zero (integers unchanged)"""
    return np.trunc(x) if x.dtype.kind == "f" else x.copy()


# ---------------------------------------------------------------------------
# comparisons and tests (bool results)
# ---------------------------------------------------------------------------

@kernel
def equal(x, y):
    """x == y"""
    return np.equal(x, y)


@kernel
def not_equal(x, y):
    """x != y"""
    return np.not_equal(x, y)


@kernel
def less_than(x, y):
    """x < y"""
    return np.less(x, y)


@kernel
def less_equal(x, y):
    """x <= y"""
    return np.less_equal(x, y)


@kernel
def greater_than(x, y):
    """x > y"""
    return np.greater(x, y)


@kernel
def greater_equal(x, y):
    """x >= y"""
    return np.greater_equal(x, y)


@kernel
def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|x - y| <= atol + rtol * |y|"""
    return np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


@kernel
def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    """whether |x - y| <= atol + rtol * |y| everywhere (a 0-D bool)"""
    return np.array(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))


@kernel
def isnan(x):
    """x is NaN"""
    return np.isnan(x)


@kernel
def isinf(x):
    """x is +inf or -inf"""
    return np.isinf(x)


@kernel
def isfinite(x):
    """x is neither infinite nor NaN"""
    return np.isfinite(x)


# ---------------------------------------------------------------------------
# logic, bits and selection
# ---------------------------------------------------------------------------

@kernel
def logical_and(x, y):
    """x and y (nonzero is true)"""
    return np.logical_and(x, y)


@kernel
def logical_or(x, y):
    """x or y (nonzero is true)"""
    return np.logical_or(x, y)


@kernel
def logical_xor(x, y):
    """x xor y (nonzero is true)"""
    return np.logical_xor(x, y)


@kernel
def logical_not(x):
    """not x (nonzero is true)"""
    return np.logical_not(x)


@kernel
def bitwise_and(x, y):
    """x & y"""
    return np.bitwise_and(x, y)


@kernel
def bitwise_or(x, y):
    """x | y"""
    return np.bitwise_or(x, y)


@kernel
def bitwise_xor(x, y):
    """x ^ y"""
    return np.bitwise_xor(x, y)


@kernel
def bitwise_not(x):
    """~x"""
    return np.invert(x)


@kernel
def where(condition, x, y):
    """x where condition is true, else y"""
    return np.where(condition, x, y)
