"""Op database entries: elementwise ops.

The NumPy statements compute in the input's dtype, and integer inputs of math functions
in float32 (Paddle's autocast). Gradient samples stay inside each function's domain and
away from the points where it is not differentiable; ``maximum``/``minimum`` have a sample
with ties, where central differences give the half-and-half split that the rule gives.
"""

import math

import numpy as np

from . import (
    ALL_NUMERIC,
    BINARY_SHAPES,
    BOOL,
    DEFAULT_TOL,
    FLOATS,
    FLOATS16,
    INTS,
    UNARY_SHAPES,
    ErrorInput,
    OpInfo,
    Sample,
    binary_samples,
    make,
    unary_samples,
)

F = np.float32
MATH_DTYPES = FLOATS16 + INTS
INT_AS_FLOAT32 = {np.int32: DEFAULT_TOL[np.dtype(F)], np.int64: DEFAULT_TOL[np.dtype(F)]}
INT_AS_FLOAT64 = {np.int32: DEFAULT_TOL[np.dtype(np.float64)],
                  np.int64: DEFAULT_TOL[np.dtype(np.float64)]}


def _s(*inputs, desc="", grad=True, **attrs):
    return Sample(tuple(inputs), attrs, desc, grad=grad)


def _nonzero(shape, dtype, rng):
    """Values of either sign, at least 0.5 (integers: at least 1) away from zero."""
    sign = np.where(rng.random(shape) < 0.5, -1, 1)
    if np.dtype(dtype).kind in "iu":
        return (sign * rng.integers(1, 4, size=shape)).astype(dtype)
    return (sign * rng.uniform(0.5, 2.0, size=shape)).astype(dtype)


def _with_zeros(a, rng):
    """``a`` with about a third of its elements set to zero."""
    a = np.array(a)
    a[rng.random(a.shape) < 0.3] = 0
    return a


def _quiet(ufunc):
    """``ufunc`` without NumPy's warnings for the special values outside its domain (NaN or
    inf there, silently, as Paddle)."""
    def fn(x):
        with np.errstate(invalid="ignore", divide="ignore"):
            return ufunc(x)
    return fn


def _in_float(fn):
    """``fn`` in x's float dtype; integer x in float32 (Paddle's autocast)."""
    return lambda x: fn(x if x.dtype.kind == "f" else x.astype(F))


def _shape_error(op, dtype=F):
    """Binary op: shapes that do not broadcast."""
    def errors(rng):
        yield ErrorInput(_s(make((2, 3), dtype, rng), make((4,), dtype, rng)), ValueError,
                         rf"{op}: shapes \[2, 3\] and \[4\] cannot be broadcast")
    return errors


def _chain(*gens):
    def errors(rng):
        for gen in gens:
            yield from gen(rng)
    return errors


def _dtype_error(op, dtype, n=2):
    """An input of a dtype the op refuses (where NumPy refuses it too)."""
    def errors(rng):
        x = make((3,), dtype, rng)
        yield ErrorInput(_s(*([x] * n)), TypeError, f"{op}: x has dtype {np.dtype(dtype).name}")
    return errors


# ---------------------------------------------------------------------------
# arithmetic
# ---------------------------------------------------------------------------

def _divisor_samples(dtype, rng):
    """Broadcasting pairs with y away from zero."""
    for sx, sy in BINARY_SHAPES:
        yield _s(make(sx, dtype, rng), _nonzero(sy, dtype, rng), desc=f"{sx}x{sy}")


def _divide_ref(x, y):
    """True division; integers are divided as float32."""
    return np.true_divide(x, y) if x.dtype.kind == "f" else np.true_divide(x, y, dtype=F)


def _int_zero_division(op):
    def errors(rng):
        yield ErrorInput(_s(np.array([3, 4], np.int64), np.array([2, 0], np.int64)),
                         ZeroDivisionError, f"{op}: integer division by zero")
    return errors


