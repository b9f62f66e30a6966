"""Splitting, stacking and rank helpers (tensor_split, hsplit, ..., column_stack,
atleast_nd, unflatten), broadcasting and combining helpers, distances, and the
vander / triangle-index / logspace / trapezoid family.

Expected values are NumPy statements; gradients are checked against central differences
in float64. Error types follow Paddle 3.3.1.
"""

import numpy as np
import pytest
from gradcheck import check_grads

import dygrad as paddle

T = paddle.to_tensor
RNG = np.random.default_rng(0)


def rand(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def assert_pieces(outs, expected):
    assert len(outs) == len(expected)
    for o, e in zip(outs, expected):
        assert o.shape == list(e.shape)
        np.testing.assert_array_equal(o.numpy(), e)


# ---------------------------------------------------------------------------
# splitting
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("spec", [3, 4, 1, 7, 9, [2, 5], [5, 2], [-1], [0, 7, 10], (3,)])
def test_tensor_split_matches_numpy_array_split(spec):
    a = rand(7, 3)
    assert_pieces(paddle.tensor_split(T(a), spec), np.array_split(a, spec))
    b = np.ascontiguousarray(rand(2, 7).T).T  # non-contiguous source, split along axis 1
    assert_pieces(paddle.tensor_split(T(b), spec, axis=1), np.array_split(b, spec, axis=1))
    assert_pieces(T(a).tensor_split(spec), np.array_split(a, spec))


def test_tensor_split_negative_axis_and_grad():
    a = rand(2, 5)
    assert_pieces(paddle.tensor_split(T(a), 2, axis=-1), np.array_split(a, 2, axis=-1))
    check_grads(lambda x: paddle.concat([p * (i + 1) for i, p in
                                         enumerate(paddle.tensor_split(x, [1, 3], axis=1))], 1), a)


def test_tensor_split_errors():
    with pytest.raises(ValueError, match="larger than 0"):
        paddle.tensor_split(T(rand(4)), 0)
    with pytest.raises(ValueError, match="at least 1 dimension"):
        paddle.tensor_split(T(np.float32(1)), 2)
    with pytest.raises(TypeError, match="num_or_indices"):
        paddle.tensor_split(T(rand(4)), 2.0)
    with pytest.raises(ValueError, match="axis"):
        paddle.tensor_split(T(rand(4)), 2, axis=1)


@pytest.mark.parametrize("api, ref, rank", [("hsplit", np.hsplit, 1), ("vsplit", np.vsplit, 2),
                                            ("dsplit", np.dsplit, 3)])
def test_hsplit_vsplit_dsplit(api, ref, rank):
    if api == "hsplit":  # both the 1-D (axis 0) and the 2-D (axis 1) case
        for x in (rand(6), rand(3, 6)):
            assert_pieces(paddle.hsplit(T(x), 3), ref(x, 3))
            assert_pieces(T(x).hsplit([1, 4]), ref(x, [1, 4]))
    else:
        x = rand(*([4] * rank))
        assert_pieces(getattr(paddle, api)(T(x), 2), ref(x, 2))
        assert_pieces(getattr(T(x), api)([1, 3]), ref(x, [1, 3]))
        with pytest.raises(ValueError, match=f"{api}: x must have at least {rank} dimensions"):
            getattr(paddle, api)(T(rand(*([4] * (rank - 1)))), 2)


# ---------------------------------------------------------------------------
# stacking
# ---------------------------------------------------------------------------

STACK_CASES = [[(3,), (2,)], [(2, 3), (2, 1)], [(), ()], [(1,), (1,)], [(2, 3, 1), (2, 3, 2)]]


@pytest.mark.parametrize("api", ["hstack", "vstack", "row_stack", "dstack", "column_stack"])
@pytest.mark.parametrize("shapes", STACK_CASES)
def test_stacks_match_numpy(api, shapes):
    ref = np.vstack if api == "row_stack" else getattr(np, api)
    arrs = [rand(*s) for s in shapes]
    try:
        expected = ref(arrs)
    except ValueError:
        with pytest.raises(ValueError):
            getattr(paddle, api)([T(a) for a in arrs])
        return
    out = getattr(paddle, api)([T(a) for a in arrs])
    assert out.shape == list(expected.shape)
    np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize("api", ["hstack", "vstack", "dstack", "column_stack"])
def test_stacks_grad_and_float32(api):
    a, b = rand(2, 3), rand(2, 3)
    check_grads(lambda x, y: getattr(paddle, api)([x, y * 2.0]), a, b)
    out = getattr(paddle, api)((T(a.astype(np.float32)), T(b.astype(np.float32))))
    assert out.dtype == paddle.float32


def test_stack_errors():
    with pytest.raises(TypeError, match="hstack: x must be a list"):
        paddle.hstack(T(rand(2)))
    with pytest.raises(ValueError, match="vstack: x must hold at least one"):
        paddle.vstack([])
    with pytest.raises(TypeError, match="dtype"):
        paddle.hstack([T(rand(2)), T(np.arange(2, dtype=np.int32))])


# ---------------------------------------------------------------------------
# atleast_nd, unflatten
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4), (1, 2, 1, 2)])
def test_atleast_matches_numpy(n, shape):
    a = rand(*shape)
    api, ref = getattr(paddle, f"atleast_{n}d"), getattr(np, f"atleast_{n}d")
    out = api(T(a))
    assert isinstance(out, paddle.Tensor) and out.shape == list(ref(a).shape)
    np.testing.assert_array_equal(out.numpy(), ref(a))
    assert getattr(T(a), f"atleast_{n}d")().shape == list(ref(a).shape)


