"""The fused kernels (fused_linear_activation, dropout, sum back to a bias row or channels)
against the reference kernels."""

import numpy as np
import pytest

import dygrad
from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import cpu_fused
from dygrad_accelerated.engine import SOURCES

FLOATS = [np.float16, np.float32, np.float64]
TOL = {np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-12}


def _close(got, want, dtype):
    assert got.dtype == want.dtype and got.shape == want.shape
    scale = max(1.0, float(np.max(np.abs(want.astype(np.float64)), initial=0)))
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=TOL[dtype],
                               atol=TOL[dtype] * scale)


@pytest.fixture(params=[1, 2])
def n_threads(request):
    before = dygrad.get_num_threads()
    dygrad.set_num_threads(request.param)
    yield request.param
    dygrad.set_num_threads(before)


def test_compiled():
    assert SOURCES["fused_linear_activation"] == SOURCES["dropout"] == SOURCES["sum"] == "cython"


# ---------------------------------------------------------------------------
# fused_linear_activation
# ---------------------------------------------------------------------------

LINEAR_SHAPES = [((5, 3), 4), ((1, 7), 2), ((2, 3, 5), 3), ((4,), 3), ((0, 3), 2), ((3, 0), 4),
                 ((64, 128), 256), ((128, 64), 300), ((2, 1, 9), 1)]


@pytest.mark.parametrize("activation", ["none", "relu", "sigmoid", "tanh"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("x_shape,n", LINEAR_SHAPES)
def test_fused_linear_matches_the_reference(x_shape, n, dtype, activation, n_threads):
    rng = np.random.default_rng(0)
    k = x_shape[-1]
    x, w, b = (rng.normal(size=s).astype(dtype) for s in (x_shape, (k, n), (n,)))
    got = cpu_fused.fused_linear_activation(x, w, b, activation)
    _close(got, REFERENCE["fused_linear_activation"](x, w, b, activation), dtype)


def test_fused_linear_non_contiguous_inputs():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(8, 10))[:, ::2]
    w = np.asfortranarray(rng.normal(size=(5, 6)))
    b = rng.normal(size=12)[::2]
    for act in ("none", "relu", "sigmoid", "tanh"):
        _close(cpu_fused.fused_linear_activation(x, w, b, act),
               REFERENCE["fused_linear_activation"](x, w, b, act), np.float64)


def test_fused_linear_special_values():
    x = np.eye(6, dtype=np.float32)
    w = np.eye(6, dtype=np.float32)
    b = np.array([np.nan, np.inf, -np.inf, -200.0, 200.0, -0.0], np.float32)
    for act in ("none", "relu", "sigmoid", "tanh"):
        got = cpu_fused.fused_linear_activation(x, w, b, act)
        with np.errstate(invalid="ignore"):
            want = REFERENCE["fused_linear_activation"](x, w, b, act)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=0)  # nan where nan, inf where inf
    sig = cpu_fused.fused_linear_activation(x, w, b, "sigmoid")
    assert sig[0, 2] == 0 and sig[0, 1] == 1 and 0 <= sig[0, 3] < 1e-30 and sig[0, 4] == 1


def test_fused_linear_bad_inputs_raise_as_the_reference():
    x, w, b = np.ones((2, 3), np.float32), np.ones((3, 4), np.float32), np.ones(4, np.float32)
    with pytest.raises(TypeError, match="one dtype"):
        cpu_fused.fused_linear_activation(x, w.astype(np.float64), b)
    with pytest.raises(ValueError, match="activation"):
        cpu_fused.fused_linear_activation(x, w, b, "gelu")
    with pytest.raises(ValueError):  # the row's check comes first; the kernels only broadcast
        cpu_fused.fused_linear_activation(x, w, np.ones(3, np.float32))


# ---------------------------------------------------------------------------
# dropout: the same draws from the same generator, so the same mask
# ---------------------------------------------------------------------------

DROPOUT_SHAPES = [(), (1,), (7,), (3, 5), (2, 0, 3), (64, 256), (64, 20, 12, 12)]


def _dropout_both(x, **attrs):
    got = cpu_fused.dropout(x, rng=np.random.default_rng(11), **attrs)
    want = REFERENCE["dropout"](x, rng=np.random.default_rng(11), **attrs)
    return got, want


