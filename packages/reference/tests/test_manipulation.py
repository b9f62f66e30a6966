"""The manipulation API: shapes and layout, joining and splitting, slicing, gathering and
scattering, rearranging, padding and the attribute functions.

Expected values are NumPy statements, or values captured from PaddlePaddle 3.3.1 where
Paddle's own conventions are the point (unsqueeze's order, scatter's and
put_along_axis's gradients, pad's layouts).
"""

import numpy as np
import pytest

import dygrad as paddle
from dygrad.tensor.manipulation import one_hot, pad


def arange(*shape, dtype="float32"):
    return paddle.arange(int(np.prod(shape)), dtype=dtype).reshape(list(shape))


def np_arange(*shape, dtype=np.float32):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


def leaf(a):
    t = paddle.to_tensor(a)
    t.stop_gradient = False
    return t


def grad_of(fn, a, weights=None):
    """d sum(fn(x) * weights) / dx at x = a."""
    x = leaf(a)
    out = fn(x)
    w = np.ones(out.shape, np.float32) if weights is None else weights
    (out * paddle.to_tensor(w)).sum().backward()
    return x.grad.numpy()


# ---------------------------------------------------------------------------
# dtype and shape
# ---------------------------------------------------------------------------

def test_cast_and_astype():
    x = paddle.to_tensor([1.5, -2.5])
    assert paddle.cast(x, "int32").dtype == paddle.int32
    assert x.astype(paddle.float64).dtype == paddle.float64
    assert x.cast(np.int64).numpy().tolist() == [1, -2]
    assert x.astype("bool").numpy().tolist() == [True, True]


def test_cast_gradient_comes_back_in_input_dtype():
    x = leaf(np.array([1.0, 2.0], np.float32))
    paddle.cast(x, "float64").sum().backward()
    assert x.grad.dtype == paddle.float32


@pytest.mark.parametrize("shape,expected", [
    ([4, 3], [4, 3]), ([-1], [12]), ([0, -1], [3, 4]), ((2, -1, 2), [2, 3, 2]),
    ([paddle.to_tensor(6), 2], [6, 2]), (paddle.to_tensor([2, 6]), [2, 6]),
    ([paddle.to_tensor([3], dtype="int32"), -1], [3, 4]),
])
def test_reshape_shapes(shape, expected):
    x = arange(3, 4)
    y = paddle.reshape(x, shape)
    assert y.shape == expected
    np.testing.assert_array_equal(y.numpy(), np_arange(3, 4).reshape(expected))
    assert x.reshape(shape).shape == expected


@pytest.mark.parametrize("shape,expected", [  # Paddle 3.3.1: 0s are literal here
    ([3, 0], [3, 0]), ([0, -1], [0, 3]), ([-1, 0], [3, 0]), ([0, 3, 1], [0, 3, 1])])
def test_reshape_of_a_tensor_without_elements(shape, expected):
    assert paddle.zeros([0, 3]).reshape(shape).shape == expected


@pytest.mark.parametrize("shape,match", [([5, -1], "cannot reshape"), ([-1, -1], "only one"),
                                         ([7], "12 elements")])
def test_reshape_errors(shape, match):
    with pytest.raises(ValueError, match=match):
        paddle.reshape(arange(3, 4), shape)


def test_reshape_gradient():
    np.testing.assert_array_equal(grad_of(lambda x: x.reshape([4, 3]), np.ones((3, 4), np.float32),
                                          np_arange(4, 3)), np_arange(3, 4))


def test_inplace_shape_ops_change_the_tensor():
    x = arange(2, 3)
    assert x.reshape_([3, 2]) is x and x.shape == [3, 2] and x.inplace_version == 1
    assert x.unsqueeze_(0).shape == [1, 3, 2]
    assert x.squeeze_().shape == [3, 2]
    assert x.flatten_().shape == [6] and x.inplace_version == 4
    np.testing.assert_array_equal(x.numpy(), np.arange(6))


def test_inplace_shape_ops_keep_the_gradient():
    a = leaf(np.ones((2, 3), np.float32))
    b = a * 2
    b.reshape_([3, 2])
    (b * paddle.to_tensor(np_arange(3, 2))).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), 2 * np_arange(2, 3))


def test_inplace_shape_op_on_leaf_that_needs_grad():
    a = leaf(np.ones((2, 3), np.float32))
    with pytest.raises(RuntimeError, match="reshape_: a leaf tensor"):
        a.reshape_([3, 2])
    with paddle.no_grad():
        a.unsqueeze_(0)
    assert a.shape == [1, 2, 3]


def test_broadcast_to_expand_expand_as():
    x = paddle.to_tensor([[1.0], [2.0]])
    for y in (paddle.broadcast_to(x, [2, 3]), paddle.expand(x, [-1, 3]), x.expand([2, 3]),
              paddle.expand_as(x, paddle.zeros([2, 3])), x.broadcast_to(paddle.to_tensor([2, 3]))):
        np.testing.assert_array_equal(y.numpy(), np.broadcast_to([[1.0], [2.0]], (2, 3)))
    assert paddle.expand(x, [4, 2, 3]).shape == [4, 2, 3]
    with pytest.raises(ValueError, match="broadcast"):
        paddle.expand(x, [3, 3])
    np.testing.assert_array_equal(grad_of(lambda t: paddle.expand(t, [4, 2, 3]),
                                          np.ones((2, 1), np.float32)), [[12.0], [12.0]])