def test_atleast_several_inputs_lists_and_numbers():
    outs = paddle.atleast_2d(T(np.float32(1)), T(rand(3)))
    assert isinstance(outs, list) and [o.shape for o in outs] == [[1, 1], [1, 3]]
    assert paddle.atleast_3d([T(rand(3, 4))]).shape == [3, 4, 1]  # one list: its items
    assert paddle.atleast_1d(1.0).shape == [1]
    assert paddle.atleast_1d() == []
    check_grads(lambda x: paddle.atleast_3d(x) * 3.0, rand(4))


@pytest.mark.parametrize("axis, shape", [(1, [2, -1]), (-1, (2, 4)), (0, [4]), (1, [1, 6, 1]),
                                         (2, T(np.array([-1, 2])))])
def test_unflatten(axis, shape):
    a = rand(4, 6, 8)
    dims = list(shape.numpy()) if isinstance(shape, paddle.Tensor) else list(shape)
    ax = axis % 3
    known = int(np.prod([d for d in dims if d != -1]))
    dims = [a.shape[ax] // known if d == -1 else d for d in dims]
    expected = a.reshape(a.shape[:ax] + tuple(dims) + a.shape[ax + 1:])
    out = paddle.unflatten(T(a), axis, shape)
    np.testing.assert_array_equal(out.numpy(), expected)
    assert T(a).unflatten(axis, shape).shape == list(expected.shape)


def test_unflatten_errors_and_grad():
    x = T(rand(4, 6))
    with pytest.raises(ValueError, match="does not fit"):
        paddle.unflatten(x, 1, [4, -1])
    with pytest.raises(ValueError, match="does not fit"):
        paddle.unflatten(x, 1, [])
    with pytest.raises(ValueError, match="does not fit"):
        paddle.unflatten(x, 1, [-1, -1])
    with pytest.raises(ValueError, match="axis"):
        paddle.unflatten(x, 2, [2, 3])
    with pytest.raises(TypeError, match="shape must be a list"):
        paddle.unflatten(x, 1, 6)
    check_grads(lambda t: paddle.unflatten(t, 0, [2, 2]) * 2.0, rand(4, 3))


# ---------------------------------------------------------------------------
# broadcast_tensors, broadcast_shape, cartesian_prod, combinations, block_diag
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shapes", [[(2, 1), (3,)], [(1,), (4, 1, 2), ()], [(3, 2)]])
def test_broadcast_tensors_and_shape(shapes):
    arrs = [rand(*s) for s in shapes]
    outs = paddle.broadcast_tensors([T(a) for a in arrs])
    for o, e in zip(outs, np.broadcast_arrays(*arrs)):
        assert o.shape == list(e.shape)
        np.testing.assert_array_equal(o.numpy(), e)
    if len(shapes) == 2:
        assert paddle.broadcast_shape(shapes[0], list(shapes[1])) == list(
            np.broadcast_shapes(*shapes))
    check_grads(lambda *xs: paddle.broadcast_tensors(list(xs))[0] * 2.0, *arrs)


def test_broadcast_errors():
    with pytest.raises(ValueError, match="broadcast_tensors: shapes"):
        paddle.broadcast_tensors([T(rand(2, 2)), T(rand(3))])
    with pytest.raises(ValueError, match="one dtype"):
        paddle.broadcast_tensors([T(rand(2)), T(np.arange(2, dtype=np.int32))])
    with pytest.raises(ValueError, match="broadcast_shape: shapes"):
        paddle.broadcast_shape([2, 3], [4])
    with pytest.raises(TypeError, match="broadcast_tensors: x must be a list"):
        paddle.broadcast_tensors(T(rand(2)))


@pytest.mark.parametrize("sizes", [(2, 3), (1, 4, 2), (3, 1), (2, 0)])
def test_cartesian_prod_matches_itertools(sizes):
    import itertools
    vecs = [np.arange(n, dtype=np.int64) + 10 * i for i, n in enumerate(sizes)]
    out = paddle.cartesian_prod([T(v) for v in vecs])
    expected = np.array(list(itertools.product(*vecs)), np.int64).reshape(-1, len(sizes))
    assert out.shape == list(expected.shape) and out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), expected)