@pytest.mark.parametrize("attrs", [{}, {"p": 0.2}, {"p": 0.9, "mode": "downscale_in_infer"},
                                   {"p": 1.0}, {"p": 0.0}, {"training": False, "p": 0.3},
                                   {"axis": (0,)}])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", DROPOUT_SHAPES)
def test_dropout_is_the_reference_to_the_bit(shape, dtype, attrs):
    if attrs.get("axis") and len(shape) == 0:
        return
    x = np.random.default_rng(3).normal(size=shape).astype(dtype)
    (out, mask), (want_out, want_mask) = _dropout_both(x, **attrs)
    assert out.dtype == want_out.dtype and mask.dtype == want_mask.dtype == np.uint8
    np.testing.assert_array_equal(mask, want_mask)
    np.testing.assert_array_equal(out, want_out)


def test_dropout_non_contiguous_and_special_values():
    x = np.random.default_rng(4).normal(size=(9, 12)).astype(np.float32)[::2, 1::3]
    (out, mask), (want_out, want_mask) = _dropout_both(x, p=0.4)
    np.testing.assert_array_equal(mask, want_mask)
    np.testing.assert_array_equal(out, want_out)
    x = np.array([np.nan, np.inf, -np.inf, -0.0, 3.0] * 8, np.float64)
    with np.errstate(invalid="ignore"):
        (out, mask), (want_out, want_mask) = _dropout_both(x, p=0.5)
    assert 0 < mask.sum() < mask.size
    np.testing.assert_array_equal(mask, want_mask)
    np.testing.assert_array_equal(out, want_out)  # nan * 0 is nan, as the reference's product
    np.testing.assert_array_equal(np.signbit(out), np.signbit(want_out))


def test_dropout_leaves_the_generator_where_the_reference_does():
    x = np.ones((5, 6), np.float32)
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    cpu_fused.dropout(x, 0.5, rng=g1)
    REFERENCE["dropout"](x, 0.5, rng=g2)
    assert g1.random() == g2.random()


def test_seed_gives_the_same_mask_on_both_engines():
    x = dygrad.ones([16, 32])
    masks = {}
    before = dygrad.get_engine()
    try:
        for engine in ("reference", "accelerated"):
            dygrad.set_engine(engine)
            dygrad.seed(2024)
            masks[engine] = dygrad.nn.functional.dropout(x, p=0.3).numpy()
    finally:
        dygrad.set_engine(before)
    np.testing.assert_array_equal(masks["reference"], masks["accelerated"])
    assert 0 < np.count_nonzero(masks["reference"]) < x.size


# ---------------------------------------------------------------------------
# sum: back to a bias row or to channels (and everything else as before)
# ---------------------------------------------------------------------------

SUM_CASES = [((64, 256), (0,)), ((64, 1), (0,)), ((1, 7), (0,)), ((0, 5), (0,)), ((3, 0), (0,)),
             ((64, 20, 24, 24), (0, 2, 3)), ((1, 3, 5, 5), (0, 2, 3)), ((0, 3, 2, 2), (0, 2, 3)),
             ((4, 5, 600), (0,)), ((2, 3, 4, 5), (0, 1)), ((2, 3, 4, 5), (0, 3)),
             ((5, 7), -2), ((2, 3, 4), [0, -1]), ((3, 4), (1,)), ((6,), (0,)), ((2, 3, 4), (1,)),
             ((2, 3, 4), (0, 2, 1)), ((3, 4), (0, 1)), ((3, 4), None), ((2, 3, 4), (0, 2)),
             ((), 0), ((), -1)]


@pytest.mark.parametrize("keepdim", [True, False])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,axis", SUM_CASES)
def test_sum_matches_the_reference(shape, axis, dtype, keepdim, n_threads):
    x = np.random.default_rng(6).normal(size=shape).astype(dtype)
    got = cpu_fused.sum_(x, axis, keepdim=keepdim)
    want = REFERENCE["sum"](x, axis, keepdim=keepdim)
    tol = {np.float16: 2e-2, np.float32: 1e-5, np.float64: 1e-12}[dtype]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol,
                               atol=tol * np.sqrt(max(x.size, 1)))


