"""The compiled loss kernels against the reference kernels."""

import numpy as np
import pytest

from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import cpu_loss
from dygrad_accelerated.engine import SOURCES

TOL = {np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-12}
CASES = [((64, 10), -1), ((1, 7), -1), ((0, 5), -1), ((3, 5), 0), ((2, 3, 4), 1),
         ((2, 3, 4), -3), ((5, 1), 1)]


def _close(got, want, dtype):
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = TOL[dtype]
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol,
                               atol=tol)


def _inputs(shape, axis, dtype, soft, rng, noncontig=False):
    logits = rng.uniform(-5, 5, shape).astype(dtype)
    if noncontig:
        logits = np.asfortranarray(logits)
    lshape = tuple(1 if i == axis % len(shape) else d for i, d in enumerate(shape))
    if soft:
        label = rng.uniform(0, 1, shape).astype(dtype)
    else:
        label = rng.integers(0, shape[axis], lshape)
        label.reshape(-1)[::3] = -100  # some ignored entries
    return logits, label, rng.normal(size=lshape).astype(dtype)


def _both(name, *args, **kw):
    return REFERENCE[name](*args, **kw), getattr(cpu_loss, name)(*args, **kw)


def test_compiled():
    assert SOURCES["softmax_with_cross_entropy"] == SOURCES["softmax_with_cross_entropy_grad"] \
        == "cython"


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,axis", CASES)
@pytest.mark.parametrize("soft", [False, True])
@pytest.mark.parametrize("use_softmax", [True, False])
@pytest.mark.filterwarnings("ignore:overflow")  # float16 -label / p: inf in both kernels
def test_forward_and_grad_match_the_reference(dtype, shape, axis, soft, use_softmax):
    rng = np.random.default_rng(0)
    logits, label, loss_grad = _inputs(shape, axis, dtype, soft, rng)
    if not use_softmax:  # the input is already a distribution
        logits = REFERENCE["softmax"](logits, axis=axis)
    kw = {"soft_label": soft, "axis": axis, "use_softmax": use_softmax}
    want, got = _both("softmax_with_cross_entropy", logits, label, **kw)
    for g, w in zip(got, want):
        _close(g, w, dtype)
    want, got = _both("softmax_with_cross_entropy_grad", want[0], label, loss_grad, **kw)
    _close(got, want, dtype)


@pytest.mark.parametrize("soft", [False, True])
def test_non_contiguous_inputs_and_int32_labels(soft):
    rng = np.random.default_rng(1)
    logits, label, loss_grad = _inputs((6, 4), -1, np.float32, soft, rng, noncontig=True)
    if not soft:
        label = label.astype(np.int32)
    want, got = _both("softmax_with_cross_entropy", logits, label, soft_label=soft)
    for g, w in zip(got, want):
        _close(g, w, np.float32)
    p = np.asfortranarray(want[0])
    want, got = _both("softmax_with_cross_entropy_grad", p, label, loss_grad, soft_label=soft)
    _close(got, want, np.float32)


def test_a_custom_ignore_index():
    rng = np.random.default_rng(2)
    logits, label = rng.normal(size=(4, 3)), np.array([[2], [-1], [0], [-1]])
    want, got = _both("softmax_with_cross_entropy", logits, label, ignore_index=-1)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12)
    assert got[1][1, 0] == got[1][3, 0] == 0
    want, got = _both("softmax_with_cross_entropy_grad", want[0], label, np.ones((4, 1)),
                      ignore_index=-1)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert not got[1].any() and not got[3].any()


@pytest.mark.parametrize("bad", [10, -3])
def test_a_label_out_of_range_is_the_reference_error(bad):
    logits = np.zeros((3, 10), np.float32)
    label = np.array([[1], [bad], [2]])
    for name, args in [("softmax_with_cross_entropy", (logits, label)),
                       ("softmax_with_cross_entropy_grad", (logits, label,
                                                             np.ones((3, 1), np.float32)))]:
        with pytest.raises(IndexError, match=rf"label values must be in \[0, 10\).*got {bad}"):
            getattr(cpu_loss, name)(*args)