def test_cartesian_prod_single_grad_and_errors():
    v = T(np.array([1, 2]))
    assert paddle.cartesian_prod([v]) is v
    check_grads(lambda a, b: paddle.cartesian_prod([a, b]) * 1.5, rand(3), rand(2))
    with pytest.raises(ValueError, match="1-D"):
        paddle.cartesian_prod([T(rand(1, 2)), T(rand(2))])
    with pytest.raises(ValueError, match="one dtype"):
        paddle.cartesian_prod([v, T(rand(2))])


@pytest.mark.parametrize("n, r", [(4, 3), (3, 2), (3, 1), (5, 5), (3, 4), (0, 2), (1, 1)])
@pytest.mark.parametrize("with_replacement", [False, True])
def test_combinations_matches_itertools(n, r, with_replacement):
    import itertools
    a = rand(n)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    expected = np.array(list(pick(a, r)), np.float64).reshape(-1, r)
    out = paddle.combinations(T(a), r, with_replacement)
    assert out.shape == list(expected.shape)
    np.testing.assert_array_equal(out.numpy(), expected)
    assert T(a).combinations(r, with_replacement).shape == list(expected.shape)


def test_combinations_r0_grad_and_errors():
    assert paddle.combinations(T(np.array([1, 2, 3])), 0).shape == [0]
    check_grads(lambda x: paddle.combinations(x, 2) * 2.0, rand(4))
    with pytest.raises(ValueError, match="non-negative"):
        paddle.combinations(T(rand(3)), -1)
    with pytest.raises(TypeError, match="1-D"):
        paddle.combinations(T(rand(1, 3)), 2)


def _block_diag_reference(mats):
    mats = [np.atleast_2d(m) for m in mats]
    out = np.zeros((sum(m.shape[0] for m in mats), sum(m.shape[1] for m in mats)), mats[0].dtype)
    r = c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r, c = r + m.shape[0], c + m.shape[1]
    return out