def test_transpose_and_moveaxis():
    a = np_arange(2, 3, 4)
    np.testing.assert_array_equal(paddle.transpose(paddle.to_tensor(a), [2, 0, 1]).numpy(),
                                  a.transpose(2, 0, 1))
    np.testing.assert_array_equal(paddle.to_tensor(a).transpose([-1, 0, 1]).numpy(),
                                  a.transpose(2, 0, 1))
    for src, dst in [(0, -1), ([0, 1], [2, 0]), (2, 0)]:
        np.testing.assert_array_equal(paddle.moveaxis(paddle.to_tensor(a), src, dst).numpy(),
                                      np.moveaxis(a, src, dst))
    w = np.random.default_rng(0).standard_normal((4, 2, 3)).astype(np.float32)
    np.testing.assert_allclose(grad_of(lambda x: x.transpose([2, 0, 1]), a, w), w.transpose(1, 2, 0))


@pytest.mark.parametrize("perm,match", [([0, 1], "one entry per dimension"),
                                        ([0, 0, 1], "repeats an axis"),
                                        ([0, 1, 3], "perm entry 3 is out of range.*rank 3")])
def test_transpose_errors(perm, match):
    with pytest.raises(ValueError, match=match):
        paddle.transpose(arange(2, 3, 4), perm)


def test_squeeze():
    x = paddle.zeros([1, 3, 1])
    assert paddle.squeeze(x).shape == [3]
    assert paddle.squeeze(x, axis=0).shape == [3, 1]
    assert x.squeeze(axis=[0, -1]).shape == [3]
    assert paddle.squeeze(x, axis=1).shape == [1, 3, 1]  # not size 1: kept, as Paddle
    assert paddle.squeeze(paddle.zeros([]), axis=0).shape == []
    with pytest.raises(ValueError, match="squeeze: axis 3 is out of range for a tensor of rank 3"):
        paddle.squeeze(x, axis=3)


@pytest.mark.parametrize("axis,expected", [  # captured from Paddle 3.3.1
    (0, [1, 2, 3]), (-1, [2, 3, 1]), ([0, -1], [1, 2, 3, 1]), ([-1, -1], [2, 3, 1, 1]),
    ([1, -1], [2, 1, 3, 1]), ([2, 0], [1, 2, 3, 1]), ([-3, 1], [1, 1, 2, 3]),
    ([-1, -3], [2, 1, 3, 1]), ([1, 1, -2], [2, 1, 1, 1, 3]), ([0, 0], [1, 1, 2, 3]),
    (paddle.to_tensor([0, 1]), [1, 1, 2, 3]),
])
def test_unsqueeze_positions_in_turn(axis, expected):
    assert paddle.unsqueeze(paddle.zeros([2, 3]), axis).shape == expected


