"""More of Paddle's top-level API: random draws with tensor parameters (bernoulli,
multinomial, poisson, binomial, standard_gamma, the *_like draws), cumulative ops and
elementwise/reduction helpers.

Expected values come from NumPy statements; statistics of random draws are checked with
generous bounds over many draws.
"""

import numpy as np
import pytest

import dygrad as paddle

# ---------------------------------------------------------------------------
# random
# ---------------------------------------------------------------------------

P = np.array([[0.1, 0.9, 0.0, 0.5], [1.0, 0.3, 0.7, 0.2]])

RANDOM_CALLS = {
    "bernoulli": lambda: paddle.bernoulli(paddle.to_tensor(np.tile(P, (8, 1)))),
    "bernoulli p": lambda: paddle.bernoulli(paddle.ones([8, 4]), p=0.5),
    "multinomial": lambda: paddle.multinomial(paddle.to_tensor(np.tile(P, (8, 1))), 3),
    "multinomial replacement": lambda: paddle.to_tensor(P).multinomial(6, True),
    "poisson": lambda: paddle.poisson(paddle.full([3, 4], 5.0)),
    "binomial": lambda: paddle.binomial(paddle.to_tensor([[10], [20]]), paddle.to_tensor(P)),
    "standard_gamma": lambda: paddle.standard_gamma(paddle.full([3, 4], 2.0)),
    "rand_like": lambda: paddle.rand_like(paddle.zeros([3, 4])),
    "randn_like": lambda: paddle.randn_like(paddle.zeros([3, 4])),
    "randint_like": lambda: paddle.randint_like(paddle.zeros([3, 4]), 100),
}


@pytest.mark.parametrize("name", list(RANDOM_CALLS))
def test_random_reproducible_and_engine_independent(name):
    call = RANDOM_CALLS[name]
    paddle.seed(7)
    a, b = call().numpy(), call().numpy()
    paddle.seed(7)
    np.testing.assert_array_equal(call().numpy(), a)
    np.testing.assert_array_equal(call().numpy(), b)
    assert not np.array_equal(a, b), "two draws without reseeding gave the same values"
    for engine in paddle.available_engines():  # the same numbers on every engine
        paddle.set_engine(engine)
        paddle.seed(7)
        np.testing.assert_array_equal(call().numpy(), a)


def test_bernoulli_values_dtype_and_frequency():
    paddle.seed(0)
    x = paddle.to_tensor(np.tile(P, (2000, 1)).astype(np.float32), stop_gradient=False)
    out = paddle.bernoulli(x)
    assert out.dtype == paddle.float32 and out.shape == x.shape and out.stop_gradient
    v = out.numpy()
    assert set(np.unique(v)) <= {0.0, 1.0}
    freq = v.reshape(2000, 2, 4).mean(0)
    np.testing.assert_allclose(freq, P, atol=0.04)
    assert (freq[P == 0] == 0).all() and (freq[P == 1] == 1).all()
    assert paddle.bernoulli(paddle.zeros([3]), p=1.0).numpy().tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("bad,exc", [
    (lambda: paddle.bernoulli(paddle.to_tensor([1, 0])), TypeError),
    (lambda: paddle.bernoulli(paddle.to_tensor([1.5, 0.2])), ValueError),
    (lambda: paddle.poisson(paddle.to_tensor([1, 2])), TypeError),
    (lambda: paddle.multinomial(paddle.to_tensor([0.2, 0.3, 0.5]), 5), ValueError),
    (lambda: paddle.multinomial(paddle.to_tensor([-0.2, 0.3, 0.5])), ValueError),
    (lambda: paddle.multinomial(paddle.ones([1, 1, 2])), ValueError),
    (lambda: paddle.multinomial(paddle.to_tensor([0.2, 0.8]), 0), ValueError),
    (lambda: paddle.randint_like(paddle.zeros([2]), 5, 3), ValueError),
    (lambda: paddle.rand_like(paddle.to_tensor([1, 2])), TypeError),
])
def test_random_errors(bad, exc):
    with pytest.raises(exc):
        bad()


def test_multinomial_frequencies():
    paddle.seed(1)
    p = np.array([0.1, 0.0, 0.6, 0.3])
    out = paddle.multinomial(paddle.to_tensor(p), 20000, replacement=True)
    assert out.dtype == paddle.int64 and out.shape == [20000]
    np.testing.assert_allclose(np.bincount(out.numpy(), minlength=4) / 20000, p, atol=0.02)
    # without replacement: distinct indices, never a zero-probability category, and the
    # first draw follows p
    rows = paddle.multinomial(paddle.to_tensor(np.tile(p, (5000, 1))), 3).numpy()
    assert rows.shape == (5000, 3)
    assert (np.sort(rows, 1) == [0, 2, 3]).all()
    np.testing.assert_allclose(np.bincount(rows[:, 0], minlength=4) / 5000, p, atol=0.03)