@pytest.mark.parametrize("shapes", [[(1, 2), (), (2,)], [(3, 3)], [(0, 2), (2, 0)],
                                    [(2, 1), (1, 3), (2, 2)]])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_block_diag_matches_reference(shapes, dtype):
    mats = [rand(*s).astype(dtype) * 4 for s in shapes]
    out = paddle.block_diag([T(m) for m in mats])
    expected = _block_diag_reference(mats)
    assert out.shape == list(expected.shape) and out.numpy().dtype == dtype
    np.testing.assert_array_equal(out.numpy(), expected)


def test_block_diag_grad_and_errors():
    check_grads(lambda a, b: paddle.block_diag([a, b]), rand(2, 3), rand(2))
    with pytest.raises(ValueError, match="0-D, 1-D or 2-D"):
        paddle.block_diag([T(rand(1, 1, 1))])
    with pytest.raises(ValueError, match="at least one"):
        paddle.block_diag([])
    with pytest.raises(TypeError, match="dtype"):
        paddle.block_diag([T(rand(2)), T(np.arange(2, dtype=np.int32))])


# ---------------------------------------------------------------------------
# cdist, dist
# ---------------------------------------------------------------------------

def _pnorm(d, p, axis=None):
    a = np.abs(d)
    if p == 0:
        return np.count_nonzero(a, axis=axis).astype(d.dtype)
    if p == np.inf:
        return a.max(axis=axis)
    if p == -np.inf:
        return a.min(axis=axis)
    return np.sum(a ** p, axis=axis) ** (1 / p)


@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, 3.0, 0.5, np.inf])
@pytest.mark.parametrize("xs, ys", [((3, 4), (5, 4)), ((1, 2), (1, 2)), ((2, 1, 3, 2), (4, 1, 2)),
                                    ((0, 3), (2, 3))])
def test_cdist_matches_numpy(p, xs, ys):
    a, b = rand(*xs), rand(*ys)
    if a.ndim == 2 and len(a):
        b[0] = a[0]  # one zero distance
    expected = _pnorm(a[..., :, None, :] - b[..., None, :, :], p, axis=-1)
    out = paddle.cdist(T(a), T(b), p)
    assert out.shape == list(expected.shape)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)
    out32 = T(a.astype(np.float32)).cdist(T(b.astype(np.float32)), p)
    assert out32.dtype == paddle.float32
    np.testing.assert_allclose(out32.numpy(), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, np.inf])
def test_cdist_grad(p):
    a, b = rand(3, 2), rand(4, 2)
    check_grads(lambda x, y: paddle.cdist(x, y, p), a, b)


def test_cdist_zero_distance_grad_is_zero_and_errors():
    a = T(np.array([[1.0, 2.0], [3.0, 4.0]]), stop_gradient=False)
    paddle.cdist(a, T(np.array([[1.0, 2.0]]))).sum().backward()
    r = 1 / np.sqrt(2)
    np.testing.assert_allclose(a.grad.numpy(), [[0, 0], [r, r]])  # as Paddle 3.3.1
    x = T(rand(2, 3))
    with pytest.raises(ValueError, match="p must be >= 0"):
        paddle.cdist(x, x, -1.0)
    with pytest.raises(ValueError, match="same last dimension"):
        paddle.cdist(x, T(rand(2, 2)))
    with pytest.raises(ValueError, match="at least 2-D"):
        paddle.cdist(T(rand(3)), x)
    with pytest.raises(ValueError, match="compute_mode"):
        paddle.cdist(x, x, compute_mode="bad")
    with pytest.raises(TypeError, match="float32 or float64"):
        paddle.cdist(T(np.ones((2, 2), np.int32)), T(np.ones((2, 2), np.int32)))


