"""The elementwise API: arithmetic, math functions, comparisons, logic, bits and where;
Tensor operators with Python scalars and NumPy arrays; Paddle's dtype rules; gradients
and their conventions at ties, bounds and step functions; in-place variants.

Expected values are NumPy statements, or, where Paddle's convention is the point
(rounding, signs of remainders, dtypes, gradient ties), values captured from
PaddlePaddle 3.3.1.
"""

import inspect
import math

import numpy as np
import pytest

import dygrad as paddle

T = paddle.to_tensor


def _grad(fn, *values):
    """Gradients of sum(fn(*xs)) with respect to float64 leaves holding ``values``."""
    xs = [T(np.asarray(v, np.float64), stop_gradient=False) for v in values]
    fn(*xs).sum().backward()
    return [x.grad.numpy() for x in xs]


def _close(t, expected, dtype=None):
    expected = np.asarray(expected)
    assert isinstance(t, paddle.Tensor)
    assert t.numpy().dtype == (expected.dtype if dtype is None else np.dtype(dtype))
    np.testing.assert_allclose(t.numpy(), expected, rtol=1e-6, atol=1e-7)


RNG = np.random.default_rng(0)
A = RNG.uniform(-2, 2, (3, 4)).astype(np.float32)
B = RNG.uniform(0.5, 2, (4,)).astype(np.float32)  # broadcasts against A, never zero

# ---------------------------------------------------------------------------
# binary functions and their Tensor methods
# ---------------------------------------------------------------------------