def test_unsqueeze_errors_and_gradient():
    with pytest.raises(ValueError, match="unsqueeze: axis 3 is out of range"):
        paddle.unsqueeze(paddle.zeros([2, 3]), [3, 0])
    with pytest.raises(ValueError, match="out of range"):
        paddle.unsqueeze(paddle.zeros([2, 3]), -4)
    assert paddle.unsqueeze(paddle.zeros([]), 0).shape == [1]
    g = grad_of(lambda x: x.unsqueeze([0, 2]), np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(g, np.ones((2, 3)))


def test_flatten():
    x = arange(2, 3, 4)
    assert paddle.flatten(x).shape == [24]
    assert x.flatten(1, 2).shape == [2, 12]
    assert paddle.flatten(x, -3, -2).shape == [6, 4]
    assert paddle.flatten(paddle.zeros([])).shape == [1]
    with pytest.raises(ValueError, match="must not come after"):
        paddle.flatten(x, 2, 1)
    with pytest.raises(ValueError, match="stop_axis 3 is out of range"):
        paddle.flatten(x, 0, 3)


def test_tile():
    a = np_arange(2, 3)
    for reps in ([2, 1], [2], (1, 2, 2), paddle.to_tensor([3, 1])):
        expected = np.tile(a, reps.numpy().tolist() if isinstance(reps, paddle.Tensor) else reps)
        np.testing.assert_array_equal(paddle.tile(paddle.to_tensor(a), reps).numpy(), expected)
    assert paddle.tile(paddle.ones([3]), [0]).shape == [0]
    with pytest.raises(ValueError, match=">= 0"):
        paddle.tile(paddle.ones([3]), [-1])
    np.testing.assert_array_equal(grad_of(lambda x: x.tile([2, 1, 3]), a), np.full((2, 3), 6.0))


# ---------------------------------------------------------------------------
# joining and splitting
# ---------------------------------------------------------------------------

def test_concat_and_stack():
    a, b = np_arange(2, 3), -np_arange(1, 3)
    ta, tb = paddle.to_tensor(a), paddle.to_tensor(b)
    np.testing.assert_array_equal(paddle.concat([ta, tb]).numpy(), np.concatenate([a, b]))
    np.testing.assert_array_equal(paddle.concat((ta, ta), axis=-1).numpy(),
                                  np.concatenate([a, a], -1))
    np.testing.assert_array_equal(paddle.concat([ta, ta], axis=paddle.to_tensor(1)).numpy(),
                                  np.concatenate([a, a], 1))
    np.testing.assert_array_equal(paddle.stack([ta, ta], axis=-1).numpy(), np.stack([a, a], -1))
    assert paddle.stack([paddle.ones([]), paddle.zeros([])]).numpy().tolist() == [1.0, 0.0]


@pytest.mark.parametrize("fn,xs,exc,match", [
    (paddle.concat, [paddle.ones([2, 3]), paddle.ones([1, 4])], ValueError, r"x\[1\] has shape"),
    (paddle.concat, [paddle.ones([2]), paddle.ones([2], "float64")], TypeError, "one dtype"),
    (paddle.concat, [paddle.ones([]), paddle.ones([])], ValueError, "rank 0"),
    (paddle.concat, [], ValueError, "non-empty"),
    (paddle.stack, [paddle.ones([2, 3]), paddle.ones([1, 3])], ValueError, "one shape"),
    (paddle.stack, [paddle.ones([2]), paddle.ones([2], "int64")], TypeError, "one dtype"),
    (paddle.stack, paddle.ones([2]), TypeError, "list or tuple"),
])
def test_join_errors(fn, xs, exc, match):
    with pytest.raises(exc, match=match):
        fn(xs)


def test_concat_stack_gradients():
    a, b = leaf(np_arange(2, 3)), leaf(np_arange(1, 3))
    w = np_arange(3, 3)
    (paddle.concat([a, b]) * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), w[:2])
    np.testing.assert_array_equal(b.grad.numpy(), w[2:])
    c, d = leaf(np_arange(2, 3)), leaf(np_arange(2, 3))
    w = np_arange(2, 3, 2)
    (paddle.stack([c, d], axis=-1) * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_array_equal(c.grad.numpy(), w[..., 0])
    np.testing.assert_array_equal(d.grad.numpy(), w[..., 1])


def test_split_chunk_unbind():
    a = np_arange(6, 4)
    x = paddle.to_tensor(a)
    parts = paddle.split(x, 3)
    assert [p.shape for p in parts] == [[2, 4]] * 3
    np.testing.assert_array_equal(parts[1].numpy(), a[2:4])
    parts = x.split([1, -1, 2])
    assert [p.shape for p in parts] == [[1, 4], [3, 4], [2, 4]]
    np.testing.assert_array_equal(parts[2].numpy(), a[4:])
    assert [p.shape for p in paddle.split(x, [0, 6])] == [[0, 4], [6, 4]]
    assert [p.shape for p in paddle.split(x, 2, axis=paddle.to_tensor(-1))] == [[6, 2]] * 2
    assert [p.shape for p in paddle.chunk(x, 2, axis=1)] == [[6, 2]] * 2
    pieces = paddle.unbind(x, axis=-1)
    assert len(pieces) == 4 and pieces[3].shape == [6]
    np.testing.assert_array_equal(pieces[3].numpy(), a[:, 3])
    assert paddle.unbind(paddle.ones([0, 3])) == []
    assert len(paddle.unstack(x, axis=0)) == 6


@pytest.mark.parametrize("call,match", [
    (lambda x: paddle.split(x, 4), "cannot be divided into 4"),
    (lambda x: paddle.split(x, [1, 2]), "do not add up"),
    (lambda x: paddle.split(x, [-1, -1]), "only one section"),
    (lambda x: paddle.split(x, 2, axis=2), "split: axis 2 is out of range.*rank 2"),
    (lambda x: paddle.chunk(x, 4), "cannot be divided"),
    (lambda x: paddle.unbind(x, 2), "unbind: axis 2 is out of range"),
    (lambda x: paddle.unstack(x, num=2), "num is 2"),
])
def test_split_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call(paddle.ones([6, 4]))


def test_split_and_unbind_gradients():
    x = leaf(np_arange(6, 2))
    a, b = paddle.split(x, [2, 4])
    (a.sum() * 2 + b.sum()).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[2, 2]] * 2 + [[1, 1]] * 4)
    y = leaf(np_arange(2, 3))
    parts = paddle.unbind(y, axis=1)
    (parts[0].sum() + parts[2].sum() * 3).backward()
    np.testing.assert_array_equal(y.grad.numpy(), [[1, 0, 3]] * 2)


