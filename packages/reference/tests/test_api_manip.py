"""meshgrid, diagonal, trace, rot90, tensordot, inner, mv, kthvalue, mode, median, diagflat,
diag_embed, bincount, unique_consecutive and crop.

Expected values are NumPy statements; values marked as such were captured from
PaddlePaddle 3.3.1 where Paddle's own conventions are the point (which of equal values
kthvalue and mode pick, median's gradient). Gradients are checked against central
differences in float64.
"""

import numpy as np
import pytest
from gradcheck import check_grads

import dygrad as paddle

T = paddle.to_tensor
RNG = np.random.default_rng(0)


def rand(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def check_grad_at(fn, *arrays, wrt=0):
    """The gradient of input ``wrt`` against central differences (float64)."""
    check_grads(fn, *arrays, wrt=wrt)


def values(outs):
    return [o.numpy().tolist() for o in outs]


# ---------------------------------------------------------------------------
# meshgrid
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("sizes", [(3, 2), (4,), (2, 1, 3)])
def test_meshgrid_matches_numpy_ij(sizes):
    arrays = [rand(n) for n in sizes]
    for given in ([T(a) for a in arrays], [[T(a) for a in arrays]]):
        grids = paddle.meshgrid(*given)
        for g, e in zip(grids, np.meshgrid(*arrays, indexing="ij")):
            np.testing.assert_array_equal(g.numpy(), e)


def test_meshgrid_0d_xy_dtype_and_gradient():
    a, b = T(np.array(2, np.int32)), T(np.array([4, 5], np.int32))
    grids = paddle.meshgrid(a, b)
    assert [g.shape for g in grids] == [[1, 2], [1, 2]] and grids[0].dtype == paddle.int32
    x, y = rand(3), rand(2)
    for g, e in zip(paddle.meshgrid(T(x), T(y), indexing="xy"), np.meshgrid(x, y)):
        np.testing.assert_array_equal(g.numpy(), e)
    check_grad_at(lambda t: paddle.meshgrid(t, T(y))[0], x)


@pytest.mark.parametrize("args, exc, match", [
    ((), ValueError, "meshgrid: expected at least one"),
    ((T([1, 2]), T([1.0])), ValueError, "meshgrid: all inputs must have one dtype"),
    ((T([[1, 2]]),), ValueError, r"meshgrid: input 0 must be 0-D or 1-D, got shape \[1, 2\]"),
    ((T([1]), 3), TypeError, "meshgrid: input 1 must be a Tensor"),
])
def test_meshgrid_errors(args, exc, match):
    with pytest.raises(exc, match=match):
        paddle.meshgrid(*args)


# ---------------------------------------------------------------------------
# diagonal, trace, diagflat, diag_embed
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape, offset, axis1, axis2", [
    ((3, 4), 0, 0, 1), ((3, 4), 1, 0, 1), ((3, 4), -2, 0, 1), ((2, 3, 4), 0, 0, 1),
    ((2, 3, 4), 1, 2, 0), ((2, 3, 4), -1, -1, -3), ((2, 3, 4), 5, 0, 1), ((0, 3), 0, 0, 1)])
def test_diagonal_and_trace_match_numpy(shape, offset, axis1, axis2):
    a = rand(*shape)
    x = T(a)
    d = paddle.diagonal(x, offset=offset, axis1=axis1, axis2=axis2)
    np.testing.assert_array_equal(d.numpy(), np.diagonal(a, offset, axis1, axis2))
    np.testing.assert_allclose(x.trace(offset, axis1, axis2).numpy(),
                               np.trace(a, offset, axis1, axis2), rtol=1e-12)


def test_diagonal_trace_dtypes_and_gradients():
    i = np.arange(9, dtype=np.int32).reshape(3, 3)
    t = paddle.trace(T(i))
    assert t.dtype == paddle.int32 and t.shape == [] and int(t) == 12
    assert paddle.diagonal(T(i > 3)).numpy().tolist() == [False, True, True]
    check_grad_at(lambda t: paddle.diagonal(t, 1, 2, 0), rand(2, 3, 4))
    check_grad_at(lambda t: paddle.trace(t, -1, 1, 2), rand(2, 3, 4))


