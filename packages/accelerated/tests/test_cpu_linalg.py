"""matmul's kernel: the compiled AVX2 loop of small float32 products with few output columns
(``_linalg.pyx``) against the reference kernel, and every other product left to NumPy."""

import numpy as np
import pytest

from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import cpu_linalg
from dygrad_accelerated.engine import SOURCES

needs_avx2 = pytest.mark.skipif(not cpu_linalg.have_skinny(),
                                reason="this CPU or build has no AVX2 and FMA for _linalg")


@pytest.fixture
def calls(monkeypatch):
    """How many products went to the compiled loop."""
    seen = []
    real = cpu_linalg.sgemm_skinny

    def spy(a, b, out):
        seen.append((a.shape, b.shape))
        return real(a, b, out)
    monkeypatch.setattr(cpu_linalg, "sgemm_skinny", spy)
    return seen


def _operands(rng, m, k, n, transpose_x, transpose_y, layout):
    x = rng.standard_normal((k, m) if transpose_x else (m, k)).astype(np.float32)
    y = rng.standard_normal((n, k) if transpose_y else (k, n)).astype(np.float32)
    if layout == "strided":  # every other row and column of a bigger array
        x = np.repeat(np.repeat(x, 2, axis=0), 2, axis=1)[::2, ::2]
        y = np.repeat(np.repeat(y, 2, axis=0), 2, axis=1)[::2, ::2]
    elif layout == "reversed":  # negative strides, same values after a second reversal
        x = np.ascontiguousarray(x[::-1])[::-1]
        y = np.ascontiguousarray(y[:, ::-1])[:, ::-1]
    return x, y


def test_compiled():
    assert SOURCES["matmul"] == "cython"


@needs_avx2
@pytest.mark.parametrize("m,k,n", [(256, 64, 8), (256, 8, 64), (64, 256, 8), (1, 1, 8),
                                   (7, 3, 16), (13, 5, 24), (9, 64, 64), (8, 1, 8)])
@pytest.mark.parametrize("transpose_x,transpose_y", [(False, False), (True, False),
                                                     (False, True), (True, True)])
@pytest.mark.parametrize("layout", ["contiguous", "strided", "reversed"])
def test_skinny_products_match_the_reference(m, k, n, transpose_x, transpose_y, layout, calls):
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    x, y = _operands(rng, m, k, n, transpose_x, transpose_y, layout)
    got = cpu_linalg.matmul(x, y, transpose_x, transpose_y)
    want = REFERENCE["matmul"](x.astype(np.float64), y.astype(np.float64), transpose_x,
                               transpose_y)
    assert calls == [((m, k), (k, n))]
    assert got.dtype == np.float32 and got.shape == (m, n) and got.flags.c_contiguous
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.sqrt(k))


@pytest.mark.parametrize("x_shape,y_shape,dtype", [
    ((256, 64), (64, 10), np.float32),     # columns not a multiple of 8
    ((256, 64), (64, 72), np.float32),     # more columns than SKINNY_MAX_N
    ((2048, 1024), (1024, 8), np.float32),  # past SKINNY_MAX_MACS: BLAS's blocking pays
    ((256, 64), (64, 8), np.float64),
    ((0, 64), (64, 8), np.float32),
    ((4, 0), (0, 8), np.float32),
    ((3, 4, 5), (5, 8), np.float32),       # batched
    ((5,), (5, 8), np.float32),            # Paddle's 1-D rule
])
def test_other_products_are_numpys(x_shape, y_shape, dtype, calls):
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(x_shape).astype(dtype), rng.standard_normal(y_shape).astype(dtype)
    got = cpu_linalg.matmul(x, y)
    assert calls == []
    np.testing.assert_array_equal(got, REFERENCE["matmul"](x, y))
    assert got.dtype == dtype


@needs_avx2
def test_misaligned_data_goes_to_the_compiled_loop(calls):
    raw = np.zeros(1 + 16 * 8 * 4, np.uint8)[1:]  # float32 data one byte off its alignment
    x = raw.view(np.float32).reshape(16, 8)
    x[...] = np.arange(128, dtype=np.float32).reshape(16, 8) / 7
    y = np.arange(64, dtype=np.float32).reshape(8, 8) / 5
    np.testing.assert_allclose(cpu_linalg.matmul(x, y), x.astype(np.float64) @ y, rtol=1e-6)
    assert len(calls) == 1


def test_rows_not_a_whole_number_of_floats_apart_are_numpys(calls):
    raw = np.zeros(16 * 33 + 4, np.uint8)  # 16 rows of 8 float32, 33 bytes apart
    x = np.lib.stride_tricks.as_strided(raw.view(np.float32), shape=(16, 8), strides=(33, 4))
    x[...] = np.arange(128, dtype=np.float32).reshape(16, 8) / 7
    y = np.arange(64, dtype=np.float32).reshape(8, 8) / 5
    np.testing.assert_allclose(cpu_linalg.matmul(x, y), x.astype(np.float64) @ y, rtol=1e-6)
    assert calls == []