BINARY = [
    ("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply),
    ("divide", np.true_divide), ("floor_divide", np.floor_divide), ("remainder", np.remainder),
    ("mod", np.remainder), ("floor_mod", np.remainder), ("maximum", np.maximum),
    ("minimum", np.minimum), ("equal", np.equal), ("not_equal", np.not_equal),
    ("less_than", np.less), ("less_equal", np.less_equal), ("greater_than", np.greater),
    ("greater_equal", np.greater_equal), ("logical_and", np.logical_and),
    ("logical_or", np.logical_or), ("logical_xor", np.logical_xor),
]


@pytest.mark.parametrize("name,ref", BINARY, ids=[n for n, _ in BINARY])
def test_binary_function_and_method(name, ref):
    expected = ref(A, B)
    _close(getattr(paddle, name)(T(A), T(B)), expected)
    _close(getattr(T(A), name)(T(B)), expected)


def test_pow_function():
    x = T(B)
    _close(paddle.pow(x, 2), B ** 2)
    _close(paddle.pow(x, 0.5), np.sqrt(B))
    _close(paddle.pow(x, T(A)), np.power(B, A))
    _close(x.pow(3.0), B ** 3)
    with pytest.raises(TypeError, match="pow: y must be"):
        paddle.pow(x, "2")


def test_pow_dtypes_as_paddle():
    i = T([1, 2, 3])
    assert paddle.pow(i, 3).dtype == paddle.int64
    np.testing.assert_array_equal(paddle.pow(i, 3).numpy(), [1, 8, 27])
    assert paddle.pow(T([1, 2], dtype="int32"), 2).dtype == paddle.int32
    assert paddle.pow(i, T([2, 2, 2])).dtype == paddle.int64
    # a float exponent computes in float32 (Paddle's paddle.pow would truncate it)
    _close(paddle.pow(i, 2.5), np.power([1, 2, 3], 2.5).astype(np.float32))
    with pytest.raises(ValueError, match="whole exponent"):
        paddle.pow(i, -1)
    with pytest.raises(TypeError, match="bool"):
        paddle.pow(T([True]), 2)


def test_divide_integers_give_float32_even_with_float64_default():
    i, j = T([5, -3, 7]), T([2, 2, 2])
    _close(paddle.divide(i, j), np.array([2.5, -1.5, 3.5], np.float32))
    paddle.set_default_dtype("float64")
    assert (i / j).dtype == paddle.float32  # as Paddle 3.3.1
    assert paddle.exp(i).dtype == paddle.float32


def test_floor_divide_and_remainder_signs_as_python():
    x, y = T([-7, 7, -7, 7]), T([2, 2, -2, -2])
    np.testing.assert_array_equal(paddle.floor_divide(x, y).numpy(), [-4, 3, 3, -4])
    np.testing.assert_array_equal(paddle.remainder(x, y).numpy(), [1, 1, -1, -1])
    xf = T([-7.5, 7.5, -0.5, 3.0])
    yf = T([-2.0, -2.0, 3.0, 3.0])
    np.testing.assert_array_equal(paddle.remainder(xf, yf).numpy(), [-1.5, -0.5, 2.5, 0.0])
    np.testing.assert_array_equal(paddle.floor_divide(xf, yf).numpy(), [3.0, -4.0, -1.0, 1.0])


def test_integer_division_by_zero_raises():
    with pytest.raises(ZeroDivisionError, match="floor_divide: integer division by zero"):
        T([1, 2]) // 0
    with pytest.raises(ZeroDivisionError, match="remainder"):
        paddle.remainder(T([1, 2]), T([1, 0]))


def test_float_division_by_zero_gives_inf_and_nan():
    with np.errstate(divide="ignore", invalid="ignore"):
        out = T([1.0, -1.0, 0.0], dtype="float64") / 0.0
        np.testing.assert_array_equal(out.numpy(), [np.inf, -np.inf, np.nan])
        np.testing.assert_array_equal((T([1.0]) % 0.0).numpy(), [np.nan])


def test_broadcast_error_names_the_op():
    with pytest.raises(ValueError, match=r"subtract: shapes \[2\] and \[3\] cannot be broadcast"):
        paddle.subtract(T([1.0, 2.0]), T([1.0, 2.0, 3.0]))


# ---------------------------------------------------------------------------
# operators, reflected forms and dtype rules
# ---------------------------------------------------------------------------

OPERATORS = [
    (lambda a, b: a + b, np.add), (lambda a, b: a - b, np.subtract),
    (lambda a, b: a * b, np.multiply), (lambda a, b: a / b, np.true_divide),
    (lambda a, b: a // b, np.floor_divide), (lambda a, b: a % b, np.remainder),
    (lambda a, b: a ** b, np.power), (lambda a, b: a < b, np.less),
    (lambda a, b: a <= b, np.less_equal), (lambda a, b: a > b, np.greater),
    (lambda a, b: a >= b, np.greater_equal), (lambda a, b: a == b, np.equal),
    (lambda a, b: a != b, np.not_equal),
]
OP_IDS = ["+", "-", "*", "/", "//", "%", "**", "<", "<=", ">", ">=", "==", "!="]


@pytest.mark.parametrize("op,ref", OPERATORS, ids=OP_IDS)
def test_operators(op, ref):
    x, y = np.abs(A) + 0.5, B
    _close(op(T(x), T(y)), ref(x, y))                  # tensor, tensor
    _close(op(T(x), 1.5), ref(x, np.float32(1.5)))     # tensor, Python float
    _close(op(1.5, T(y)), ref(np.float32(1.5), y))     # reflected Python float
    _close(op(T(x), y), ref(x, y))                      # tensor, NumPy array
    _close(op(x, T(y)), ref(x, y))                      # reflected NumPy array


def test_integer_operators_with_python_ints():
    i = T([5, -3, 7])
    np.testing.assert_array_equal((7 // i).numpy(), [1, -3, 1])
    np.testing.assert_array_equal((7 % i).numpy(), [2, -2, 0])
    np.testing.assert_array_equal((i // -2).numpy(), [-3, 1, -4])
    np.testing.assert_array_equal((2 ** T([1, 2, 3])).numpy(), [2, 4, 8])
    assert (2 ** T([1, 2, 3])).dtype == paddle.int64
    assert (3 > i).dtype == paddle.bool
    np.testing.assert_array_equal((3 > i).numpy(), [False, True, False])


def test_unary_operators():
    i = T([5, -3, 7])
    np.testing.assert_array_equal((-i).numpy(), [-5, 3, -7])
    np.testing.assert_array_equal(abs(i).numpy(), [5, 3, 7])
    assert (-i).dtype == paddle.int64
    np.testing.assert_array_equal((~i).numpy(), [-6, 2, -8])
    np.testing.assert_array_equal((~T([True, False])).numpy(), [False, True])


def test_bitwise_operators():
    i, j = T([5, -3, 7]), T([1, 1, 1])
    np.testing.assert_array_equal((i & j).numpy(), [1, 1, 1])
    np.testing.assert_array_equal((i | j).numpy(), [5, -3, 7])
    np.testing.assert_array_equal((i ^ j).numpy(), [4, -4, 6])
    np.testing.assert_array_equal((5 & i).numpy(), [5, 5, 5])
    b = T([True, False])
    np.testing.assert_array_equal((b ^ T([True, True])).numpy(), [False, True])


def test_dtype_rules_that_keep_or_promote():
    f = T([1.0, 2.0])
    assert (f + 1.5).dtype == paddle.float32
    assert (2 * f).dtype == paddle.float32
    assert (T([1.0], dtype="float16") + f).dtype == paddle.float32
    assert (f + np.array([1.0, 2.0])).dtype == paddle.float64
    assert (T([1, 2]) + True).dtype == paddle.int64
    assert (T([1, 2], dtype="int32") + 1).dtype == paddle.int32


@pytest.mark.parametrize("expr", [
    lambda: T([1, 2]) + T([1, 2], dtype="int32"),
    lambda: T([1.0, 2.0]) + np.array([1, 2]),
    lambda: T([1, 2]) == T([1, 2], dtype="int32"),
    lambda: paddle.maximum(T([1, 2]), T([1, 2], dtype="int32")),
    lambda: paddle.logical_and(T([1, 2]), T([1.0, 2.0])),
])
def test_mixed_int_dtypes_raise_type_error(expr):
    with pytest.raises(TypeError, match="only floating-point dtypes promote"):
        expr()


def test_int_tensor_with_float_scalar_gives_float32():
    i = T([1, 2, 3])
    _close(i + 1.5, np.array([2.5, 3.5, 4.5], np.float32))
    _close(1.5 - i, np.array([0.5, -0.5, -1.5], np.float32))
    _close(i ** 2.5, np.power([1.0, 2.0, 3.0], 2.5).astype(np.float32))
    np.testing.assert_array_equal((i == 2.0).numpy(), [False, True, False])
    np.testing.assert_array_equal((i < 2.5).numpy(), [True, True, False])


# ---------------------------------------------------------------------------
# unary functions
# ---------------------------------------------------------------------------

def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


UNARY = [
    ("neg", np.negative, A), ("abs", np.abs, A), ("sign", np.sign, A), ("square", np.square, A),
    ("exp", np.exp, A), ("log", np.log, B), ("log2", np.log2, B), ("log10", np.log10, B),
    ("log1p", np.log1p, B), ("sqrt", np.sqrt, B), ("rsqrt", lambda x: 1 / np.sqrt(x), B),
    ("reciprocal", np.reciprocal, B), ("sin", np.sin, A), ("cos", np.cos, A), ("tan", np.tan, A / 2),
    ("tanh", np.tanh, A), ("sinh", np.sinh, A), ("cosh", np.cosh, A), ("asin", np.arcsin, A / 2),
    ("acos", np.arccos, A / 2), ("atan", np.arctan, A), ("sigmoid", lambda x: 1 / (1 + np.exp(-x)), A),
    ("erf", lambda x: _erf(x).astype(np.float32), A), ("floor", np.floor, A), ("ceil", np.ceil, A),
    ("round", np.round, A), ("trunc", np.trunc, A), ("isnan", np.isnan, A), ("isinf", np.isinf, A),
    ("isfinite", np.isfinite, A), ("logical_not", np.logical_not, A),
]


@pytest.mark.parametrize("name,ref,x", UNARY, ids=[n for n, _, _ in UNARY])
def test_unary_function_and_method(name, ref, x):
    _close(getattr(paddle, name)(T(x)), ref(x))
    _close(getattr(T(x), name)(), ref(x))


@pytest.mark.parametrize("name", ["exp", "sqrt", "sin", "sigmoid", "erf", "reciprocal", "rsqrt",
                                  "tanh", "log1p"])
def test_math_of_integers_is_float32(name):
    out = getattr(paddle, name)(T([1, 2, 4]))
    assert out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), getattr(paddle, name)(T([1.0, 2.0, 4.0])).numpy())


@pytest.mark.parametrize("name", ["abs", "neg", "square", "sign", "floor", "ceil", "round", "trunc"])
def test_integer_preserving_functions(name):
    out = getattr(paddle, name)(T([-2, 0, 3]))
    assert out.dtype == paddle.int64


def test_round_halves_to_even_as_paddle():
    out = paddle.round(T([0.5, 1.5, 2.5, -0.5, -1.5, -2.5]))
    np.testing.assert_array_equal(out.numpy(), [0.0, 2.0, 2.0, -0.0, -2.0, -2.0])
    _close(paddle.round(T([1.2345, 2.5, 0.125]), decimals=2), np.array([1.23, 2.5, 0.12], np.float32))
    np.testing.assert_array_equal(paddle.round(T([1234, 25]), decimals=-2).numpy(), [1234, 25])


def test_trunc_takes_input():
    assert list(inspect.signature(paddle.trunc).parameters) == ["input", "name"]
    np.testing.assert_array_equal(paddle.trunc(input=T([-1.7, 1.7])).numpy(), [-1.0, 1.0])


def test_erf_is_accurate_in_float64():
    x = np.concatenate([np.linspace(-7, 7, 20001), np.geomspace(1e-300, 7, 500)])
    out = paddle.erf(T(x)).numpy()
    expected = _erf(x)
    rel = np.abs(out - expected) / np.maximum(np.abs(expected), 1e-300)
    assert rel.max() < 2e-15
    np.testing.assert_array_equal(paddle.erf(T([np.inf, -np.inf, 0.0])).numpy(), [1.0, -1.0, 0.0])
    assert np.isnan(paddle.erf(T([np.nan])).numpy()).all()


def test_sigmoid_does_not_overflow():
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        out = paddle.sigmoid(T([-1000.0, 0.0, 1000.0])).numpy()
    np.testing.assert_array_equal(out, [0.0, 0.5, 1.0])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_domain_errors_give_nan_and_inf():
    out = paddle.log(T([-1.0, 0.0])).numpy()
    assert np.isnan(out[0]) and out[1] == -np.inf
    assert np.isnan(paddle.sqrt(T([-1.0])).numpy()).all()
    np.testing.assert_array_equal(paddle.rsqrt(T([0.0, 4.0])).numpy(), [np.inf, 0.5])


def test_special_value_tests():
    x = T([1.0, np.inf, -np.inf, np.nan])
    np.testing.assert_array_equal(paddle.isnan(x).numpy(), [False, False, False, True])
    np.testing.assert_array_equal(paddle.isinf(x).numpy(), [False, True, True, False])
    np.testing.assert_array_equal(paddle.isfinite(x).numpy(), [True, False, False, False])
    np.testing.assert_array_equal(paddle.isnan(T([1, 2])).numpy(), [False, False])


def test_maximum_propagates_nan():
    out = paddle.maximum(T([np.nan, 1.0]), T([1.0, np.nan])).numpy()
    assert np.isnan(out).all()


# ---------------------------------------------------------------------------
# clip and scale
# ---------------------------------------------------------------------------

def test_clip():
    x = T([0.0, 1.0, 2.0, 3.0, 4.0])
    _close(paddle.clip(x, 1.0, 3.0), np.array([1, 1, 2, 3, 3], np.float32))
    _close(paddle.clip(x, min=1.5), np.array([1.5, 1.5, 2, 3, 4], np.float32))
    _close(x.clip(max=2), np.array([0, 1, 2, 2, 2], np.float32))
    _close(paddle.clip(x), x.numpy())
    _close(paddle.clip(x, T(1.5), T(2.5)), np.array([1.5, 1.5, 2, 2.5, 2.5], np.float32))


def test_clip_dtypes_as_paddle():
    i = T([1, 2, 3])
    _close(paddle.clip(i, 1.5, 2.5), np.array([1.5, 2.0, 2.5], np.float32))
    _close(paddle.clip(i, 2.0, 3.0), np.array([2, 2, 3], np.float32))
    out = paddle.clip(T([1, 5], dtype="int32"), 2, 3)
    assert out.dtype == paddle.int32
    np.testing.assert_array_equal(out.numpy(), [2, 3])


def test_clip_min_above_max_raises():
    with pytest.raises(ValueError, match="max should be greater than or equal to min"):
        paddle.clip(T([1.0]), 3.0, 1.0)


def test_scale():
    x = T([1.0, 2.0, 4.0])
    _close(paddle.scale(x, 2.0, 1.0), np.array([3, 5, 9], np.float32))
    _close(paddle.scale(x, 2.0, 1.0, bias_after_scale=False), np.array([4, 6, 10], np.float32))
    _close(x.scale(T(3.0)), np.array([3, 6, 12], np.float32))
    _close(paddle.scale(x, -1.0, act="relu"), np.zeros(3, np.float32))
    _close(paddle.scale(x, 2.0, act="tanh"), np.tanh(np.array([2, 4, 8], np.float32)))
    with pytest.raises(ValueError, match="scale: act must name"):
        paddle.scale(x, act="no_such_op")


def test_scale_of_integers_truncates_scale_and_bias_as_paddle():
    out = paddle.scale(T([1, 2, 3]), 2.5, 1.0)
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), [3, 5, 7])


# ---------------------------------------------------------------------------
# comparisons, isclose, logic, bits
# ---------------------------------------------------------------------------

def test_comparisons_are_bool_and_not_differentiable():
    x = T([1.0, 2.0, 3.0], stop_gradient=False)
    out = x > 2.0
    assert out.dtype == paddle.bool and out.stop_gradient
    np.testing.assert_array_equal(paddle.equal(x, 2.0).numpy(), [False, True, False])


def test_isclose_and_allclose():
    x, y = T([1.0, 1e-9, np.nan]), T([1.0 + 1e-6, 0.0, np.nan])
    np.testing.assert_array_equal(paddle.isclose(x, y).numpy(), [True, True, False])
    np.testing.assert_array_equal(paddle.isclose(x, y, equal_nan=True).numpy(), [True, True, True])
    np.testing.assert_array_equal(paddle.isclose(x, y, rtol=0.0, atol=0.0).numpy(),
                                  [False, False, False])
    out = paddle.allclose(x, y)
    assert out.shape == [] and out.dtype == paddle.bool and not bool(out)
    assert bool(paddle.allclose(x, y, equal_nan=True))
    assert bool(T([1.0, 2.0]).allclose(T([1.0, 2.0 + 1e-7])))
    assert list(inspect.signature(paddle.allclose).parameters) == [
        "x", "y", "rtol", "atol", "equal_nan", "name"]


def test_logical_ops_treat_nonzero_as_true():
    x, y = T([0, 1, 2, 0]), T([0, 0, 3, 5])
    np.testing.assert_array_equal(paddle.logical_and(x, y).numpy(), [False, False, True, False])
    np.testing.assert_array_equal(paddle.logical_or(x, y).numpy(), [False, True, True, True])
    np.testing.assert_array_equal(paddle.logical_xor(x, y).numpy(), [False, True, False, True])
    np.testing.assert_array_equal(paddle.logical_not(x).numpy(), [True, False, False, True])
    out = paddle.logical_and(T([[True], [False]]), T([True, False]))
    np.testing.assert_array_equal(out.numpy(), [[True, False], [False, False]])


def test_logical_out_argument():
    target = T([False, False])
    out = paddle.logical_and(T([True, False]), T([True, True]), out=target)
    assert out is target
    np.testing.assert_array_equal(target.numpy(), [True, False])
    target = T([0, 0])
    paddle.bitwise_not(T([1, 2]), out=target)
    np.testing.assert_array_equal(target.numpy(), [-2, -3])


def test_bitwise_functions():
    x, y = T([12, -3], dtype="int32"), T([10, 5], dtype="int32")
    np.testing.assert_array_equal(paddle.bitwise_and(x, y).numpy(), [8, 5])
    np.testing.assert_array_equal(paddle.bitwise_or(x, y).numpy(), [14, -3])
    np.testing.assert_array_equal(paddle.bitwise_xor(x, y).numpy(), [6, -8])
    np.testing.assert_array_equal(x.bitwise_not().numpy(), [-13, 2])
    assert paddle.bitwise_and(x, y).dtype == paddle.int32
    with pytest.raises(TypeError, match="bitwise_and: x has dtype float32"):
        paddle.bitwise_and(T([1.0]), T([1.0]))


# ---------------------------------------------------------------------------
# where
# ---------------------------------------------------------------------------

def test_where_selects_with_broadcasting():
    c = T([[True], [False]])
    out = paddle.where(c, T([1.0, 2.0, 3.0]), T(0.0))
    np.testing.assert_array_equal(out.numpy(), [[1, 2, 3], [0, 0, 0]])
    out = T([True, False, True]).where(T([1.0, 2.0, 4.0]), T(0.0))
    np.testing.assert_array_equal(out.numpy(), [1.0, 0.0, 4.0])


def test_where_with_numbers():
    c = T([True, False])
    out = paddle.where(c, 1.0, 2.0)
    assert out.dtype == paddle.float32
    np.testing.assert_array_equal(out.numpy(), [1.0, 2.0])
    assert paddle.where(c, 1, 2).dtype == paddle.int64
    assert paddle.where(c, 1, 2.5).dtype == paddle.float32
    assert paddle.where(c, T([1.0, 2.0], dtype="float64"), 0).dtype == paddle.float64
    paddle.set_default_dtype("float64")
    assert paddle.where(c, 1.0, 2.0).dtype == paddle.float64


def test_where_errors():
    with pytest.raises(ValueError, match="either both or neither"):
        paddle.where(T([True]), T([1.0]))
    with pytest.raises(ValueError, match="condition is expected to be a bool"):
        paddle.where(T([1, 0]), T([1.0, 2.0]), T([3.0, 4.0]))
    with pytest.raises(TypeError, match="only floating-point dtypes promote"):
        paddle.where(T([True]), T([1]), T([1], dtype="int32"))


def test_where_with_only_condition_is_nonzero():
    out = paddle.where(T([True, False, True]))
    assert isinstance(out, tuple) and len(out) == 1
    np.testing.assert_array_equal(out[0].numpy(), [0, 2])


# ---------------------------------------------------------------------------
# gradients and Paddle's conventions
# ---------------------------------------------------------------------------

def test_maximum_minimum_share_gradient_on_ties():
    gx, gy = _grad(paddle.maximum, [1.0, 2.0, 3.0], [1.0, 1.0, 4.0])
    np.testing.assert_array_equal(gx, [0.5, 1.0, 0.0])
    np.testing.assert_array_equal(gy, [0.5, 0.0, 1.0])
    gx, gy = _grad(paddle.minimum, [1.0, 2.0, 3.0], [1.0, 1.0, 4.0])
    np.testing.assert_array_equal(gx, [0.5, 0.0, 1.0])
    np.testing.assert_array_equal(gy, [0.5, 1.0, 0.0])


def test_clip_gradient_includes_the_bounds():
    (g,) = _grad(lambda x: paddle.clip(x, 1.0, 3.0), [0.0, 1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(g, [0, 1, 1, 1, 0])
    (g,) = _grad(lambda x: paddle.clip(x, min=1.0), [0.0, 1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(g, [0, 1, 1, 1, 1])


@pytest.mark.parametrize("name", ["sign", "floor", "ceil", "round", "trunc"])
def test_step_functions_have_zero_gradient(name):
    (g,) = _grad(lambda x: getattr(paddle, name)(x) * x, [-1.5, 0.2, 1.0])
    np.testing.assert_array_equal(g, getattr(paddle, name)(T([-1.5, 0.2, 1.0])).numpy())


def test_abs_gradient_at_zero_is_zero():
    (g,) = _grad(paddle.abs, [-1.0, 0.0, 1.0])
    np.testing.assert_array_equal(g, [-1.0, 0.0, 1.0])


def test_pow_gradients_at_zero():
    np.testing.assert_array_equal(_grad(lambda x: paddle.pow(x, 2.0), [0.0, 1.0])[0], [0, 2])
    np.testing.assert_array_equal(_grad(lambda x: paddle.pow(x, 0.0), [0.0, 1.0])[0], [0, 0])
    gx, gy = _grad(paddle.pow, [0.0, 1.0, 2.0], [2.0, 3.0, 0.5])
    np.testing.assert_allclose(gx, [0.0, 3.0, 0.5 / np.sqrt(2)])
    np.testing.assert_allclose(gy, [0.0, 0.0, np.sqrt(2) * np.log(2)])


def test_remainder_and_divide_gradients():
    gx, gy = _grad(paddle.remainder, [5.0, -2.5], [3.0, 4.0])
    np.testing.assert_array_equal(gx, [1.0, 1.0])
    np.testing.assert_array_equal(gy, [-1.0, 1.0])
    gx, gy = _grad(paddle.divide, [1.0, 3.0], [2.0, -4.0])
    np.testing.assert_allclose(gx, [0.5, -0.25])
    np.testing.assert_allclose(gy, [-0.25, -3.0 / 16])


def test_floor_divide_is_not_differentiable():
    x = T([1.0, 2.0], stop_gradient=False)
    assert paddle.floor_divide(x, T([2.0, 2.0])).stop_gradient


def test_where_gradient_with_broadcasting():
    c = T([[True], [False]])
    x = T([1.0, 2.0, 3.0], stop_gradient=False)
    y = T(0.0, stop_gradient=False)
    paddle.where(c, x, y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(y.grad.numpy(), 3.0)


def test_broadcast_gradient_sums_back():
    x = T(A, stop_gradient=False)
    y = T(B, stop_gradient=False)
    (x - y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones_like(A))
    np.testing.assert_array_equal(y.grad.numpy(), np.full(B.shape, -3.0, np.float32))


@pytest.mark.parametrize("name,d2", [
    ("tanh", lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2)),
    ("sigmoid", lambda x: (s := 1 / (1 + np.exp(-x))) * (1 - s) * (1 - 2 * s)),
    ("erf", lambda x: -4 * x / np.sqrt(np.pi) * np.exp(-x * x)),
    ("sin", lambda x: -np.sin(x)),
    ("log", lambda x: -1 / x ** 2),
])
def test_second_derivatives(name, d2):
    v = np.array([0.3, 1.2, 2.0])
    x = T(v, stop_gradient=False)
    (g,) = paddle.grad(getattr(paddle, name)(x).sum(), x, create_graph=True)
    (gg,) = paddle.grad(g.sum(), x)
    np.testing.assert_allclose(gg.numpy(), d2(v), rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------------------
# in-place variants
# ---------------------------------------------------------------------------

INPLACE = [
    ("add_", (T([1.0, 1.0]),), lambda x: x + 1),
    ("subtract_", (2.0,), lambda x: x - 2),
    ("multiply_", (T(3.0),), lambda x: x * 3),
    ("scale_", (2.0, 1.0), lambda x: x * 2 + 1),
    ("clip_", (-0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5)),
    ("exp_", (), np.exp),
    ("sqrt_", (), lambda x: np.sqrt(np.abs(x))),
    ("tanh_", (), np.tanh),
    ("floor_", (), np.floor),
    ("ceil_", (), np.ceil),
    ("reciprocal_", (), np.reciprocal),
    ("round_", (), np.round),
]


@pytest.mark.parametrize("name,args,ref", INPLACE, ids=[n for n, _, _ in INPLACE])
def test_inplace_methods(name, args, ref):
    v = np.array([1.7, -0.4], np.float32)
    if name == "sqrt_":
        v = np.abs(v)
    x = T(v)
    version = x.inplace_version
    out = getattr(x, name)(*args)
    assert out is x and x.inplace_version == version + 1
    np.testing.assert_allclose(x.numpy(), ref(v).astype(np.float32), rtol=1e-6)


def test_inplace_functions_paddle_exports():
    for name in ["subtract_", "multiply_", "tanh_"]:
        assert callable(getattr(paddle, name))
    for name in ["add_", "scale_", "clip_", "exp_", "round_"]:
        assert not hasattr(paddle, name) and hasattr(paddle.Tensor, name)
    x = T([1.0, 2.0])
    paddle.subtract_(x, T([1.0, 1.0]))
    np.testing.assert_array_equal(x.numpy(), [0.0, 1.0])


def test_inplace_refuses_leaf_that_needs_gradient():
    x = T([1.0, 2.0], stop_gradient=False)
    with pytest.raises(RuntimeError, match="leaf tensor"):
        x.exp_()
    with paddle.no_grad():
        x.exp_()
    np.testing.assert_allclose(x.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)


def test_inplace_gradient_on_non_leaf():
    x = T([1.0, 2.0], dtype="float64", stop_gradient=False)
    y = x * 1
    y.scale_(3.0, 1.0)
    y.add_(x)
    (y * y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (4 * x.numpy() + 1) * 4)


def test_inplace_refuses_gradient_through_changed_input():
    x = T([1.0, 2.0], dtype="float64", stop_gradient=False)
    y = x * 1
    z = y.sin()
    y.add_(T([1.0, 1.0], dtype="float64"))
    with pytest.raises(RuntimeError, match="modified in place"):
        z.sum().backward()


def test_inplace_gradient_of_op_that_saves_its_output():
    x = T([1.0, 2.0], dtype="float64", stop_gradient=False)
    y = x * 1
    y.exp_()
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([1.0, 2.0]))


def test_inplace_keeps_dtype():
    with pytest.raises(TypeError, match="exp_: x has dtype int64"):
        T([1, 2]).exp_()
    with pytest.raises(TypeError, match="clip_"):
        T([1, 5]).clip_(1.5, 3.5)
    with pytest.raises(TypeError):
        T([1, 2]).add_(T([1.5, 1.5]))
    i = T([1, 5])
    i.clip_(2, 3)
    np.testing.assert_array_equal(i.numpy(), [2, 3])
    assert i.dtype == paddle.int64


def test_inplace_cannot_broadcast_x():
    with pytest.raises(ValueError, match="in-place"):
        T([1.0]).add_(T([1.0, 2.0]))


# ---------------------------------------------------------------------------
# signatures
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,params", [
    ("add", ["x", "y", "name"]), ("divide", ["x", "y", "name"]), ("pow", ["x", "y", "name"]),
    ("exp", ["x", "name"]), ("round", ["x", "decimals", "name"]),
    ("clip", ["x", "min", "max", "name"]),
    ("scale", ["x", "scale", "bias", "bias_after_scale", "act", "name"]),
    ("isclose", ["x", "y", "rtol", "atol", "equal_nan", "name"]),
    ("bitwise_and", ["x", "y", "out", "name"]), ("logical_not", ["x", "out", "name"]),
    ("where", ["condition", "x", "y", "name"]),
])
def test_signatures_as_paddle(name, params):
    assert list(inspect.signature(getattr(paddle, name)).parameters) == params
