"""More of Paddle's math API: atan2, expm1, lerp, logit, deg2rad/rad2deg, frac, heaviside,
add_n, nansum and nanmean, as functions and Tensor methods.

Expected values are NumPy statements or central differences; dtype rules and the values
at Paddle's conventions (logit's gradient outside its domain, ...) were checked against
PaddlePaddle 3.3.1, where a comment says so.
"""

import math
import warnings

import numpy as np
import pytest
from gradcheck import analytic_grads, check_grads

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
    return analytic_grads(fn, *[np.asarray(v, np.float64) for v in values])


def _check_grads(fn, *values):
    check_grads(fn, *[np.asarray(v, np.float64) for v in values], rtol=1e-5)


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


# ---------------------------------------------------------------------------
# lerp
# ---------------------------------------------------------------------------

def test_lerp_values_with_number_and_tensor_weights():
    x = RNG.uniform(-2, 2, (3, 1)).astype(np.float32)
    y = RNG.uniform(-2, 2, (4,)).astype(np.float32)
    w = RNG.uniform(0, 1, (2, 1, 1)).astype(np.float32)
    _close(paddle.lerp(T(x), T(y), 0.25), x + np.float32(0.25) * (y - x))
    _close(paddle.lerp(T(x), T(y), T(w)), x + w * (y - x))  # shape [2, 3, 4]
    _close(T(x).lerp(T(y), 1.0), np.broadcast_to(y, (3, 4)))
    _close(paddle.lerp(T(x, dtype="float64"), T(y, dtype="float64"), 0.5),
           x.astype(np.float64) + 0.5 * (y.astype(np.float64) - x.astype(np.float64)))


def test_lerp_in_place_method():
    x = T([1.0, 2.0])
    out = x.lerp_(T([3.0, 5.0]), T([0.5, 0.25]))
    assert out is x
    _close(x, np.array([2.0, 2.75], np.float32))  # as Paddle 3.3.1
    with pytest.raises(ValueError, match="in-place result has shape"):
        T([1.0, 2.0]).lerp_(T([[3.0], [4.0]]), 0.5)


def test_lerp_errors():
    with pytest.raises(TypeError, match="lerp: x, y and weight must be floating-point tensors of "
                                        "one dtype, got int64, int64, int64"):
        paddle.lerp(T([1, 2]), T([3, 4]), 1)
    with pytest.raises(TypeError, match="got float32, float64, float32"):
        paddle.lerp(T([1.0]), T([2.0], dtype="float64"), 0.5)
    with pytest.raises(TypeError, match="lerp: weight must be a number"):
        paddle.lerp(T([1.0]), T([2.0]), "0.5")
    with pytest.raises(TypeError, match="lerp: y must be a Tensor"):
        paddle.lerp(T([1.0]), 2.0, 0.5)
    with pytest.raises(ValueError, match=r"lerp: shapes \[2\] and \[2\] and \[3\] cannot be"):
        paddle.lerp(T([1.0, 2.0]), T([1.0, 2.0]), T([0.1, 0.2, 0.3]))


def test_lerp_gradients():
    # x and y get (1 - w) g and w g, as Paddle; w (no gradient in Paddle) gets (y - x) g
    _check_grads(paddle.lerp, RNG.uniform(-2, 2, (2, 3)), RNG.uniform(-2, 2, (3,)),
                 RNG.uniform(0, 1, (2, 1)))
    (gx, gy), _ = _grads(lambda a, b: paddle.lerp(a, b, 0.25), [1.0, 2.0], [3.0, 4.0])
    assert gx.shape == gy.shape == (2,)


# ---------------------------------------------------------------------------
# logit
# ---------------------------------------------------------------------------

def test_logit_values_and_clipping():
    x = np.array([0.2, 0.5, 0.9, 0.0, 1.0], np.float32)
    with np.errstate(divide="ignore"):
        _close(paddle.logit(T(x)), np.log(x) - np.log1p(-x), rtol=1e-5)
    c = np.clip(x, 0.1, 0.9)
    _close(paddle.logit(T(x), eps=0.1), np.log(c) - np.log1p(-c), rtol=1e-5)
    _close(T(x).logit(0.1), np.log(c) - np.log1p(-c), rtol=1e-5)
    # outside [0, 1]: NaN without eps, the clipped value with it (Paddle 3.3.1)
    out = paddle.logit(T([-0.5, 1.5])).numpy()
    assert np.isnan(out).all()
    _close(paddle.logit(T([-0.5, 1.5]), 0.1), np.array([-np.log(9), np.log(9)], np.float32),
           rtol=1e-5)