@pytest.mark.parametrize("fn, kwargs, exc, match", [
    (paddle.diagonal, {"x": T([1.0, 2.0])}, IndexError, "diagonal: x must have at least 2"),
    (paddle.diagonal, {"x": T(np.ones((2, 3))), "axis1": 2}, IndexError,
     "diagonal: axis1 2 is out of range"),
    (paddle.diagonal, {"x": T(np.ones((2, 3))), "axis1": 1, "axis2": -1}, ValueError,
     "diagonal: axis1 .* must be different"),
    (paddle.trace, {"x": T(np.ones((2, 2), bool))}, TypeError, "trace: x must have an int or"),
    (paddle.trace, {"x": T([1.0])}, IndexError, "trace: x must have at least 2"),
    (paddle.diag_embed, {"input": T([1.0, 2.0]), "dim1": 0, "dim2": -2}, ValueError,
     "diag_embed: dim1 .* must be different"),
    (paddle.diag_embed, {"input": T([1.0, 2.0]), "dim1": -3}, IndexError,
     "diag_embed: dim1 -3 is out of range"),
    (paddle.diag_embed, {"input": T(1.0)}, IndexError, "diag_embed: dim1 -2 is out of range"),
])
def test_diagonal_family_errors(fn, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        fn(**kwargs)


@pytest.mark.parametrize("shape, offset", [((2,), 0), ((2, 2), -1), ((), 0), ((3,), 2)])
def test_diagflat_matches_numpy(shape, offset):
    a = rand(*shape)
    np.testing.assert_array_equal(paddle.diagflat(T(a), offset).numpy(), np.diagflat(a, offset))
    assert paddle.diagflat(T(np.array([1, 2])), offset).dtype == paddle.int64


def _diag_embed_ref(a, offset, dim1, dim2):
    n = a.shape[-1] + abs(offset)
    out = np.zeros(a.shape[:-1] + (n, n), a.dtype)
    for i in range(a.shape[-1]):
        out[..., i + max(-offset, 0), i + max(offset, 0)] = a[..., i]
    return np.moveaxis(out, (-2, -1), (dim1, dim2))


@pytest.mark.parametrize("shape, offset, dim1, dim2", [
    ((3,), 0, -2, -1), ((2, 3), 1, 0, 2), ((2, 3), 1, 2, 0), ((2, 3), -2, -1, 1),
    ((2, 1, 3), 0, 1, 3), ((2, 0), 1, -2, -1)])
def test_diag_embed_matches_numpy(shape, offset, dim1, dim2):
    a = rand(*shape)
    out = paddle.diag_embed(T(a), offset, dim1, dim2)
    np.testing.assert_array_equal(out.numpy(), _diag_embed_ref(a, offset, dim1 % (a.ndim + 1),
                                                               dim2 % (a.ndim + 1)))


def test_diag_embed_inf_array_input_int_and_gradient():
    out = paddle.diag_embed(np.array([np.inf, 1.0]))  # no inf * 0 = NaN off the diagonal
    assert out.dtype == paddle.float64
    np.testing.assert_array_equal(out.numpy(), [[np.inf, 0], [0, 1]])
    assert paddle.diag_embed(T([1, 2]), offset=-1).numpy().tolist() == [[0, 0, 0], [1, 0, 0],
                                                                        [0, 2, 0]]
    check_grad_at(lambda t: paddle.diag_embed(t, 1, 0, 2), rand(2, 3))
    check_grad_at(lambda t: paddle.diagflat(t, -1), rand(2, 2))


# ---------------------------------------------------------------------------
# rot90
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("k", [-5, -1, 0, 1, 2, 3, 4, 6])
@pytest.mark.parametrize("axes", [[0, 1], [1, 0], [2, 0], [-1, -2]])
def test_rot90_matches_numpy(k, axes):
    a = rand(2, 3, 4)
    np.testing.assert_array_equal(paddle.rot90(T(a), k, axes).numpy(), np.rot90(a, k, axes))


def test_rot90_default_method_and_gradient():
    a = rand(2, 3)
    np.testing.assert_array_equal(T(a).rot90().numpy(), np.rot90(a))
    for k in (1, 2, 3):
        check_grad_at(lambda t, k=k: paddle.rot90(t, k, [2, 0]), rand(2, 3, 4))


@pytest.mark.parametrize("x, axes, match", [
    (np.ones((2, 3)), [0, 0], "the rotation axes must be different"),
    (np.ones((2, 3)), [0, -2], "the rotation axes must be different"),
    (np.ones((2, 3)), [0], "axes must name 2 axes"),
    (np.ones(2), [0, 1], "x must have at least 2 dimensions"),
])
def test_rot90_errors(x, axes, match):
    with pytest.raises(ValueError, match="rot90: " + match):
        paddle.rot90(T(x), axes=axes)


# ---------------------------------------------------------------------------
# tensordot, inner, mv
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("axes, np_axes, y_shape", [
    (2, 2, (3, 4, 4)), (0, 0, (3, 4, 4)), (1, ([2], [0]), (4, 3, 5)),
    ([[1, 2], [0, 1]], ([1, 2], [0, 1]), (3, 4, 4)), ([[1], [0]], ([1], [0]), (3, 4, 4)),
    ([[2, 1], [1, 0]], ([2, 1], [1, 0]), (3, 4, 4)), ([], 0, (3, 4)), ([[]], 0, (3, 4)),
    ([1], ([1], [1]), (3, 3, 5)), ([[2], [1]], ([2], [1]), (3, 4, 4)),
    ([[1, 2], [0]], ([1, 2], [0, 2]), (3, 4, 4))])  # the shorter list completed from the longer
def test_tensordot_matches_numpy(axes, np_axes, y_shape):
    a, b = rand(2, 3, 4), rand(*y_shape)
    np.testing.assert_allclose(paddle.tensordot(T(a), T(b), axes).numpy(),
                               np.tensordot(a, b, np_axes), rtol=1e-12)


def test_tensordot_tensor_axes_broadcast_and_gradients():
    a, b = rand(2, 3, 4), rand(3, 4)
    np.testing.assert_allclose(paddle.tensordot(T(a), T(b), T([[2], [1]])).numpy(),
                               np.tensordot(a, b, ([2], [1])), rtol=1e-12)
    c = rand(1, 4)  # a size-1 contracted axis broadcasts against the other's size
    np.testing.assert_allclose(T(a).tensordot(T(c), [[1, 2], [0, 1]]).numpy(),
                               np.tensordot(a, np.broadcast_to(c, (3, 4)), 2), rtol=1e-12)
    check_grad_at(lambda t: paddle.tensordot(t, T(b), [[1], [0]]), a)
    check_grad_at(lambda t: paddle.tensordot(T(a), t, [[2, 1], [1, 0]]), b)


@pytest.mark.parametrize("axes, match", [
    (1, r"axis 2 of x \(shape \[2, 3, 4\]\) has size 4 but axis 0 of y"),
    (-1, "an int axes must be >= 0"), (3, "axes=3 exceeds the rank"),
    ([[5], [0]], "axis 5 is out of range for x"), ([[1, 1], [0, 0]], "an axis is contracted twice")])
def test_tensordot_errors(axes, match):
    with pytest.raises(ValueError, match="tensordot: " + match):
        paddle.tensordot(T(rand(2, 3, 4)), T(rand(3, 4)), axes)


def test_inner_matches_numpy_and_gradients():
    a, b = rand(2, 3, 4), rand(5, 4)
    np.testing.assert_allclose(paddle.inner(T(a), T(b)).numpy(), np.inner(a, b), rtol=1e-12)
    np.testing.assert_allclose(T(a[0, 0]).inner(T(b[0])).numpy(), np.inner(a[0, 0], b[0]))
    np.testing.assert_allclose(paddle.inner(T(np.float64(2.0)), T(b)).numpy(), 2 * b)
    assert paddle.inner(T(np.ones((2, 3), np.int64)), T(np.ones(3, np.int64))).dtype == paddle.int64
    assert paddle.inner(T(np.ones((0, 3))), T(np.ones((2, 3)))).shape == [0, 2]
    check_grad_at(lambda t: paddle.inner(t, T(b)), a)
    check_grad_at(lambda t: paddle.inner(T(a), t), b)
    with pytest.raises(ValueError, match="inner: the last dimensions of x"):
        paddle.inner(T(a), T(rand(2)))


def test_mv_matches_numpy_errors_and_gradients():
    m, v = rand(3, 4), rand(4)
    np.testing.assert_allclose(paddle.mv(T(m), T(v)).numpy(), m @ v, rtol=1e-12)
    np.testing.assert_allclose(T(m.astype(np.float32)).mv(T(v.astype(np.float32))).numpy(),
                               m @ v, rtol=1e-5)
    check_grad_at(lambda t: paddle.mv(t, T(v)), m)
    check_grad_at(lambda t: paddle.mv(T(m), t), v)
    with pytest.raises(ValueError, match=r"mv: x's second dimension must equal vec's length"):
        paddle.mv(T(m), T(rand(3)))
    with pytest.raises(ValueError, match="mv: x must be 2-D and vec 1-D"):
        paddle.mv(T(rand(2, 3, 4)), T(v))
    with pytest.raises(TypeError, match="mv: x must be float32 or float64"):
        paddle.mv(T(np.ones((3, 4), np.int64)), T(np.ones(4, np.int64)))


# ---------------------------------------------------------------------------
# kthvalue, mode, median
# ---------------------------------------------------------------------------

V = np.array([[3.0, 1.0, 3.0, 2.0, 1.0], [5.0, 5.0, 4.0, 4.0, 0.0]], np.float32)


@pytest.mark.parametrize("shape, k, axis, keepdim", [
    ((3, 5), 2, None, False), ((4, 3), 4, 0, True), ((2, 3, 4), 1, -2, False), ((6,), 6, 0, True)])
def test_kthvalue_matches_numpy(shape, k, axis, keepdim):
    a = rand(*shape)
    ax = -1 if axis is None else axis
    order = np.argsort(a, axis=ax, kind="stable")
    idx = np.take(order, [k - 1], axis=ax)
    val, ind = paddle.kthvalue(T(a), k, axis=axis, keepdim=keepdim)
    expect_val, expect_ind = np.take_along_axis(a, idx, ax), idx
    if not keepdim:
        expect_val, expect_ind = np.squeeze(expect_val, ax), np.squeeze(expect_ind, ax)
    np.testing.assert_array_equal(val.numpy(), expect_val)
    np.testing.assert_array_equal(ind.numpy(), expect_ind)
    assert ind.dtype == paddle.int64
    check_grad_at(lambda t: paddle.kthvalue(t, k, axis, keepdim)[0], a)


def test_kthvalue_ties_nan_dtypes_and_errors():
    # from Paddle 3.3.1: of equal values the earlier position counts as the smaller
    assert values(paddle.kthvalue(T(V), 2)) == [[1, 4], [4, 2]]
    assert values(T(V).kthvalue(1, keepdim=True))[1] == [[1], [4]]
    val, ind = paddle.kthvalue(T([1.0, np.nan, 0.0]), 3)
    assert np.isnan(val.numpy()) and int(ind) == 1
    val, ind = paddle.kthvalue(T(V.astype(np.int32)), 2)
    assert val.dtype == paddle.int32 and ind.dtype == paddle.int64
    assert values(paddle.kthvalue(T(3.0), 1)) == [3.0, 0]
    with pytest.raises(ValueError, match=r"kthvalue: k must be between 1 and the size 5"):
        paddle.kthvalue(T(V), 6)
    with pytest.raises(ValueError, match="kthvalue: k must be between 1"):
        paddle.kthvalue(T(V), 0)
    with pytest.raises(ValueError, match="kthvalue: axis 2 is out of range"):
        paddle.kthvalue(T(V), 1, axis=2)
    with pytest.raises(TypeError, match="kthvalue: x must have an int or float dtype"):
        paddle.kthvalue(T(V > 2), 1)


def test_mode_values_ties_and_gradient():
    # from Paddle 3.3.1: the smallest of the most frequent values, its last occurrence
    assert values(paddle.mode(T(V))) == [[1.0, 4.0], [4, 3]]
    assert values(T(V).mode(axis=0, keepdim=True)) == [[[3.0, 1.0, 3.0, 2.0, 0.0]],
                                                       [[0, 0, 0, 0, 1]]]
    assert values(paddle.mode(T([1.0, 2.0, 2.0, 1.0, 3.0]))) == [1.0, 3]
    val, ind = paddle.mode(T(V.astype(np.int64)))
    assert val.dtype == paddle.int64 and ind.dtype == paddle.int64
    x = T(np.array([[3.0, 1.0, 3.0, 2.0, 1.0, 6.0]]))
    x.stop_gradient = False
    paddle.mode(x)[0].sum().backward()
    assert x.grad.numpy().tolist() == [[0, 0, 0, 0, 1, 0]]  # from Paddle 3.3.1
    with pytest.raises(TypeError, match="mode: x has dtype bool"):
        paddle.mode(T(V > 2))


@pytest.mark.parametrize("shape, axis, keepdim", [
    ((5,), None, False), ((4, 6), None, True), ((4, 6), 1, False), ((4, 5), 0, True),
    ((2, 3, 4), -2, False), ((), None, False)])
def test_median_avg_matches_numpy(shape, axis, keepdim):
    a = rand(*shape)
    out = paddle.median(T(a), axis=axis, keepdim=keepdim)
    np.testing.assert_allclose(out.numpy(), np.median(a, axis=axis, keepdims=keepdim),
                               rtol=1e-12)
    check_grad_at(lambda t: paddle.median(t, axis, keepdim), a)


def test_median_paddle_rules():
    # from Paddle 3.3.1
    assert float(paddle.median(T(V))) == 3.0
    np.testing.assert_array_equal(T(V).median(axis=0).numpy(), [4, 3, 3.5, 3, 0.5])
    for dtype in (np.int64, np.int32, np.bool_):
        assert paddle.median(T(V.astype(dtype)), axis=1).dtype == paddle.float32
    assert paddle.median(T(V.astype(np.float64))).dtype == paddle.float64
    assert np.isnan(paddle.median(T([1.0, np.nan, 0.0])).numpy())
    np.testing.assert_array_equal(paddle.median(T([[1.0, np.nan], [1.0, 2.0]]), axis=1).numpy(),
                                  [np.nan, 1.5])
    assert np.isnan(paddle.median(paddle.zeros([0])).numpy())
    assert np.isnan(paddle.median(paddle.zeros([2, 0]), axis=1).numpy()).tolist() == [True, True]
    x = T(np.array([[3.0, 1.0, 3.0, 2.0, 1.0, 6.0]]))
    x.stop_gradient = False
    paddle.median(x).backward()
    assert x.grad.numpy().tolist() == [[0.5, 0, 0, 0.5, 0, 0]]


def test_median_min_mode():
    # from Paddle 3.3.1: the lower middle value; with an axis, also its index
    out = paddle.median(T(V), mode="min")
    assert out.shape == [] and float(out) == 3.0
    val, ind = paddle.median(T(V), axis=0, mode="min")
    assert val.numpy().tolist() == [3, 1, 3, 2, 0] and ind.numpy().tolist() == [0, 0, 0, 0, 1]
    val, ind = paddle.median(T(V), axis=1, keepdim=True, mode="min")
    assert val.shape == [2, 1] and ind.numpy().tolist() == [[3], [3]]
    out = paddle.median(T(V.astype(np.int64)), mode="min", keepdim=True)
    assert out.dtype == paddle.int64 and out.shape == [1, 1]


@pytest.mark.parametrize("kwargs, match", [
    ({"mode": "max"}, "median: mode must be 'avg' or 'min'"),
    ({"axis": [0]}, "median: axis must be None or an int"),
    ({"axis": 3}, "median: axis must be None or an int")])
def test_median_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        paddle.median(T(V), **kwargs)


# ---------------------------------------------------------------------------
# bincount, unique_consecutive, crop
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("minlength", [0, 3, 12])
def test_bincount_matches_numpy(dtype, minlength):
    a = RNG.integers(0, 8, 30).astype(dtype)
    w = rand(30)
    out = paddle.bincount(T(a), minlength=minlength)
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), np.bincount(a, minlength=minlength))
    weighted = T(a).bincount(T(w), minlength)
    np.testing.assert_allclose(weighted.numpy(), np.bincount(a, w, minlength), rtol=1e-12)


