"""Elementwise kernels (NumPy broadcasting does the work).

Math functions of integer (and bool) inputs compute in float32, as Paddle's integer
autocast does; everything else keeps the inputs' dtype.
"""

import math

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
def fmax(x, y):
    """the larger of x and y, ignoring a NaN"""
    _no_bool(x, y)
    return np.fmax(x, y)


@kernel
def fmin(x, y):
    """the smaller of x and y, ignoring a NaN"""
    _no_bool(x, y)
    return np.fmin(x, y)


@kernel
def nextafter(x, y):
    """the next floating-point number after x toward y (float32 and float64 only)"""
    if {x.dtype.char, y.dtype.char} - {"f", "d"}:
        raise TypeError("nextafter takes float32 and float64")
    return np.nextafter(x, y)


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
def acosh(x):
    """inverse hyperbolic cosine (NaN below 1, without NumPy's warning: Paddle gives none)"""
    _no_bool(x)
    with np.errstate(invalid="ignore"):
        return _floating(np.arccosh, x)


@kernel
def asinh(x):
    """inverse hyperbolic sine"""
    _no_bool(x)
    return _floating(np.arcsinh, x)


@kernel
def atanh(x):
    """inverse hyperbolic tangent (+-inf at +-1, NaN beyond, without NumPy's warnings)"""
    _no_bool(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _floating(np.arctanh, x)


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


def _as_float64(x):
    _no_bool(x)
    return x.astype(np.float64)


def _float_like(out, x):
    """A float64 result in x's float dtype (float32 for integers)."""
    return out.astype(x.dtype if x.dtype.kind == "f" else np.float32)


@kernel
def erfinv(x):
    """the inverse of erf: NaN outside [-1, 1], -inf and inf at -1 and 1"""
    return _float_like(_erfinv64(_as_float64(x)), x)


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


# ---------------------------------------------------------------------------
# lgamma, digamma, polygamma: float64 series, recurrences and reflections (NumPy has none
# of them, and dygrad does not depend on SciPy)
# ---------------------------------------------------------------------------

_EULER_GAMMA = 0.5772156649015329
# Bernoulli numbers B_2, B_4, ..., B_20 of the asymptotic (Stirling) series
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
              43867 / 798, -174611 / 330)


def _zeta_minus_one(kmax):
    """zeta(k) - 1 for k = 2..kmax: the sum over j = 2..999 of j**-k, smallest terms first,
    plus the Euler-Maclaurin tail from j = 1000 (its error is below 1e-17)."""
    j, n = np.arange(999.0, 1.0, -1.0), 1000.0
    return np.array([np.sum(j ** -k) + n ** (1 - k) / (k - 1) + n ** -k / 2 + k * n ** (-k - 1) / 12
                     for k in range(2, kmax + 1)])


# lgamma(1 + e) = -gamma e + (e - log1p(e)) + sum_k (-1)**k (zeta(k) - 1) / k e**k, k >= 2:
# the coefficients of that sum, highest power first (|e| <= 1/2: 0.25**30 is below 1e-18),
# as Python floats, so the kernels stay array-module agnostic (the GPU engine runs them)
_LGAMMA1 = [(-1) ** k / k * z for k, z in zip(range(2, 33), _zeta_minus_one(32).tolist())][::-1]


def _horner(coefficients, x):
    """The polynomial with ``coefficients`` (highest power first) at x."""
    out = np.zeros_like(x)
    for c in coefficients:
        out = out * x + c
    return out


def _pole(x):
    """x is 0 or a negative integer."""
    return (x <= 0) & (x == np.round(x))


def _abs_sinpi(x):
    """|sin(pi x)| from x - round(x), which is exact, so a large x loses no digits."""
    return np.abs(np.sin(np.pi * (x - np.round(x))))