def test_logit_dtypes_and_errors():
    _close(paddle.logit(T([0, 1], dtype="int32")), np.array([-np.inf, np.inf], np.float32))
    assert paddle.logit(T([0.3], dtype="float64")).dtype == paddle.float64
    with pytest.raises(TypeError, match="logit: x has dtype bool"):
        paddle.logit(T([True]))
    with pytest.raises(TypeError, match="logit: x must be a Tensor"):
        paddle.logit([0.3])


def test_logit_gradient_as_paddle():
    x = np.array([0.05, 0.2, 0.5, 0.95, 0.0, 1.0, -0.5, 1.5])
    with np.errstate(divide="ignore", invalid="ignore"):
        d = 1 / (x * (1 - x))
        # eps None: 1 / (x (1 - x)) inside [0, 1] (inf at its ends), NaN outside (Paddle 3.3.1)
        g = _sum_grad(paddle.logit, x)
        np.testing.assert_allclose(g, np.where((x < 0) | (x > 1), np.nan, d))
        # eps: 0 outside [eps, 1 - eps], bounds included (Paddle 3.3.1)
        g = _sum_grad(lambda t: paddle.logit(t, eps=0.2), x)
    np.testing.assert_allclose(g, [0, d[1], d[2], 0, 0, 0, 0, 0])
    _check_grads(lambda t: paddle.logit(t, 0.1), RNG.uniform(0.15, 0.85, (2, 3)))


def _sum_grad(fn, values):
    x = T(np.asarray(values, np.float64), stop_gradient=False)
    fn(x).sum().backward()
    return x.grad.numpy()


# ---------------------------------------------------------------------------
# deg2rad, rad2deg, frac, heaviside
# ---------------------------------------------------------------------------

def test_deg2rad_and_rad2deg():
    d = np.array([180.0, -90.0, 45.0, 0.0], np.float32)
    _close(paddle.deg2rad(T(d)), np.deg2rad(d))
    _close(T(d).deg2rad(), np.deg2rad(d))
    _close(paddle.rad2deg(T(d)), np.rad2deg(d), rtol=1e-6)
    _close(T(d).rad2deg(), np.rad2deg(d), rtol=1e-6)
    # integers give float32 (Paddle 3.3.1), float64 is kept
    _close(paddle.deg2rad(T([180, 90], dtype="int32")), np.deg2rad([180.0, 90.0]).astype(np.float32))
    _close(paddle.rad2deg(T([3, 1])), np.rad2deg([3.0, 1.0]).astype(np.float32))
    _close(paddle.deg2rad(T([180.0], dtype="float64")), np.array([np.pi]))
    with pytest.raises(TypeError, match="deg2rad: x has dtype bool"):
        paddle.deg2rad(T([True]))
    with pytest.raises(TypeError, match="rad2deg: x must be a Tensor"):
        paddle.rad2deg([1.0])
    g = _sum_grad(paddle.deg2rad, [1.0, 2.0])
    np.testing.assert_allclose(g, [np.pi / 180] * 2)


def test_frac():
    x = np.array([1.5, -1.5, 2.0, -0.25, 0.0], np.float32)
    _close(paddle.frac(T(x)), x - np.trunc(x))
    _close(T(x).frac(), x - np.trunc(x))
    # integers give zeros of their dtype; infinities give NaN (Paddle 3.3.1)
    _close(paddle.frac(T([1, -2], dtype="int32")), np.zeros(2, np.int32))
    with np.errstate(invalid="ignore"):
        assert np.isnan(paddle.frac(T([np.inf, -np.inf])).numpy()).all()
    with pytest.raises(TypeError, match="frac: x has dtype bool"):
        paddle.frac(T([True]))
    np.testing.assert_allclose(_sum_grad(paddle.frac, [1.5, -1.25]), [1.0, 1.0])


