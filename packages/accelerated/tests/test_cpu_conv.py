"""The compiled conv-family kernels against the reference kernels: odd sizes, batch 1 and 0,
groups, strides, dilations, asymmetric paddings, channels-last, ceil_mode, non-contiguous
input, every float dtype."""

import numpy as np
import pytest

from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import cpu_conv
from dygrad_accelerated.engine import SOURCES

DTYPES = [np.float16, np.float32, np.float64]
TOL = {np.float16: 2e-2, np.float32: 1e-5, np.float64: 1e-12}

# (x shape, filter shape, attrs)
CONV_CASES = [
    ((1, 1, 5, 5), (2, 1, 3, 3), {}),
    ((2, 3, 5, 4), (4, 3, 2, 3), {"strides": (2, 1), "paddings": ((1, 1), (0, 2))}),
    ((2, 4, 6, 5), (6, 2, 3, 3), {"groups": 2, "dilations": (2, 1),
                                  "paddings": ((2, 1), (1, 1))}),
    ((1, 3, 5, 5), (3, 1, 3, 3), {"groups": 3, "strides": (2, 2), "paddings": ((1, 1), (1, 1))}),
    ((2, 4, 3, 5), (2, 5, 2, 2), {"data_format": "NHWC", "paddings": ((0, 1), (1, 0))}),
    ((1, 2, 1, 1), (3, 2, 1, 1), {}),
    ((3, 2, 7, 6), (4, 2, 3, 2), {"strides": (3, 2), "dilations": (1, 2),
                                  "paddings": ((0, 3), (2, 0))}),
    ((0, 2, 4, 4), (3, 2, 3, 3), {"paddings": ((1, 1), (0, 0))}),            # an empty batch
    ((3, 1, 28, 28), (5, 1, 5, 5), {}),                                      # LeNet's first
    # one block per image (>= 256 output positions): groups, padding, channels-last
    ((1, 4, 20, 20), (6, 2, 3, 3), {"groups": 2, "paddings": ((1, 1), (1, 1))}),
    ((2, 18, 18, 3), (4, 3, 3, 3), {"data_format": "NHWC"}),
]

# (x shape, attrs)
POOL_CASES = [
    ((1, 1, 4, 4), {"kernel_size": (2, 2), "strides": (2, 2)}),
    ((3, 4, 7, 9), {"kernel_size": (2, 2), "strides": (2, 2)}),     # odd sizes: the last row
    ((2, 1, 7, 9), {"kernel_size": (2, 2), "strides": (2, 2), "ceil_mode": True}),  # and column
    ((2, 3, 5, 5), {"kernel_size": (3, 3), "strides": (2, 2), "paddings": ((1, 1), (1, 1))}),
    ((1, 2, 5, 4), {"kernel_size": (2, 3), "strides": (2, 1), "paddings": ((1, 0), (0, 1)),
                    "ceil_mode": True}),
    ((1, 1, 5, 5), {"kernel_size": (3, 2), "strides": (2, 2), "paddings": ((0, 2), (1, 1))}),
    ((2, 1, 7, 3), {"kernel_size": (3, 2), "strides": (3, 2), "ceil_mode": True}),
    ((1, 1, 3, 3), {"kernel_size": (2, 2), "strides": (2, 2), "paddings": ((0, 3), (0, 3)),
                    "ceil_mode": True}),                     # windows of padding only
    ((1, 2, 1, 1), {"kernel_size": (1, 1)}),
    ((0, 2, 4, 4), {"kernel_size": (2, 2), "strides": (2, 2)}),                # an empty batch
    ((2, 3, 24, 24), {"kernel_size": (2, 2), "strides": (2, 2)}),              # LeNet's
]


def _same(got, want, dtype):
    assert got.dtype == want.dtype and got.shape == want.shape
    scale = max(1.0, float(np.nanmax(np.abs(want.astype(np.float64)), initial=0.0)))
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=TOL[dtype], atol=TOL[dtype] * scale)