def test_sum_non_contiguous_integers_dtype_and_bad_axes_as_the_reference():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(6, 8, 3)).astype(np.float32)[::2].transpose(1, 0, 2)
    np.testing.assert_allclose(cpu_fused.sum_(x, (0,), keepdim=True),
                               REFERENCE["sum"](x, (0,), keepdim=True), rtol=1e-6)
    i = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(cpu_fused.sum_(i, (0,)), REFERENCE["sum"](i, (0,)))
    f = np.ones((3, 4), np.float32)
    assert cpu_fused.sum_(f, (0,), dtype="float64").dtype == np.float64
    for bad in ((0, 0), (2,), (-3,)):
        with pytest.raises(ValueError) as want:
            REFERENCE["sum"](f, bad)
        with pytest.raises(type(want.value)):
            cpu_fused.sum_(f, bad)


# ---------------------------------------------------------------------------
# fused_linear_activation_grad
# ---------------------------------------------------------------------------

def test_fused_linear_grad_compiled():
    assert SOURCES["fused_linear_activation_grad"] == "cython"


LINEAR_GRAD_SHAPES = [(5, 3, 4), (1, 7, 2), (0, 3, 2), (3, 0, 4), (64, 128, 256), (64, 256, 1)]


@pytest.mark.parametrize("rows,k,n", LINEAR_GRAD_SHAPES)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("activation", ["relu", "none", "tanh"])
def test_fused_linear_grad_matches_the_reference(rows, k, n, dtype, activation, n_threads):
    rng = np.random.default_rng(rows * 100 + k + n)
    x = rng.normal(size=(rows, k)).astype(dtype)
    out = np.maximum(rng.normal(size=(rows, n)), 0).astype(dtype)
    g = rng.normal(size=(rows, n)).astype(dtype)
    got = cpu_fused.fused_linear_activation_grad(x, out, g, activation)
    want = REFERENCE["fused_linear_activation_grad"](x, out, g, activation)
    for a, b in zip(got, want):
        _close(a, b, dtype)
    assert np.array_equal(got[2], want[2])  # z_grad: a mask, exact


def test_fused_linear_grad_non_contiguous_and_3d_inputs():
    rng = np.random.default_rng(3)
    x = np.asfortranarray(rng.normal(size=(6, 5)).astype(np.float32))
    out = np.maximum(rng.normal(size=(4, 6)), 0).astype(np.float32).T
    g = rng.normal(size=(6, 4)).astype(np.float32)[:, ::-1]
    for args in [(x, out, g), (x.reshape(2, 3, 5), out.reshape(2, 3, 4), g.reshape(2, 3, 4))]:
        for activation in ("relu", "none"):
            got = cpu_fused.fused_linear_activation_grad(*args, activation=activation)
            want = REFERENCE["fused_linear_activation_grad"](*args, activation=activation)
            for a, b in zip(got, want):
                _close(a, b, np.float32)


def test_fused_linear_grad_without_activation_passes_z_grad_through():
    """With no activation z_grad is out_grad's own array when it is C-contiguous (the linear
    gradient rule reads it only for x's gradient), a contiguous copy otherwise."""
    rng = np.random.default_rng(4)
    x = rng.normal(size=(6, 5)).astype(np.float32)
    g = rng.normal(size=(6, 4)).astype(np.float32)
    assert cpu_fused.fused_linear_activation_grad(x, g, g, "none")[2] is g
    gt = np.asfortranarray(g)
    gz = cpu_fused.fused_linear_activation_grad(x, gt, gt, "none")[2]
    assert gz.flags.c_contiguous and np.array_equal(gz, g)


def test_fused_linear_grad_bad_inputs_raise_as_the_reference():
    x, out = np.ones((2, 3), np.float32), np.ones((2, 4), np.float32)
    with pytest.raises(TypeError, match="one dtype"):
        cpu_fused.fused_linear_activation_grad(x, out.astype(np.float64), out, "relu")
    with pytest.raises(ValueError, match="activation"):
        cpu_fused.fused_linear_activation_grad(x, out, out, "gelu")
    with pytest.raises(ValueError, match="must agree"):
        cpu_fused.fused_linear_activation_grad(x, out, np.ones((2, 5), np.float32), "relu")
    with pytest.raises(ValueError):  # the row's check comes first in dispatch
        cpu_fused.fused_linear_activation_grad(np.ones((3, 3), np.float32), out, out, "relu")