def test_poisson_gamma_binomial_moments():
    paddle.seed(2)
    lam = paddle.full([20000], 3.0, dtype="float64")
    v = paddle.poisson(lam)
    assert v.dtype == paddle.float64
    assert abs(v.numpy().mean() - 3) < 0.08 and abs(v.numpy().var() - 3) < 0.2
    g = paddle.standard_gamma(paddle.full([20000], 2.0)).numpy()
    assert g.dtype == np.float32 and abs(g.mean() - 2) < 0.08 and abs(g.var() - 2) < 0.2
    b = paddle.binomial(paddle.full([20000], 10, dtype="int64"),
                        paddle.full([1], 0.3)).numpy()
    assert b.dtype == np.int64 and b.shape == (20000,)
    assert b.min() >= 0 and b.max() <= 10 and abs(b.mean() - 3) < 0.08
    assert paddle.binomial(paddle.to_tensor([[10], [20]]),
                           paddle.to_tensor([0.5, 0.1])).shape == [2, 2]


def test_like_draws_shape_dtype():
    x = paddle.zeros([2, 3], dtype="float64")
    assert paddle.rand_like(x).dtype == paddle.float64
    assert paddle.rand_like(x, dtype="float32").dtype == paddle.float32
    r = paddle.rand_like(x).numpy()
    assert r.shape == (2, 3) and (r >= 0).all() and (r < 1).all()
    assert not paddle.randn_like(x, requires_grad=True).stop_gradient
    assert paddle.randn_like(x).stop_gradient
    i = paddle.randint_like(x, 3)
    assert i.dtype == paddle.float64 and set(np.unique(i.numpy())) <= {0.0, 1.0, 2.0}
    j = paddle.randint_like(x, -2, 2, dtype="int32").numpy()
    assert j.dtype == np.int32 and j.min() >= -2 and j.max() < 2


# ---------------------------------------------------------------------------
# cummax, cummin, logcumsumexp
# ---------------------------------------------------------------------------

def test_cummax_cummin_ties_nan_and_flatten():
    # expected values from PaddlePaddle 3.3.1
    x = paddle.to_tensor([[1.0, 3.0, 3.0, 2.0, 5.0], [2.0, 2.0, np.nan, 1.0, 4.0]])
    v, i = paddle.cummax(x, axis=1)
    np.testing.assert_array_equal(v.numpy(), [[1, 3, 3, 3, 5], [2, 2, np.nan, np.nan, np.nan]])
    assert i.numpy().tolist() == [[0, 1, 2, 2, 4], [0, 1, 2, 2, 2]] and i.dtype == paddle.int64
    v, i = x.cummin(axis=1)
    np.testing.assert_array_equal(v.numpy(), [[1, 1, 1, 1, 1], [2, 2, np.nan, np.nan, np.nan]])
    assert i.numpy().tolist() == [[0, 0, 0, 0, 0], [0, 1, 2, 2, 2]]
    v, i = paddle.cummax(x)
    assert v.shape == [10] and i.numpy().tolist() == [0, 1, 2, 2, 4, 4, 4, 7, 7, 7]
    v, i = paddle.cummax(paddle.to_tensor([1, 3, 2]), dtype="int32")
    assert v.dtype == paddle.int64 and i.dtype == paddle.int32
    with pytest.raises(ValueError, match="int32 or int64"):
        paddle.cummax(x, dtype="float32")
    with pytest.raises(IndexError, match="out of range"):
        paddle.cummin(x, axis=2)


def test_cummax_gradient_goes_to_the_index():
    # from PaddlePaddle 3.3.1: [1, 1, 2, 0, 1]
    x = paddle.to_tensor([[1.0, 3.0, 3.0, 2.0, 5.0]], stop_gradient=False)
    v, _ = paddle.cummax(x, 1)
    v.sum().backward()
    assert x.grad.numpy().tolist() == [[1, 1, 2, 0, 1]]


