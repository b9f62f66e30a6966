"""The compiled nn kernels (relu, relu_grad, embedding_grad) against the reference kernels."""

import numpy as np
import pytest

from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import cpu_nn
from dygrad_accelerated.engine import SOURCES

SHAPES = [(), (0,), (1,), (7,), (3, 5), (64, 256), (2, 3, 4, 5), (64, 20, 24, 24)]
FLOATS = [np.float16, np.float32, np.float64]


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_compiled():
    assert SOURCES["relu"] == SOURCES["relu_grad"] == SOURCES["embedding_grad"] == "cython"


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SHAPES)
def test_relu_and_its_gradient_match_the_reference(dtype, shape):
    rng = np.random.default_rng(0)
    x = rng.normal(size=shape).astype(dtype)
    out = cpu_nn.relu(x)
    _same(out, REFERENCE["relu"](x))
    g = rng.normal(size=shape).astype(dtype)
    _same(cpu_nn.relu_grad(out, g), REFERENCE["relu_grad"](out, g))


def test_special_values():
    x = np.array([np.nan, -np.inf, np.inf, -0.0, 0.0, -1.0, 2.0], np.float32)
    _same(cpu_nn.relu(x), REFERENCE["relu"](x))
    out = np.array([0.0, 0.0, 1.0, 0.0, 3.0], np.float32)
    g = np.array([np.nan, np.inf, np.nan, -2.0, -np.inf], np.float32)
    _same(cpu_nn.relu_grad(out, g), REFERENCE["relu_grad"](out, g))
    np.testing.assert_array_equal(cpu_nn.relu_grad(out, g), [0, 0, np.nan, 0, -np.inf])


def test_non_contiguous_inputs():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(6, 8)).astype(np.float32)[:, ::2].T
    out = REFERENCE["relu"](x)
    _same(cpu_nn.relu(x), out)
    g = np.asfortranarray(rng.normal(size=(4, 6)))
    o64 = np.maximum(np.asfortranarray(rng.normal(size=(4, 6))), 0)
    _same(cpu_nn.relu_grad(o64, g), REFERENCE["relu_grad"](o64, g))


def test_integers_and_mixed_dtypes_go_to_the_reference():
    x = np.array([-2, 0, 3], np.int64)
    _same(cpu_nn.relu(x), REFERENCE["relu"](x))
    out, g = np.array([0.0, 1.0], np.float32), np.array([5.0, 6.0])
    _same(cpu_nn.relu_grad(out, g), REFERENCE["relu_grad"](out, g))


def test_array_entry_points_take_only_plain_native_float_arrays():
    """relu_array / relu_grad_array (one call, no memoryviews) give the same arrays as the
    loops over memoryviews, and None wherever the glue's general path must run."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=(6, 8)).astype(np.float32)
    g = rng.normal(size=(6, 8)).astype(np.float32)
    _same(cpu_nn.relu_array(x), REFERENCE["relu"](x))
    _same(cpu_nn.relu_grad_array(x, g), REFERENCE["relu_grad"](x, g))
    unaligned = np.frombuffer(np.zeros(6 * 8 * 4 + 1, np.uint8)[1:].data, np.float32).reshape(6, 8)
    for bad in (x[:, ::2], x.astype(">f4"), x.astype(np.float16), x.astype(np.int32),
                x.tolist(), np.ma.masked_array(x), unaligned):
        assert cpu_nn.relu_array(bad) is None
        assert cpu_nn.relu_grad_array(bad, g) is None and cpu_nn.relu_grad_array(x, bad) is None
    for other in (g.reshape(8, 6), g.reshape(48), g.astype(np.float64)):
        assert cpu_nn.relu_grad_array(x, other) is None
    _same(cpu_nn.relu(x.astype(">f4")), REFERENCE["relu"](x.astype(">f4")))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ids_shape,n,dim,padding_idx", [
    ((5,), 4, 3, None), ((2, 3), 5, 2, None), ((), 3, 4, None), ((0,), 4, 3, None),
    ((4,), 3, 2, 1), ((64, 32), 50, 16, 0), ((3, 1), 2, 1, None)])
def test_embedding_grad_matches_the_reference(dtype, ids_shape, n, dim, padding_idx):
    rng = np.random.default_rng(2)
    x = rng.integers(0, n, ids_shape).astype(np.int32 if dim == 2 else np.int64)
    g = rng.normal(size=ids_shape + (dim,)).astype(dtype)
    got = cpu_nn.embedding_grad(x, g, num_embeddings=n, padding_idx=padding_idx)
    want = REFERENCE["embedding_grad"](x, g, num_embeddings=n, padding_idx=padding_idx)
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = {np.float16: 2e-2, np.float32: 1e-5, np.float64: 1e-12}[dtype]
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol,
                               atol=tol)


def test_embedding_grad_non_contiguous_gradient_and_bad_ids():
    rng = np.random.default_rng(3)
    x = np.array([[0, 2], [2, 1], [0, 0]])
    g = np.asfortranarray(rng.normal(size=(3, 2, 5)))
    np.testing.assert_allclose(cpu_nn.embedding_grad(x, g, num_embeddings=3),
                               REFERENCE["embedding_grad"](x, g, num_embeddings=3), rtol=1e-12)
    with pytest.raises(ValueError, match=r"ids must be in \[0, 2\)"):
        cpu_nn.embedding_grad(x, g, num_embeddings=2)
