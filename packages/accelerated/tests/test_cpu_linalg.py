"""matmul's kernel: the compiled AVX2 loop of small float32 products with few output columns
(``_linalg.pyx``), the products with a size of 1 (gemv, outer), the products the threads
share (``dy_pool.h``), each against the reference kernel, and every other product left to
NumPy."""

import contextlib
import multiprocessing
import threading

import numpy as np
import pytest

from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import _linalg, cpu_linalg, threads
from dygrad_accelerated.engine import SOURCES

needs_avx2 = pytest.mark.skipif(not cpu_linalg.have_skinny(),
                                reason="this CPU or build has no AVX2 and FMA for _linalg")


@contextlib.contextmanager
def _thread_count(n):
    """n threads meanwhile (n - 1 workers in _linalg's pool, even on one core)."""
    before = threads.count()
    threads.set_num_threads(n)
    try:
        yield
    finally:
        threads.set_num_threads(before)


@pytest.fixture
def one_thread():
    """One thread for the test: no product shared."""
    with _thread_count(1):
        yield


@pytest.fixture
def two_threads():
    with _thread_count(2):
        yield


@pytest.fixture
def shared():
    """How many products the pool shared since the test began (one job each)."""
    start = _linalg.jobs()
    return lambda: _linalg.jobs() - start


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
def test_other_products_are_numpys(x_shape, y_shape, dtype, calls, one_thread):
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


def _reference(x, y, transpose_x=False, transpose_y=False):
    return REFERENCE["matmul"](x.astype(np.float64), y.astype(np.float64), transpose_x,
                               transpose_y)


needs_blas = pytest.mark.skipif(not cpu_linalg._GEMM[0],
                                reason="NumPy's BLAS could not be found for the shared products")


@needs_blas
@pytest.mark.parametrize("m,k,n", [(64, 128, 256), (64, 256, 256), (256, 64, 256),
                                   (512, 64, 20), (70, 100, 50)])