def test_logcumsumexp_values_dtype_and_gradient():
    # expected values from PaddlePaddle 3.3.1
    x = paddle.to_tensor([[-1000.0, 0.0, 1.0], [1.0, 2.0, 3.0]])
    np.testing.assert_allclose(paddle.logcumsumexp(x, axis=1).numpy(),
                               [[-1000, 0, 1.3132617], [1, 2.3132617, 3.4076061]], rtol=1e-6)
    np.testing.assert_allclose(x.logcumsumexp().numpy()[:3], [-1000, 0, 1.3132617], rtol=1e-6)
    assert paddle.logcumsumexp(paddle.to_tensor([1, 2])).dtype == paddle.float32
    assert paddle.logcumsumexp(paddle.to_tensor([1, 2]), dtype="float64").dtype == paddle.float64
    # d/dx_i sum_k out_k = sum_{k >= i} softmax(x_0..x_k)_i, finite even at -1000
    x = paddle.to_tensor([-1000.0, 0.0, 1.0], dtype="float64", stop_gradient=False)
    paddle.logcumsumexp(x).sum().backward()
    e = np.exp([0.0, 1.0])
    np.testing.assert_allclose(x.grad.numpy(), [1, 1 + e[0] / e.sum(), e[1] / e.sum()],
                               rtol=1e-12)


# ---------------------------------------------------------------------------
# elementwise
# ---------------------------------------------------------------------------

def _grad(fn, *arrays):
    """fn's value and the gradient of its sum for each float64 input (None: no gradient)."""
    ts = [paddle.to_tensor(np.asarray(a, np.float64), stop_gradient=False) for a in arrays]
    out = fn(*ts)
    out.sum().backward()
    return out.numpy(), [None if t.grad is None else t.grad.numpy() for t in ts]


def test_nan_to_num():
    x = paddle.to_tensor([np.nan, np.inf, -np.inf, 1.5])
    f32 = np.finfo(np.float32)
    np.testing.assert_array_equal(paddle.nan_to_num(x).numpy(), [0, f32.max, f32.min, 1.5])
    np.testing.assert_array_equal(x.nan_to_num(1.0, 2.0, -3.0).numpy(), [1, 2, -3, 1.5])
    _, (g,) = _grad(paddle.nan_to_num, [np.nan, np.inf, 1.0])
    assert g.tolist() == [0, 0, 1]
    with pytest.raises(TypeError, match="nan_to_num"):
        paddle.nan_to_num(paddle.to_tensor([1, 2]))


def test_logaddexp_copysign_hypot_sinc_values_and_gradients():
    x, y = np.array([1.0, 2.0, -np.inf, 700.0]), np.array([1.0, -1000.0, -np.inf, 700.0])
    np.testing.assert_allclose(paddle.logaddexp(paddle.to_tensor(x), paddle.to_tensor(y)).numpy(),
                               np.logaddexp(x, y))
    v, (gx, gy) = _grad(paddle.logaddexp, [1.0, 1.0], [1.0, 0.0])
    np.testing.assert_allclose(gx, [0.5, 1 / (1 + np.exp(-1))])    # softmax weights
    np.testing.assert_allclose(gx + gy, [1, 1])
    assert paddle.logaddexp(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 3])).dtype == \
        paddle.float32
    # copysign: values from PaddlePaddle 3.3.1
    np.testing.assert_array_equal(
        paddle.copysign(paddle.to_tensor([1.0, -2.0, 0.0]), paddle.to_tensor([-0.0, 3, -1])).numpy(),
        [-1.0, 2.0, -0.0])
    c = paddle.copysign(paddle.to_tensor([1, -2]), paddle.to_tensor([-1, 3]))
    assert c.dtype == paddle.int64 and c.numpy().tolist() == [-1, 2]
    assert paddle.copysign(paddle.to_tensor([1.0, -2.0]), -1.0).numpy().tolist() == [-1, -2]
    _, (gx, gy) = _grad(paddle.copysign, [1.0, -2.0, 0.0], [-1.0, 3.0, -1.0])
    assert gx.tolist() == [-1, -1, 0] and gy is None
    v, (gx, gy) = _grad(paddle.hypot, [3.0, 5.0], [4.0, 12.0])
    np.testing.assert_allclose(v, [5, 13])
    np.testing.assert_allclose(gx, [3 / 5, 5 / 13])
    np.testing.assert_allclose(gy, [4 / 5, 12 / 13])
    v, (g,) = _grad(paddle.sinc, [0.0, 0.5, 1.0, -2.5])
    np.testing.assert_allclose(v, np.sinc([0.0, 0.5, 1.0, -2.5]), atol=1e-15)
    t = np.array([0.5, 1.0, -2.5])
    np.testing.assert_allclose(g, [0.0, *((np.cos(np.pi * t) * np.pi * t - np.sin(np.pi * t))
                                          / (np.pi * t * t))], atol=1e-12)


