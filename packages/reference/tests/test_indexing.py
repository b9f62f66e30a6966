"""Tensor.__getitem__ and Tensor.__setitem__: NumPy's indexing rules (ints, slices, None,
Ellipsis, lists, int and bool tensors), their gradients, and in-place assignment with
autograd (checked against NumPy and PaddlePaddle 3.3.1)."""

import numpy as np
import pytest

import dygrad as paddle
from dygrad._core.autograd import BackwardError

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
MASK = (A % 3 == 0)


def _t(v):
    """Index parts given as NumPy arrays become Tensors (what a Paddle user writes)."""
    return paddle.to_tensor(v) if isinstance(v, np.ndarray) else v


def as_tensor_index(index):
    return tuple(_t(i) for i in index) if isinstance(index, tuple) else _t(index)


INDICES = [
    1, -1, (1, 2), (-1, -2, -3), (0, slice(None), 3),
    slice(None), slice(1, None), slice(None, None, -1), (slice(None), slice(-1, 0, -2)),
    (slice(None), slice(10, -10, -1)), (Ellipsis, slice(1, 3)),
    None, (None, 1), (Ellipsis, None), (0, None, slice(None), None), (Ellipsis, 0),
    [1, 0], [0, 0, 1], (slice(None), [2, 0, 2]), ([1, 0], [2, 2]),
    np.array([1, 1]), np.array([[0], [1]], np.int32), np.array(1),
    (slice(None), np.array([0, -1]), slice(1, 3)),
    ([0, 1], slice(None), [3, 3]), (np.array([0, 1]), None, np.array([1, 2])),
    [True, False], np.array([False, True]), MASK, (0, MASK[0]), (slice(None), np.array([True, False, True])),
]


@pytest.mark.parametrize("index", INDICES, ids=[str(i).replace("\n", "") for i in INDICES])
def test_getitem_matches_numpy(index):
    out = paddle.to_tensor(A)[as_tensor_index(index)]
    expected = A[index if not isinstance(index, list) else np.asarray(index)]
    assert out.shape == list(expected.shape)
    np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize("index", INDICES, ids=[str(i).replace("\n", "") for i in INDICES])
def test_getitem_gradient_is_numpy_scatter_add(index):
    x = paddle.to_tensor(A)
    x.stop_gradient = False
    out = x[as_tensor_index(index)]
    w = np.random.default_rng(0).standard_normal(out.shape).astype(np.float32)
    (out * paddle.to_tensor(w)).sum().backward()
    expected = np.zeros_like(A)
    np.add.at(expected, index if not isinstance(index, list) else np.asarray(index), w)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6)


def test_repeated_indices_accumulate_gradient():
    x = paddle.to_tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    x.stop_gradient = False
    x[[0, 0, 2]].sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[2] * 4, [0] * 4, [1] * 4])  # as Paddle


def test_getitem_on_0d_and_size_0():
    s = paddle.to_tensor(3.0)
    assert s[...].shape == [] and s[()].item() == 3.0
    assert s[None].shape == [1] and s[None, None].shape == [1, 1]
    e = paddle.zeros([0, 3])
    assert e[:, 1].shape == [0] and e[1:].shape == [0, 3] and e[None].shape == [1, 0, 3]
    assert paddle.zeros([2, 0])[1].shape == [0]
    assert paddle.zeros([2, 0])[paddle.to_tensor([True, False])].shape == [1, 0]


def test_getitem_with_int_tensors():
    x = paddle.to_tensor(A)
    np.testing.assert_array_equal(x[paddle.to_tensor(1)].numpy(), A[1])
    np.testing.assert_array_equal(x[:, paddle.to_tensor([2, 0], dtype="int32")].numpy(), A[:, [2, 0]])
    np.testing.assert_array_equal(x[paddle.to_tensor([[1], [0]]), paddle.to_tensor([0, 2])].numpy(),
                                  A[[[1], [0]], [0, 2]])


def test_getitem_returns_a_copy():
    x = paddle.to_tensor(A)
    row = x[0]
    row[0] = -1.0
    assert x.numpy()[0, 0, 0] == 0.0
    assert paddle.to_tensor(A)[:, 1].stop_gradient


@pytest.mark.parametrize("index,exc,match", [
    (5, IndexError, r"out of bounds.*shape \[2, 3, 4\]"),
    ((0, 4), IndexError, "out of bounds"),
    ((0, 0, 0, 0), IndexError, "too many indices"),
    ([5], IndexError, "out of bounds"),
    (1.5, IndexError, "unsupported index"),
])
def test_getitem_errors(index, exc, match):
    with pytest.raises(exc, match=match):
        paddle.to_tensor(A)[index]


