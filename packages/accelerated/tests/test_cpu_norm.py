"""The compiled norm kernels against the reference kernels."""

import warnings

import numpy as np
import pytest

from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import cpu_norm
from dygrad_accelerated.engine import SOURCES

TOL = {np.float16: 2e-2, np.float32: 2e-4, np.float64: 1e-10}
NAMES = ["batch_norm", "batch_norm_grad", "layer_norm", "layer_norm_grad"]


def _close(got, want, dtype):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=TOL[dtype],
                                   atol=TOL[dtype])


def _both(name, *args, **kw):
    return REFERENCE[name](*args, **kw), getattr(cpu_norm, name)(*args, **kw)


def test_compiled():
    assert all(SOURCES[n] == "cython" for n in NAMES)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,data_format", [
    ((8, 5, 6, 7), "NCHW"), ((1, 3, 4, 4), "NCHW"), ((4, 6), "NC"), ((3, 4, 5), "NCL"),
    ((2, 3, 4, 5), "NHWC"), ((2, 2, 3, 3, 2), "NCDHW"), ((4, 6, 3), "NLC"),
    ((64, 20, 9, 9), "NCHW"), ((0, 3, 2, 2), "NCHW")])
@pytest.mark.parametrize("mode", [{"training": True}, {"training": False},
                                  {"training": True, "use_global_stats": True}])
def test_batch_norm_matches_the_reference(dtype, shape, data_format, mode):
    rng = np.random.default_rng(0)
    c = shape[1] if data_format[1] == "C" else shape[-1]
    x = rng.normal(3.0, 2.0, shape).astype(dtype)
    rm, rv = rng.normal(size=c).astype(dtype), rng.uniform(0.5, 2, c).astype(dtype)
    w, b = rng.normal(size=c).astype(dtype), rng.normal(size=c).astype(dtype)
    kw = dict(momentum=0.8, epsilon=1e-3, data_format=data_format, **mode)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # batch 0: nan statistics
        want, got = _both("batch_norm", x, rm, rv, w, b, **kw)
        _close(got, want, dtype)
        g = rng.normal(size=shape).astype(dtype)
        glob = mode.get("use_global_stats", False)
        want, got = _both("batch_norm_grad", x, w, want[3], want[4], g,
                          data_format=data_format, use_global_stats=glob)
    _close(got, want, dtype)


def test_batch_norm_non_contiguous_input():
    rng = np.random.default_rng(1)
    x = np.asfortranarray(rng.normal(size=(6, 4, 3)))
    v = [rng.uniform(0.5, 2, 4) for _ in range(4)]
    want, got = _both("batch_norm", x, *v, training=True, data_format="NCL")
    _close(got, want, np.float64)
    g = np.asfortranarray(rng.normal(size=x.shape))
    _close(cpu_norm.batch_norm_grad(x, v[2], want[3], want[4], g, "NCL"),
           REFERENCE["batch_norm_grad"](x, v[2], want[3], want[4], g, "NCL"), np.float64)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,axis", [((64, 256), 1), ((1, 7), 1), ((3, 4, 5), 1),
                                        ((3, 4, 5), 2), ((2, 3, 1), 2), ((5, 37), 1)])
def test_layer_norm_matches_the_reference(dtype, shape, axis):
    rng = np.random.default_rng(2)
    n = int(np.prod(shape[axis:]))
    x = rng.normal(1.0, 3.0, shape).astype(dtype)
    w, b = rng.normal(size=n).astype(dtype), rng.normal(size=n).astype(dtype)
    want, got = _both("layer_norm", x, w, b, epsilon=1e-4, begin_norm_axis=axis)
    _close(got, want, dtype)
    g = rng.normal(size=shape).astype(dtype)
    want, got = _both("layer_norm_grad", x, w, want[1], want[2], g, epsilon=1e-4,
                      begin_norm_axis=axis)
    _close(got, want, dtype)


def test_layer_norm_non_contiguous_input_and_a_mixed_dtype_gradient():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(5, 8)).astype(np.float32)[:, ::2]
    w, b = rng.normal(size=4).astype(np.float32), rng.normal(size=4).astype(np.float32)
    want, got = _both("layer_norm", x, w, b)
    _close(got, want, np.float32)
    g = rng.normal(size=(5, 4))  # float64 against float32 x: the reference kernel's result
    for a, e in zip(cpu_norm.layer_norm_grad(x, w, want[1], want[2], g),
                    REFERENCE["layer_norm_grad"](x, w, want[1], want[2], g)):
        np.testing.assert_array_equal(a, e)


def test_bad_shapes_raise_the_rows_errors():
    x = np.zeros((2, 3, 4), np.float32)
    with pytest.raises(ValueError, match=r"running_mean must have shape \[3\]"):
        cpu_norm.batch_norm(x, *[np.zeros(4, np.float32)] * 4)
    with pytest.raises(ValueError, match=r"weight must have shape \[12\]"):
        cpu_norm.layer_norm(x, np.zeros(5, np.float32), np.zeros(12, np.float32))