def test_bincount_weights_dtypes_and_errors():
    x = T([1, 1, 3, 0])
    assert paddle.bincount(x, T(np.ones(4, np.float32))).dtype == paddle.float32
    out = paddle.bincount(x, T([1, 2, 3, 4]))  # int weights count in float64 (Paddle 3.3.1)
    assert out.dtype == paddle.float64 and out.numpy().tolist() == [4, 3, 0, 3]
    assert paddle.bincount(T(np.zeros(0, np.int64))).shape == [0]
    for x, kwargs, exc, match in [
            (T([1, -1]), {}, ValueError, "bincount: the elements of x must be non-negative"),
            (T([[1, 2]]), {}, ValueError, "bincount: x must be 1-D"),
            (T([1.0, 2.0]), {}, TypeError, "bincount: x must be an int32 or int64"),
            (T([1, 2]), {"minlength": -1}, ValueError, "bincount: minlength must be >= 0"),
            (T([1, 2]), {"weights": T([1.0])}, ValueError, r"bincount: weights \(shape \[1\]\)")]:
        with pytest.raises(exc, match=match):
            paddle.bincount(x, **kwargs)


def _unique_consecutive_ref(a, axis):
    rows = a.reshape(-1, 1) if axis is None else np.moveaxis(a, axis, 0).reshape(a.shape[axis], -1)
    new = np.ones(len(rows), bool)
    new[1:] = np.any(rows[1:] != rows[:-1], axis=1)
    starts = np.flatnonzero(new)
    out = a.reshape(-1)[starts] if axis is None else np.take(a, starts, axis)
    return out, np.cumsum(new) - 1, np.diff(np.append(starts, len(rows)))