def test_mixed_dtypes_go_to_the_reference():
    rng = np.random.default_rng(3)
    logits, label = rng.normal(size=(4, 3)).astype(np.float32), np.array([[0], [1], [2], [1]])
    p, _ = REFERENCE["softmax_with_cross_entropy"](logits, label)
    g = np.ones((4, 1))  # float64 against float32 probabilities
    np.testing.assert_array_equal(cpu_loss.softmax_with_cross_entropy_grad(p, label, g),
                                  REFERENCE["softmax_with_cross_entropy_grad"](p, label, g))


# -- mse_loss and its gradient ---------------------------------------------------------------

MSE_SHAPES = [(256, 64), (64, 1), (1, 5), (7,), (), (0, 3), (2, 3, 5), (33, 17)]


def test_mse_compiled():
    assert SOURCES["mse_loss"] == SOURCES["mse_loss_grad"] == "cython"


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", MSE_SHAPES)
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("noncontig", [False, True])
def test_mse_matches_the_reference(dtype, shape, reduction, noncontig):
    rng = np.random.default_rng(1)
    x, y = (rng.uniform(-2, 2, shape).astype(dtype) for _ in range(2))
    if noncontig:
        x, y = x.T, y.T   # a transposed layout (the same shape for both)
    g = np.asarray(rng.normal(), dtype)
    for got, want in [_both("mse_loss", x, y, reduction=reduction),
                      _both("mse_loss_grad", x, y, g, reduction=reduction)]:
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                                   rtol=TOL[dtype], atol=TOL[dtype], equal_nan=True)
    assert np.isnan(cpu_loss.mse_loss(x, y)) == (x.size == 0)  # 'mean' over nothing: NaN


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mse_every_length_counts_every_element_once(dtype):
    """Whole blocks of 64, the lanes within them and the tail (small integers: exact sums)."""
    for n in list(range(1, 10)) + [63, 64, 65, 127, 128, 129, 200]:
        x = np.arange(n, dtype=dtype) % 7
        assert cpu_loss.mse_loss(x, np.ones(n, dtype), reduction="sum") == np.sum((x - 1) ** 2)


@pytest.mark.parametrize("bad", [
    (np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32)),
    (np.zeros((2, 3), np.float32), np.zeros((2, 3), np.float64)),
    (np.zeros((2, 3), np.int64), np.zeros((2, 3), np.int64))])
def test_mse_refuses_what_numpy_would_broadcast_or_cast(bad):
    with pytest.raises(ValueError):
        cpu_loss.mse_loss(*bad)
    with pytest.raises(ValueError):
        cpu_loss.mse_loss_grad(*bad, np.zeros((), bad[0].dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mse_array_entry_points_equal_the_loops_and_refuse_the_rest(dtype):
    """squared_error_array / squared_error_grad_array (one call on plain arrays) give the
    memoryview loops' results to the bit, and None for what the glue's general path takes."""
    from dygrad_accelerated import _loss
    rng = np.random.default_rng(3)
    x, y = (rng.normal(size=(64, 3)).astype(dtype) for _ in range(2))
    assert _loss.squared_error_array(x, y) == _loss.squared_error(x.ravel(), y.ravel())
    want = np.empty_like(x)
    _loss.squared_error_grad(x.ravel(), y.ravel(), 0.3, want.reshape(-1))
    got = _loss.squared_error_grad_array(x, y, 0.3)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    for a, b in [(x.T, y.T), (x, y.astype(np.float16)), (x.astype(">" + x.dtype.str[1:]), y),
                 (x, y[:10]), (x.astype(np.int64), y.astype(np.int64)), (x.tolist(), y)]:
        assert _loss.squared_error_array(a, b) is None
        assert _loss.squared_error_grad_array(a, b, 1.0) is None
