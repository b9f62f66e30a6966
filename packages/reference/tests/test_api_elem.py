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