def _pow_samples(dtype, rng):
    if np.dtype(dtype).kind in "iu":
        for factor in (0, 1, 2, 3):
            yield _s(make((3, 4), dtype, rng, -3, 3), factor=factor, desc=f"factor {factor}")
        yield _s(make((), dtype, rng), factor=2, desc="0-D")
        return
    for factor in (2.5, -1.5, 0.5, 0.0):  # fractional powers need x > 0
        yield _s(make((3, 4), dtype, rng, 0.5, 2.0), factor=factor, desc=f"factor {factor}")
    for factor in (2, 3, -2):
        yield _s(_nonzero((2, 3), dtype, rng), factor=factor, desc=f"factor {factor}, x of both signs")
    yield _s(make((), dtype, rng, 0.5, 2.0), factor=1.5, desc="0-D")
    yield _s(make((2, 0, 3), dtype, rng), factor=2.0, desc="size 0")
    yield _s(make((1,), dtype, rng, 0.5, 2.0), desc="default factor 1")


def _pow_ref(x, factor=1.0):
    return np.power(x, factor).astype(x.dtype)


def _pow_errors(rng):
    yield ErrorInput(_s(np.array([1, 2], np.int64), factor=-1), ValueError,
                     "pow: an integer x needs a whole exponent >= 0")


def _elementwise_pow_samples(dtype, rng):
    if np.dtype(dtype).kind in "iu":
        yield from binary_samples(0, 3)(dtype, rng)
    else:
        yield from binary_samples(0.5, 2.0, low_y=-2.0, high_y=2.0)(dtype, rng)


def _extremum_samples(dtype, rng):
    yield from binary_samples()(dtype, rng)
    x = make((3, 4), dtype, rng)
    y = np.where(rng.random((3, 4)) < 0.5, x, make((3, 4), dtype, rng))
    yield _s(x, y, desc="ties")


def _nan_ignoring_samples(dtype, rng):
    """Broadcasting pairs without ties (ties go to x, where central differences split);
    then NaNs on either side and ties (not gradient-checked)."""
    yield from binary_samples()(dtype, rng)
    if np.dtype(dtype).kind == "f":
        x = np.array([1.0, np.nan, 3.0, np.nan, 2.0, -np.inf], dtype)
        y = np.array([np.nan, 2.0, 1.0, np.nan, 2.0, 0.0], dtype)
        yield _s(x, y, desc="NaNs and ties", grad=False)


def _nextafter_samples(dtype, rng):
    """Broadcasting pairs, then equal values, zeros, infinities and NaN."""
    yield from binary_samples()(dtype, rng)
    x = np.array([1.0, 0.0, -0.0, 0.0, np.inf, -np.inf, np.nan, 1.0, 2.0], dtype)
    y = np.array([1.0, 1.0, -1.0, -0.0, 0.0, np.inf, 1.0, np.nan, np.inf], dtype)
    yield _s(x, y, desc="ties, zeros, infinities, NaN")


def _nextafter_errors(rng):
    for dtype in (np.float16, np.int64):
        x = make((3,), dtype, rng)
        yield ErrorInput(_s(x, x), TypeError, f"nextafter: x has dtype {np.dtype(dtype).name}")
    yield from _shape_error("nextafter")(rng)


def _clip_samples(dtype, rng):
    if np.dtype(dtype).kind in "iu":
        for lo, hi in ((-1, 1), (0, None), (None, 1), (None, None), (1, 1)):
            yield _s(make((3, 4), dtype, rng), min=lo, max=hi, desc=f"[{lo}, {hi}]")
        return
    for lo, hi in ((-0.7, 0.8), (-0.5, None), (None, 0.3), (None, None), (0.25, 0.25)):
        yield _s(make((3, 4), dtype, rng), min=lo, max=hi, desc=f"[{lo}, {hi}]")
    for shape in ((), (0,), (1,), (2, 0, 3)):
        yield _s(make(shape, dtype, rng), min=-0.5, max=0.5, desc=f"{shape}")


def _clip_ref(x, min=None, max=None):
    lo = -np.inf if min is None else min
    hi = np.inf if max is None else max
    return np.minimum(np.maximum(x, lo), hi).astype(x.dtype)


def _clip_errors(rng):
    yield ErrorInput(_s(make((3,), F, rng), min=2.0, max=1.0), ValueError,
                     "clip: max should be greater than or equal to min")


def _scale_samples(dtype, rng):
    for s, b, after in ((1.0, 0.0, True), (2.5, -1.0, True), (-0.5, 3.0, False), (0.0, 1.5, True)):
        yield _s(make((3, 4), dtype, rng), scale=s, bias=b, bias_after_scale=after,
                 desc=f"scale {s} bias {b} after {after}")
    for shape in ((), (0,), (2, 1, 3)):
        yield _s(make(shape, dtype, rng), scale=2.0, bias=0.5, desc=f"{shape}")