@pytest.mark.parametrize("shape, axis", [((12,), None), ((3, 4), None), ((6, 2), 0),
                                         ((2, 7), 1), ((2, 3, 5), -1), ((0,), None), ((), None)])
def test_unique_consecutive_matches_numpy(shape, axis):
    a = RNG.integers(0, 2, shape).astype(np.float32)
    out, inverse, counts = paddle.unique_consecutive(T(a), True, True, axis)
    expected = _unique_consecutive_ref(a, axis)
    for got, want in zip((out, inverse, counts), expected):
        np.testing.assert_array_equal(got.numpy(), want)
    assert inverse.dtype == counts.dtype == paddle.int64


def test_unique_consecutive_paddle_rules():
    # from Paddle 3.3.1
    x = T([1, 1, 2, 2, 3, 1, 1, 2])
    assert x.unique_consecutive().numpy().tolist() == [1, 2, 3, 1, 2]
    out, counts = paddle.unique_consecutive(x, return_counts=True, dtype="int32")
    assert counts.dtype == paddle.int32 and counts.numpy().tolist() == [2, 2, 1, 2, 1]
    out, inverse = paddle.unique_consecutive(T([[2, 1, 1], [3, 1, 1]]), return_inverse=True,
                                             axis=1)
    assert out.numpy().tolist() == [[2, 1], [3, 1]] and inverse.numpy().tolist() == [0, 1, 1]
    with pytest.raises(TypeError, match="unique_consecutive: dtype must be int32 or int64"):
        paddle.unique_consecutive(x, dtype="float32")
    with pytest.raises(TypeError, match="unique_consecutive: x must have an int or float"):
        paddle.unique_consecutive(T([True, False]))
    with pytest.raises(IndexError, match="unique_consecutive: axis 2 is out of range"):
        paddle.unique_consecutive(T([[1, 2]]), axis=2)