def test_getitem_rejects_float_tensor_index():
    with pytest.raises(IndexError, match="int or bool"):
        paddle.to_tensor(A)[paddle.to_tensor([1.0])]


# ---------------------------------------------------------------------------
# __setitem__
# ---------------------------------------------------------------------------

SET_CASES = [
    (0, 5.0), ((1, slice(None), 2), np.array([7.0, 8.0, 9.0], np.float32)),
    ((slice(None), 1), np.arange(4, dtype=np.float32)),
    (MASK, -1.0), ((Ellipsis, np.array([0, 3])), np.zeros((2, 3, 1), np.float32)),
    (([0, 1], [2, 0]), np.array([[1.0, 2.0, 3.0, 4.0]], np.float32)),
    ((None, 1), np.ones((1, 1, 4), np.float32)), (slice(None, None, -1), 3.0),
]


@pytest.mark.parametrize("index,value", SET_CASES, ids=[str(i[0])[:40] for i in SET_CASES])
@pytest.mark.parametrize("as_tensor", [False, True])
def test_setitem_matches_numpy(index, value, as_tensor):
    x = paddle.to_tensor(A)
    v = paddle.to_tensor(value, dtype="float32") if as_tensor else value
    x[as_tensor_index(index)] = v
    expected = A.copy()
    expected[index if not isinstance(index, list) else np.asarray(index)] = value
    np.testing.assert_array_equal(x.numpy(), expected)
    assert x.inplace_version == 1


def test_setitem_casts_the_value():
    a = paddle.zeros([3], "int64")
    a[0] = 2.7
    a[1] = paddle.to_tensor(5.0, dtype="float64")
    assert a.dtype == paddle.int64 and a.numpy().tolist() == [2, 5, 0]  # as Paddle
    s = paddle.to_tensor(1.0)
    s[...] = 4.0
    assert s.item() == 4.0
    e = paddle.zeros([0, 3])
    e[:, 1] = 1.0
    assert e.shape == [0, 3]


def test_setitem_shape_mismatch():
    x = paddle.to_tensor(A)
    with pytest.raises(ValueError):
        x[0, 0] = paddle.ones([3])


def test_setitem_gradients_to_x_and_value():
    a = paddle.ones([3, 4])
    a.stop_gradient = False
    b = a * 1
    v = paddle.to_tensor([2.0, 3.0, 4.0, 5.0], stop_gradient=False)
    b[1] = v
    w = np.arange(12, dtype=np.float32).reshape(3, 4)
    (b * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [[0, 1, 2, 3], [0] * 4, [8, 9, 10, 11]])
    np.testing.assert_array_equal(v.grad.numpy(), [4, 5, 6, 7])  # Paddle 3.3.1


def test_setitem_gradient_sums_a_broadcast_value():
    a = paddle.ones([3, 4])
    a.stop_gradient = False
    b = a * 1
    v = paddle.to_tensor([2.0], stop_gradient=False)
    b[1] = v
    (b * paddle.to_tensor(np.arange(12, dtype=np.float32).reshape(3, 4))).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [22.0])  # Paddle 3.3.1
    c = paddle.zeros([2, 3])
    u = paddle.to_tensor(1.0, stop_gradient=False)
    c[paddle.to_tensor([[True, False, True], [False, False, True]])] = u
    c.sum().backward()
    assert u.grad.item() == 3.0


def test_setitem_makes_a_constant_tensor_differentiable():
    x = paddle.zeros([3])
    v = paddle.to_tensor(2.0, stop_gradient=False)
    x[1] = v
    assert not x.stop_gradient
    (x * x).sum().backward()
    assert v.grad.item() == 4.0


def test_setitem_on_a_leaf_that_needs_grad():
    a = paddle.ones([2, 3])
    a.stop_gradient = False
    with pytest.raises(RuntimeError, match="leaf tensor"):
        a[0] = 1.0
    with paddle.no_grad():
        a[0] = 5.0
    assert a.numpy()[0].tolist() == [5.0] * 3 and a.grad is None


def test_setitem_after_use_in_a_saved_op_is_detected():
    a = paddle.ones([3])
    a.stop_gradient = False
    b = a * 1
    c = b * b  # saves b
    b[0] = 2.0
    with pytest.raises(BackwardError, match="modified in place"):
        c.sum().backward()


def test_mask_from_a_comparison():
    x = paddle.to_tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    np.testing.assert_array_equal(x[x > 5].numpy(), np.arange(6, 12))
    x[0] = 5
    x[:, 1] = paddle.to_tensor([7.0, 8, 9])
    x[x > 10] = -1
    np.testing.assert_array_equal(x.numpy(), [[5, 7, 5, 5], [4, 8, 6, 7], [8, 9, 10, -1]])  # Paddle
