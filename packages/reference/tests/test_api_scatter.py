"""addmm, multiplex, tolist and the scatter family (masked_scatter, diagonal_scatter,
select_scatter, slice_scatter): values against NumPy statements, gradients against
central differences, Paddle's shapes, broadcasting and errors."""

import numpy as np
import pytest
from gradcheck import check_grads

import dygrad as paddle

RNG = np.random.default_rng(0)


def t(a):
    return paddle.to_tensor(np.asarray(a))


# ---------------------------------------------------------------------------
# addmm and multiplex
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("input_shape", [(2, 3), (3,), (1, 3), (2, 1), ()])
def test_addmm_values_and_broadcasting(input_shape):
    inp, x, y = (RNG.standard_normal(s) for s in (input_shape, (2, 4), (4, 3)))
    out = paddle.addmm(t(inp), t(x), t(y), beta=0.5, alpha=-2.0)
    np.testing.assert_allclose(out.numpy(), 0.5 * inp + -2.0 * (x @ y), rtol=1e-12)
    assert out.shape == [2, 3]
    np.testing.assert_allclose(t(inp).addmm(t(x), t(y)).numpy(), inp + x @ y, rtol=1e-12)


def test_addmm_grads():
    inp, x, y = (RNG.standard_normal(s) for s in ((3,), (2, 4), (4, 3)))
    check_grads(lambda i, a, b: paddle.addmm(i, a, b, beta=0.5, alpha=1.5), inp, x, y)


@pytest.mark.parametrize("shapes, err", [
    (((2, 2), (2, 4), (4, 3)), ValueError),   # input does not broadcast to [2, 3]
    (((3,), (2, 4), (2, 3)), ValueError),     # x's columns != y's rows
    (((3,), (8,), (4, 3)), ValueError),       # x not 2-D
])
def test_addmm_errors(shapes, err):
    with pytest.raises(err, match="addmm"):
        paddle.addmm(*(paddle.ones(list(s)) for s in shapes))
    with pytest.raises(TypeError, match="addmm: input, x and y must have one dtype"):
        paddle.addmm(paddle.ones([3], "float64"), paddle.ones([2, 4]), paddle.ones([4, 3]))


def test_multiplex_values_and_grads():
    a, b, c = (RNG.standard_normal((4, 3)) for _ in range(3))
    index = np.array([[2], [0], [1], [2]], np.int32)
    out = paddle.multiplex([t(a), t(b), t(c)], t(index))
    expected = np.stack([a, b, c])[index[:, 0], np.arange(4)]
    np.testing.assert_array_equal(out.numpy(), expected)
    check_grads(lambda p, q: paddle.multiplex([p, q], t(index % 2)), a, b)


@pytest.mark.parametrize("inputs, index, err", [
    (2, [1, 0], ValueError),          # index not of shape [n, 1]
    (2, [[2], [0]], IndexError),      # index entry out of range
    (1, [[0], [0]], ValueError),      # fewer than two inputs
    (2, [[0.0], [1.0]], TypeError),   # float index
])
def test_multiplex_errors(inputs, index, err):
    with pytest.raises(err, match="multiplex"):
        paddle.multiplex([paddle.ones([2, 2])] * inputs, t(index))


def test_tolist():
    x = t(np.arange(6, dtype=np.int64).reshape(2, 3))
    assert paddle.tolist(x) == x.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert paddle.tolist(t(np.float32(2.5))) == 2.5
    with pytest.raises(TypeError, match="tolist"):
        paddle.tolist([1, 2])


# ---------------------------------------------------------------------------
# masked_scatter
# ---------------------------------------------------------------------------

def test_masked_scatter_fills_true_positions_in_order():
    x = RNG.standard_normal((3, 4))
    mask = np.array([True, False, True, False])
    value = np.arange(20.0).reshape(4, 5)
    out = paddle.masked_scatter(t(x), t(mask), t(value))
    expected = x.copy()
    where = np.broadcast_to(mask, x.shape)
    expected[where] = value.reshape(-1)[:where.sum()]
    np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(t(x).masked_scatter(t(mask), t(value)).numpy(), expected)


def test_masked_scatter_broadcasts_x_with_mask():
    # Paddle 3.3.1: x of shape [4] and mask of shape [2, 1] give a [2, 4] result.
    mask = np.array([[True], [False]])
    out = paddle.masked_scatter(paddle.zeros([4]), t(mask), t(np.arange(8.0, dtype=np.float32)))
    np.testing.assert_array_equal(out.numpy(), [[0, 1, 2, 3], [0, 0, 0, 0]])


def test_masked_scatter_grads():
    mask = t(np.array([[True, False, True], [False, True, True]]))
    check_grads(lambda x, v: paddle.masked_scatter(x, mask, v),
                RNG.standard_normal((2, 3)), RNG.standard_normal((5,)))


def test_masked_scatter_errors():
    x, mask = paddle.zeros([3, 4]), t(np.array([True, False, True, False]))
    with pytest.raises(ValueError, match="masked_scatter: mask has 6 True positions"):
        paddle.masked_scatter(x, mask, paddle.ones([3]))
    with pytest.raises(TypeError, match="masked_scatter: mask must be a bool tensor"):
        paddle.masked_scatter(x, paddle.ones([4]), paddle.ones([6]))
    with pytest.raises(TypeError, match="masked_scatter: value must have x's dtype"):
        paddle.masked_scatter(x, mask, paddle.ones([6], "float64"))