def _scale_ref(x, scale=1.0, bias=0.0, bias_after_scale=True):
    """An integer x uses the integer parts of scale and bias, as Paddle."""
    if x.dtype.kind in "iu":
        scale, bias = int(scale), int(bias)
    return (x * scale + bias if bias_after_scale else (x + bias) * scale).astype(x.dtype)


# ---------------------------------------------------------------------------
# unary functions
# ---------------------------------------------------------------------------

def _reciprocal_samples(dtype, rng):
    for shape in UNARY_SHAPES:
        yield _s(_nonzero(shape, dtype, rng), desc=f"{shape}")


def _domain(low=-2.0, high=2.0, special=()):
    """Unary samples with values in [low, high) (integers: the whole numbers in it), plus
    the special values (not gradient-checked) for floats."""
    def gen(dtype, rng):
        if np.dtype(dtype).kind in "iu":
            yield from unary_samples(math.ceil(low), math.floor(high))(dtype, rng)
            return
        yield from unary_samples(low, high)(dtype, rng)
        if special:
            with np.errstate(over="ignore"):  # a big special value is inf in float16
                yield _s(np.array(special, dtype), desc="special values", grad=False)
    return gen


def _erf_ref(x):
    x64 = x.astype(np.float64)
    out = np.vectorize(math.erf, otypes=[np.float64])(x64)
    return out.astype(x.dtype if x.dtype.kind == "f" else F)


def _erfinv_ref(x):
    """Bisection on math.erf, or on math.erfc beyond |x| = 0.5 (where 1 - |x| is exact), in
    float64: y with erf(y) = x; NaN outside [-1, 1], inf at the ends."""
    a = np.abs(x.astype(np.float64))
    lo, hi = np.zeros_like(a), np.full_like(a, 6.0)
    erf, erfc = (np.vectorize(f, otypes=[np.float64]) for f in (math.erf, math.erfc))
    for _ in range(80):
        mid = (lo + hi) / 2
        below = np.where(a > 0.5, erfc(mid) > 1 - a, erf(mid) < a)
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    y = np.where(a < 1, (lo + hi) / 2, np.where(a == 1, np.inf, np.nan))
    return np.copysign(y, x).astype(x.dtype if x.dtype.kind == "f" else F)


def _gamma_samples(special, **attrs):
    """x in [0.5, 4) (integers: 1 to 4), negative x at least 0.35 from the poles (so that
    the derivatives stay finite in float16), then the special values (not gradient-checked)."""
    def gen(dtype, rng):
        if np.dtype(dtype).kind in "iu":
            yield from unary_samples(1, 4, **attrs)(dtype, rng)
            return
        yield from unary_samples(0.5, 4.0, **attrs)(dtype, rng)
        neg = rng.uniform(0.35, 0.65, (3, 4)) - rng.integers(1, 4, (3, 4))
        yield Sample((neg.astype(dtype),), dict(attrs), "negative, between the poles")
        yield Sample((np.array(special, dtype),), dict(attrs), "special values", grad=False)
    return gen


def _negative_integer(x):
    return (x < 0) & (x == np.floor(x))


def _lgamma_ref(x):
    """math.lgamma, inf at the poles (where math.lgamma refuses)."""
    x64 = x.astype(np.float64)
    poles = (x64 == 0) | _negative_integer(x64)
    out = np.vectorize(math.lgamma, otypes=[np.float64])(np.where(poles, 1.0, x64))
    return np.where(poles, np.inf, out).astype(x.dtype if x.dtype.kind == "f" else F)


def _digamma_ref(x):
    """psi(x) = psi(x + 1000) - sum_k<1000 1 / (x + k), with psi(z) = ln z - 1/(2z) -
    1/(12 z**2) + 1/(120 z**4) at z = x + 1000 (the term 1 / x apart, so that -0 keeps its
    sign); NaN at the negative integers, as Paddle."""
    x64 = x.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = x64 + 1000
        far = np.log(z) - 1 / (2 * z) - 1 / (12 * z ** 2) + 1 / (120 * z ** 4)
        out = far - np.sum(1 / (x64[..., None] + np.arange(999.0, 0.0, -1.0)), axis=-1) - 1 / x64
    return np.where(_negative_integer(x64), np.nan, out).astype(
        x.dtype if x.dtype.kind == "f" else F)