@pytest.mark.parametrize("p", [2, 1, 0, 3, np.inf, -np.inf, 0.5])
@pytest.mark.parametrize("xs, ys", [((2, 3), (3,)), ((4,), (4,)), ((1, 1), (2, 1)), ((), (2,))])
def test_dist_matches_numpy(p, xs, ys):
    a, b = rand(*xs), rand(*ys)
    out = paddle.dist(T(a), T(b), p)
    assert out.shape == []
    np.testing.assert_allclose(out.numpy(), _pnorm(np.subtract(a, b), p), rtol=1e-12)
    assert T(a.astype(np.float32)).dist(T(b.astype(np.float32)), p).dtype == paddle.float32


def test_dist_grad_and_errors():
    for p in (2, 1, 3, np.inf):
        check_grads(lambda x, y, p=p: paddle.dist(x, y, p), rand(2, 3), rand(3))
    a = T(rand(2, 2), stop_gradient=False)
    paddle.dist(a, a.detach()).backward()
    np.testing.assert_array_equal(a.grad.numpy(), np.zeros((2, 2)))  # as Paddle 3.3.1
    with pytest.raises(ValueError, match="one dtype"):
        paddle.dist(T(rand(2)), T(rand(2).astype(np.float32)))
    with pytest.raises(ValueError, match="broadcast"):
        paddle.dist(T(rand(2, 3)), T(rand(4)))


# ---------------------------------------------------------------------------
# vander, tril_indices, triu_indices, logspace
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", [None, 0, 1, 2, 5])
@pytest.mark.parametrize("increasing", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_vander_matches_numpy(n, increasing, dtype):
    a = np.array([1.5, -2.0, 0.0, 3.0, 0.5, 1.0, 2.0]).astype(dtype)
    out = paddle.vander(T(a), n, increasing)
    expected = np.vander(a, n, increasing)
    assert out.shape == list(expected.shape) and out.numpy().dtype == dtype
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    assert T(a).vander(n, increasing).shape == list(expected.shape)


def test_vander_grad_at_zero_and_errors():
    check_grads(lambda x: paddle.vander(x, 4), np.array([0.0, 1.5, -0.7]))
    check_grads(lambda x: paddle.vander(x, increasing=True), rand(3))
    with pytest.raises(ValueError, match="n must be non-negative"):
        paddle.vander(T(rand(3)), -1)
    with pytest.raises(ValueError, match="1-D"):
        paddle.vander(T(rand(2, 2)))


@pytest.mark.parametrize("row, col, offset", [(4, 3, -1), (3, 3, 0), (3, 4, 1), (0, 3, 0),
                                              (5, 2, 3), (2, 5, -4), (1, 1, 0)])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_tril_triu_indices_match_numpy(row, col, offset, dtype):
    for api, ref in ((paddle.tril_indices, np.tril_indices), (paddle.triu_indices, np.triu_indices)):
        out = api(row, col, offset, dtype)
        expected = np.stack(ref(row, offset, col)).reshape(2, -1)
        assert out.shape == list(expected.shape) and out.dtype == getattr(paddle, dtype)
        np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(paddle.triu_indices(3).numpy(), np.stack(np.triu_indices(3)))


def test_triangle_indices_errors():
    with pytest.raises(TypeError, match="row must be a non-negative int"):
        paddle.tril_indices(-1, 3)
    with pytest.raises(TypeError, match="col must be a non-negative int"):
        paddle.triu_indices(3, 2.0)
    with pytest.raises(TypeError, match="dtype must be int32 or int64"):
        paddle.tril_indices(3, 3, 0, "float32")


@pytest.mark.parametrize("start, stop, num, base", [(0, 8, 5, 10.0), (0, 3, 4, 2.0),
                                                     (1.5, -1, 7, 3.0), (2, 2, 1, 10.0)])
@pytest.mark.parametrize("dtype", [None, "float32", "float64", "int32", "int64"])
def test_logspace_matches_numpy(start, stop, num, base, dtype):
    out = paddle.logspace(start, stop, num, base, dtype)
    expected = np.logspace(start, stop, num, base=base).astype(dtype or "float32")
    assert out.numpy().dtype == expected.dtype
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)


