"""The engine's threads: batch-parallel conv-family kernels give the reference kernels' results
whatever the split, and BLAS gets threads only for big products."""

import numpy as np
import pytest
from test_cpu_conv import CONV_CASES, POOL_CASES, _conv_args, _same

import dygrad
from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import cpu_conv, numpy_kernels, threads

threadpoolctl = pytest.importorskip("threadpoolctl")


@pytest.fixture(params=[2, 3])
def split_everything(request, monkeypatch):
    """n threads, and every batch split however small its work."""
    before = dygrad.get_num_threads()
    monkeypatch.setattr(threads, "SPLIT_MIN_WORK", 0)
    dygrad.set_num_threads(request.param)
    yield request.param
    dygrad.set_num_threads(before)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_split_conv2d_kernels_match_the_reference(case, dtype, split_everything):
    x, filter, size, g, attrs = _conv_args(case, dtype, np.random.default_rng(0))
    _same(cpu_conv.conv2d(x, filter, **attrs), REFERENCE["conv2d"](x, filter, **attrs), dtype)
    _same(cpu_conv.conv2d_grad_input(g, filter, input_size=size, **attrs),
          REFERENCE["conv2d_grad_input"](g, filter, input_size=size, **attrs), dtype)
    _same(cpu_conv.conv2d_grad_filter(x, g, filter_size=filter.shape[2:], **attrs),
          REFERENCE["conv2d_grad_filter"](x, g, filter_size=filter.shape[2:], **attrs), dtype)


@pytest.mark.parametrize("case", POOL_CASES, ids=lambda c: str(c[0]))
def test_split_max_pool_matches_the_reference(case, split_everything):
    shape, attrs = case
    x = np.random.default_rng(2).standard_normal(shape)[..., ::-1]   # non-contiguous too
    y, mask = cpu_conv.max_pool2d(x, **attrs)
    y_ref, mask_ref = REFERENCE["max_pool2d"](x, **attrs)
    _same(y, y_ref, np.float64)
    np.testing.assert_array_equal(mask, mask_ref)
    g = np.random.default_rng(3).standard_normal(y.shape)
    _same(cpu_conv.max_pool2d_grad(g, mask, input_size=shape[2:]),
          REFERENCE["max_pool2d_grad"](g, mask_ref, input_size=shape[2:]), np.float64)


def test_a_failing_piece_raises_after_every_piece_has_finished(split_everything):
    done = []

    def piece(lo, hi):
        done.append((lo, hi))
        if lo == 0:
            raise ValueError("first piece")
        return hi - lo

    with pytest.raises(ValueError, match="first piece"):
        threads.split(6, 1, piece)
    assert sorted(done) == [(i, i + 1) for i in range(6)]


def test_pieces_cover_the_range_in_order(split_everything, monkeypatch):
    pieces = threads.split(101, 1, lambda lo, hi: (lo, hi))
    assert len(pieces) == 4 * split_everything
    assert [p[0] for p in pieces[1:]] == [p[1] for p in pieces[:-1]]
    assert pieces[0][0] == 0 and pieces[-1][1] == 101
    monkeypatch.setattr(threads, "SPLIT_MIN_WORK", 100)
    assert threads.split(101, 99, lambda lo, hi: (lo, hi)) == [(0, 101)]  # too little work


def _blas_threads():
    return {p["num_threads"] for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"}


def test_blas_threads_only_for_big_products():
    before = dygrad.get_num_threads()
    try:
        dygrad.set_num_threads(2)
        a = np.ones((64, 128), np.float32)
        numpy_kernels.matmul(a, np.ones((128, 256), np.float32))
        assert _blas_threads() == {1}
        big = np.ones((256, 256), np.float32)
        np.testing.assert_array_equal(numpy_kernels.matmul(big, big), np.full((256, 256), 256))
        assert _blas_threads() == {2}
        np.testing.assert_array_equal(numpy_kernels.matmul(a, a, transpose_y=True),
                                      np.full((64, 64), 128))
        assert _blas_threads() == {1}
    finally:
        dygrad.set_num_threads(before)


@pytest.mark.parametrize("given", [None, "active"])
def test_openmp_threads_wait_passively_unless_the_user_says(given):
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given is not None:
        env["OMP_WAIT_POLICY"] = given
    out = subprocess.run([sys.executable, "-c", "import os, dygrad_accelerated; "
                          "print(os.environ['OMP_WAIT_POLICY'])"],
                         env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert out == (given or "PASSIVE")