def test_heaviside():
    x = np.array([[-1.0], [0.0], [2.0]], np.float32)
    y = np.array([0.5, 0.25], np.float32)
    _close(paddle.heaviside(T(x), T(y)), np.heaviside(x, y))
    _close(T(x).heaviside(T(y)), np.heaviside(x, y))
    # integers keep their dtype; NaN gives 0 (Paddle 3.3.1)
    _close(paddle.heaviside(T([-1, 0, 2]), T([5, 6, 7])), np.array([0, 6, 1]))
    _close(paddle.heaviside(T([np.nan, -0.0]), T([0.5, 0.5])), np.array([0.0, 0.5], np.float32))
    with pytest.raises(TypeError, match="heaviside: x has dtype bool"):
        paddle.heaviside(T([True]), T([False]))
    with pytest.raises(TypeError, match="heaviside: y must be a Tensor"):
        paddle.heaviside(T([1.0]), 0.5)
    # only y gets a gradient, where x == 0; x gets zeros (Paddle 3.3.1)
    (gx, gy), w = _grads(paddle.heaviside, [-1.0, 0.0, 2.0], [5.0, 0.5, 7.0])
    np.testing.assert_array_equal(gx, [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(gy, [0.0, w[1], 0.0])


# ---------------------------------------------------------------------------
# add_n, nansum, nanmean
# ---------------------------------------------------------------------------

def test_add_n():
    a, b, c = (RNG.uniform(-2, 2, (2, 3)).astype(np.float32) for _ in range(3))
    _close(paddle.add_n([T(a), T(b), T(c)]), a + b + c, rtol=1e-6)
    _close(paddle.add_n((T(a), T(b))), a + b)
    _close(T(a).add_n(), a)  # a Tensor method too, as in Paddle
    one = T(a)
    out = paddle.add_n(one)
    _close(out, a)
    assert out is not one
    _close(paddle.add_n([T([1, 2], dtype="int32"), T([3, 4], dtype="int32")]),
           np.array([4, 6], np.int32))
    # x used twice gets 2 g (Paddle 3.3.1)
    x, y = T([1.0, 2.0], stop_gradient=False), T([3.0, 4.0], stop_gradient=False)
    paddle.add_n([x, y, x]).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(y.grad.numpy(), [1.0, 1.0])


def test_add_n_errors():
    with pytest.raises(ValueError, match=r"add_n: the inputs must have one shape and dtype, but "
                                         r"inputs\[0\] is \[2\] float32 and inputs\[1\] is \[1\]"):
        paddle.add_n([T([1.0, 2.0]), T([3.0])])  # no broadcasting, as Paddle
    with pytest.raises(ValueError, match=r"inputs\[1\] is \[2\] float64"):
        paddle.add_n([T([1.0, 2.0]), T([3.0, 4.0], dtype="float64")])
    with pytest.raises(TypeError, match="add_n: inputs must be a Tensor or a non-empty list"):
        paddle.add_n([])
    with pytest.raises(TypeError, match=r"add_n: inputs\[0\] must be a Tensor"):
        paddle.add_n([np.array([1.0])])
    with pytest.raises(TypeError, match=r"add_n: inputs\[0\] has dtype bool"):
        paddle.add_n([T([True]), T([True])])


NAN_DATA = np.array([[1.0, np.nan, 3.0, -2.0], [np.nan, np.nan, np.nan, np.nan],
                     [0.5, 2.0, np.nan, 4.0]], np.float32)


@pytest.mark.parametrize("axis,keepdim", [(None, False), (1, False), (-1, True), (0, True),
                                          ([0, 1], False)])
def test_nansum_and_nanmean_values(axis, keepdim):
    x = T(NAN_DATA)
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    _close(paddle.nansum(x, axis=axis, keepdim=keepdim),
           np.nansum(NAN_DATA, axis=np_axis, keepdims=keepdim))
    _close(x.nansum(axis, keepdim=keepdim), np.nansum(NAN_DATA, axis=np_axis, keepdims=keepdim))
    with warnings.catch_warnings(), np.errstate(invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "Mean of empty slice"
        expected = np.nanmean(NAN_DATA, axis=np_axis, keepdims=keepdim)
        _close(paddle.nanmean(x, axis=axis, keepdim=keepdim), expected)
        _close(x.nanmean(axis, keepdim), expected)


def test_nansum_and_nanmean_dtypes():
    # integers: nansum gives int64, nanmean float32 (Paddle 3.3.1)
    out = paddle.nansum(T([1, 2, 3], dtype="int32"))
    assert out.dtype == paddle.int64 and out.item() == 6
    _close(paddle.nansum(T(NAN_DATA), dtype="float64"), np.float64(np.nansum(NAN_DATA)))
    _close(paddle.nanmean(T([1, 2, 4])), np.float32(7 / 3))
    _close(paddle.nanmean(T(NAN_DATA.astype(np.float64))), np.nanmean(NAN_DATA.astype(np.float64)))
    with np.errstate(invalid="ignore"):
        _close(paddle.nanmean(T(np.zeros((0, 3), np.float32)), axis=0),
               np.full(3, np.nan, np.float32))
    _close(paddle.nansum(T(np.zeros((0, 3), np.float32)), axis=0), np.zeros(3, np.float32))


def test_nansum_and_nanmean_errors():
    for api in (paddle.nansum, paddle.nanmean):
        name = api.__name__
        with pytest.raises(ValueError, match=f"{name}: axis 2 is out of range for a tensor of "
                                             f"rank 2"):
            api(T(NAN_DATA), axis=2)
        with pytest.raises(TypeError, match=f"{name}: x has dtype bool"):
            api(T([True, False]))
        with pytest.raises(TypeError, match=f"{name}: x must be a Tensor"):
            api(NAN_DATA)


def test_nansum_and_nanmean_gradients():
    # zero at the NaNs, 1 (nansum) or 1 / count (nanmean) elsewhere (Paddle 3.3.1)
    finite = ~np.isnan(NAN_DATA)
    np.testing.assert_array_equal(_sum_grad(paddle.nansum, NAN_DATA), finite.astype(float))
    count = finite.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):  # the row with no numbers
        g = _sum_grad(lambda t: paddle.nanmean(t, axis=1), NAN_DATA)
        np.testing.assert_allclose(g, np.where(finite, 1 / count, 0.0))
    g = _sum_grad(paddle.nanmean, NAN_DATA)
    np.testing.assert_allclose(g, np.where(finite, 1 / finite.sum(), 0.0))


# ---------------------------------------------------------------------------
# erfinv
# ---------------------------------------------------------------------------

def test_erfinv_inverts_erf():
    x = np.linspace(-0.999, 0.999, 41)
    y = paddle.erfinv(T(x))
    assert y.dtype == paddle.float64
    np.testing.assert_allclose(paddle.erf(y).numpy(), x, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(T(x).erfinv().numpy(), y.numpy())
    # the tails keep their digits: erfc(y) = 1 - x (math.erfc is the independent check)
    tails = 1 - np.logspace(-15, -3, 7)
    yt = paddle.erfinv(T(tails)).numpy()
    np.testing.assert_allclose([math.erfc(v) for v in yt], 1 - tails, rtol=1e-12)
    # from Paddle 3.3.1: erfinv(0.999999) in float64 (Paddle's is 4e-12 off: math.erfc of
    # it misses 1 - 0.999999 by 1e-16, ours by 2e-22)
    np.testing.assert_allclose(paddle.erfinv(T([0.999999], dtype="float64")).numpy(),
                               [3.458910737260051], rtol=1e-10)


def test_erfinv_ends_dtypes_and_errors():
    out = paddle.erfinv(T([0.0, 1.0, -1.0, 1.5, np.nan]))
    assert out.dtype == paddle.float32
    np.testing.assert_array_equal(out.numpy(), [0.0, np.inf, -np.inf, np.nan, np.nan])
    # integers give float32 (Paddle 3.3.1)
    _close(paddle.erfinv(T([0, 1], dtype="int32")), np.array([0.0, np.inf], np.float32))
    with pytest.raises(TypeError, match="erfinv: x has dtype bool"):
        paddle.erfinv(T([True]))
    with pytest.raises(TypeError, match="erfinv: x must be a Tensor"):
        paddle.erfinv([0.5])


def test_erfinv_gradient():
    _check_grads(paddle.erfinv, RNG.uniform(-0.9, 0.9, (2, 3)))
    # from Paddle 3.3.1: sqrt(pi) / 2 * exp(erfinv(0.5)**2)
    np.testing.assert_allclose(_sum_grad(paddle.erfinv, [0.5, -0.5]), [1.112585] * 2, rtol=1e-6)


# ---------------------------------------------------------------------------
# lgamma, digamma, polygamma
# ---------------------------------------------------------------------------

GAMMA_X = np.array([-7.25, -2.5, -0.3, 1e-8, 0.1, 0.5, 1.0, 1.5, 2.0, 3.7, 9.99, 10.0, 25.0, 1e5])


def test_lgamma_values():
    expected = [math.lgamma(v) for v in GAMMA_X]
    np.testing.assert_allclose(paddle.lgamma(T(GAMMA_X)).numpy(), expected, rtol=2e-15, atol=1e-15)
    np.testing.assert_allclose(T(GAMMA_X).lgamma().numpy(), expected, rtol=2e-15, atol=1e-15)
    # near the roots 1 and 2 the result keeps its relative accuracy (Paddle 3.3.1's values;
    # math.lgamma(1 - 1e-9) is 8e-7 off there)
    np.testing.assert_allclose(paddle.lgamma(T([1 - 1e-9, 2 + 1e-9], dtype="float64")).numpy(),
                               [5.77215649399226e-10, 4.2278437040226697e-10], rtol=1e-14)
    # the poles and infinities give inf (Paddle 3.3.1)
    with np.errstate(divide="ignore"):
        out = paddle.lgamma(T([0.0, -0.0, -1.0, -4.0, np.inf, -np.inf], dtype="float64")).numpy()
    np.testing.assert_array_equal(out, [np.inf] * 6)


def test_digamma_and_polygamma_values():
    # from Paddle 3.3.1 (float64)
    x = T([-2.5, -0.3, -7.25, 0.1, 25.0, 1e-8], dtype="float64")
    np.testing.assert_allclose(paddle.digamma(x).numpy(), [
        1.1031566406452433, 2.1133097796353986, 5.189977214956288, -10.423754940411076,
        3.198742512851974, -100000000.57721566], rtol=1e-14)
    np.testing.assert_allclose(paddle.polygamma(x, 1).numpy(), [
        9.539246644989124, 13.945160267805724, 19.610354539293265, 101.43329915079275,
        0.04081066325722558, 1e+16], rtol=1e-14)
    np.testing.assert_allclose(x.polygamma(4).numpy(), [
        -0.06799599950675606, 9731.834956233522, 24481.573142242185, -2400015.607203196,
        -1.6629714250078935e-05, -2.4e+41], rtol=1e-12)
    np.testing.assert_allclose(paddle.polygamma(x, 0).numpy(), x.digamma().numpy())
    # psi(1) = -Euler's gamma, psi_1(1) = pi**2 / 6, psi_2(1) = -2 zeta(3)
    one = T([1.0], dtype="float64")
    np.testing.assert_allclose(paddle.digamma(one).numpy(), [-0.5772156649015329], rtol=1e-15)
    np.testing.assert_allclose(paddle.polygamma(one, 1).numpy(), [math.pi ** 2 / 6], rtol=1e-15)
    np.testing.assert_allclose(paddle.polygamma(one, 2).numpy(), [-2 * 1.2020569031595942],
                               rtol=1e-15)


def test_digamma_and_polygamma_at_the_poles_as_paddle():
    # Paddle 3.3.1: digamma -inf at 0, inf at -0, NaN at the negative integers;
    # polygamma (-1)**(n+1) inf at all of them
    with np.errstate(divide="ignore", invalid="ignore"):
        x = T([0.0, -0.0, -1.0, -3.0], dtype="float64")
        np.testing.assert_array_equal(paddle.digamma(x).numpy(), [-np.inf, np.inf, np.nan, np.nan])
        np.testing.assert_array_equal(paddle.polygamma(x, 1).numpy(), [np.inf] * 4)
        np.testing.assert_array_equal(paddle.polygamma(x, 2).numpy(), [-np.inf] * 4)


def test_gamma_family_dtypes_and_errors():
    # integers give float32 (Paddle 3.3.1)
    _close(paddle.lgamma(T([1, 3])), np.array([0.0, math.log(2)], np.float32))
    _close(paddle.digamma(T([1, 3], dtype="int32")),
           np.array([-0.5772157, 0.9227843], np.float32), rtol=1e-6)
    _close(paddle.polygamma(T([1, 3]), 1), np.array([1.644934, 0.394934], np.float32), rtol=1e-5)
    assert paddle.lgamma(T([2.5])).dtype == paddle.float32
    for api in (paddle.lgamma, paddle.digamma):
        with pytest.raises(TypeError, match=f"{api.__name__}: x has dtype bool"):
            api(T([True]))
    with pytest.raises(ValueError, match="polygamma: n must be >= 0, got -1"):
        paddle.polygamma(T([1.0]), -1)
    with pytest.raises(TypeError, match="polygamma: n must be an int, got float"):
        paddle.polygamma(T([1.0]), 1.5)
    with pytest.raises(TypeError, match="polygamma: x must be a Tensor"):
        paddle.polygamma([1.0], 1)


def test_gamma_family_gradients():
    x = np.array([[0.3, 1.7, 4.2], [-0.4, -2.6, 12.5]])
    _check_grads(paddle.lgamma, x)
    _check_grads(paddle.digamma, x)
    _check_grads(lambda t: paddle.polygamma(t, 2), x)
    # from Paddle 3.3.1: d lgamma = digamma, d digamma = polygamma(1)
    np.testing.assert_allclose(_sum_grad(paddle.lgamma, [0.5, -0.5]), [-1.9635108, 0.03648996],
                               rtol=1e-6)
    np.testing.assert_allclose(_sum_grad(paddle.digamma, [0.5, -0.5]), [4.934802, 8.934802],
                               rtol=1e-6)


# ---------------------------------------------------------------------------
# in-place variants
# ---------------------------------------------------------------------------

INPLACE = [
    ("frac_", lambda a: a - np.trunc(a), {}), ("expm1_", np.expm1, {}),
    ("logit_", lambda a: np.log(np.clip(a, 0.2, 0.8) / (1 - np.clip(a, 0.2, 0.8))), {"eps": 0.2}),
    ("erfinv_", lambda a: np.array([paddle.erfinv(T(v)).item() for v in a]), {}),
    ("lgamma_", lambda a: np.array([math.lgamma(v) for v in a]), {}),
    ("digamma_", lambda a: paddle.digamma(T(a)).numpy(), {}),
    ("polygamma_", lambda a: paddle.polygamma(T(a), 2).numpy(), {"n": 2}),
]


@pytest.mark.parametrize("name,ref,kw", INPLACE, ids=[n for n, _, _ in INPLACE])
def test_inplace_variants(name, ref, kw):
    a = np.array([0.1, 0.35, 0.5, 0.9], np.float64)
    expected = ref(a)
    x = T(a)
    assert getattr(x, name)(**kw) is x
    np.testing.assert_allclose(x.numpy(), expected, rtol=1e-7)
    if hasattr(paddle, name):  # Paddle has these as functions too (not erfinv_)
        x = T(a)
        assert getattr(paddle, name)(x, **kw) is x
        np.testing.assert_allclose(x.numpy(), expected, rtol=1e-7)
    if name != "frac_":
        with pytest.raises(TypeError, match=f"{name}: x has dtype int64, but its result is "
                                            f"floating-point"):
            getattr(T([1, 2]), name)(**kw)


def test_inplace_frac_of_integers_and_polygamma_order():
    x = T([3, -2], dtype="int32")
    paddle.frac_(x)
    np.testing.assert_array_equal(x.numpy(), [0, 0])
    assert x.dtype == paddle.int32
    with pytest.raises(ValueError, match="polygamma_: n must be >= 0"):
        T([1.0]).polygamma_(-2)
    assert not hasattr(paddle, "erfinv_") and not hasattr(paddle, "lerp_")  # methods only