def test_logspace_tensor_args_int_truncation_and_errors():
    out = paddle.logspace(T(np.float32(0)), T(np.float32(2)), T(np.int64(3)))
    np.testing.assert_allclose(out.numpy(), [1, 10, 100])
    # 2 ** 2.5 and 2 ** 7.5 truncated, as Paddle 3.3.1 gives
    assert paddle.logspace(0, 10, 5, 2, "int32").numpy().tolist() == [1, 5, 32, 181, 1024]
    with pytest.raises(ValueError, match="num must be larger than 0"):
        paddle.logspace(0, 1, 0)
    with pytest.raises(TypeError, match="num must be an int"):
        paddle.logspace(0, 1, 2.5)


# ---------------------------------------------------------------------------
# trapezoid, cumulative_trapezoid
# ---------------------------------------------------------------------------

def _cumulative(y, x=None, dx=1.0, axis=-1):
    """Running trapezoid integrals: the trapezoid rule over each prefix of y."""
    y = np.moveaxis(y, axis, -1)
    xs = None if x is None else (x if x.ndim == 1 else np.moveaxis(x, axis, -1))
    parts = [np.trapezoid(y[..., :k + 1], None if xs is None else xs[..., :k + 1], dx, axis=-1)
             for k in range(1, y.shape[-1])]
    return np.moveaxis(np.stack(parts, -1) if parts else y[..., :0], -1, axis)


@pytest.mark.parametrize("shape, axis", [((2, 5), -1), ((4, 3), 0), ((1,), 0), ((3, 1, 4), 1),
                                         ((2, 3, 4), 2)])