def test_slice_and_strided_slice():
    a = np_arange(2, 3, 4)
    x = paddle.to_tensor(a)
    np.testing.assert_array_equal(paddle.slice(x, [0, 2], [1, -3], [2, 100]).numpy(), a[1:2, :, -3:])
    np.testing.assert_array_equal(paddle.slice(x, [2], [-100], [2]).numpy(), a[..., :2])
    np.testing.assert_array_equal(x.slice([2], [paddle.to_tensor(1)], paddle.to_tensor([3])).numpy(),
                                  a[..., 1:3])
    assert paddle.slice(x, [2], [3], [1]).shape == [2, 3, 0]
    for args, index in [(([2], [3], [0], [-1]), np.s_[..., 3:0:-1]),
                        (([2], [-1], [-100], [-2]), np.s_[..., -1:-100:-2]),
                        (([1, 2], [0, 0], [3, 4], [2, 3]), np.s_[:, 0:3:2, 0:4:3]),
                        (([2], [3], [-1], [-1]), np.s_[..., 3:-1:-1])]:
        np.testing.assert_array_equal(paddle.strided_slice(x, *args).numpy(), a[index])
    with pytest.raises(ValueError, match="slice: axes entry 3 is out of range"):
        paddle.slice(x, [3], [1], [3])
    with pytest.raises(ValueError, match="must not be 0"):
        paddle.strided_slice(x, [2], [0], [4], [0])
    g = grad_of(lambda t: paddle.strided_slice(t, [1], [2], [-100], [-2]), a)
    np.testing.assert_array_equal(g, np.broadcast_to([[1.0], [0.0], [1.0]], (2, 3, 4)))


# ---------------------------------------------------------------------------
# gathering and scattering
# ---------------------------------------------------------------------------

IDX = paddle.to_tensor


def test_gather_and_index_select():
    a = np_arange(3, 4)
    x = paddle.to_tensor(a)
    np.testing.assert_array_equal(paddle.gather(x, IDX([2, 0, 2])).numpy(), a[[2, 0, 2]])
    np.testing.assert_array_equal(x.gather(IDX([3, 0]), axis=1).numpy(), a[:, [3, 0]])
    np.testing.assert_array_equal(paddle.gather(x, IDX([-1])).numpy(), a[[-1]])
    np.testing.assert_array_equal(paddle.gather(x, IDX(1)).numpy(), a[1])
    np.testing.assert_array_equal(paddle.gather(x, IDX([[1], [0]])).numpy(), a[[1, 0]])
    np.testing.assert_array_equal(paddle.gather(x, IDX([1], dtype="int32"), axis=IDX(1)).numpy(),
                                  a[:, [1]])
    np.testing.assert_array_equal(paddle.index_select(x, IDX([2, 0, 2]), axis=-1).numpy(),
                                  a[:, [2, 0, 2]])
    np.testing.assert_array_equal(x.index_select(IDX([[1]])).numpy(), a[[1]])


def test_gather_errors():
    x = arange(3, 4)
    with pytest.raises(IndexError, match="out of bounds"):
        paddle.gather(x, IDX([3]))
    with pytest.raises(TypeError, match="int32 or int64"):
        paddle.gather(x, paddle.to_tensor([1.0]))
    with pytest.raises(ValueError, match="gather: axis 2 is out of range for a tensor of rank 2"):
        paddle.gather(x, IDX([1]), axis=2)
    with pytest.raises(ValueError, match="1-D"):
        paddle.index_select(x, IDX(1))


def test_gather_gradients_accumulate():
    a = np_arange(3, 4)
    expected = [[1.0] * 4, [0.0] * 4, [2.0] * 4]  # Paddle 3.3.1
    np.testing.assert_array_equal(grad_of(lambda x: paddle.gather(x, IDX([2, 0, 2])), a), expected)
    np.testing.assert_array_equal(grad_of(lambda x: paddle.index_select(x, IDX([2, 0, 2])), a),
                                  expected)
    np.testing.assert_array_equal(grad_of(lambda x: paddle.gather(x, IDX(1), axis=1), a),
                                  [[0, 1, 0, 0]] * 3)


def test_gather_nd_and_scatter_nd():
    a = np_arange(3, 4)
    x = paddle.to_tensor(a)
    np.testing.assert_array_equal(paddle.gather_nd(x, IDX([[1, 2], [0, 0]])).numpy(), [6.0, 0.0])
    np.testing.assert_array_equal(x.gather_nd(IDX([[1], [-1]])).numpy(), a[[1, -1]])
    assert paddle.gather_nd(x, IDX([1, 2])).shape == []
    assert paddle.gather_nd(x, IDX(np.zeros((2, 0), np.int64))).shape == [2, 3, 4]
    out = paddle.scatter_nd_add(x, IDX([[1, 1], [1, 1], [0, 3]]), paddle.to_tensor([1.0, 2, 3]))
    np.testing.assert_array_equal(out.numpy(), [[0, 1, 2, 6], [4, 8, 6, 7], [8, 9, 10, 11]])
    out = paddle.scatter_nd(IDX([[1], [1]]), paddle.ones([2, 4]), [3, 4])
    np.testing.assert_array_equal(out.numpy(), [[0] * 4, [2] * 4, [0] * 4])
    with pytest.raises(ValueError, match="at most x's rank 2"):
        paddle.gather_nd(x, IDX([[1, 2, 0]]))
    with pytest.raises(ValueError, match="updates has shape"):
        paddle.scatter_nd_add(x, IDX([[1], [1]]), paddle.ones([2, 3]))
    with pytest.raises(IndexError):
        paddle.scatter_nd_add(x, IDX([[5], [1]]), paddle.ones([2, 4]))
    x, u = leaf(a), leaf(np.ones(3, np.float32))
    w = np_arange(3, 4)
    (paddle.scatter_nd_add(x, IDX([[1, 1], [1, 1], [0, 3]]), u) * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), w)
    np.testing.assert_array_equal(u.grad.numpy(), [5.0, 5.0, 3.0])


