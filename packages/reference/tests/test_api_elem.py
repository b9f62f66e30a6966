"""Elementwise functions added for Paddle 2.x coverage: the inverse hyperbolic functions,
fmax/fmin, stanh, frexp/ldexp/nextafter, equal_all, is_empty and increment."""

import numpy as np
import pytest

import dygrad as paddle


@pytest.mark.parametrize("name,ref,low,high,deriv", [
    ("acosh", np.arccosh, 1.5, 3.0, lambda x: 1 / np.sqrt(x * x - 1)),
    ("asinh", np.arcsinh, -3.0, 3.0, lambda x: 1 / np.sqrt(x * x + 1)),
    ("atanh", np.arctanh, -0.9, 0.9, lambda x: 1 / (1 - x * x)),
])
def test_inverse_hyperbolic(name, ref, low, high, deriv):
    a = np.random.default_rng(0).uniform(low, high, size=(3, 4))
    x = paddle.to_tensor(a, stop_gradient=False)
    out = getattr(paddle, name)(x)
    np.testing.assert_allclose(out.numpy(), ref(a), rtol=1e-12)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), deriv(a), rtol=1e-12)
    np.testing.assert_allclose(getattr(x, name)().numpy(), ref(a), rtol=1e-12)
    assert getattr(paddle, name)(paddle.to_tensor([2, 3])).dtype == paddle.float32
    with pytest.raises(TypeError, match=f"{name}: x has dtype bool"):
        getattr(paddle, name)(paddle.to_tensor([True]))


@pytest.mark.parametrize("name,ref", [("fmax", np.fmax), ("fmin", np.fmin)])
def test_fmax_fmin(name, ref):
    a = np.array([1.0, np.nan, 3.0, np.nan, 5.0])
    b = np.array([[np.nan, 2.0, 1.0, np.nan, 5.0], [0.0, 0.0, 4.0, 1.0, 6.0]])
    x, y = paddle.to_tensor(a, stop_gradient=False), paddle.to_tensor(b, stop_gradient=False)
    out = getattr(paddle, name)(x, y)
    np.testing.assert_array_equal(out.numpy(), ref(a, b))
    np.testing.assert_array_equal(getattr(x, name)(y).numpy(), ref(a, b))
    out.sum().backward()
    # ties and a NaN y send the gradient to x, as Paddle 3.3.1 does
    x_picked = (a >= b if name == "fmax" else a <= b) | np.isnan(b)
    np.testing.assert_array_equal(x.grad.numpy(), x_picked.sum(0))
    np.testing.assert_array_equal(y.grad.numpy(), (~x_picked).astype(float))
    ints = getattr(paddle, name)(paddle.to_tensor([1, 5]), paddle.to_tensor([3, 2]))
    assert ints.dtype == paddle.int64
    np.testing.assert_array_equal(ints.numpy(), ref([1, 5], [3, 2]))
    with pytest.raises(TypeError, match=f"{name}: y must be a Tensor"):
        getattr(paddle, name)(x, 2.0)
    with pytest.raises(TypeError, match=f"{name}: x has dtype bool"):
        getattr(paddle, name)(paddle.to_tensor([True]), paddle.to_tensor([False]))


def test_stanh():
    a = np.array([[1.0, -2.0, 0.0], [0.5, 3.0, -0.25]])
    x = paddle.to_tensor(a, stop_gradient=False)
    out = paddle.stanh(x)
    np.testing.assert_allclose(out.numpy(), 1.7159 * np.tanh(0.67 * a), rtol=1e-12)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 1.7159 * 0.67 / np.cosh(0.67 * a) ** 2,
                               rtol=1e-12)
    np.testing.assert_allclose(x.stanh(scale_a=1.0, scale_b=2.0).numpy(), 2 * np.tanh(a),
                               rtol=1e-12)
    ints = paddle.stanh(paddle.to_tensor([1, 2, 3]))
    assert ints.dtype == paddle.float32
    np.testing.assert_allclose(ints.numpy(), 1.7159 * np.tanh(0.67 * np.array([1, 2, 3])),
                               rtol=1e-6)
    # Paddle 3.3.1 gives these for stanh([1.5, 2.0, 3.0]) in float32
    np.testing.assert_allclose(paddle.stanh(paddle.to_tensor([1.5, 2.0, 3.0])).numpy(),
                               [1.3104088, 1.4957023, 1.6553755], rtol=1e-6)
    with pytest.raises(TypeError, match="stanh: x has dtype bool"):
        paddle.stanh(paddle.to_tensor([True]))