def test_signbit_sgn_gcd_lcm():
    assert paddle.signbit(paddle.to_tensor([-0.0, 1.0, -2.0, np.nan])).numpy().tolist() == \
        [True, False, True, False]
    assert paddle.to_tensor([-1, 2]).signbit().numpy().tolist() == [True, False]
    assert paddle.sgn(paddle.to_tensor([-3.0, 0.0, 2.0])).numpy().tolist() == [-1, 0, 1]
    # values from PaddlePaddle 3.3.1
    a, b = paddle.to_tensor([12, -18, 0]), paddle.to_tensor([8, 12, 0])
    assert paddle.gcd(a, b).numpy().tolist() == [4, 6, 0]
    assert a.lcm(paddle.to_tensor([8, 12, 5])).numpy().tolist() == [24, 36, 0]
    with pytest.raises(TypeError, match="gcd"):
        paddle.gcd(paddle.to_tensor([1.0]), paddle.to_tensor([2.0]))


# ---------------------------------------------------------------------------
# diff, count_nonzero, isin, bucketize, take, renorm, index_fill
# ---------------------------------------------------------------------------

X = np.array([[1.0, 3.0, 6.0], [2.0, 2.0, 9.0]])


def test_diff():
    x = paddle.to_tensor(X)
    np.testing.assert_array_equal(paddle.diff(x).numpy(), np.diff(X))
    assert paddle.diff(x, n=2, axis=0).shape == [0, 3]
    assert paddle.diff(x, n=5).shape == [2, 0]
    pre, app = np.zeros((2, 1)), np.ones((2, 1))
    np.testing.assert_array_equal(
        x.diff(axis=1, prepend=paddle.to_tensor(pre), append=paddle.to_tensor(app)).numpy(),
        np.diff(X, axis=1, prepend=pre, append=app))
    assert paddle.diff(paddle.to_tensor([True, False, False])).numpy().tolist() == [True, False]
    d = paddle.diff(paddle.to_tensor([1, 4, 9]))
    assert d.dtype == paddle.int64 and d.numpy().tolist() == [3, 5]
    _, (g,) = _grad(lambda t: paddle.diff(t, n=2), [1.0, 4.0, 9.0, 16.0])
    assert g.tolist() == [1, -1, -1, 1]
    with pytest.raises(ValueError, match="1-D"):
        paddle.diff(paddle.to_tensor(1.0))


def test_count_nonzero_isin_bucketize():
    x = paddle.to_tensor(X - 2)
    c = paddle.count_nonzero(x)
    assert c.dtype == paddle.int64 and c.shape == [] and int(c) == 4
    assert paddle.count_nonzero(x, axis=1, keepdim=True).numpy().tolist() == [[3], [1]]
    a, b = np.array([1, 2, 3, 4, 9]), np.array([[2, 4], [7, 9]])
    got = paddle.isin(paddle.to_tensor(a), paddle.to_tensor(b))
    assert got.dtype == paddle.bool and got.numpy().tolist() == np.isin(a, b).tolist()
    assert paddle.to_tensor(a.reshape(5, 1)).isin(paddle.to_tensor(b), invert=True).numpy() \
        .tolist() == np.isin(a.reshape(5, 1), b, invert=True).tolist()
    assert not paddle.isin(paddle.to_tensor(a), paddle.to_tensor(np.array([], a.dtype))).numpy().any()
    with pytest.raises(TypeError, match="same dtype"):
        paddle.isin(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([2]))
    # bucketize: values from PaddlePaddle 3.3.1
    seq = paddle.to_tensor([2, 4, 6])
    assert paddle.bucketize(paddle.to_tensor([[1, 5], [7, 3]]), seq).numpy().tolist() == \
        [[0, 2], [3, 1]]
    r = paddle.to_tensor([2, 4]).bucketize(seq, out_int32=True, right=True)
    assert r.dtype == paddle.int32 and r.numpy().tolist() == [1, 2]
    with pytest.raises(ValueError, match="1-D"):
        paddle.bucketize(paddle.to_tensor([2, 4]), paddle.to_tensor([[2, 4, 6]]))