def _polygamma_ref(x, n=1):
    """(-1)**(n+1) n! sum_k 1 / (x + k)**(n+1) (Hurwitz's zeta), summed to k = 999 with the
    Euler-Maclaurin tail from x + 1000; (-1)**(n+1) inf at the poles, as Paddle."""
    if n == 0:
        return _digamma_ref(x)
    x64 = x.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        z = x64 + 1000
        tail = 1 / (n * z ** n) + 1 / (2 * z ** (n + 1)) + (n + 1) / (12 * z ** (n + 2))
        total = np.sum((x64[..., None] + np.arange(1000.0)[::-1]) ** -(n + 1.0), axis=-1) + tail
        out = (-1) ** (n + 1) * math.factorial(n) * total
    poles = (x64 == 0) | _negative_integer(x64)
    return np.where(poles, (-1) ** (n + 1) * np.inf, out).astype(
        x.dtype if x.dtype.kind == "f" else F)


def _polygamma_samples(dtype, rng):
    for n in (1, 2, 3, 0):
        yield from _gamma_samples([0.5, 1e-8, -2.5, 1e4, 0.0, -2.0, 1.0, np.nan], n=n)(dtype, rng)


def _polygamma_errors(rng):
    yield ErrorInput(_s(make((3,), F, rng), n=-1), ValueError, "polygamma: n must be an int >= 0")
    yield ErrorInput(_s(np.array([True]), n=1), TypeError, "polygamma: x has dtype bool")


def _sigmoid_ref(x):
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-x))


def _round_samples(dtype, rng):
    yield from unary_samples()(dtype, rng)
    if np.dtype(dtype).kind == "f":
        yield _s(np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49], dtype), desc="halves",
                 grad=False)
        for d in (1, 2):
            yield _s(make((3, 4), dtype, rng, -20, 20), decimals=d, desc=f"decimals {d}")
    else:
        yield _s(make((3, 4), dtype, rng, -200, 200), decimals=-1, desc="decimals -1")


def _round_ref(x, decimals=0):
    """Halves go to the even neighbour; integers are unchanged (for any decimals)."""
    return np.round(x, decimals) if x.dtype.kind == "f" else x


def _step_ref(fn):
    return lambda x: fn(x) if x.dtype.kind == "f" else x


def _math(name, fn, low=-2.0, high=2.0, special=(), samples=None, errors=None):
    """An entry for a math function: floats (float16 too) and integers (as float32)."""
    return OpInfo(name, _in_float(fn), samples or _domain(low, high, special), dtypes=MATH_DTYPES,
                  gradgrad=True, tol=INT_AS_FLOAT32, errors=errors)


def _atan2_samples(dtype, rng):
    """Broadcasting pairs with x away from 0, where atan2 jumps by 2 pi when y < 0; then
    the signed zeros and infinities (not gradient-checked)."""
    for sx, sy in BINARY_SHAPES:
        yield _s(_nonzero(sx, dtype, rng), make(sy, dtype, rng), desc=f"{sx}x{sy}")
    if np.dtype(dtype).kind == "f":
        x = np.array([0.0, -0.0, 0.0, -0.0, 1.0, -1.0, np.inf, np.inf, -np.inf, np.nan], dtype)
        y = np.array([0.0, 0.0, -0.0, -1.0, 0.0, np.inf, np.inf, -np.inf, 2.0, 1.0], dtype)
        yield _s(x, y, desc="zeros and infinities", grad=False)


def _logit_samples(dtype, rng):
    """x inside (0, 1) with and without clipping; integers are 0 or 1 (-inf and inf); then
    values outside [0, 1] and at its ends (not gradient-checked)."""
    if np.dtype(dtype).kind in "iu":
        for shape in UNARY_SHAPES:
            yield _s(make(shape, dtype, rng, 0, 1), eps=0.0, desc=f"{shape}")
        return
    for eps in (0.0, 0.1, 0.3):
        for shape in UNARY_SHAPES:
            yield _s(make(shape, dtype, rng, 0.02, 0.98), eps=eps, desc=f"{shape} eps {eps}")
    yield _s(make((3, 4), dtype, rng, 0.05, 0.95), desc="default eps")
    special = np.array([0.0, 1.0, -0.5, 1.5, np.nan, 0.5], dtype)
    for eps in (0.0, 0.2, 0.7):
        yield _s(special, eps=eps, desc=f"ends and outside, eps {eps}", grad=False)