# ---------------------------------------------------------------------------
# diagonal_scatter, select_scatter, slice_scatter
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape, offset, axis1, axis2", [
    ((3, 3), 0, 0, 1), ((3, 3), 1, 0, 1), ((3, 5), -2, 1, 0), ((2, 3, 4), -1, 0, 2),
    ((2, 3, 4), 1, -1, 1),
])
def test_diagonal_scatter_values(shape, offset, axis1, axis2):
    x = RNG.standard_normal(shape)
    y_shape = np.diagonal(x, offset, axis1, axis2).shape
    y = RNG.standard_normal(y_shape)
    out = paddle.diagonal_scatter(t(x), t(y), offset=offset, axis1=axis1, axis2=axis2)
    expected = x.copy()
    expected_rows = np.moveaxis(expected, (axis1, axis2), (-2, -1))
    r0, c0 = max(-offset, 0), max(offset, 0)
    n = y.shape[-1]
    expected_rows[..., np.arange(r0, r0 + n), np.arange(c0, c0 + n)] = y
    np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(np.diagonal(out.numpy(), offset, axis1, axis2), y)


def test_diagonal_scatter_grads_and_method():
    check_grads(lambda x, y: paddle.diagonal_scatter(x, y, offset=1, axis1=1, axis2=0),
                RNG.standard_normal((4, 3)), RNG.standard_normal((3,)))
    out = paddle.zeros([3, 3]).diagonal_scatter(paddle.ones([3]))
    np.testing.assert_array_equal(out.numpy(), np.eye(3))


def test_diagonal_scatter_errors():
    x = paddle.zeros([3, 3])
    with pytest.raises(ValueError, match=r"diagonal_scatter: y must have the shape \[2\]"):
        paddle.diagonal_scatter(x, paddle.ones([3]), offset=1)
    with pytest.raises(ValueError, match="must be different axes"):
        paddle.diagonal_scatter(x, paddle.ones([3]), axis1=1, axis2=1)
    with pytest.raises(IndexError, match="at least 2 dimensions"):
        paddle.diagonal_scatter(paddle.zeros([3]), paddle.ones([3]))


@pytest.mark.parametrize("axis, index", [(0, 1), (1, -1), (-1, 0), (2, 3)])
def test_select_scatter_values(axis, index):
    x = RNG.standard_normal((2, 3, 4))
    values = RNG.standard_normal(np.delete(x.shape, axis % 3))
    out = paddle.select_scatter(t(x), t(values), axis, index)
    expected = x.copy()
    np.moveaxis(expected, axis, 0)[index] = values
    np.testing.assert_array_equal(out.numpy(), expected)


def test_select_scatter_grads_dtype_and_errors():
    check_grads(lambda x, v: paddle.select_scatter(x, v, 1, 2),
                RNG.standard_normal((2, 3)), RNG.standard_normal((2,)))
    # Paddle 3.3.1 casts values to x's dtype.
    out = paddle.zeros([2, 3]).select_scatter(paddle.ones([2], "float64"), 1, 0)
    assert out.dtype == paddle.float32
    np.testing.assert_array_equal(out.numpy(), [[1, 0, 0], [1, 0, 0]])
    with pytest.raises(ValueError, match=r"select_scatter: values must have the shape \[2\]"):
        paddle.select_scatter(paddle.zeros([2, 3]), paddle.ones([3]), 1, 0)
    with pytest.raises(IndexError, match="select_scatter: index 3 is out of range"):
        paddle.select_scatter(paddle.zeros([2, 3]), paddle.ones([2]), 1, 3)
    with pytest.raises(IndexError, match="select_scatter: axis 2 is out of range"):
        paddle.select_scatter(paddle.zeros([2, 3]), paddle.ones([2]), 2, 0)


@pytest.mark.parametrize("axes, starts, ends, strides", [
    ([1], [1], [6], [3]), ([0, 1], [0, 0], [4, 6], [2, 2]), ([1], [-3], [100], [2]),
    ([-2], [3], [0], [-1]),
])
def test_slice_scatter_values(axes, starts, ends, strides):
    x = RNG.standard_normal((4, 6))
    index = [slice(None)] * 2
    for a, s, e, st in zip(axes, starts, ends, strides):
        index[a] = slice(s, e, st)
    value = RNG.standard_normal(x[tuple(index)].shape)
    out = paddle.slice_scatter(t(x), t(value), axes, starts, ends, strides)
    expected = x.copy()
    expected[tuple(index)] = value
    np.testing.assert_array_equal(out.numpy(), expected)


def test_slice_scatter_grads_and_errors():
    check_grads(lambda x, v: paddle.slice_scatter(x, v, [0], [1], [5], [2]),
                RNG.standard_normal((5, 2)), RNG.standard_normal((2, 2)))
    x = paddle.zeros([4, 6])
    with pytest.raises(ValueError, match=r"slice_scatter: value must have the shape \[4, 2\]"):
        x.slice_scatter(paddle.ones([4, 3]), [1], [1], [6], [3])
    with pytest.raises(ValueError, match="slice_scatter: axes, starts, ends"):
        x.slice_scatter(paddle.ones([4, 2]), [1], [1, 2], [6], [3])