def test_take_modes_and_gradient():
    x = paddle.to_tensor(X)
    # values from PaddlePaddle 3.3.1
    assert paddle.take(x, paddle.to_tensor([[0, 5], [-1, 2]])).numpy().tolist() == [[1, 9], [9, 6]]
    assert x.take(paddle.to_tensor([7, -8]), mode="wrap").numpy().tolist() == [3, 2]
    assert paddle.take(x, paddle.to_tensor([7, -8]), mode="clip").numpy().tolist() == [9, 1]
    with pytest.raises(ValueError, match="index must be in"):
        paddle.take(x, paddle.to_tensor([7]))
    with pytest.raises(TypeError, match="int32 or int64"):
        paddle.take(x, paddle.to_tensor([1.0]))
    _, (g,) = _grad(lambda t: paddle.take(t, paddle.to_tensor([0, 0, 5])), X)
    assert g.tolist() == [[2, 0, 0], [0, 0, 1]]


def test_renorm_and_index_fill():
    # values from PaddlePaddle 3.3.1
    np.testing.assert_allclose(paddle.renorm(paddle.to_tensor(X), 2.0, 0, 5.0).numpy(),
                               [[0.7372098, 2.2116294, 4.4232588], [1.0599979, 1.0599979, 4.7699904]],
                               rtol=1e-6)
    np.testing.assert_allclose(paddle.to_tensor(X).renorm(1.0, 1, 4.0).numpy(),
                               [[1.0, 2.4, 1.6], [2.0, 1.6, 2.4]], rtol=1e-6)
    _, (g,) = _grad(lambda t: paddle.renorm(t, 2.0, 0, 5.0), X)
    np.testing.assert_allclose(g, [[0.5769468, 0.2564208, -0.2243682],
                                   [0.3751678, 0.3751678, -0.1667412]], rtol=1e-5)
    out = paddle.index_fill(paddle.to_tensor(X), paddle.to_tensor([0, 2]), 1, -1.0)
    assert out.numpy().tolist() == [[-1, 3, -1], [-1, 2, -1]]
    i = paddle.to_tensor([[1, 2], [3, 4]]).index_fill(paddle.to_tensor([1]), 0, 9.5)
    assert i.dtype == paddle.int64 and i.numpy().tolist() == [[1, 2], [9, 9]]
    _, (g,) = _grad(lambda t: paddle.index_fill(t, paddle.to_tensor([1]), 0, 0.0), X)
    assert g.tolist() == [[1, 1, 1], [0, 0, 0]]


def test_histogram():
    # values from PaddlePaddle 3.3.1
    x = paddle.to_tensor([1.0, 2, 1, 4])
    h = paddle.histogram(x, bins=4, min=0, max=4)
    assert h.dtype == paddle.int64 and h.numpy().tolist() == [0, 2, 1, 1]
    assert paddle.histogram(x, bins=3).numpy().tolist() == [2, 1, 1]
    assert x.histogram(bins=4, min=0, max=4, density=True).numpy().tolist() == [0, 0.5, 0.25, 0.25]
    assert paddle.histogram(paddle.to_tensor([1.0, 2, 1, 5, -1]), bins=2, min=0, max=2) \
        .numpy().tolist() == [0, 3]
    assert paddle.histogram(paddle.to_tensor([1.0, 1.0]), bins=2).numpy().tolist() == [0, 2]
    w = paddle.histogram(paddle.to_tensor([1.0, 2, 1]), bins=2,
                         weight=paddle.to_tensor([0.5, 1, 2]))
    assert w.dtype == paddle.float32 and w.numpy().tolist() == [2.5, 1.0]
    v = np.random.default_rng(0).normal(size=200)
    np.testing.assert_array_equal(paddle.histogram(paddle.to_tensor(v), bins=7).numpy(),
                                  np.histogram(v, bins=7)[0])
    with pytest.raises(ValueError, match="max must be larger"):
        paddle.histogram(x, bins=2, min=3, max=1)


# ---------------------------------------------------------------------------
# quantile, nanquantile, nanmedian
# ---------------------------------------------------------------------------

Y = np.array([[1.0, 3.0, 6.0, 2.0], [2.0, 5.0, 9.0, 0.0]])
YN = np.array([[1.0, 3.0, 6.0, 2.0], [2.0, np.nan, 9.0, 0.0]])