def test_frexp():
    a = np.array([0.0, 1.5, -8.0, 1e-40, -0.3, 7.999999, 1.0, 3e38], np.float32)
    x = paddle.to_tensor(a, stop_gradient=False)
    mantissa, exponent = paddle.frexp(x)
    m_ref, e_ref = np.frexp(a)
    np.testing.assert_array_equal(mantissa.numpy(), m_ref)
    np.testing.assert_array_equal(exponent.numpy(), e_ref)
    assert mantissa.dtype == exponent.dtype == paddle.float32
    (mantissa.sum() + exponent.sum()).backward()
    # 2 ** -exponent, as Paddle 3.3.1 (0 at 0; inf for the subnormal, NaN in Paddle)
    expected = np.where(a == 0, 0, 2.0 ** -e_ref.astype(np.float64))
    np.testing.assert_allclose(x.grad.numpy()[a != 1e-40], expected[a != 1e-40], rtol=1e-7)
    # Paddle 3.3.1: inf gives (inf, 1), NaN gives (NaN, NaN), -inf gives (-inf, 1)
    m, e = paddle.to_tensor([np.inf, np.nan, -np.inf]).frexp()
    np.testing.assert_array_equal(m.numpy(), [np.inf, np.nan, -np.inf])
    np.testing.assert_array_equal(e.numpy(), [1.0, np.nan, 1.0])
    with pytest.raises(TypeError, match="frexp: x has dtype int64"):
        paddle.frexp(paddle.to_tensor([1, 2]))


def test_ldexp():
    a, b = np.array([[1.5, -2.0, 3.0]]), np.array([[1], [-2]])
    x = paddle.to_tensor(a, stop_gradient=False)
    y = paddle.to_tensor(b.astype(np.float64), stop_gradient=False)
    out = paddle.ldexp(x, y)
    assert out.dtype == paddle.float64
    np.testing.assert_array_equal(out.numpy(), np.ldexp(a, b))
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full((1, 3), (2.0 ** b).sum()), rtol=1e-12)
    np.testing.assert_allclose(y.grad.numpy(), (a * 2.0 ** b * np.log(2)).sum(1, keepdims=True),
                               rtol=1e-12)
    ints = paddle.to_tensor([1, 2, 3])
    assert ints.ldexp(ints).dtype == paddle.float32  # the default float dtype, as Paddle
    np.testing.assert_array_equal(paddle.ldexp(ints, ints).numpy(), [2.0, 8.0, 24.0])
    with pytest.raises(TypeError, match="ldexp: y must be a Tensor"):
        paddle.ldexp(x, 2)


def test_nextafter():
    a = np.array([1.5, 2.0, 3.0, 0.0, np.inf], np.float32)
    b = np.array([0.0, 3.0, 3.0, -1.0, 0.0], np.float32)
    x, y = paddle.to_tensor(a), paddle.to_tensor(b)
    np.testing.assert_array_equal(paddle.nextafter(x, y).numpy(), np.nextafter(a, b))
    np.testing.assert_array_equal(x.nextafter(y).numpy(), np.nextafter(a, b))
    wide = paddle.nextafter(x, paddle.to_tensor(b.astype(np.float64)))
    assert wide.dtype == paddle.float64
    np.testing.assert_array_equal(wide.numpy(), np.nextafter(a.astype(np.float64), b))
    assert paddle.nextafter(x, paddle.to_tensor([[0.0], [9.0]])).shape == [2, 5]
    with pytest.raises(TypeError, match="nextafter: x has dtype int64"):
        paddle.nextafter(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2]))


def test_equal_all():
    x = paddle.to_tensor([1, 2, 3])
    for y, expected in [([1, 2, 3], True), ([1, 2, 4], False), ([1, 2], False),
                        ([[1, 2, 3]], False)]:
        out = paddle.equal_all(x, paddle.to_tensor(y))
        assert out.shape == [] and out.dtype == paddle.bool and bool(out) is expected
    nan = paddle.to_tensor([np.nan, 1.0])
    assert not bool(nan.equal_all(nan))
    assert bool(paddle.equal_all(paddle.zeros([0]), paddle.zeros([0])))
    with pytest.raises(ValueError, match="equal_all: x has dtype int64 but y has int32"):
        paddle.equal_all(x, paddle.to_tensor([1, 2, 3], dtype="int32"))
    with pytest.raises(TypeError, match="equal_all: y must be a Tensor"):
        paddle.equal_all(x, 1)


def test_is_empty():
    for shape, expected in [([3], False), ([0, 3], True), ([], False), ([2, 0], True)]:
        out = paddle.is_empty(paddle.zeros(shape))
        assert out.shape == [] and out.dtype == paddle.bool and bool(out) is expected
    assert bool(paddle.zeros([0]).is_empty())
    with pytest.raises(TypeError, match="is_empty: x must be a Tensor"):
        paddle.is_empty(np.zeros(3))


def test_increment():
    x = paddle.to_tensor([1.0])
    assert paddle.increment(x) is x
    np.testing.assert_array_equal(x.numpy(), [2.0])
    x.increment(value=-0.5)
    np.testing.assert_array_equal(x.numpy(), [1.5])
    i = paddle.to_tensor(1)
    paddle.increment(i, 2.5)  # an integer adds int(value): 3, as Paddle 3.3.1
    assert i.dtype == paddle.int64 and i.item() == 3
    with pytest.raises(ValueError, match=r"increment: x must have exactly one element"):
        paddle.increment(paddle.to_tensor([1.0, 2.0]))
