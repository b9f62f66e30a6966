"""paddle.linalg beyond the basics: matrix_power, multi_dot, pinv, slogdet, eigh, eigvalsh,
eigvals, matrix_rank, cond, lstsq, triangular_solve, cholesky_solve, lu, lu_unpack, cov,
corrcoef.

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



def test_eigvals():
    x = RNG.standard_normal((2, 4, 4))
    x[1] = [[0, -1, 0, 0], [1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 3]]  # eigenvalues +-i, 2, 3
    t = _t(x)
    t.stop_gradient = False
    out = paddle.linalg.eigvals(t)
    assert out.dtype == paddle.complex128 and out.shape == [2, 4] and out.stop_gradient
    got = out.numpy()
    np.testing.assert_allclose(np.sort(got[1]), [-1j, 1j, 2, 3], atol=1e-12)
    np.testing.assert_allclose(np.sort(got[0]), np.sort(np.linalg.eigvals(x[0])), rtol=1e-10)
    # each value makes x - w I singular
    for w in got[0]:
        assert abs(np.linalg.det(x[0] - w * np.eye(4))) < 1e-9
    assert paddle.linalg.eigvals(_t(np.eye(2, dtype=np.float32))).dtype == paddle.complex64
    with pytest.raises(ValueError, match=r"eigvals: .*square.*\[3, 4\]"):
        paddle.linalg.eigvals(_t(np.ones((3, 4))))

# ---------------------------------------------------------------------------
# matrix_rank, cond, lstsq
# ---------------------------------------------------------------------------

def test_matrix_rank():
    x = RNG.standard_normal((3, 5, 4))
    x[1, :, 3] = x[1, :, 0] + x[1, :, 1]  # rank 3
    x[2] = np.outer(np.arange(5.0), np.ones(4))  # rank 1
    out = paddle.linalg.matrix_rank(_t(x))
    assert out.dtype == paddle.int64 and out.shape == [3]
    np.testing.assert_array_equal(out.numpy(), np.linalg.matrix_rank(x))
    s = np.linalg.svd(x, compute_uv=False)
    tol = float(np.median(s[0]))
    np.testing.assert_array_equal(paddle.linalg.matrix_rank(_t(x), tol=tol).numpy(),
                                  np.sum(s > tol, axis=-1))
    tols = np.array([0.5, 1.0, 100.0])
    np.testing.assert_array_equal(paddle.linalg.matrix_rank(_t(x), tol=_t(tols)).numpy(),
                                  np.sum(s > tols[:, None], axis=-1))
    h = _sym(2, 4, 4)
    np.testing.assert_array_equal(paddle.linalg.matrix_rank(_t(h), hermitian=True).numpy(), [4, 4])
    np.testing.assert_array_equal(paddle.linalg.matrix_rank(_t(h), tol=1.2, hermitian=True).numpy(),
                                  [2, 2])  # |eigenvalues| -1, 0.5, 2, 3.5
    with pytest.raises(ValueError, match="matrix_rank: x must have at least 2 dimensions"):
        paddle.linalg.matrix_rank(_t(np.ones(3)))


@pytest.mark.parametrize("p", [None, 2, -2, "fro", "nuc", 1, -1, np.inf, -np.inf])
def test_cond(p):
    x = _spd(2, 3, 3) - 2 * np.eye(3)
    out = paddle.linalg.cond(_t(x), p=p)
    np.testing.assert_allclose(out.numpy(), np.linalg.cond(x, p=p), rtol=1e-10)
    assert out.shape == [2] and out.dtype == paddle.float64
    check_grads(lambda a: paddle.linalg.cond(a, p=p), x[0], rtol=1e-5)


def test_cond_rectangular_and_errors():
    x = RNG.standard_normal((3, 5))
    np.testing.assert_allclose(paddle.linalg.cond(_t(x)).numpy(), np.linalg.cond(x), rtol=1e-10)
    with pytest.raises(ValueError, match=r"cond: x must be a square matrix.*\[3, 5\]"):
        paddle.linalg.cond(_t(x), p="fro")
    with pytest.raises(ValueError, match="cond: p must be None"):
        paddle.linalg.cond(_t(np.eye(3)), p=3)


# Paddle 3.3.1's output shapes and dtypes per driver: (residuals, rank, singular_values)
# for a (5, 3) x, given as (shape, dtype) with None for "empty"
@pytest.mark.parametrize("driver, has_res, rank_dtype, has_sv", [
    (None, False, paddle.int32, False), ("gelsy", False, paddle.int32, False),
    ("gels", True, None, False), ("gelsd", True, paddle.int32, True),
    ("gelss", True, paddle.int32, True)])
def test_lstsq_drivers(driver, has_res, rank_dtype, has_sv):
    x, y = RNG.standard_normal((2, 5, 3)), RNG.standard_normal((2, 5, 2))
    sol, res, rank, sv = paddle.linalg.lstsq(_t(x), _t(y), driver=driver)
    expected = np.linalg.lstsq(x[1], y[1], rcond=None)
    np.testing.assert_allclose(sol.numpy()[1], expected[0], rtol=1e-10, atol=1e-12)
    if has_res:
        np.testing.assert_allclose(res.numpy()[1], expected[1], rtol=1e-10)
    else:
        assert res.shape == [0]
    if rank_dtype is None:
        assert rank.shape == [0] and rank.dtype == paddle.int64
    else:
        assert rank.dtype == rank_dtype and rank.numpy().tolist() == [3, 3]
    if has_sv:
        np.testing.assert_allclose(sv.numpy()[1], expected[3], rtol=1e-10)
    else:
        assert sv.shape == [0]


def test_lstsq_wide_deficient_grad_errors():
    x, y = RNG.standard_normal((3, 5)), RNG.standard_normal((3, 2))
    sol, res, rank, _ = paddle.linalg.lstsq(_t(x), _t(y), driver="gelsd")
    np.testing.assert_allclose(sol.numpy(), np.linalg.lstsq(x, y, rcond=None)[0], atol=1e-12)
    assert res.shape == [0] and rank.numpy() == 3
    d = RNG.standard_normal((5, 3))
    d[:, 2] = d[:, 1]
    y5 = RNG.standard_normal((5, 2))
    sol, res, rank, _ = paddle.linalg.lstsq(_t(d), _t(y5), driver="gelsd")
    np.testing.assert_allclose(sol.numpy(), np.linalg.lstsq(d, y5, rcond=None)[0], atol=1e-12)
    assert res.shape == [0] and rank.numpy() == 2  # no residuals when rank deficient
    s = np.linalg.svd(d, compute_uv=False)
    assert paddle.linalg.lstsq(_t(d), _t(y5), rcond=0.5, driver="gelsd")[2].numpy() == \
        np.sum(s > 0.5 * s[0])
    check_grads(lambda a, b: paddle.linalg.lstsq(a, b)[0], RNG.standard_normal((5, 3)), y5,
                rtol=1e-5)
    with pytest.raises(ValueError, match="lstsq: driver must be"):
        paddle.linalg.lstsq(_t(x), _t(y), driver="xx")
    with pytest.raises(ValueError, match=r"lstsq: x and y must have at least 2 dimensions"):
        paddle.linalg.lstsq(_t(x), _t(y[:, 0]))
    with pytest.raises(ValueError, match="same number of rows"):
        paddle.linalg.lstsq(_t(x), _t(y5))


# ---------------------------------------------------------------------------
# triangular_solve, cholesky_solve, lu, lu_unpack
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("unit", [False, True])
def test_triangular_solve(upper, transpose, unit):
    x = RNG.standard_normal((2, 1, 4, 4)) + 4 * np.eye(4)
    y = RNG.standard_normal((3, 4, 2))
    a = np.triu(x) if upper else np.tril(x)
    if unit:
        a = a - a * np.eye(4) + np.eye(4)
    if transpose:
        a = np.swapaxes(a, -1, -2)
    out = paddle.linalg.triangular_solve(_t(x), _t(y), upper=upper, transpose=transpose,
                                         unitriangular=unit)
    assert out.shape == [2, 3, 4, 2]
    np.testing.assert_allclose(out.numpy(), np.linalg.solve(a, y), rtol=1e-10, atol=1e-12)
    check_grads(lambda p, q: paddle.linalg.triangular_solve(p, q, upper, transpose, unit),
                x[0, 0], y[0])


def test_triangular_solve_singular_and_errors():
    # Paddle 3.3.1 gives [-inf, inf] here (no error for a zero diagonal)
    out = paddle.linalg.triangular_solve(_t(np.array([[1.0, 2], [0, 0]])), _t(np.ones((2, 1))))
    assert np.isinf(out.numpy()).all()
    with pytest.raises(ValueError, match=r"triangular_solve: y must be \[\.\.\., 2, K\]"):
        paddle.linalg.triangular_solve(_t(np.eye(2)), _t(np.ones(2)))
    with pytest.raises(ValueError, match=r"triangular_solve: x must be square.*\[2, 3\]"):
        paddle.linalg.triangular_solve(_t(np.ones((2, 3))), _t(np.ones((2, 1))))


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve(upper):
    a, b = _spd(2, 3, 3), RNG.standard_normal((2, 3, 2))
    factor = np.linalg.cholesky(a)
    if upper:
        factor = np.swapaxes(factor, -1, -2)
    out = paddle.linalg.cholesky_solve(_t(b), _t(factor), upper=upper)
    np.testing.assert_allclose(out.numpy(), np.linalg.solve(a, b), rtol=1e-10, atol=1e-12)
    check_grads(lambda p, q: paddle.linalg.cholesky_solve(p, q, upper=upper), b[0], factor[0])


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 3, 3)])
def test_lu_reconstruction_and_grad(shape):
    x = RNG.standard_normal(shape)
    packed, pivots = paddle.linalg.lu(_t(x))
    assert packed.shape == list(shape) and pivots.dtype == paddle.int32
    assert pivots.shape == list(shape[:-2]) + [min(shape[-2:])]
    p, low, up = paddle.linalg.lu_unpack(packed, pivots)
    np.testing.assert_allclose((p.numpy() @ low.numpy()) @ up.numpy(), x, atol=1e-12)
    np.testing.assert_allclose(np.triu(up.numpy()), up.numpy())
    np.testing.assert_allclose(np.diagonal(low.numpy(), axis1=-2, axis2=-1), 1)
    assert np.all(np.abs(np.tril(low.numpy(), -1)) <= 1)  # partial pivoting
    check_grads(lambda t: paddle.linalg.lu(t)[0], x)

    def rebuilt(t):  # P L U = x: its gradient is the identity's
        pp, ll, uu = paddle.linalg.lu_unpack(*paddle.linalg.lu(t))
        return paddle.matmul(pp, paddle.matmul(ll, uu))
    check_grads(rebuilt, x)


def test_lu_pivots_infos_and_errors():
    # Paddle 3.3.1: pivots [2, 3, 3] and infos 3 for this singular matrix
    x = np.array([[1.0, 2, 3], [2, 4, 6], [1, 1, 1]])
    packed, pivots, infos = paddle.linalg.lu(_t(x), get_infos=True)
    assert pivots.numpy().tolist() == [2, 3, 3] and infos.shape == [] and infos.numpy() == 3
    assert infos.dtype == paddle.int32
    np.testing.assert_allclose(packed.numpy(), [[2, 4, 6], [0.5, -1, -2], [0.5, 0, 0]])
    assert paddle.linalg.lu(_t(np.zeros((2, 3, 3))), get_infos=True)[2].numpy().tolist() == [1, 1]
    p, low, up = paddle.linalg.lu_unpack(packed, pivots, unpack_ludata=False)
    assert p.shape == [3, 3] and low.shape == [0] and up.shape == [0]
    p, low, up = paddle.linalg.lu_unpack(packed, pivots, unpack_pivots=False)
    assert p.shape == [0] and low.shape == [3, 3]
    with pytest.raises(ValueError, match="lu: LU without pivoting"):
        paddle.linalg.lu(_t(x), pivot=False)
    with pytest.raises(ValueError, match=r"lu_unpack: y \(the pivots\) must be an int tensor"):
        paddle.linalg.lu_unpack(packed, _t(np.ones(2, np.int32)))


# ---------------------------------------------------------------------------
# cov, corrcoef
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("ddof", [True, False])
@pytest.mark.parametrize("weights", ["none", "f", "a", "both"])
def test_cov(rowvar, ddof, weights):
    x = RNG.standard_normal((3, 5))
    n = 5 if rowvar else 3
    fw = RNG.integers(1, 4, n) if weights in ("f", "both") else None
    aw = RNG.uniform(0.1, 2, n) if weights in ("a", "both") else None
    out = paddle.linalg.cov(_t(x), rowvar=rowvar, ddof=ddof,
                            fweights=None if fw is None else _t(fw),
                            aweights=None if aw is None else _t(aw))
    expected = np.cov(x, rowvar=rowvar, ddof=int(ddof), fweights=fw, aweights=aw)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)
    check_grads(lambda t: paddle.linalg.cov(t, rowvar, ddof, None if fw is None else _t(fw),
                                            None if aw is None else _t(aw)), x)


def test_cov_1d_float32_and_errors():
    v = RNG.standard_normal(6).astype(np.float32)
    out = paddle.linalg.cov(_t(v))
    assert out.shape == [] and out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), np.cov(v), rtol=1e-5)
    x = _t(RNG.standard_normal((3, 4)))
    with pytest.raises(ValueError, match=r"cov: x must be 1-D or 2-D, got shape \[2, 2, 2\]"):
        paddle.linalg.cov(_t(np.ones((2, 2, 2))))
    with pytest.raises(ValueError, match=r"cov: fweights must be 1-D with one weight per "
                                         r"observation \(4\)"):
        paddle.linalg.cov(x, fweights=_t([1, 2, 1]))
    with pytest.raises(ValueError, match="cov: aweights must not be negative"):
        paddle.linalg.cov(x, aweights=_t([1.0, -2, 1, 1]))
    with pytest.raises(TypeError, match="cov: x must be float32 or float64"):
        paddle.linalg.cov(_t(np.arange(6).reshape(2, 3)))


@pytest.mark.parametrize("rowvar", [True, False])
def test_corrcoef(rowvar):
    x = RNG.standard_normal((4, 6))
    out = paddle.linalg.corrcoef(_t(x), rowvar=rowvar)
    np.testing.assert_allclose(out.numpy(), np.corrcoef(x, rowvar=rowvar), rtol=1e-12, atol=1e-15)
    check_grads(lambda t: paddle.linalg.corrcoef(t, rowvar), x)
    assert paddle.linalg.corrcoef(_t(x[0])).numpy() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="corrcoef: x must be 1-D or 2-D"):
        paddle.linalg.corrcoef(_t(np.ones((2, 2, 2))))


def test_exports():
    """Where Paddle 3.3.1 has them: paddle.linalg.<name>, Tensor methods, paddle.eigvalsh."""
    x = _t(_spd(3, 3))
    for name in ["matrix_power", "multi_dot", "pinv", "slogdet", "eigh", "eigvalsh", "eigvals",
                 "matrix_rank", "cond", "lstsq", "triangular_solve", "cholesky_solve", "lu",
                 "lu_unpack", "cov", "corrcoef"]:
        assert name in paddle.linalg.__all__ and callable(getattr(paddle.linalg, name))
    np.testing.assert_allclose(x.matrix_power(2).numpy(), x.numpy() @ x.numpy())
    np.testing.assert_allclose(x.slogdet().numpy(), paddle.linalg.slogdet(x).numpy())
    np.testing.assert_allclose(paddle.eigvalsh(x).numpy(), np.linalg.eigvalsh(x.numpy()))
    assert x.cov().shape == [3, 3] and x.lu()[1].shape == [3]