@pytest.mark.parametrize("how", ["dx1", "dx", "x1d", "xnd"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_trapezoids_match_numpy(shape, axis, how, dtype):
    y = rand(*shape).astype(dtype)
    n = shape[axis]
    x, dx = None, 1.0
    if how == "dx":
        dx = 0.5
    elif how == "x1d":
        x = np.cumsum(np.abs(rand(n))).astype(dtype)
    elif how == "xnd":
        x = np.cumsum(np.abs(rand(*shape)), axis=axis).astype(dtype)
    xt = None if x is None else T(x)
    given = {"dx": dx} if how == "dx" else {"x": xt}
    tol = 1e-5 if dtype == np.float32 else 1e-12
    out = paddle.trapezoid(T(y), axis=axis, **given)
    expected = np.trapezoid(y, x, dx, axis=axis)
    assert out.shape == list(np.shape(expected)) and out.numpy().dtype == dtype
    np.testing.assert_allclose(out.numpy(), expected, rtol=tol, atol=tol)
    out = T(y).cumulative_trapezoid(axis=axis, **given)
    expected = _cumulative(y, x, dx, axis)
    assert out.shape == list(expected.shape)
    np.testing.assert_allclose(out.numpy(), expected, rtol=tol, atol=tol)


def test_trapezoids_grad_and_errors():
    check_grads(lambda y, x: paddle.trapezoid(y, x), rand(2, 4), np.array([0.0, 0.5, 2.0, 2.5]))
    check_grads(lambda y: paddle.cumulative_trapezoid(y, dx=0.3, axis=0), rand(4, 2))
    y = T(rand(2, 3))
    with pytest.raises(ValueError, match="x and dx cannot both"):
        paddle.trapezoid(y, x=T(rand(3)), dx=1.0)
    with pytest.raises(ValueError, match="a 1-D x must have the size 3"):
        paddle.cumulative_trapezoid(y, x=T(rand(2)))
    with pytest.raises(TypeError, match="y must be a float"):
        paddle.trapezoid(T(np.arange(3)))
    with pytest.raises(ValueError, match="axis"):
        paddle.trapezoid(y, axis=2)


# ---------------------------------------------------------------------------
# index_put
# ---------------------------------------------------------------------------

def _index_put_reference(x, index, value, accumulate):
    out = x.copy()
    if accumulate:
        np.add.at(out, index, value)
    else:
        out[index] = value
    return out


INDEX_CASES = [  # (x shape, index arrays, value shape)
    ((3, 4), (np.array([0, 0, 2]), np.array([1, 1, 3])), (3,)),
    ((3, 4), (np.array([0, 2, 0]),), (4,)),
    ((3, 4), (np.array([2, 0]),), ()),
    ((3, 4), (np.array([True, False, True]),), (1, 4)),
    ((2, 3, 2), (np.array([1, -1]), np.array([[0], [2]])), (2, 2, 2)),
    ((5,), (np.array([4, 4, 4, 0]),), (4,)),
    ((2, 3), (np.array([[True, False, True], [False, False, True]]),), (3,)),
]


@pytest.mark.parametrize("shape, index, vshape", INDEX_CASES)
@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_index_put_matches_numpy(shape, index, vshape, accumulate, dtype):
    x, value = (rand(*shape) * 5).astype(dtype), (rand(*vshape) * 5).astype(dtype)
    expected = _index_put_reference(x, index, value, accumulate)
    indices = [T(i) for i in index]
    out = paddle.index_put(T(x), indices, T(value), accumulate)
    assert out.numpy().dtype == dtype
    # repeated positions: (x + v1) + v2 versus x + (v1 + v2) may round differently
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    target = T(x)
    assert target.index_put_(tuple(indices), T(value), accumulate) is target
    np.testing.assert_allclose(target.numpy(), expected, rtol=1e-6)


def test_index_put_grads():
    i, j = np.array([0, 2, 1]), np.array([1, 3, 0])  # no repeats: overwrite is then exact
    check_grads(lambda x, v: paddle.index_put(x, [T(i), T(j)], v), rand(3, 4), rand(3))
    k = np.array([0, 0, 2])
    check_grads(lambda x, v: paddle.index_put(x, (T(k),), v, True), rand(3, 4), rand(3, 4))
    check_grads(lambda x, v: paddle.index_put(x, (T(k),), v, True), rand(3, 4), rand(4))


def test_index_put_overwrite_repeat_grads_as_paddle():
    x = T(np.ones((3, 4)), stop_gradient=False)
    v = T(np.array([1.0, 2.0, 3.0]), stop_gradient=False)
    out = paddle.index_put(x, (T(np.array([0, 0, 2])), T(np.array([1, 1, 3]))), v)
    (out * T(np.arange(12.0).reshape(3, 4))).sum().backward()
    # as Paddle 3.3.1: written positions get no gradient, each write gets the output's
    np.testing.assert_array_equal(v.grad.numpy(), [1.0, 1.0, 11.0])
    np.testing.assert_array_equal(x.grad.numpy().reshape(-1)[[1, 11]], [0.0, 0.0])


def test_index_put_errors():
    x, i = T(rand(3, 4)), T(np.array([0, 2]))
    with pytest.raises(ValueError, match="value must have x's dtype"):
        paddle.index_put(x, (i,), T(np.array([1])))
    with pytest.raises(TypeError, match="indices\\[0\\] must be an int or bool"):
        paddle.index_put(x, (T(rand(2)),), T(rand(4)))
    with pytest.raises(TypeError, match="value must be a Tensor"):
        paddle.index_put(x, (i,), 1.0)
    with pytest.raises(TypeError, match="non-empty list or tuple"):
        paddle.index_put(x, i, T(rand(4)))
    with pytest.raises(TypeError, match="non-empty list or tuple"):
        paddle.index_put(x, [], T(rand(4)))
    with pytest.raises(IndexError, match="out of bounds"):
        paddle.index_put(x, (T(np.array([5])),), T(rand(4)), True)
    with pytest.raises(ValueError):
        paddle.index_put(x, (i,), T(rand(3)))
