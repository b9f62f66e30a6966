"""The compiled broadcasting arithmetic against the reference kernels: same shapes, bias rows
either side, 0-D and empty tensors, odd sizes, non-contiguous views, every dtype (those the
loops do not take go to the reference kernel), sizes on both sides of the loops' limits."""

import numpy as np
import pytest

from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import cpu_elementwise
from dygrad_accelerated.engine import SOURCES

OPS = sorted(cpu_elementwise.KERNELS)
SHAPES = [
    ((4, 2), (4, 2)),              # W1
    ((64, 256), (256,)),           # W2's bias
    ((256,), (64, 256)),           # the bias on the left
    ((256, 64), (256, 64)),        # W3
    ((1, 7), (7,)), ((3, 5, 7), (5, 7)), ((3, 5, 7), (7,)),
    ((), ()), ((5,), ()), ((), (2, 3)), ((64, 1), (1,)), ((1,), (3, 1)),   # scalars
    ((256, 64), ()), ((), (4097,)),                          # scalars above the limit
    ((0, 3), (3,)), ((0, 3), (0, 3)), ((3, 0), (0,)),
    ((4, 1), (1, 3)), ((4, 3), (1, 3)),                      # other broadcasts
    ((65, 65), (65, 65)), ((300, 257), (257,)),              # above the loops' limits
]
DTYPES = [np.float16, np.float32, np.float64, np.int32, np.int64]


def _data(shape, dtype, rng):
    a = rng.uniform(-3, 3, shape)
    a[np.abs(a) < 0.1] = 0.5                        # no zero divisors among the floats
    if np.dtype(dtype).kind in "iu":
        a = np.where(a == 0, 1, np.ceil(np.abs(a)))  # nor among the ints
    return np.asarray(a, dtype=dtype)


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)        # to the bit: the same IEEE operations


def test_the_arithmetic_is_compiled():
    for name in OPS:
        assert SOURCES[name] == "cython"


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("op", OPS)
def test_kernels_match_the_reference(op, shapes, dtype):
    rng = np.random.default_rng(0)
    x, y = _data(shapes[0], dtype, rng), _data(shapes[1], dtype, rng)
    _same(cpu_elementwise.KERNELS[op](x, y), REFERENCE[op](x, y))


@pytest.mark.parametrize("op", OPS)
def test_non_contiguous_mixed_and_special_values(op):
    rng = np.random.default_rng(1)
    x = _data((6, 10), np.float32, rng)
    kernel, ref = cpu_elementwise.KERNELS[op], REFERENCE[op]
    _same(kernel(x[:, ::2], x[:, 1::2]), ref(x[:, ::2], x[:, 1::2]))
    _same(kernel(x.T, x.T), ref(x.T, x.T))
    _same(kernel(x[0], x[1:4]), ref(x[0], x[1:4]))
    _same(kernel(x, x.astype(np.float64)), ref(x, x.astype(np.float64)))
    special = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e38], np.float32)
    with np.errstate(all="ignore"):
        _same(kernel(special, special[::-1].copy()), ref(special, special[::-1].copy()))


def test_outputs_are_fresh_arrays():
    x = np.ones((4, 2), np.float32)
    out = cpu_elementwise.KERNELS["add"](x, x)
    assert type(out) is np.ndarray and out.flags.c_contiguous and out.flags.writeable
    assert not np.shares_memory(out, x)