def _logit_ref(x, eps=1e-6):
    """ln(x) - ln(1 - x) after clipping x to [eps, 1 - eps] (none for eps 0; for eps > 0.5
    every value but NaN becomes eps, as Paddle)."""
    x = x if x.dtype.kind == "f" else x.astype(F)
    if eps > 0.5:
        x = np.where(np.isnan(x), x, eps).astype(x.dtype)
    elif eps:
        x = np.clip(x, eps, 1 - eps).astype(x.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(x) - np.log1p(-x)


def _heaviside_samples(dtype, rng):
    """Broadcasting pairs with about a third of x zero (where the output is y), then NaN."""
    for sx, sy in BINARY_SHAPES:
        yield _s(_with_zeros(make(sx, dtype, rng), rng), make(sy, dtype, rng), desc=f"{sx}x{sy}")
    if np.dtype(dtype).kind == "f":
        yield _s(np.array([np.nan, -0.0, np.inf, -np.inf], dtype), np.array([0.5], dtype),
                 desc="nan, -0 and infinities", grad=False)


def _heaviside_ref(x, y):
    """np.heaviside, except NaN in x gives 0 as in Paddle."""
    return np.where(np.isnan(x), 0, np.heaviside(x, y)).astype(np.result_type(x, y))


def _atan2_ref(x, y):
    """np.arctan2; integers in float64."""
    return np.arctan2(x, y) if x.dtype.kind == "f" else np.arctan2(x, y, dtype=np.float64)


# ---------------------------------------------------------------------------
# comparisons, tests, logic, bits
# ---------------------------------------------------------------------------

def _compare_samples(dtype, rng):
    yield from binary_samples()(dtype, rng)
    x = make((3, 4), dtype, rng)
    yield _s(x, np.where(rng.random((3, 4)) < 0.5, x, make((3, 4), dtype, rng)), desc="ties")


def _close_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    kind = np.dtype(dtype).kind
    near = x + (rng.uniform(-2e-5, 2e-5, (3, 4)).astype(dtype) if kind == "f" else 0)
    y = np.where(rng.random((3, 4)) < 0.5, near, make((3, 4), dtype, rng))
    yield _s(x, y, desc="some close")
    yield _s(x, y, rtol=1e-3, atol=0.5, desc="loose")
    yield _s(x, x[0], rtol=0.0, atol=0.0, desc="broadcast, exact")
    yield _s(make((), dtype, rng), make((0,), dtype, rng), desc="size 0")
    if kind == "f":
        z = np.array([np.nan, 1.0, np.inf, -np.inf, np.nan], dtype)
        w = np.array([np.nan, np.nan, np.inf, np.inf, 1.0], dtype)
        yield _s(z, w, desc="nan and inf")
        yield _s(z, w, equal_nan=True, desc="nan and inf, equal_nan")


def _isclose_ref(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    return np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _allclose_ref(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    return np.array(bool(np.all(_isclose_ref(x, y, rtol, atol, equal_nan))))


def _test_samples(dtype, rng):
    """Samples for isnan/isinf/isfinite/signbit: special values for floats."""
    yield from unary_samples()(dtype, rng)
    if np.dtype(dtype).kind == "f":
        yield _s(np.array([np.nan, np.inf, -np.inf, 0.0, -1.5, np.finfo(dtype).max, -0.0,
                           -np.nan], dtype), desc="special values")


def _logic_binary_samples(dtype, rng):
    for sx, sy in BINARY_SHAPES:
        yield _s(_with_zeros(make(sx, dtype, rng), rng), _with_zeros(make(sy, dtype, rng), rng),
                 desc=f"{sx}x{sy}")


def _logic_unary_samples(dtype, rng):
    for shape in UNARY_SHAPES:
        yield _s(_with_zeros(make(shape, dtype, rng), rng), desc=f"{shape}")


def _bits_binary_samples(dtype, rng):
    yield from binary_samples(-100, 100)(dtype, rng)


# ---------------------------------------------------------------------------
# where
# ---------------------------------------------------------------------------

WHERE_SHAPES = [((3, 4), (3, 4), (3, 4)), ((3, 1), (4,), (3, 4)), ((), (2, 3), ()),
                ((4,), (), ()), ((2, 1, 3), (4, 1), (1,)), ((1,), (0,), (1,)),
                ((2, 0, 3), (1, 3), (3,)), ((), (), ())]


def _where_samples(dtype, rng):
    for sc, sx, sy in WHERE_SHAPES:
        yield _s(make(sc, np.bool_, rng), make(sx, dtype, rng), make(sy, dtype, rng),
                 desc=f"{sc} {sx} {sy}")


def _where_errors(rng):
    yield ErrorInput(_s(make((2,), np.bool_, rng), make((3,), F, rng), make((4,), F, rng)),
                     ValueError, r"where: shapes \[2\] and \[3\] and \[4\] cannot be broadcast")


def _bessel_ref(n, scaled):
    """I_n(x) = (1/pi) integral over [0, pi] of e^(x cos t) cos(n t) dt (times e^-|x|), by
    the trapezoidal rule, which converges exponentially for this periodic integrand."""
    def ref(x):
        x64 = np.asarray(x, np.float64)
        a, t = np.abs(x64)[..., None], np.linspace(0.0, np.pi, 4001)
        out = np.trapezoid(np.exp(a * np.cos(t) - (a if scaled else 0.0)) * np.cos(n * t), t,
                           axis=-1) / np.pi
        return (np.sign(x64) * out if n else out).astype(x.dtype if x.dtype.kind == "f"
                                                         else np.float32)
    return ref


def _bessel_samples(dtype, rng):
    yield from unary_samples(-4.0, 4.0)(dtype, rng)
    values = [0, 1, -3, 29, 31, -45] if np.dtype(dtype).kind in "iu" else \
        [0.0, 1e-3, -3.5, 29.9, 30.5, -45.0]
    yield _s(np.array(values, dtype), desc="both methods", grad=False)  # too wide a range
    if np.dtype(dtype).kind == "f":                                      # for differences
        yield _s(np.array([-29.5, 29.9, 30.5], dtype), desc="both methods, near 30")


OPS = [
    # arithmetic
    OpInfo("add", np.add, binary_samples(), dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_shape_error("add")),
    OpInfo("subtract", np.subtract, binary_samples(), dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_chain(_shape_error("subtract"), _dtype_error("subtract", np.bool_))),
    OpInfo("multiply", np.multiply, binary_samples(), dtypes=ALL_NUMERIC, gradgrad=True),
    OpInfo("divide", _divide_ref, _divisor_samples, dtypes=FLOATS16 + INTS, gradgrad=True,
           errors=_shape_error("divide")),
    OpInfo("floor_divide", np.floor_divide, _divisor_samples, dtypes=ALL_NUMERIC,
           errors=_chain(_shape_error("floor_divide"), _int_zero_division("floor_divide"),
                         _dtype_error("floor_divide", np.bool_))),
    OpInfo("remainder", np.remainder, _divisor_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_chain(_shape_error("remainder"), _int_zero_division("remainder"),
                         _dtype_error("remainder", np.bool_))),
    OpInfo("pow", _pow_ref, _pow_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_chain(_pow_errors, _dtype_error("pow", np.bool_, n=1))),
    OpInfo("elementwise_pow", np.power, _elementwise_pow_samples, dtypes=ALL_NUMERIC,
           gradgrad=True,
           errors=_chain(_shape_error("elementwise_pow"), _dtype_error("elementwise_pow", np.bool_))),
    OpInfo("maximum", np.maximum, _extremum_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_shape_error("maximum")),
    OpInfo("minimum", np.minimum, _extremum_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_shape_error("minimum")),
    OpInfo("fmax", np.fmax, _nan_ignoring_samples, dtypes=FLOATS16 + INTS, gradgrad=True,
           errors=_chain(_shape_error("fmax"), _dtype_error("fmax", np.bool_))),
    OpInfo("fmin", np.fmin, _nan_ignoring_samples, dtypes=FLOATS16 + INTS, gradgrad=True,
           errors=_chain(_shape_error("fmin"), _dtype_error("fmin", np.bool_))),
    OpInfo("nextafter", np.nextafter, _nextafter_samples, dtypes=FLOATS,
           errors=_nextafter_errors),
    OpInfo("clip", _clip_ref, _clip_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_chain(_clip_errors, _dtype_error("clip", np.bool_, n=1))),
    OpInfo("scale", _scale_ref, _scale_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_dtype_error("scale", np.bool_, n=1)),
    # unary
    OpInfo("neg", np.negative, unary_samples(), dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_dtype_error("neg", np.bool_, n=1)),
    OpInfo("abs", np.abs, unary_samples(), dtypes=ALL_NUMERIC, gradgrad=True),
    OpInfo("sign", np.sign, unary_samples(), dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_dtype_error("sign", np.bool_, n=1)),
    OpInfo("square", np.square, unary_samples(), dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_dtype_error("square", np.bool_, n=1)),
    _math("exp", np.exp, special=[np.inf, -np.inf, np.nan, 0.0, -100.0]),
    _math("log", np.log, 0.5, 2.0, special=[np.inf, 1.0, 1e-4]),
    _math("log2", np.log2, 0.5, 2.0),
    _math("log10", np.log10, 0.5, 2.0),
    _math("log1p", np.log1p, -0.5, 2.0, special=[1e-20, 0.0, np.inf]),
    _math("sqrt", np.sqrt, 0.5, 2.0, special=[0.0, 1e-30, np.inf]),
    _math("rsqrt", lambda x: 1 / np.sqrt(x), 0.5, 2.0),
    _math("reciprocal", np.reciprocal, samples=_reciprocal_samples),
    _math("sin", np.sin),
    _math("cos", np.cos),
    _math("tan", np.tan, -1.2, 1.2),
    _math("tanh", np.tanh, -3.0, 3.0, special=[50.0, -50.0, np.inf, 0.0]),
    _math("sinh", np.sinh),
    _math("cosh", np.cosh),
    _math("asin", np.arcsin, -0.9, 0.9),
    _math("acos", np.arccos, -0.9, 0.9),
    _math("atan", np.arctan, -3.0, 3.0),
    _math("acosh", _quiet(np.arccosh), 1.2, 3.0, special=[1.0, 0.5, np.inf],
          errors=_dtype_error("acosh", np.bool_, n=1)),
    _math("asinh", np.arcsinh, -3.0, 3.0, special=[0.0, -0.0, 1e-30, 1e30, -np.inf],
          errors=_dtype_error("asinh", np.bool_, n=1)),
    _math("atanh", _quiet(np.arctanh), -0.9, 0.9, special=[1.0, -1.0, 1.5, 0.0],
          errors=_dtype_error("atanh", np.bool_, n=1)),
    _math("sigmoid", _sigmoid_ref, -4.0, 4.0, special=[-1000.0, 1000.0, 0.0, -20.0, 20.0]),
    _math("erf", _erf_ref, -3.0, 3.0, special=[0.0, -0.0, 1e-10, -1e-300, 0.5, 2.4, 2.5, 2.6,
                                                3.5, -5.0, 6.0, 30.0, np.inf, -np.inf, np.nan]),
    _math("expm1", np.expm1, special=[1e-10, -1e-10, 0.0, -0.0, 10.0, -30.0, np.inf, -np.inf,
                                      np.nan], errors=_dtype_error("expm1", np.bool_, n=1)),
    _math("erfinv", _erfinv_ref, -0.95, 0.95,
          special=[0.0, -0.0, 1e-30, 0.5, -0.9999, 0.999999, 1 - 1e-7, 1.0, -1.0, 1.5, np.nan],
          errors=_dtype_error("erfinv", np.bool_, n=1)),
    OpInfo("lgamma", _lgamma_ref, _gamma_samples([1.0, 2.0, 0.5, 1e-30, -2.5, 100.0, 0.0, -1.0,
                                                   np.inf, -np.inf, np.nan]),
           dtypes=MATH_DTYPES, gradgrad=True, tol=INT_AS_FLOAT32,
           errors=_dtype_error("lgamma", np.bool_, n=1)),
    OpInfo("digamma", _digamma_ref, _gamma_samples([1.0, 2.0, 0.5, 1e-8, -2.5, 1e4, 0.0, -0.0,
                                                     -3.0, np.inf, np.nan]),
           dtypes=MATH_DTYPES, gradgrad=True, tol=INT_AS_FLOAT32,
           errors=_dtype_error("digamma", np.bool_, n=1)),
    OpInfo("polygamma", _polygamma_ref, _polygamma_samples, dtypes=MATH_DTYPES, gradgrad=True,
           tol=INT_AS_FLOAT32, errors=_polygamma_errors),
    OpInfo("atan2", _atan2_ref, _atan2_samples, dtypes=MATH_DTYPES, gradgrad=True,
           tol=INT_AS_FLOAT64,
           errors=_chain(_shape_error("atan2"), _dtype_error("atan2", np.bool_))),
    OpInfo("logit", _logit_ref, _logit_samples, dtypes=MATH_DTYPES, gradgrad=True,
           tol=INT_AS_FLOAT32, errors=_dtype_error("logit", np.bool_, n=1)),
    OpInfo("heaviside", _heaviside_ref, _heaviside_samples, dtypes=MATH_DTYPES, gradgrad=True,
           grad_inputs=(1,),  # x: a step, zero gradient but central differences jump at 0
           errors=_chain(_shape_error("heaviside"), _dtype_error("heaviside", np.bool_))),
    OpInfo("floor", _step_ref(np.floor), unary_samples(), dtypes=ALL_NUMERIC, gradgrad=True),
    OpInfo("ceil", _step_ref(np.ceil), unary_samples(), dtypes=ALL_NUMERIC, gradgrad=True),
    OpInfo("trunc", _step_ref(np.trunc), unary_samples(), dtypes=ALL_NUMERIC, gradgrad=True),
    OpInfo("round", _round_ref, _round_samples, dtypes=ALL_NUMERIC, gradgrad=True),
    # comparisons and tests
    *[OpInfo(name, ref, _compare_samples, dtypes=ALL_NUMERIC + BOOL, errors=_shape_error(name))
      for name, ref in [("equal", np.equal), ("not_equal", np.not_equal),
                        ("less_than", np.less), ("less_equal", np.less_equal),
                        ("greater_than", np.greater), ("greater_equal", np.greater_equal)]],
    OpInfo("isclose", _isclose_ref, _close_samples, dtypes=FLOATS + INTS,
           errors=_shape_error("isclose")),
    OpInfo("allclose", _allclose_ref, _close_samples, dtypes=FLOATS + INTS,
           errors=_shape_error("allclose")),
    *[OpInfo(name, ref, _test_samples, dtypes=ALL_NUMERIC + BOOL)
      for name, ref in [("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite)]],
    # logic and bits
    *[OpInfo(name, ref, _logic_binary_samples, dtypes=ALL_NUMERIC + BOOL, errors=_shape_error(name))
      for name, ref in [("logical_and", np.logical_and), ("logical_or", np.logical_or),
                        ("logical_xor", np.logical_xor)]],
    OpInfo("logical_not", np.logical_not, _logic_unary_samples, dtypes=ALL_NUMERIC + BOOL),
    *[OpInfo(name, ref, _bits_binary_samples, dtypes=INTS + BOOL,
             errors=_chain(_shape_error(name, np.int32), _dtype_error(name, F)))
      for name, ref in [("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                        ("bitwise_xor", np.bitwise_xor)]],
    OpInfo("bitwise_not", np.invert, unary_samples(-100, 100), dtypes=INTS + BOOL,
           errors=_dtype_error("bitwise_not", F, n=1)),
    # selection
    OpInfo("where", np.where, _where_samples, dtypes=ALL_NUMERIC + BOOL, gradgrad=True,
           errors=_where_errors),
    # sign bits, divisors
    OpInfo("signbit", np.signbit, _test_samples, dtypes=ALL_NUMERIC,
           errors=_dtype_error("signbit", np.bool_, n=1)),
    *[OpInfo(name, ref, binary_samples(-30, 30), dtypes=INTS,
             errors=_chain(_shape_error(name, np.int32), _dtype_error(name, F)))
      for name, ref in [("gcd", np.gcd), ("lcm", np.lcm)]],
    *[OpInfo(name, _bessel_ref(n, scaled), _bessel_samples, dtypes=FLOATS + INTS,
             gradgrad=True, errors=_dtype_error(name, np.bool_, n=1))
      for name, n, scaled in [("i0", 0, False), ("i0e", 0, True), ("i1", 1, False),
                              ("i1e", 1, True)]],
]