def _conv_args(case, dtype, rng):
    xs, fs, attrs = case
    attrs = {"groups": 1, **attrs}
    x = rng.uniform(-2, 2, xs).astype(dtype)
    filter = rng.uniform(-2, 2, fs).astype(dtype)
    size = xs[1:3] if attrs.get("data_format") == "NHWC" else xs[2:]
    out = REFERENCE["conv2d"](x, filter, **attrs)
    return x, filter, size, rng.uniform(-2, 2, out.shape).astype(dtype), attrs


def test_the_conv_family_is_compiled():
    for name in cpu_conv.KERNELS:
        assert SOURCES[name] == "cython"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_conv2d_kernels_match_the_reference(case, dtype):
    x, filter, size, g, attrs = _conv_args(case, dtype, np.random.default_rng(0))
    _same(cpu_conv.conv2d(x, filter, **attrs), REFERENCE["conv2d"](x, filter, **attrs), dtype)
    bias = np.random.default_rng(1).uniform(-2, 2, filter.shape[:1]).astype(dtype)
    _same(cpu_conv.fused_conv2d_bias(x, filter, bias, **attrs),
          REFERENCE["fused_conv2d_bias"](x, filter, bias, **attrs), dtype)
    _same(cpu_conv.conv2d_grad_input(g, filter, input_size=size, **attrs),
          REFERENCE["conv2d_grad_input"](g, filter, input_size=size, **attrs), dtype)
    _same(cpu_conv.conv2d_grad_filter(x, g, filter_size=filter.shape[2:], **attrs),
          REFERENCE["conv2d_grad_filter"](x, g, filter_size=filter.shape[2:], **attrs), dtype)


def test_conv2d_kernels_on_non_contiguous_views():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 3, 9, 14)).astype(np.float32)[:, :, ::2, ::2]
    filter = rng.normal(size=(3, 4, 3, 3)).astype(np.float32).transpose(1, 0, 2, 3)
    g = rng.normal(size=(2, 4, 7, 12)).astype(np.float32)[:, :, :3, ::2]
    attrs = {"paddings": ((0, 0), (1, 0))}
    _same(cpu_conv.conv2d(x, filter, **attrs), REFERENCE["conv2d"](x, filter, **attrs),
          np.float32)
    bias = rng.normal(size=8).astype(np.float32)[::2]
    _same(cpu_conv.fused_conv2d_bias(x, filter, bias, **attrs),
          REFERENCE["fused_conv2d_bias"](x, filter, bias, **attrs), np.float32)
    _same(cpu_conv.conv2d_grad_input(g, filter, input_size=(5, 7), **attrs),
          REFERENCE["conv2d_grad_input"](g, filter, input_size=(5, 7), **attrs), np.float32)
    _same(cpu_conv.conv2d_grad_filter(x, g, filter_size=(3, 3), **attrs),
          REFERENCE["conv2d_grad_filter"](x, g, filter_size=(3, 3), **attrs), np.float32)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", POOL_CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_pool_kernels_match_the_reference(case, dtype):
    xs, attrs = case
    rng = np.random.default_rng(2)
    x = rng.permutation(np.arange(int(np.prod(xs)))).reshape(xs).astype(dtype)  # distinct
    out, mask = cpu_conv.max_pool2d(x, **attrs)
    want_out, want_mask = REFERENCE["max_pool2d"](x, **attrs)
    assert mask.dtype == want_mask.dtype and np.array_equal(mask, want_mask)
    assert out.dtype == want_out.dtype and np.array_equal(out, want_out)
    g = rng.uniform(-2, 2, out.shape).astype(dtype)
    for m in (mask, mask.astype(np.int64)):
        _same(cpu_conv.max_pool2d_grad(g, m, input_size=xs[2:]),
              REFERENCE["max_pool2d_grad"](g, m, input_size=xs[2:]), dtype)
    for exclusive in (True, False):
        _same(cpu_conv.avg_pool2d(x, exclusive=exclusive, **attrs),
              REFERENCE["avg_pool2d"](x, exclusive=exclusive, **attrs), dtype)
        _same(cpu_conv.avg_pool2d_grad(g, input_size=xs[2:], exclusive=exclusive, **attrs),
              REFERENCE["avg_pool2d_grad"](g, input_size=xs[2:], exclusive=exclusive,
                                           **attrs), dtype)


