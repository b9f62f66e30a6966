"""More of Paddle's math API: atan2, expm1, lerp, logit, deg2rad/rad2deg, frac, heaviside,
add_n, nansum and nanmean, as functions and Tensor methods.

Expected values are NumPy statements or central differences; dtype rules and the values
at Paddle's conventions (logit's gradient outside its domain, ...) were checked against
PaddlePaddle 3.3.1, where a comment says so.
"""

import numpy as np
import pytest

import dygrad as paddle

T = paddle.to_tensor
RNG = np.random.default_rng(7)


def _close(t, expected, dtype=None, rtol=1e-6, atol=1e-7):
    expected = np.asarray(expected)
    assert isinstance(t, paddle.Tensor)
    assert t.numpy().dtype == np.dtype(dtype or expected.dtype)
    np.testing.assert_allclose(t.numpy(), expected, rtol=rtol, atol=atol)


def _grads(fn, *values):
    """Gradients of sum(fn(*xs) * w) for a fixed random w, at float64 leaves ``values``."""
    xs = [T(np.asarray(v, np.float64), stop_gradient=False) for v in values]
    out = fn(*xs)
    w = np.random.default_rng(0).standard_normal(out.shape)
    (out * T(w)).sum().backward()
    return [x.grad.numpy() for x in xs], w


def _numeric(fn, values, i, w, eps=1e-6):
    """Central differences of sum(fn(*values) * w) with respect to values[i]."""
    values = [np.array(v, np.float64) for v in values]
    g = np.zeros_like(values[i])
    for k in np.ndindex(g.shape):
        old = values[i][k]
        values[i][k] = old + eps
        fp = np.sum(fn(*[T(v) for v in values]).numpy() * w)
        values[i][k] = old - eps
        fm = np.sum(fn(*[T(v) for v in values]).numpy() * w)
        values[i][k] = old
        g[k] = (fp - fm) / (2 * eps)
    return g


def _check_grads(fn, *values):
    grads, w = _grads(fn, *values)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g, _numeric(fn, values, i, w), rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------------------
# atan2
# ---------------------------------------------------------------------------

def test_atan2_values_broadcasting_and_method():
    x = RNG.uniform(-2, 2, (3, 1)).astype(np.float32)
    y = RNG.uniform(-2, 2, (4,)).astype(np.float32)
    _close(paddle.atan2(T(x), T(y)), np.arctan2(x, y))
    _close(T(x).atan2(T(y)), np.arctan2(x, y))
    # the four quadrants and the signed zeros, as np.arctan2 (and Paddle 3.3.1)
    z = paddle.atan2(T([1.0, 1.0, -1.0, -1.0, 0.0, 0.0, -0.0]),
                     T([1.0, -1.0, -1.0, 1.0, 0.0, -0.0, -1.0]))
    _close(z, np.array([np.pi / 4, 3 * np.pi / 4, -3 * np.pi / 4, -np.pi / 4, 0.0, np.pi, -np.pi],
                       np.float32))


def test_atan2_dtypes_as_paddle():
    # integers give float64 in Paddle 3.3.1; float16 and float64 are kept
    for d in ("int32", "int64"):
        _close(paddle.atan2(T([1, -1], dtype=d), T([2, -3], dtype=d)),
               np.arctan2([1.0, -1.0], [2.0, -3.0]))
    assert paddle.atan2(T([1.0], dtype="float16"), T([2.0], dtype="float16")).dtype == paddle.float16
    assert paddle.atan2(T([1.0]), T([2.0], dtype="float64")).dtype == paddle.float64


def test_atan2_errors():
    with pytest.raises(ValueError, match=r"atan2: shapes \[2\] and \[3\] cannot be broadcast"):
        paddle.atan2(T([1.0, 2.0]), T([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError, match="atan2: x has dtype bool"):
        paddle.atan2(T([True]), T([False]))
    with pytest.raises(TypeError, match="atan2: y must be a Tensor"):
        paddle.atan2(T([1.0]), 2.0)
    with pytest.raises(TypeError, match="only floating-point dtypes promote"):
        paddle.atan2(T([1]), T([1], dtype="int32"))


def test_atan2_gradients():
    _check_grads(paddle.atan2, RNG.uniform(0.5, 2, (2, 3)), RNG.uniform(-2, 2, (3,)))
    # NaN at the origin, as Paddle 3.3.1
    with np.errstate(invalid="ignore"):
        (gx, gy), _ = _grads(paddle.atan2, [0.0], [0.0])
    assert np.isnan(gx).all() and np.isnan(gy).all()


# ---------------------------------------------------------------------------
# expm1
# ---------------------------------------------------------------------------

def test_expm1_is_accurate_for_small_x():
    x = np.array([1e-10, -1e-12, 0.0, 1.0, -3.0], np.float32)
    out = paddle.expm1(T(x))
    _close(out, np.expm1(x))
    assert out.numpy()[0] == np.float32(1e-10)  # exp(x) - 1 would give 0 in float32
    _close(T(x).expm1(), np.expm1(x))


def test_expm1_dtypes_and_gradient():
    _close(paddle.expm1(T([1, 2], dtype="int32")), np.expm1([1.0, 2.0]).astype(np.float32))
    _close(paddle.expm1(T([1, 2])), np.expm1([1.0, 2.0]).astype(np.float32))
    with pytest.raises(TypeError, match="expm1: x has dtype bool"):
        paddle.expm1(T([True]))
    with pytest.raises(TypeError, match="expm1: x must be a Tensor"):
        paddle.expm1([1.0])
    _check_grads(paddle.expm1, RNG.uniform(-2, 2, (2, 3)))