def test_scatter_overwrite_and_accumulate():
    x = arange(3, 4)
    u = paddle.to_tensor([[10.0] * 4, [20.0] * 4, [30.0] * 4])
    out = paddle.scatter(x, IDX([1, 1, 0]), u)
    np.testing.assert_array_equal(out.numpy(), [[30] * 4, [20] * 4, [8, 9, 10, 11]])
    out = x.scatter(IDX([1, 1, 0]), u, overwrite=False)
    np.testing.assert_array_equal(out.numpy(), [[30] * 4, [30] * 4, [8, 9, 10, 11]])
    np.testing.assert_array_equal(paddle.scatter(x, IDX([-1]), u[:1]).numpy()[2], [10] * 4)


@pytest.mark.parametrize("overwrite", [True, False])
def test_scatter_gradients_as_paddle(overwrite):
    x, u = leaf(np_arange(3, 4)), leaf(np.ones((3, 4), np.float32))
    out = paddle.scatter(x, IDX([1, 1, 0]), u, overwrite=overwrite)
    (out * arange(3, 4)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0] * 4, [0] * 4, [8, 9, 10, 11]])
    np.testing.assert_array_equal(u.grad.numpy(), [[4, 5, 6, 7], [4, 5, 6, 7], [0, 1, 2, 3]])


def test_scatter_errors():
    x = arange(3, 4)
    with pytest.raises(ValueError, match="updates has shape"):
        paddle.scatter(x, IDX([0, 1]), paddle.ones([1, 4]))
    with pytest.raises(ValueError, match="updates has shape"):
        paddle.scatter(x, IDX([0]), paddle.ones([4]))
    with pytest.raises(TypeError, match="dtype"):
        paddle.scatter(x, IDX([0]), paddle.ones([1, 4], "float64"))
    with pytest.raises(IndexError):
        paddle.scatter(x, IDX([3]), paddle.ones([1, 4]))


def test_index_add():
    a = np_arange(3, 4)
    out = paddle.index_add(paddle.to_tensor(a), IDX([2, 0, 2]), 0, paddle.ones([3, 4]), alpha=2)
    np.testing.assert_array_equal(out.numpy(), a + [[2] * 4, [0] * 4, [4] * 4])
    x, v = leaf(a), leaf(np.ones((3, 2), np.float32))
    w = np_arange(3, 4)
    (paddle.index_add(x, IDX([3, 3]), -1, v) * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), w)
    np.testing.assert_array_equal(v.grad.numpy(), w[:, [3, 3]])
    with pytest.raises(ValueError, match="value has shape"):
        paddle.index_add(x, IDX([0]), 0, paddle.ones([2, 4]))


def test_index_sample():
    a = np_arange(3, 4)
    out = paddle.index_sample(paddle.to_tensor(a), IDX([[0, 3], [1, 1], [2, 0]]))
    np.testing.assert_array_equal(out.numpy(), [[0, 3], [5, 5], [10, 8]])
    with pytest.raises(ValueError, match="same number of rows"):
        paddle.index_sample(paddle.to_tensor(a), IDX([[0, 3], [1, 1]]))
    with pytest.raises(ValueError, match="2-D"):
        paddle.index_sample(paddle.ones([2, 2, 2]), IDX([[0], [1]]))
    g = grad_of(lambda x: paddle.index_sample(x, IDX([[0, 3], [1, 1], [2, 0]])), a)
    np.testing.assert_array_equal(g, [[1, 0, 0, 1], [0, 2, 0, 0], [1, 0, 1, 0]])


def test_take_along_axis():
    a = np_arange(3, 4)
    x = paddle.to_tensor(a)
    idx = np.array([[0, 3, 1]])
    np.testing.assert_array_equal(paddle.take_along_axis(x, IDX(idx), axis=1).numpy(),
                                  np.take_along_axis(a, np.broadcast_to(idx, (3, 3)), 1))
    np.testing.assert_array_equal(x.take_along_axis(IDX(idx), 1, broadcast=False).numpy(),
                                  [[0, 3, 1]])
    np.testing.assert_array_equal(paddle.take_along_axis(x, IDX([[-1]]), axis=1).numpy(),
                                  [[3], [7], [11]])
    out = paddle.take_along_axis(paddle.ones([1, 4]), IDX([[1], [2], [0]]), axis=1)
    assert out.shape == [3, 1]
    with pytest.raises(ValueError, match="same number of dimensions"):
        paddle.take_along_axis(x, IDX([0, 3]), axis=1)
    with pytest.raises(IndexError):
        paddle.take_along_axis(x, IDX([[4]]), axis=1)
    g = grad_of(lambda t: paddle.take_along_axis(t, IDX([[0, 0], [1, 3], [2, 2]]), 1), a)
    np.testing.assert_array_equal(g, [[2, 0, 0, 0], [0, 1, 0, 1], [0, 0, 2, 0]])