@pytest.mark.parametrize("shape, offsets, block", [
    (None, None, np.s_[:, :]), ([2, 2], [1, 1], np.s_[1:3, 1:3]), ([-1, 2], None, np.s_[:, 0:2]),
    ([2, -1], [1, 1], np.s_[1:3, 1:]), ([0, 2], [3, 0], np.s_[3:3, 0:2]),
    (T([2, 2]), T([0, 1]), np.s_[0:2, 1:3]), ([T(2), 2], [1, T(1)], np.s_[1:3, 1:3])])
def test_crop_matches_numpy_slices(shape, offsets, block):
    a = rand(3, 4)
    np.testing.assert_array_equal(paddle.crop(T(a), shape, offsets).numpy(), a[block])


def test_crop_gradient_and_errors():
    check_grad_at(lambda t: paddle.crop(t, [2, -1, 1], [1, 2, 0]), rand(3, 4, 2))
    x = T(rand(3, 4))
    for kwargs, exc, match in [
            ({"shape": [3, 3], "offsets": [1, 1]}, ValueError, "offset 1 \\+ size 3 exceeds"),
            ({"shape": [2]}, ValueError, "shape \\[2\\] must have one entry per dimension"),
            ({"shape": [2, 2], "offsets": [1]}, ValueError, "offsets \\[1\\] must have one"),
            ({"shape": [2, 2], "offsets": [-1, 0]}, ValueError, "offsets must be >= 0"),
            ({"shape": [-2, 2]}, ValueError, "shape may hold sizes >= 0 or -1"),
            ({"shape": T([2.0, 2.0])}, TypeError, "crop: shape must hold ints")]:
        with pytest.raises(exc, match=match):
            paddle.crop(x, **kwargs)