@pytest.mark.parametrize("transpose_x,transpose_y", [(False, False), (True, False),
                                                     (False, True), (True, True)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_shared_products_match_the_reference(m, k, n, transpose_x, transpose_y, dtype,
                                             two_threads, shared):
    rng = np.random.default_rng(m + k + n)
    x, y = _operands(rng, m, k, n, transpose_x, transpose_y, "contiguous")
    x, y = x.astype(dtype), y.astype(dtype)
    got = cpu_linalg.matmul(x, y, transpose_x, transpose_y)
    assert shared() == 1
    assert got.dtype == dtype and got.shape == (m, n) and got.flags.c_contiguous
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, _reference(x, y, transpose_x, transpose_y), rtol=tol,
                               atol=tol * np.sqrt(k))


@needs_blas
def test_a_layout_blas_cannot_take_is_numpys(two_threads, shared):
    rng = np.random.default_rng(1)
    x, y = _operands(rng, 64, 128, 256, False, False, "strided")
    got = cpu_linalg.matmul(x, y)
    assert shared() == 0
    np.testing.assert_array_equal(got, REFERENCE["matmul"](x, y))


@needs_blas
def test_the_product_helper_shares_and_computes_as_numpy_alone(shared, one_thread):
    rng = np.random.default_rng(2)
    x, w = rng.standard_normal((64, 128)), rng.standard_normal((128, 256))
    for _ in range(2):  # one thread: NumPy's gemm (the second time called directly)
        np.testing.assert_array_equal(cpu_linalg.product(x, w), x @ w)
    np.testing.assert_array_equal(cpu_linalg.product(x.astype(np.float32), w.astype(np.float32)),
                                  x.astype(np.float32) @ w.astype(np.float32))
    assert shared() == 0
    threads.set_num_threads(3)
    got = cpu_linalg.product(x.T.copy().T, w)
    assert shared() == 1 and _linalg.workers() == 2
    np.testing.assert_allclose(got, x @ w, rtol=1e-12, atol=1e-12)
    threads.set_num_threads(2)  # a running pool is resized at once
    assert _linalg.workers() == 1


@pytest.mark.parametrize("a_shape,b_shape,dtypes", [
    ((3, 4), (4, 5), (np.float32, np.float64)),   # mixed dtypes: NumPy's promotion
    ((3, 4), (4, 5), (np.int64, np.int64)),
    ((2048, 1024), (1024, 16), (np.float32, np.float32)),  # BLAS's own threads' size
    ((0, 4), (4, 5), (np.float64, np.float64)),
])
def test_products_the_compiled_call_declines_are_numpys(a_shape, b_shape, dtypes, shared):
    rng = np.random.default_rng(6)
    a = rng.standard_normal(a_shape).astype(dtypes[0])
    b = rng.standard_normal(b_shape).astype(dtypes[1])
    assert _linalg.gemm(a, b) is None
    got = cpu_linalg.product(a, b)
    np.testing.assert_array_equal(got, np.matmul(a, b))
    assert got.dtype == np.matmul(a, b).dtype and shared() == 0


@needs_blas
def test_products_from_several_threads_at_once(two_threads):
    """Python threads that share products at the same time: one has the pool, the others
    run their pieces themselves; every result is right."""
    rng = np.random.default_rng(3)
    pairs = [(rng.standard_normal((64, 200)).astype(np.float32),
              rng.standard_normal((200, 256)).astype(np.float32)) for _ in range(4)]
    want = [_reference(a, b) for a, b in pairs]
    errors = []

    def work(i):
        for _ in range(50):
            got = cpu_linalg.product(*pairs[i])
            if not np.allclose(got, want[i], rtol=1e-5, atol=1e-4):
                errors.append(i)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []



@needs_blas
def test_threads_that_see_a_new_count_resize_the_pool_together():
    """Python threads that meet a new count at their first product all resize the pool
    (``dy_pool_resize`` lets go of the GIL): the resizes take turns, every thread returns
    and the pool has count - 1 workers (two resizes at once lost a stop signal and joined a
    worker forever: test_products_from_several_threads_at_once hung 1 run in 5)."""
    before = threads.count()
    try:
        for count in [2, 3, 1, 3, 2] * 20:
            threads.set_num_threads(count)
            _linalg.set_threads(count + 1)  # a count no resize has seen yet
            ts = [threading.Thread(target=_linalg.pool_threads, daemon=True) for _ in range(4)]
            for t in ts:
                t.start()
            for t in ts:
                t.join(timeout=30)
            assert not any(t.is_alive() for t in ts), "a resize never returned"
            assert _linalg.workers() == count
    finally:
        threads.set_num_threads(before)


def _child_product(q):
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((64, 200)), rng.standard_normal((200, 256))
    q.put(bool(np.allclose(cpu_linalg.product(a, b), a @ b, rtol=1e-12, atol=1e-12)))


@needs_blas
@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_a_forked_child_shares_products_without_the_parents_workers(two_threads):
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((64, 200)), rng.standard_normal((200, 256))
    cpu_linalg.product(a, b)  # the parent's worker runs
    assert _linalg.workers() == 1
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child_product, args=(q,))
    p.start()
    assert q.get(timeout=60) is True
    p.join(timeout=60)
    assert p.exitcode == 0


@pytest.mark.parametrize("m,k,n", [(64, 256, 1), (1, 256, 60), (64, 1, 256), (1, 1, 1),
                                   (256, 64, 1)])
@pytest.mark.parametrize("transpose_x,transpose_y", [(False, False), (True, False),
                                                     (False, True), (True, True)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_products_with_a_size_of_one(m, k, n, transpose_x, transpose_y, dtype, calls):
    rng = np.random.default_rng(m + 3 * k + 7 * n)
    x, y = _operands(rng, m, k, n, transpose_x, transpose_y, "contiguous")
    x, y = x.astype(dtype), y.astype(dtype)
    got = cpu_linalg.matmul(x, y, transpose_x, transpose_y)
    assert calls == [] and got.dtype == dtype and got.shape == (m, n)
    want = _reference(x, y, transpose_x, transpose_y)
    if k == 1:  # one multiplication each: the same to the bit as NumPy's
        np.testing.assert_array_equal(got, REFERENCE["matmul"](x, y, transpose_x, transpose_y))
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.sqrt(k))


def test_an_outer_product_of_a_strided_column():
    a = np.arange(12, dtype=np.float32).reshape(4, 3)[:, 1:2]  # a column 3 floats apart
    b = np.linspace(-1, 1, 40, dtype=np.float32).reshape(1, 40)
    np.testing.assert_array_equal(cpu_linalg.matmul(a, b), a * b)