def test_put_along_axis_forward():
    x = arange(3, 4)
    out = paddle.put_along_axis(x, IDX([[0], [1], [1]]), 99.0, axis=1)
    np.testing.assert_array_equal(out.numpy(), [[99, 1, 2, 3], [4, 99, 6, 7], [8, 99, 10, 11]])
    v = paddle.to_tensor([[1.0, 2.0]])
    out = paddle.put_along_axis(x, IDX([[0, 0]]), v, axis=1)  # broadcast rows; last write wins
    np.testing.assert_array_equal(out.numpy()[:, 0], [2, 2, 2])
    out = paddle.put_along_axis(x, IDX([[0, 0]]), v, axis=1, reduce="add")
    np.testing.assert_array_equal(out.numpy()[:, 0], [3, 7, 11])
    out = x.put_along_axis(IDX([[1, 1]]), paddle.to_tensor([[2.0, 3.0]]), 1, reduce="mul")
    np.testing.assert_array_equal(out.numpy()[:, 1], [6, 30, 54])
    out = paddle.put_along_axis(x, IDX([[1]]), paddle.to_tensor([[5.0]]), 1, broadcast=False)
    np.testing.assert_array_equal(out.numpy()[:, 1], [5, 5, 9])
    out = paddle.put_along_axis(paddle.ones([2, 2], "int64"), IDX([[1]]), 5, axis=1)
    assert out.numpy().tolist() == [[1, 5], [1, 5]]
    with pytest.raises(ValueError, match="reduce must be one of"):
        paddle.put_along_axis(x, IDX([[1]]), 1.0, 1, reduce="foo")


@pytest.mark.parametrize("reduce,x_grad,v_grad", [  # captured from Paddle 3.3.1
    ("assign", [[0, 0, 2, 3], [0, 5, 0, 7], [8, 9, 10, 0]], [[0, 1], [4, 6], [0, 11]]),
    ("add", np_arange(3, 4), [[1, 1], [4, 6], [11, 11]]),
    ("multiply", [[0, 6, 2, 3], [16, 5, 30, 7], [8, 9, 10, 462]], [[6, 4], [20, 42], [924, 792]]),
])
def test_put_along_axis_gradients(reduce, x_grad, v_grad):
    x = leaf(np_arange(3, 4) + 1)
    v = leaf(np.array([[2.0, 3], [4, 5], [6, 7]], np.float32))
    out = paddle.put_along_axis(x, IDX([[1, 1], [0, 2], [3, 3]]), v, axis=1, reduce=reduce)
    (out * arange(3, 4)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), x_grad)
    np.testing.assert_allclose(v.grad.numpy(), v_grad)


def test_masked_fill():
    a = np_arange(3, 4)
    m = np.array([True, False, True, False])
    x = paddle.to_tensor(a)
    np.testing.assert_array_equal(paddle.masked_fill(x, paddle.to_tensor(m), -1.0).numpy(),
                                  np.where(m, -1.0, a))
    np.testing.assert_array_equal(x.masked_fill(paddle.to_tensor(m), paddle.to_tensor([-2.0])).numpy(),
                                  np.where(m, -2.0, a))
    out = paddle.masked_fill(paddle.ones([4]), paddle.to_tensor([[True], [False]]), 0.0)
    np.testing.assert_array_equal(out.numpy(), [[0] * 4, [1] * 4])
    out = paddle.masked_fill(paddle.ones([4], "int32"), paddle.to_tensor(m), 2.5)
    assert out.dtype == paddle.int32 and out.numpy().tolist() == [2, 1, 2, 1]
    out = paddle.masked_fill(x, paddle.to_tensor([1, 0, 1, 0]), 2.5)  # non-bool mask: as bool
    np.testing.assert_array_equal(out.numpy(), np.where(m, 2.5, a))
    with pytest.raises(ValueError, match="masked_fill: shapes"):
        paddle.masked_fill(x, paddle.to_tensor([True, False, True]), 0.0)


def test_masked_fill_gradients():
    x, v = leaf(np_arange(3, 4)), leaf(np.array(3.0, np.float32))
    paddle.masked_fill(x, paddle.to_tensor([True, False, True, False]), v).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 1, 0, 1]] * 3)
    assert v.grad.numpy() == 6.0  # the filled positions (Paddle 3.3.1 reports 0 here)


def test_one_hot():
    out = one_hot(paddle.to_tensor([1, 0, 3]), 4)
    assert out.dtype == paddle.float32
    np.testing.assert_array_equal(out.numpy(), np.eye(4)[[1, 0, 3]])
    assert one_hot(paddle.to_tensor([[1], [2]], dtype="int32"), 4).shape == [2, 1, 4]
    assert one_hot(paddle.to_tensor([1, 0, 3]), -1).shape == [3, 4]
    assert one_hot(paddle.to_tensor(2), 4).numpy().tolist() == [0, 0, 1, 0]
    with pytest.raises(IndexError, match=r"\[0, 4\)"):
        one_hot(paddle.to_tensor([1, 4]), 4)
    with pytest.raises(TypeError, match="int32 or int64"):
        one_hot(paddle.to_tensor([1.0]), 4)
    assert not hasattr(paddle, "one_hot") and not hasattr(paddle, "pad")