def test_tensor_methods_as_in_paddle():
    for name in ("diagonal", "trace", "rot90", "tensordot", "inner", "mv", "kthvalue", "mode",
                 "median", "diagflat", "diag_embed", "bincount", "unique_consecutive"):
        assert getattr(paddle.Tensor, name) is getattr(paddle, name)
    assert not hasattr(paddle.Tensor, "crop") and not hasattr(paddle.Tensor, "meshgrid")


def test_static_mode_runs_the_composites_and_data_sized_outputs(static):
    main, startup = static
    x = paddle.static.data("x", [3, 4], "float32")
    i = paddle.static.data("i", [6], "int64")
    outs = [paddle.diagonal(x, 1), paddle.kthvalue(x, 2)[1], paddle.median(x, axis=1),
            paddle.tensordot(x, x, [[1], [1]]), paddle.bincount(i, paddle.ones([6])),
            paddle.unique_consecutive(i, return_counts=True)[1]]
    exe = paddle.static.Executor()
    exe.run(startup)
    a, b = np.arange(12, dtype=np.float32).reshape(3, 4), np.array([1, 1, 2, 0, 0, 5])
    got = exe.run(main, feed={"x": a, "i": b}, fetch_list=outs)
    expected = [np.diagonal(a, 1), np.ones(3), np.median(a, axis=1), a @ a.T,
                np.bincount(b, np.ones(6)), [2, 1, 2, 1]]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(np.asarray(g), e)
