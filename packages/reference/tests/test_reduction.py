"""Reductions, statistics, searching and sorting: sum, mean, prod, max/min/amax/amin,
var/std, logsumexp, cumsum/cumprod, argmax/argmin, all/any, sort/argsort, topk, unique,
nonzero, searchsorted, masked_select.

Expected values are NumPy statements or, where Paddle's choice is the point (dtypes,
ties, gradients), values captured from PaddlePaddle 3.3.1.
"""

import numpy as np
import pytest

import dygrad as paddle

X = np.array([[1.0, 5.0, 2.0], [3.0, 4.0, 0.5]], dtype=np.float32)


def _t(a, **kw):
    return paddle.to_tensor(np.asarray(a), **kw)


def _grad(fn, values, weights=None):
    """Gradient of sum(fn(x) * weights) at x = values (float64)."""
    x = paddle.to_tensor(np.asarray(values, dtype=np.float64), stop_gradient=False)
    y = fn(x)
    w = np.ones(y.shape) if weights is None else np.asarray(weights, dtype=np.float64)
    (g,) = paddle.grad([y], [x], grad_outputs=[paddle.to_tensor(w)])
    return g.numpy()


# ---------------------------------------------------------------------------
# sum, prod: dtypes and axis forms
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("axis,keepdim", [
    (None, False), (None, True), (0, False), (-1, True), ([0, 1], False), ((1, -2), True),
    ([], False),
])
def test_sum_axis_forms(axis, keepdim):
    out = paddle.sum(_t(X), axis=axis, keepdim=keepdim)
    np_axis = tuple(axis) if isinstance(axis, (list, tuple)) else axis
    np_axis = None if np_axis == () else np_axis
    np.testing.assert_allclose(out.numpy(), np.sum(X, axis=np_axis, keepdims=keepdim), rtol=1e-6)


def test_full_reductions_are_0d():
    x = _t(X)
    for fn in (paddle.sum, paddle.mean, paddle.prod, paddle.max, paddle.min, paddle.amax,
               paddle.amin, paddle.var, paddle.std, paddle.logsumexp, paddle.all, paddle.any,
               paddle.argmax, paddle.argmin):
        assert fn(x).shape == [], fn.__name__


@pytest.mark.parametrize("dtype,expected", [
    ("int32", "int64"), ("int64", "int64"), ("bool", "int64"), ("float32", "float32"),
    ("float64", "float64"),
])
def test_sum_dtypes(dtype, expected):
    out = paddle.sum(_t(X > 1).astype(dtype))
    assert out.dtype == getattr(paddle, expected)
    assert out.item() == 4


def test_sum_dtype_argument_and_tensor_axis():
    out = paddle.sum(_t([[1, 2], [3, 4]]), axis=_t([0]), dtype="float64")
    assert out.dtype == paddle.float64
    np.testing.assert_array_equal(out.numpy(), [4.0, 6.0])
    assert paddle.sum(_t(X), axis=_t(1)).shape == [2]


def test_prod_keeps_int_dtype():
    x = _t([[1, 2], [3, 4]])
    assert paddle.prod(x).dtype == paddle.int64 and paddle.prod(x).item() == 24
    x32 = x.astype("int32")
    assert paddle.prod(x32).dtype == paddle.int32  # unlike sum, prod keeps int32
    assert paddle.prod(x32, dtype="int64").dtype == paddle.int64
    np.testing.assert_array_equal(paddle.prod(x, axis=0, keepdim=True, dtype="float32").numpy(),
                                  [[3.0, 8.0]])
    assert paddle.prod(_t([True, False])).dtype == paddle.int64
    assert paddle.prod(paddle.zeros([0])).item() == 1.0