def _cotpi(x):
    """cot(pi x) to full relative accuracy: from r = x - round(x) (exact, keeping the sign
    of a zero x), as 1 / tan(pi |r|) up to |r| = 1/4 and tan(pi (1/2 - |r|)) beyond, where
    1/2 - |r| is exact too (so cot is exactly 0 at the half-integers)."""
    r = x - np.round(x)
    r = np.where(r == 0, np.copysign(0.0, x), r)
    a = np.abs(r)
    return np.copysign(np.where(a <= 0.25, 1 / np.tan(np.pi * a), np.tan(np.pi * (0.5 - a))), r)


def _lgamma64(x):
    """log |Gamma(x)| in float64, to about 1e-15 (relative, and absolute near the roots 1
    and 2): the series of lgamma(1 + e) and lgamma(2 + e) = lgamma(1 + e) + log1p(e) on
    [0.5, 2.5), reached by Gamma(z + 1) = z Gamma(z); Stirling's series from 10 on; the
    reflection Gamma(x) Gamma(1 - x) = pi / sin(pi x) for x <= 0 (inf at the poles)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        neg = x <= 0
        z = np.where(neg, 1 - x, x)
        big = z >= 10
        zb = np.where(big, z, 10.0)
        inv = 1 / (zb * zb)
        tail = sum(b / (2 * k * (2 * k - 1)) * inv ** (k - 1) for k, b in enumerate(_BERNOULLI, 1))
        stirling = (zb - 0.5) * np.log(zb) - zb + 0.5 * np.log(2 * np.pi) + tail / zb
        zs = np.where(big, 2.0, z)
        lift = zs < 0.5
        scale = np.where(lift, 1 / zs, 1.0)  # Gamma(z) = Gamma(z + 1) / z
        zs = np.where(lift, zs + 1, zs)
        for _ in range(8):  # Gamma(z) = (z - 1) Gamma(z - 1) down to [0.5, 2.5)
            high = zs >= 2.5
            scale = np.where(high, scale * (zs - 1), scale)
            zs = np.where(high, zs - 1, zs)
        near1 = zs < 1.5
        e = np.where(near1, zs - 1, zs - 2)
        series = -_EULER_GAMMA * e + (e - np.log1p(e)) + _horner(_LGAMMA1, e) * e * e
        small = series + np.where(near1, 0.0, np.log1p(e)) + np.log(scale)
        pos = np.where(big, stirling, small)
        out = np.where(neg, np.log(np.pi / _abs_sinpi(x)) - pos, pos)
        return np.where(np.isinf(x) | _pole(x), np.inf, out)


def _digamma64(x):
    """digamma (the derivative of lgamma) in float64, to about 1e-15 absolute: psi(z) =
    psi(z + 1) - 1 / z up to 10, the asymptotic series from there; the reflection
    psi(x) = psi(1 - x) - pi cot(pi x) for x <= 0 (-inf at 0, inf at -0, NaN at the
    negative integers, as Paddle)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        neg = x <= 0
        z = np.where(neg, 1 - x, x)
        acc = np.zeros_like(z)
        for _ in range(10):
            low = z < 10
            acc = acc - np.where(low, 1 / z, 0.0)
            z = np.where(low, z + 1, z)
        inv = 1 / (z * z)
        tail = sum(b / (2 * k) * inv ** k for k, b in enumerate(_BERNOULLI, 1))
        pos = acc + np.log(z) - 0.5 / z - tail
        out = np.where(neg, pos - np.pi * _cotpi(x), pos)
        return np.where((x < 0) & _pole(x), np.nan, out)


def _cot_derivative_poly(n):
    """P_n with d^n/dx^n cot(pi x) = pi**n P_n(cot(pi x)): P_0 = c and
    P_(k+1) = -(1 + c**2) P_k' (integer coefficients, highest power first)."""
    p = [0, 1]  # lowest power first while building
    for _ in range(n):
        d = [i * p[i] for i in range(1, len(p))] + [0, 0]
        p = [-(d[i] + (d[i - 2] if i >= 2 else 0)) for i in range(len(d))]
    return p[::-1]