# ---------------------------------------------------------------------------
# rearranging
# ---------------------------------------------------------------------------

def test_flip_and_roll():
    a = np_arange(3, 4)
    x = paddle.to_tensor(a)
    np.testing.assert_array_equal(paddle.flip(x, -1).numpy(), a[:, ::-1])
    np.testing.assert_array_equal(x.flip([0, 1]).numpy(), a[::-1, ::-1])
    np.testing.assert_array_equal(paddle.roll(x, 1).numpy(), np.roll(a, 1))
    np.testing.assert_array_equal(x.roll([1, -1], [0, 1]).numpy(), np.roll(a, (1, -1), (0, 1)))
    np.testing.assert_array_equal(paddle.roll(x, paddle.to_tensor(1), 0).numpy(), np.roll(a, 1, 0))
    assert paddle.roll(paddle.to_tensor(1.0), 1).numpy() == 1.0
    with pytest.raises(ValueError, match="flip: axis 0 is out of range for a tensor of rank 0"):
        paddle.flip(paddle.to_tensor(1.0), 0)
    with pytest.raises(ValueError, match="twice"):
        paddle.flip(x, [0, 0])
    with pytest.raises(ValueError, match="same length"):
        paddle.roll(x, [1, 2], 0)
    with pytest.raises(ValueError, match="roll: axis 2 is out of range"):
        paddle.roll(x, 1, 2)
    w = np_arange(3, 4)
    np.testing.assert_array_equal(grad_of(lambda t: paddle.roll(t, 1), a, w), np.roll(w, -1))
    np.testing.assert_array_equal(grad_of(lambda t: t.flip(0), a, w), w[::-1])


def test_tril_triu():
    a = np_arange(2, 3, 4)
    x = paddle.to_tensor(a)
    for k in (-1, 0, 2):
        np.testing.assert_array_equal(paddle.tril(x, k).numpy(), np.tril(a, k))
        np.testing.assert_array_equal(x.triu(k).numpy(), np.triu(a, k))
    assert paddle.tril(paddle.ones([2, 2], "bool")).numpy().tolist() == [[True, False], [True, True]]
    for fn in (paddle.tril, paddle.triu):
        with pytest.raises(ValueError, match="at least 2 dimensions"):
            fn(paddle.ones([3]))
    np.testing.assert_array_equal(grad_of(lambda t: t.triu(1), np.ones((3, 3), np.float32)),
                                  np.triu(np.ones((3, 3)), 1))


def test_diag():
    out = paddle.diag(paddle.to_tensor([1.0, 2, 3]), offset=1, padding_value=9)
    expected = np.full((4, 4), 9.0)
    expected[[0, 1, 2], [1, 2, 3]] = [1, 2, 3]
    np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(paddle.diag(paddle.to_tensor([1.0, 2]), -1).numpy(),
                                  np.diag([1.0, 2], -1))
    a = np_arange(3, 4)
    for k in (1, -2, 5, -5):
        np.testing.assert_array_equal(paddle.diag(paddle.to_tensor(a), k).numpy(), np.diagonal(a, k))
    assert paddle.diag(paddle.to_tensor(3.0)).numpy().tolist() == [[3.0]]
    assert paddle.diag(paddle.to_tensor([1, 2]), padding_value=7).numpy().tolist() == [[1, 7], [7, 2]]
    with pytest.raises(ValueError, match="0-D, 1-D or 2-D"):
        paddle.diag(paddle.ones([2, 2, 2]))
    np.testing.assert_array_equal(grad_of(lambda t: paddle.diag(t, 1), a), np.eye(3, 4, 1))
    w = np_arange(3, 3)
    np.testing.assert_array_equal(grad_of(lambda t: paddle.diag(t, -1), np.ones(2, np.float32), w),
                                  [3.0, 7.0])


def test_repeat_interleave():
    a = np_arange(3, 4)
    x = paddle.to_tensor(a)
    np.testing.assert_array_equal(paddle.repeat_interleave(x, 2, axis=0).numpy(), np.repeat(a, 2, 0))
    np.testing.assert_array_equal(x.repeat_interleave(2).numpy(), np.repeat(a, 2))
    np.testing.assert_array_equal(paddle.repeat_interleave(x, IDX([1, 0, 2]), axis=0).numpy(),
                                  np.repeat(a, [1, 0, 2], 0))
    np.testing.assert_array_equal(paddle.repeat_interleave(x, 2, axis=-1).numpy(), np.repeat(a, 2, 1))
    assert paddle.repeat_interleave(paddle.to_tensor(2.0), 3).numpy().tolist() == [2.0] * 3
    with pytest.raises(ValueError, match="3 elements along axis 0"):
        paddle.repeat_interleave(x, IDX([1, 0]), axis=0)
    with pytest.raises(ValueError, match="repeat_interleave: axis 2 is out of range"):
        paddle.repeat_interleave(x, 2, axis=2)
    g = grad_of(lambda t: paddle.repeat_interleave(t, IDX([1, 0, 3]), axis=0), a)
    np.testing.assert_array_equal(g, [[1] * 4, [0] * 4, [3] * 4])


