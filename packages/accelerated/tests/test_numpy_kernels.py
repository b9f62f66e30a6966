"""The NumPy-level kernels of ``numpy_kernels`` (the matrix product, the sums, the mean and the
reshape that gradient rules call on every step) against the reference kernels: the same
values to the bit, shapes and dtypes, the same errors for what they hand on."""

import numpy as np
import pytest

from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import numpy_kernels

K = numpy_kernels.KERNELS
DTYPES = [np.float16, np.float32, np.float64, np.int64]
SHAPES = [(), (1,), (7,), (64, 256), (1, 1), (0, 3), (3, 5, 7)]


def _data(shape, dtype):
    return np.asarray(np.random.default_rng(0).uniform(-3, 3, shape) * 10, dtype=dtype)


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sum_and_mean_match_the_reference(shape, dtype, keepdim):
    x = _data(shape, dtype)
    axes = [None, [], ()] + [tuple(range(k)) for k in range(1, len(shape) + 1)]
    axes += [(len(shape) - 1,), -1, [0]] if shape else []
    for axis in axes:
        _same(K["sum"](x, axis=axis, keepdim=keepdim), REFERENCE["sum"](x, axis=axis, keepdim=keepdim))
        if dtype != np.int64:
            with np.errstate(invalid="ignore"):
                _same(K["mean"](x, axis, keepdim), REFERENCE["mean"](x, axis, keepdim))
    _same(K["sum"](x, dtype=np.float64), REFERENCE["sum"](x, dtype=np.float64))


def test_sums_of_views_and_errors():
    x = _data((6, 10), np.float32)
    for v in (x.T, x[:, ::3], x[::2]):
        _same(K["sum"](v, axis=(0,)), REFERENCE["sum"](v, axis=(0,)))
        _same(K["mean"](v), REFERENCE["mean"](v))
    with pytest.raises(ValueError):
        K["sum"](x, axis=(0, 0))
    with pytest.raises(ValueError):
        K["sum"](x, axis=(2,))
    with pytest.raises(TypeError):
        K["mean"](x.astype(np.int32))


def test_reshape_matches_the_reference():
    x = _data((4, 6), np.float32)
    for shape in [(4, 6), (6, 4), (-1,), [4, 6], (2, -1, 3)]:
        got, want = K["reshape"](x, shape=shape), REFERENCE["reshape"](x, shape=shape)
        _same(got, want)
        assert np.shares_memory(got, x) and got is not x
    with pytest.raises(ValueError, match="cannot reshape"):
        K["reshape"](x, shape=(5, 5))


@pytest.mark.parametrize("tx", [False, True])
@pytest.mark.parametrize("ty", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_matches_the_reference(tx, ty, dtype):
    x = _data((3, 5) if tx else (5, 3), dtype)
    y = _data((4, 3) if ty else (3, 4), dtype)
    _same(K["matmul"](x, y, tx, ty), REFERENCE["matmul"](x, y, tx, ty))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_outer_and_strided_operands(dtype):
    # np.dot's cases: an outer product, and operands BLAS cannot take as they are
    col, row = _data((5, 1), dtype), _data((1, 4), dtype)
    _same(K["matmul"](col, row), REFERENCE["matmul"](col, row))
    x, y = _data((6, 10), dtype)[:, ::2], _data((5, 8), dtype)[:, 1::2]
    for tx, ty in [(False, False), (True, True)]:
        a, b = (x.T, y.T) if tx else (x, y)
        np.testing.assert_allclose(K["matmul"](a, b, tx, ty), REFERENCE["matmul"](a, b, tx, ty),
                                   rtol=1e-6 if dtype == np.float32 else 1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.bool_])
def test_broadcast_to_matches_the_reference(dtype):
    cases = [((1, 1), (256, 64)), ((1,), (3, 1, 4)), ((3, 1), (-1, 5)), ((1, 4), (2, 0, 4)),
             ((), (2, 3)), ((2, 3), (2, 3))]
    for shape, target in cases:
        x = _data(shape, np.float64).astype(dtype)
        got = K["broadcast_to"](x, shape=target)
        _same(got, REFERENCE["broadcast_to"](x, shape=target))
        assert got.flags.c_contiguous and got.flags.writeable and not np.shares_memory(got, x)
    strided = _data((3, 8), np.float32)[:, ::4]  # [3, 2], not contiguous
    _same(K["broadcast_to"](strided, shape=(2, 3, 2)),
          REFERENCE["broadcast_to"](strided, shape=(2, 3, 2)))
    with pytest.raises(ValueError, match="broadcast"):
        K["broadcast_to"](_data((3,), np.float32), shape=(2, 4))