def _polygamma64(x, n):
    """The n-th derivative of digamma (n >= 1) in float64: psi_n(z) = psi_n(z + 1) +
    (-1)**(n+1) n! / z**(n+1) up to 10 + n, the asymptotic series from there; for x <= 0
    the reflection psi_n(x) = (-1)**n psi_n(1 - x) - pi**(n+1) P_n(cot(pi x)), and
    (-1)**(n+1) inf at the poles, as Paddle."""
    sign, fact = (-1.0) ** (n + 1), float(math.factorial(n))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        neg = x <= 0
        z = np.where(neg, 1 - x, x)
        acc = np.zeros_like(z)
        for _ in range(10 + n):
            low = z < 10 + n
            acc = acc + np.where(low, z ** -(n + 1.0), 0.0)
            z = np.where(low, z + 1, z)
        series = math.factorial(n - 1) / z ** n + fact / (2 * z ** (n + 1))
        for k, b in enumerate(_BERNOULLI, 1):
            c = b * math.factorial(2 * k + n - 1) / math.factorial(2 * k)
            series = series + c / z ** (2 * k + n)
        pos = sign * (fact * acc + series)
        reflected = (-1.0) ** n * pos - np.pi ** (n + 1) * _horner(_cot_derivative_poly(n),
                                                                     _cotpi(x))
        out = np.where(neg, reflected, pos)
        return np.where(_pole(x), sign * np.inf, out)


@kernel
def lgamma(x):
    """log |Gamma(x)| (inf at 0, the negative integers and +-inf)"""
    return _float_like(_lgamma64(_as_float64(x)), x)


@kernel
def digamma(x):
    """the derivative of lgamma (-inf at 0, NaN at the negative integers)"""
    return _float_like(_digamma64(_as_float64(x)), x)


@kernel
def polygamma(x, n=1):
    """the n-th derivative of digamma (digamma itself for n = 0)"""
    x64 = _as_float64(x)
    return _float_like(_digamma64(x64) if n == 0 else _polygamma64(x64, n), x)


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


@kernel
def signbit(x):
    """whether the sign bit of x is set (-0.0 included)"""
    _no_bool(x)
    return np.signbit(x)


@kernel
def gcd(x, y):
    """the greatest common divisor of |x| and |y|"""
    return np.gcd(x, y)


@kernel
def lcm(x, y):
    """the least common multiple of |x| and |y|"""
    return np.lcm(x, y)


def _bessel_i(x, nu, scaled):
    """I_nu(x) (times e^-|x| when scaled) for nu = 0 or 1 in float64: the power series
    sum (x/2)^(2k+nu) / (k! (k+nu)!) for |x| <= 30, else the asymptotic expansion
    e^|x| / sqrt(2 pi |x|) * sum_k c_k / |x|^k, c_k = c_(k-1) ((2k-1)^2 - 4 nu^2) / (8k)
    (the terms left out are far below float64 rounding); I_1 is odd."""
    a = np.abs(_as_float64(x))
    small = np.minimum(a, 30.0)
    term = (small / 2) ** nu
    series = term.copy()
    for k in range(1, 90):
        term = term * (small / 2) ** 2 / (k * (k + nu))
        series += term
    big = np.maximum(a, 30.0)
    c, expansion = np.ones_like(big), np.ones_like(big)
    for k in range(1, 40):
        c = c * ((2 * k - 1) ** 2 - 4 * nu * nu) / (8 * k * big)
        expansion += c
    with np.errstate(over="ignore"):
        if scaled:
            out = np.where(a <= 30, series * np.exp(-small), expansion / np.sqrt(2 * np.pi * big))
        else:
            out = np.where(a <= 30, series, np.exp(big) / np.sqrt(2 * np.pi * big) * expansion)
    return _float_like(np.sign(x) * out if nu else out, x)


@kernel
def i0(x):
    """the modified Bessel function I0"""
    return _bessel_i(x, 0, False)


@kernel
def i0e(x):
    """I0(x) e^-|x|"""
    return _bessel_i(x, 0, True)


@kernel
def i1(x):
    """the modified Bessel function I1"""
    return _bessel_i(x, 1, False)


@kernel
def i1e(x):
    """I1(x) e^-|x|"""
    return _bessel_i(x, 1, True)