Y = np.arange(6, dtype=np.float32).reshape(1, 2, 3)


@pytest.mark.parametrize("x,args,kwargs,expected", [  # captured from Paddle 3.3.1
    (Y, [1, 2], {}, [[[0, 0, 1, 2, 0, 0], [0, 3, 4, 5, 0, 0]]]),
    (Y, [0, 0, 1, 0, 0, 1], {"value": 5.0}, [[[5, 5, 5, 5], [0, 1, 2, 5], [3, 4, 5, 5]]]),
    (Y, [2, 1], {"mode": "reflect"}, [[[2, 1, 0, 1, 2, 1], [5, 4, 3, 4, 5, 4]]]),
    (Y, [2, 1], {"mode": "replicate"}, [[[0, 0, 0, 1, 2, 2], [3, 3, 3, 4, 5, 5]]]),
    (Y, [2, 1], {"mode": "circular"}, [[[1, 2, 0, 1, 2, 0], [4, 5, 3, 4, 5, 3]]]),
    (Y, [4, 0], {"mode": "circular"}, [[[2, 0, 1, 2, 0, 1, 2], [5, 3, 4, 5, 3, 4, 5]]]),
    (Y, [1, 0], {"mode": "replicate", "data_format": "NLC"}, [[[0, 1, 2], [0, 1, 2], [3, 4, 5]]]),
    (Y.reshape(1, 1, 2, 3), [1, 0, 0, 1], {"mode": "reflect"},
     [[[[1, 0, 1, 2], [4, 3, 4, 5], [1, 0, 1, 2]]]]),
    (Y.reshape(1, 2, 3, 1), [1, 0, 0, 1], {"data_format": "NHWC"},
     [[[[0], [0], [1], [2]], [[0], [3], [4], [5]], [[0], [0], [0], [0]]]]),
    (Y.reshape(2, 3), [1, 0], {}, [[0, 0, 1, 2], [0, 3, 4, 5]]),
    (Y.reshape(2, 3), [1, 0, 0, 1], {}, [[0, 0, 0, 0], [0, 1, 2, 0], [3, 4, 5, 0]]),
])
def test_pad(x, args, kwargs, expected):
    np.testing.assert_array_equal(pad(paddle.to_tensor(x), args, **kwargs).numpy(), expected)


def test_pad_shapes_and_errors():
    assert pad(paddle.ones([1, 1, 1, 1, 2]), [1, 0]).shape == [1, 1, 1, 1, 3]
    assert pad(paddle.ones([1, 1, 1, 1, 2]), [1, 0, 0, 0, 1, 0]).shape == [1, 1, 2, 1, 3]
    assert pad(paddle.ones([1, 1, 2], "int64"), [1, 0], value=3).numpy().tolist() == [[[3, 1, 1]]]
    with pytest.raises(ValueError, match="smaller than its size 3"):
        pad(paddle.to_tensor(Y), [3, 0], mode="reflect")
    with pytest.raises(ValueError, match="3-D, 4-D or 5-D"):
        pad(paddle.ones([2, 3]), [1, 0], mode="reflect")
    with pytest.raises(ValueError, match="mode must be one of"):
        pad(paddle.to_tensor(Y), [1, 0], mode="foo")
    with pytest.raises(ValueError, match="pairs"):
        pad(paddle.to_tensor(Y), [1, 0, 1])
    with pytest.raises(ValueError, match="data_format"):
        pad(paddle.to_tensor(Y), [1, 0], mode="reflect", data_format="NCHW")


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_pad_gradient_counts_copies(mode):
    padded = pad(paddle.to_tensor(np.arange(3, dtype=np.float32).reshape(1, 1, 3)), [2, 1],
                 mode=mode)
    source = {"constant": [-1, -1, 0, 1, 2, -1], "reflect": [2, 1, 0, 1, 2, 1],
              "replicate": [0, 0, 0, 1, 2, 2], "circular": [1, 2, 0, 1, 2, 0]}[mode]
    if mode == "constant":
        np.testing.assert_array_equal(padded.numpy().ravel(), [0, 0, 0, 1, 2, 0])
    g = grad_of(lambda t: pad(t, [2, 1], mode=mode), np.ones((1, 1, 3), np.float32))
    np.testing.assert_array_equal(g.ravel(), [source.count(i) for i in range(3)])


# ---------------------------------------------------------------------------
# attributes
# ---------------------------------------------------------------------------

def test_attributes():
    x = arange(2, 3, 4)
    s = paddle.shape(x)
    assert s.dtype == paddle.int64 and s.numpy().tolist() == [2, 3, 4]
    assert paddle.shape(paddle.ones([])).shape == [0]
    r = paddle.rank(x)
    assert r.dtype == paddle.int32 and r.shape == [] and r.item() == 3 and x.rank().item() == 3
    n = paddle.numel(x)
    assert n.dtype == paddle.int64 and n.shape == [] and n.item() == 24
    assert paddle.is_floating_point(x) and not paddle.is_integer(x) and not paddle.is_complex(x)
    assert paddle.is_integer(paddle.ones([2], "int32")) and not paddle.ones([2], "bool").is_integer()
    assert not x.astype("int64").is_floating_point()