def test_max_pool2d_ties_infinities_and_nan_like_the_reference():
    x = np.array([[[[1.0, 1.0, -np.inf, -np.inf],
                    [0.0, 1.0, -np.inf, np.nan],
                    [np.nan, np.nan, 2.0, 2.0],
                    [np.nan, 3.0, 2.0, np.inf]]]], dtype=np.float32)
    for attrs in ({"kernel_size": (2, 2), "strides": (2, 2)},
                  {"kernel_size": (2, 2), "strides": (1, 1), "paddings": ((1, 0), (1, 1))}):
        out, mask = cpu_conv.max_pool2d(x, **attrs)
        want_out, want_mask = REFERENCE["max_pool2d"](x, **attrs)
        assert np.array_equal(mask, want_mask)
        assert np.array_equal(out, want_out, equal_nan=True)


def test_pool_kernels_on_non_contiguous_views():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3, 2, 9, 8)).astype(np.float64).transpose(1, 0, 2, 3)[:, :, ::2]
    attrs = {"kernel_size": (3, 2), "strides": (2, 2), "paddings": ((1, 1), (0, 1))}
    out, mask = cpu_conv.max_pool2d(x, **attrs)
    want_out, want_mask = REFERENCE["max_pool2d"](x, **attrs)
    assert np.array_equal(out, want_out) and np.array_equal(mask, want_mask)
    g = rng.normal(size=out.shape[:3] + (2 * out.shape[3],))[..., ::2]
    _same(cpu_conv.max_pool2d_grad(g, mask, input_size=(5, 8)),
          REFERENCE["max_pool2d_grad"](g, mask, input_size=(5, 8)), np.float64)
    _same(cpu_conv.avg_pool2d(x, **attrs), REFERENCE["avg_pool2d"](x, **attrs), np.float64)
    _same(cpu_conv.avg_pool2d_grad(g, input_size=(5, 8), **attrs),
          REFERENCE["avg_pool2d_grad"](g, input_size=(5, 8), **attrs), np.float64)


@pytest.mark.parametrize("call", [
    lambda: cpu_conv.conv2d(np.zeros((1, 3, 5, 5)), np.zeros((2, 2, 3, 3))),       # channels
    lambda: cpu_conv.conv2d(np.zeros((1, 2, 2, 2)), np.zeros((2, 2, 3, 3))),       # too big
    lambda: cpu_conv.fused_conv2d_bias(np.zeros((1, 2, 5, 5)), np.zeros((2, 2, 3, 3)),
                                       np.zeros(3)),                               # the bias
    lambda: cpu_conv.fused_conv2d_bias(np.zeros((1, 2, 5, 5)), np.zeros((2, 2, 3, 3)),
                                       np.zeros(2, np.float32)),
    lambda: cpu_conv.conv2d_grad_input(np.zeros((1, 2, 3, 3)), np.zeros((2, 1, 3, 3)),
                                       input_size=(4, 4)),                         # not from it
    lambda: cpu_conv.conv2d_grad_filter(np.zeros((1, 1, 5, 5)), np.zeros((1, 2, 2, 2)),
                                        filter_size=(3, 3)),
    lambda: cpu_conv.max_pool2d(np.zeros((1, 1, 2, 2)), kernel_size=(3, 3)),
    lambda: cpu_conv.max_pool2d_grad(np.zeros((1, 1, 2, 2)), np.zeros((1, 1, 2, 1), np.int32),
                                     input_size=(4, 4)),
    lambda: cpu_conv.avg_pool2d(np.zeros((1, 2, 2)), kernel_size=(2, 2)),
    lambda: cpu_conv.avg_pool2d_grad(np.zeros((1, 1, 3, 3)), input_size=(4, 4),
                                     kernel_size=(2, 2), strides=(2, 2)),
])
def test_kernels_refuse_what_does_not_fit(call):
    """Never a read or write outside the arrays: the dispatcher turns this into the table's
    own error."""
    with pytest.raises(ValueError):
        call()