@pytest.mark.filterwarnings("ignore:All-NaN slice")  # NumPy's, on the expected side
@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("axis", [None, 1, 0, [0, 1], -1])
def test_quantile_matches_numpy(method, axis):
    v = np.random.default_rng(3).normal(size=(3, 5, 4))
    ax = tuple(axis) if isinstance(axis, list) else axis
    for q in (0.3, [0.0, 0.5, 1.0]):
        want = np.quantile(v, q, axis=ax, method=method, keepdims=True)
        got = paddle.quantile(paddle.to_tensor(v), q, axis=axis, keepdim=True,
                              interpolation=method)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
        want = np.nanquantile(np.where(v > 1, np.nan, v), q, axis=ax, method=method)
        got = paddle.nanquantile(paddle.to_tensor(np.where(v > 1, np.nan, v)), q, axis=axis,
                                 interpolation=method)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


def test_quantile_paddle_details():
    # values from PaddlePaddle 3.3.1
    y = paddle.to_tensor(Y, dtype="float32")
    assert paddle.quantile(y, [0.3, 0.5], axis=1).shape == [2, 2]
    np.testing.assert_allclose(paddle.quantile(y, paddle.to_tensor([0.3]), axis=1).numpy(),
                               [1.9, 1.8], rtol=1e-6)
    r = paddle.quantile(paddle.to_tensor(YN, dtype="float32"), 0.3, axis=1).numpy()
    assert r[0] == pytest.approx(1.9) and np.isnan(r[1])
    np.testing.assert_allclose(paddle.to_tensor(YN).nanquantile([0.25], axis=1, keepdim=True)
                               .numpy(), [[[1.75], [1.0]]])
    _, (g,) = _grad(lambda t: paddle.quantile(t, 0.3, axis=1), Y)
    np.testing.assert_allclose(g, [[0.1, 0, 0, 0.9], [0.9, 0, 0, 0.1]], atol=1e-12)
    with pytest.raises(ValueError, match="every q must be in"):
        paddle.quantile(y, 1.5)
    with pytest.raises(ValueError, match="interpolation"):
        paddle.quantile(y, 0.5, interpolation="x")
    with pytest.raises(TypeError, match="floating-point"):
        paddle.quantile(paddle.to_tensor([1, 2, 3]), 0.5)


def test_nanmedian():
    # values from PaddlePaddle 3.3.1
    x = paddle.to_tensor(YN, dtype="float32")
    assert paddle.nanmedian(x, axis=1).numpy().tolist() == [2.5, 2.0]
    assert x.nanmedian().numpy().tolist() == 2.0
    assert paddle.nanmedian(x, axis=[0, 1], keepdim=True).shape == [1, 1]
    assert np.isnan(paddle.nanmedian(paddle.to_tensor([np.nan, np.nan])).numpy())
    i = paddle.nanmedian(paddle.to_tensor([1, 2, 3, 4]))
    assert i.dtype == paddle.int64 and int(i) == 2
    assert paddle.nanmedian(x, axis=1, mode="min").numpy().tolist() == [2.0, 2.0]
    _, (g,) = _grad(lambda t: paddle.nanmedian(t, axis=1), YN)
    assert g.tolist() == [[0, 0.5, 0, 0.5], [1, 0, 0, 0]]


# ---------------------------------------------------------------------------
# modified Bessel functions
# ---------------------------------------------------------------------------

def test_bessel_i_values_and_gradients():
    v = np.array([0.0, 0.7, -2.0, 15.0, 29.99, 30.01, -80.0])
    x = paddle.to_tensor(v)
    np.testing.assert_allclose(paddle.i0(x).numpy(), np.i0(v), rtol=1e-14)
    np.testing.assert_allclose(x.i0e().numpy(), np.i0(v) * np.exp(-np.abs(v)), rtol=1e-14)
    # I1(1) = 0.565159103992485..., odd; I1e(x) = I1(x) e^-|x|
    np.testing.assert_allclose(paddle.i1(paddle.to_tensor([1.0, -1.0], "float64")).numpy(),
                               [0.565159103992485, -0.565159103992485], rtol=1e-14)
    np.testing.assert_allclose(paddle.i1e(x).numpy() * np.exp(np.abs(v)), paddle.i1(x).numpy(),
                               rtol=1e-13)
    assert paddle.i0(paddle.to_tensor([1, 2])).dtype == paddle.float32
    # I0' = I1 and, at 0, I1' = 1/2
    _, (g,) = _grad(paddle.i0, v)
    np.testing.assert_allclose(g, paddle.i1(x).numpy(), rtol=1e-14)
    _, (g,) = _grad(paddle.i1, [0.0])
    assert g.tolist() == [0.5]
    assert np.isfinite(paddle.i0e(paddle.to_tensor([800.0])).numpy()).all()