@pytest.mark.parametrize("values,expected", [
    ([2.0, 4.0, 3.0], [12.0, 6.0, 8.0]),
    ([2.0, 0.0, 3.0], [0.0, 6.0, 0.0]),   # Paddle gives NaN at the zero; this is the derivative
    ([2.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
])
def test_prod_gradient_is_the_product_of_the_others(values, expected):
    np.testing.assert_allclose(_grad(paddle.prod, values), expected)


def test_prod_second_derivative_at_a_zero():
    """d2 prod / dx0 dx2 at x = [2, 0, 3] is x1 = 0; d2 / dx1 dx2 is x0 = 2."""
    x = paddle.to_tensor(np.array([2.0, 0.0, 3.0]), stop_gradient=False)
    (g,) = paddle.grad([paddle.prod(x)], [x], create_graph=True)
    (h,) = paddle.grad([g[2]], [x])
    np.testing.assert_allclose(h.numpy(), [0.0, 2.0, 0.0])


def test_sum_and_prod_methods():
    x = _t(X)
    np.testing.assert_allclose(x.sum(1).numpy(), X.sum(1), rtol=1e-6)
    np.testing.assert_allclose(x.prod().numpy(), X.prod(), rtol=1e-6)


# ---------------------------------------------------------------------------
# mean, var, std, logsumexp
# ---------------------------------------------------------------------------

def test_mean_values_and_gradient():
    x = _t(X)
    np.testing.assert_allclose(paddle.mean(x, axis=-1, keepdim=True).numpy(),
                               X.mean(-1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(x.mean(0).numpy(), X.mean(0), rtol=1e-6)
    np.testing.assert_allclose(_grad(lambda t: paddle.mean(t, axis=1), X), np.full((2, 3), 1 / 3))
    assert np.isnan(paddle.mean(paddle.zeros([0])).item())


@pytest.mark.parametrize("fn,op", [(paddle.mean, "mean"), (paddle.var, "var"), (paddle.std, "var"),
                                   (paddle.logsumexp, "logsumexp")])
def test_float_statistics_reject_integers(fn, op):
    """As Paddle 2.x documents (3.x computes an int mean in ints, truncating)."""
    with pytest.raises(TypeError, match=f"{op}: x has dtype int64.*floating-point"):
        fn(_t([1, 2, 3]))


@pytest.mark.parametrize("unbiased", [True, False])
@pytest.mark.parametrize("axis", [None, 0, [0, 1], -1])
def test_var_std(axis, unbiased):
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    ddof = int(unbiased)
    np.testing.assert_allclose(paddle.var(_t(X), axis, unbiased).numpy(),
                               np.var(X, axis=np_axis, ddof=ddof), rtol=1e-5)
    np.testing.assert_allclose(_t(X).std(axis, unbiased, keepdim=True).numpy(),
                               np.std(X, axis=np_axis, ddof=ddof, keepdims=True), rtol=1e-5)


def test_var_degenerate():
    assert np.isnan(paddle.var(_t(np.float32(1.0))).item())
    assert paddle.std(_t(np.float32(1.0)), unbiased=False).item() == 0.0
    assert np.isnan(paddle.var(_t(np.array([1.0], np.float32))).item())
    assert paddle.std(paddle.zeros([2, 0]), axis=0).shape == [0]
    assert np.isnan(paddle.var(paddle.zeros([2, 0]), axis=1).numpy()).all()


def test_std_gradient_matches_paddle():
    np.testing.assert_allclose(_grad(paddle.std, [2.0, 0.0, 3.0]),
                               [0.10910894511799615, -0.5455447255899809, 0.4364357804719847])


def test_logsumexp():
    np.testing.assert_allclose(paddle.logsumexp(_t(X), axis=-1).numpy(),
                               np.log(np.exp(X).sum(-1)), rtol=1e-6)
    big = paddle.logsumexp(_t(np.array([1000.0, 1000.0], np.float32)))
    np.testing.assert_allclose(big.item(), 1000.0 + np.log(2.0), rtol=1e-6)
    assert paddle.logsumexp(paddle.zeros([0])).item() == -np.inf
    # the gradient is the softmax (values from Paddle)
    np.testing.assert_allclose(_grad(paddle.logsumexp, [2.0, 0.0, 3.0]),
                               [0.2594964603424191, 0.035119026959339716, 0.705384512698241])


# ---------------------------------------------------------------------------
# max, min, amax, amin
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,np_fn", [("max", np.max), ("min", np.min), ("amax", np.max),
                                        ("amin", np.min)])
def test_extremes(name, np_fn):
    fn = getattr(paddle, name)
    x = _t(X)
    np.testing.assert_array_equal(fn(x, axis=0).numpy(), np_fn(X, axis=0))
    np.testing.assert_array_equal(getattr(x, name)(-1, True).numpy(), np_fn(X, axis=-1, keepdims=True))
    assert fn(_t([[1, 2], [3, 4]])).dtype == paddle.int64


@pytest.mark.parametrize("name", ["max", "amax"])
def test_max_ties_share_the_gradient(name):
    fn = getattr(paddle, name)
    np.testing.assert_allclose(_grad(fn, [1.0, 3.0, 3.0, 2.0]), [0.0, 0.5, 0.5, 0.0])
    np.testing.assert_allclose(_grad(lambda t: fn(t, axis=1), [[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]),
                               [[0.0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])


@pytest.mark.parametrize("name", ["min", "amin"])
def test_min_ties_share_the_gradient(name):
    np.testing.assert_allclose(_grad(getattr(paddle, name), [1.0, 1.0, 3.0, 2.0]),
                               [0.5, 0.5, 0.0, 0.0])


@pytest.mark.parametrize("name", ["max", "min", "amax", "amin"])
def test_extremes_of_nothing_raise(name):
    with pytest.raises(ValueError, match=rf"{name}: cannot reduce x of shape \[2, 0\]"):
        getattr(paddle, name)(paddle.zeros([2, 0]), axis=1)
    assert getattr(paddle, name)(paddle.zeros([2, 0]), axis=0).shape == [0]


@pytest.mark.parametrize("axis,match", [(2, "axis 2 is out of range"), ([0, 0], "same dimension"),
                                        ([0, -2], "same dimension")])
def test_reduction_axis_errors(axis, match):
    with pytest.raises(ValueError, match=match):
        paddle.max(_t(X), axis=axis)
    with pytest.raises(ValueError, match=match):
        paddle.sum(_t(X), axis=axis)


def test_0d_accepts_axis_0_and_minus_1():
    x = _t(np.float32(3.0))
    assert paddle.max(x, axis=0).shape == [] and paddle.sum(x, axis=-1, keepdim=True).shape == []
    with pytest.raises(ValueError, match="rank 0"):
        paddle.sum(x, axis=1)


# ---------------------------------------------------------------------------
# cumsum, cumprod
# ---------------------------------------------------------------------------

def test_cumsum():
    x = _t([[1, 2], [3, 4]])
    np.testing.assert_array_equal(paddle.cumsum(x).numpy(), [1, 3, 6, 10])
    np.testing.assert_array_equal(x.cumsum(axis=0).numpy(), [[1, 2], [4, 6]])
    assert paddle.cumsum(x.astype("int32"), axis=0).dtype == paddle.int64
    assert paddle.cumsum(x.astype("int32"), dtype="int32").dtype == paddle.int32
    assert paddle.cumsum(_t(X), dtype="float64").dtype == paddle.float64
    assert paddle.cumsum(_t(np.float32(3.0))).shape == [1]
    assert paddle.cumsum(_t(np.float32(3.0)), axis=0).shape == []
    with pytest.raises(IndexError, match="cumsum: axis 2 is out of range"):
        paddle.cumsum(x, axis=2)
    with pytest.raises(TypeError, match="cumsum: axis must be an int"):
        paddle.cumsum(x, axis=[0])


def test_cumsum_gradient():
    np.testing.assert_allclose(_grad(lambda t: paddle.cumsum(t, axis=1), np.ones((2, 3)),
                                     [[1.0, 2.0, 3.0], [0.0, 0.0, 1.0]]),
                               [[6.0, 5.0, 3.0], [1.0, 1.0, 1.0]])
    np.testing.assert_allclose(_grad(paddle.cumsum, np.ones((2, 2))), [[4.0, 3.0], [2.0, 1.0]])


def test_cumprod():
    x = _t([[1, 2], [3, 4]])
    np.testing.assert_array_equal(paddle.cumprod(x, dim=1).numpy(), [[1, 2], [3, 12]])
    np.testing.assert_array_equal(x.cumprod().numpy(), [1, 2, 6, 24])
    assert paddle.cumprod(x.astype("int32"), dim=0).dtype == paddle.int32
    assert paddle.cumprod(x, dim=0, dtype="float64").dtype == paddle.float64
    with pytest.raises(ValueError, match="cumprod: axis 5 is out of range"):
        paddle.cumprod(x, dim=5)


@pytest.mark.parametrize("values,expected", [
    ([2.0, 0.0, 3.0], [1.0, 8.0, 0.0]),        # from Paddle
    ([2.0, 4.0, 3.0], [17.0, 8.0, 8.0]),
    ([0.0, 2.0, 0.0, 3.0], [3.0, 0.0, 0.0, 0.0]),
])
def test_cumprod_gradient(values, expected):
    np.testing.assert_allclose(_grad(lambda t: paddle.cumprod(t, dim=0), values), expected)


# ---------------------------------------------------------------------------
# argmax, argmin, all, any
# ---------------------------------------------------------------------------

def test_argmax_argmin():
    x = _t(X)
    assert paddle.argmax(x).item() == 1 and paddle.argmin(x).item() == 5
    np.testing.assert_array_equal(x.argmax(axis=1, keepdim=True).numpy(), [[1], [1]])
    assert paddle.argmax(x, keepdim=True).shape == [1, 1]
    assert paddle.argmin(x, axis=0, dtype="int32").dtype == paddle.int32
    assert paddle.argmax(_t([1.0, 3.0, 3.0])).item() == 1      # the first of ties
    assert paddle.argmin(_t([1.0, 1.0, 3.0])).item() == 0
    assert paddle.argmax(_t(np.float32(3.0))).shape == []
    with pytest.raises(ValueError, match="argmax: dtype must be int32 or int64"):
        paddle.argmax(x, dtype="float32")
    with pytest.raises(TypeError, match="argmax: axis must be an int"):
        paddle.argmax(x, axis=[0])
    with pytest.raises(ValueError, match="argmin: cannot search"):
        paddle.argmin(paddle.zeros([0]))


def test_all_any():
    x = _t([[True, False], [True, True]])
    assert not paddle.all(x).item()
    np.testing.assert_array_equal(paddle.all(x, axis=1).numpy(), [False, True])
    np.testing.assert_array_equal(x.any(axis=0, keepdim=True).numpy(), [[True, True]])
    assert paddle.all(_t(X)).dtype == paddle.bool
    assert paddle.all(paddle.zeros([0])).item() and not paddle.any(paddle.zeros([0])).item()


# ---------------------------------------------------------------------------
# sort, argsort, topk
# ---------------------------------------------------------------------------

def test_sort_and_argsort():
    x = _t(X)
    np.testing.assert_array_equal(paddle.sort(x).numpy(), np.sort(X))
    np.testing.assert_array_equal(x.sort(axis=0, descending=True).numpy(), -np.sort(-X, axis=0))
    np.testing.assert_array_equal(paddle.argsort(x, axis=0).numpy(), np.argsort(X, axis=0))
    ties = _t([1.0, 3.0, 3.0, 1.0])
    np.testing.assert_array_equal(paddle.argsort(ties).numpy(), [0, 3, 1, 2])
    np.testing.assert_array_equal(ties.argsort(descending=True).numpy(), [1, 2, 0, 3])
    nan = _t([3.0, np.nan, 1.0, 2.0])
    np.testing.assert_array_equal(paddle.sort(nan).numpy(), [1.0, 2.0, 3.0, np.nan])
    np.testing.assert_array_equal(paddle.sort(nan, descending=True).numpy(), [np.nan, 3.0, 2.0, 1.0])
    assert paddle.sort(_t(np.float32(3.0))).shape == []
    with pytest.raises(ValueError, match="sort: axis 2 is out of range"):
        paddle.sort(x, axis=2)


def test_sort_gradient_goes_back_through_the_permutation():
    np.testing.assert_allclose(_grad(paddle.sort, [3.0, 1.0, 2.0, 0.0], [1.0, 2.0, 3.0, 4.0]),
                               [4.0, 2.0, 3.0, 1.0])
    np.testing.assert_allclose(
        _grad(lambda t: paddle.sort(t, axis=0, descending=True), [[1.0, 4.0], [2.0, 3.0]],
              [[1.0, 2.0], [3.0, 4.0]]),
        [[3.0, 2.0], [1.0, 4.0]])


def test_topk():
    x = _t([[1.0, 5.0], [3.0, 4.0]])
    values, indices = paddle.topk(x, 1)
    np.testing.assert_array_equal(values.numpy(), [[5.0], [4.0]])
    np.testing.assert_array_equal(indices.numpy(), [[1], [1]])
    assert indices.dtype == paddle.int64
    values, indices = x.topk(1, axis=0, largest=False)
    np.testing.assert_array_equal(values.numpy(), [[1.0, 4.0]])
    np.testing.assert_array_equal(indices.numpy(), [[0, 1]])
    values, indices = paddle.topk(x, _t(2))
    np.testing.assert_array_equal(values.numpy(), [[5.0, 1.0], [4.0, 3.0]])
    values, indices = paddle.topk(_t([1.0, 3.0, 3.0, 1.0]), 2)
    np.testing.assert_array_equal(indices.numpy(), [1, 2])
    values, indices = paddle.topk(_t(np.float32(3.0)), 1)
    assert values.shape == [] and indices.item() == 0
    with pytest.raises(ValueError, match="topk: k must be between 1 and"):
        paddle.topk(x, 3)


def test_topk_gradient():
    np.testing.assert_allclose(
        _grad(lambda t: paddle.topk(t, 2)[0], [3.0, 1.0, 2.0, 0.0], [1.0, 2.0]), [1.0, 0.0, 2.0, 0.0])
    x = paddle.to_tensor(np.array([3.0, 1.0, 2.0]), stop_gradient=False)
    values, indices = paddle.topk(x, 2)
    assert indices.stop_gradient and not values.stop_gradient


# ---------------------------------------------------------------------------
# unique, nonzero, searchsorted, masked_select
# ---------------------------------------------------------------------------

def test_unique():
    x = _t([3, 1, 3, 2])
    np.testing.assert_array_equal(paddle.unique(x).numpy(), [1, 2, 3])
    out, index, inverse, counts = paddle.unique(x, return_index=True, return_inverse=True,
                                                return_counts=True, dtype="int32")
    np.testing.assert_array_equal(index.numpy(), [1, 3, 0])
    np.testing.assert_array_equal(inverse.numpy(), [2, 0, 2, 1])
    np.testing.assert_array_equal(counts.numpy(), [1, 1, 2])
    assert out.dtype == paddle.int64 and index.dtype == paddle.int32
    out, counts = x.unique(return_counts=True)
    np.testing.assert_array_equal(counts.numpy(), [1, 1, 2])
    rows = _t([[2.0, 1.0], [2.0, 1.0], [0.0, 5.0]])
    out, index, counts = paddle.unique(rows, return_index=True, return_counts=True, axis=0)
    np.testing.assert_array_equal(out.numpy(), [[0.0, 5.0], [2.0, 1.0]])
    np.testing.assert_array_equal(index.numpy(), [2, 0])
    np.testing.assert_array_equal(counts.numpy(), [1, 2])
    assert paddle.unique(_t(3)).shape == [1]
    assert paddle.unique(_t([[1, 2], [2, 1]]), return_inverse=True)[1].shape == [4]


def test_nonzero():
    x = _t([[1.0, 0.0], [0.0, 2.0]])
    np.testing.assert_array_equal(paddle.nonzero(x).numpy(), [[0, 0], [1, 1]])
    rows, cols = x.nonzero(as_tuple=True)
    np.testing.assert_array_equal(rows.numpy(), [0, 1])
    np.testing.assert_array_equal(cols.numpy(), [0, 1])
    (only,) = paddle.nonzero(_t([0, 3, 0, 1]), as_tuple=True)
    np.testing.assert_array_equal(only.numpy(), [1, 3])
    assert paddle.nonzero(paddle.zeros([2, 0])).shape == [0, 2]
    with pytest.raises(ValueError, match="nonzero: x must have at least 1 dimension"):
        paddle.nonzero(_t(3))


def test_searchsorted():
    seq = _t([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(paddle.searchsorted(seq, _t([[2.5, 2.0]])).numpy(), [[2, 1]])
    out = paddle.searchsorted(seq, _t([2.0]), right=True, out_int32=True)
    assert out.dtype == paddle.int32 and out.numpy().tolist() == [2]
    rows = _t([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(
        paddle.searchsorted(rows, _t([[2.0, 3.0, 5.0], [1.0, 3.0, 9.0]])).numpy(),
        [[1, 2, 2], [0, 0, 2]])
    assert paddle.searchsorted(_t([1, 2, 3]), _t(2)).shape == []
    with pytest.raises(ValueError, match="searchsorted: sorted_sequence has shape"):
        paddle.searchsorted(rows, _t([[2.0], [1.0], [0.0]]))


def test_masked_select():
    x = _t(X)
    np.testing.assert_array_equal(paddle.masked_select(x, _t(X > 2)).numpy(), X[X > 2])
    np.testing.assert_array_equal(
        paddle.masked_select(_t([[1.0, 2.0]]), _t([[True], [False], [True]])).numpy(),
        [1.0, 2.0, 1.0, 2.0])
    np.testing.assert_array_equal(x.masked_select(_t([True, False, True])).numpy(),
                                  [1.0, 2.0, 3.0, 0.5])
    with pytest.raises(TypeError, match="masked_select: mask must be a bool tensor"):
        paddle.masked_select(x, _t([1, 0, 1]))


def test_masked_select_gradient():
    mask = _t([[True], [False], [True]])
    np.testing.assert_allclose(_grad(lambda t: paddle.masked_select(t, mask), [[1.0, 2.0]]),
                               [[2.0, 2.0]])
    np.testing.assert_allclose(
        _grad(lambda t: paddle.masked_select(t, _t([True, False, True])), [2.0, 0.0, 3.0],
              [5.0, 7.0]), [5.0, 0.0, 7.0])


def test_methods_are_attached():
    for name in ("sum", "mean", "prod", "max", "min", "amax", "amin", "var", "std", "logsumexp",
                 "cumsum", "cumprod", "argmax", "argmin", "all", "any", "sort", "argsort",
                 "topk", "unique", "nonzero", "masked_select"):
        assert getattr(paddle.Tensor, name) is getattr(paddle, name), name
    assert not hasattr(paddle.Tensor, "searchsorted")
