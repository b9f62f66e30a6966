"""paddle.linalg beyond the basics: matrix_power, multi_dot, pinv, slogdet, eigh, eigvalsh,
matrix_rank, cond, lstsq, triangular_solve, cholesky_solve, lu, lu_unpack, cov, corrcoef.

Values are checked against NumPy statements, decompositions by reconstruction, gradients by
central differences (float64)."""

import numpy as np
import pytest
from gradcheck import check_grads

import dygrad as paddle

RNG = np.random.default_rng(7)


def _t(a):
    return paddle.to_tensor(np.asarray(a))


def _spd(*shape):
    a = RNG.standard_normal(shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def _sym(*shape):
    """Symmetric matrices with distinct eigenvalues -1, 0.5, 2, ..."""
    q = np.linalg.qr(RNG.standard_normal(shape))[0]
    return (q * (-1 + 1.5 * np.arange(shape[-1]))) @ np.swapaxes(q, -1, -2)


# ---------------------------------------------------------------------------
# matrix_power, multi_dot, pinv, slogdet
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 5, -1, -3])
def test_matrix_power(n):
    x = _spd(2, 3, 3)
    out = paddle.linalg.matrix_power(_t(x), n)
    np.testing.assert_allclose(out.numpy(), np.linalg.matrix_power(x, n), rtol=1e-10, atol=1e-12)
    assert out.dtype == paddle.float64 and out.shape == [2, 3, 3]


def test_matrix_power_grad_and_errors():
    check_grads(lambda x: paddle.linalg.matrix_power(x, 3), _spd(3, 3) / 3)
    check_grads(lambda x: paddle.linalg.matrix_power(x, -2), _spd(2, 2))
    with pytest.raises(ValueError, match=r"matrix_power: .*square.*\[2, 3\]"):
        paddle.linalg.matrix_power(_t(np.ones((2, 3))), 2)
    with pytest.raises(TypeError, match="matrix_power: n must be an int"):
        paddle.linalg.matrix_power(_t(np.eye(2)), 1.5)


def test_multi_dot():
    a, b, c, d = (RNG.standard_normal(s) for s in [(4,), (4, 3), (3, 5), (5,)])
    out = paddle.linalg.multi_dot([_t(a), _t(b), _t(c), _t(d)])
    np.testing.assert_allclose(out.numpy(), np.linalg.multi_dot([a, b, c, d]), rtol=1e-12)
    assert out.shape == []
    out = paddle.linalg.multi_dot([_t(b), _t(c)])
    np.testing.assert_allclose(out.numpy(), b @ c, rtol=1e-12)
    check_grads(lambda x, y, z: paddle.linalg.multi_dot([x, y, z]), b, c, d)
    with pytest.raises(ValueError, match=r"multi_dot: x\[0\] and x\[1\] do not chain"):
        paddle.linalg.multi_dot([_t(b), _t(b)])
    with pytest.raises(ValueError, match=r"multi_dot: x\[1\] must be 2-D"):
        paddle.linalg.multi_dot([_t(b), _t(np.ones((2, 3, 5))), _t(c)])
    with pytest.raises(ValueError, match="at least 2"):
        paddle.linalg.multi_dot([_t(b)])


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3)])
def test_pinv(shape):
    x = RNG.standard_normal(shape)
    out = paddle.linalg.pinv(_t(x))
    np.testing.assert_allclose(out.numpy(), np.linalg.pinv(x), rtol=1e-10, atol=1e-12)
    check_grads(paddle.linalg.pinv, x, rtol=1e-5, atol=1e-7)


def test_pinv_rank_deficient_and_hermitian():
    x = np.outer([1.0, 2, 3], [1.0, -1, 0.5])  # rank 1
    np.testing.assert_allclose(paddle.linalg.pinv(_t(x)).numpy(), np.linalg.pinv(x), atol=1e-12)
    out = paddle.linalg.pinv(_t(x.astype(np.float32)), rcond=1e-5)
    assert out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), np.linalg.pinv(x, rcond=1e-5), rtol=1e-4, atol=1e-6)
    s = _sym(2, 4, 4)
    np.testing.assert_allclose(paddle.linalg.pinv(_t(s), hermitian=True).numpy(),
                               np.linalg.pinv(s, hermitian=True), rtol=1e-10, atol=1e-12)
    check_grads(lambda a: paddle.linalg.pinv(a + a.t(), hermitian=True), _sym(3, 3), rtol=1e-5)
    with pytest.raises(ValueError, match="pinv: x must have at least 2 dimensions"):
        paddle.linalg.pinv(_t(np.ones(3)))


def test_slogdet():
    x = _spd(2, 3, 3)
    x[1, 0] *= -1
    out = paddle.linalg.slogdet(_t(x))
    sign, logdet = np.linalg.slogdet(x)
    assert out.shape == [2, 2]
    np.testing.assert_allclose(out.numpy(), np.stack([sign, logdet]), rtol=1e-12)
    np.testing.assert_allclose(paddle.linalg.slogdet(_t(np.array([[1.0, 2], [2, 4]]))).numpy(),
                               [0, -np.inf])
    check_grads(lambda a: paddle.linalg.slogdet(a)[1], x)
    with pytest.raises(ValueError, match="slogdet: .*square"):
        paddle.linalg.slogdet(_t(np.ones((2, 3))))


# ---------------------------------------------------------------------------
# eigh, eigvalsh
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_values_and_reconstruction(uplo):
    x = _sym(2, 4, 4)
    w, v = paddle.linalg.eigh(_t(x), UPLO=uplo)
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(x), rtol=1e-10, atol=1e-12)
    rebuilt = (v.numpy() * w.numpy()[..., None, :]) @ np.swapaxes(v.numpy(), -1, -2)
    np.testing.assert_allclose(rebuilt, x, atol=1e-12)
    np.testing.assert_allclose(paddle.linalg.eigvalsh(_t(x), UPLO=uplo).numpy(), w.numpy())
    w32, v32 = paddle.linalg.eigh(_t(x.astype(np.float32)))
    assert w32.dtype == v32.dtype == paddle.float32


def test_eigh_gradients():
    # through a symmetrising product so that every direction keeps the input symmetric
    def vecs(a):
        return paddle.linalg.eigh(a + a.t())[1].abs()
    a = _sym(3, 3) / 2
    check_grads(lambda t: paddle.linalg.eigvalsh(t + t.t()), a)
    check_grads(vecs, a, rtol=1e-5, atol=1e-7)
    # Paddle's gradient for a symmetric leaf is symmetric: d(sum w)/dA = I
    x = _t(_sym(3, 3))
    x.stop_gradient = False
    paddle.linalg.eigvalsh(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.eye(3), atol=1e-12)


def test_eigh_errors():
    with pytest.raises(ValueError, match="eigh: UPLO must be 'L' or 'U'"):
        paddle.linalg.eigh(_t(np.eye(2)), UPLO="X")
    with pytest.raises(ValueError, match=r"eigh: .*square.*\[2, 3\]"):
        paddle.linalg.eigvalsh(_t(np.ones((2, 3))))
    with pytest.raises(TypeError, match="eigh: expected a float32 or float64"):
        paddle.linalg.eigh(_t(np.eye(2, dtype=np.int64)))
