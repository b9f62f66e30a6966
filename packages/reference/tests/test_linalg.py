"""Matrix products and linear algebra: matmul, mm, bmm, dot, outer, t, einsum, kron, cross,
norm (paddle.norm / paddle.linalg.norm, vector_norm, matrix_norm), inverse/inv, det, solve,
cholesky, qr, svd, and the paddle.linalg namespace.

Expected values are NumPy statements, or values captured from PaddlePaddle 3.3.1 where
Paddle's own conventions are the point (gradients at ties and zeros, documented examples).
"""

import numpy as np
import pytest

import dygrad as paddle

RNG = np.random.default_rng(0)


def T(x, dtype="float64", sg=False):
    return paddle.to_tensor(np.asarray(x, dtype=dtype), stop_gradient=sg)


def rand(*shape, dtype="float64"):
    return RNG.uniform(-2, 2, size=shape).astype(dtype)


def well_conditioned(*shape):
    n = shape[-1]
    return rand(*shape) + n * np.eye(n)


def spd(*shape):
    a = rand(*shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def numeric_grad(f, x, eps=1e-6):
    """Central differences of the scalar f(x) (x a float64 array)."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        g[i] = (f(xp) - f(xm)) / (2 * eps)
    return g


def check_grad(fn, *arrays, wrt=0, weights_seed=1):
    """The gradient of sum(fn(*tensors) * w) wrt input ``wrt`` against central differences."""
    out = fn(*[T(a) for a in arrays])
    w = np.random.default_rng(weights_seed).standard_normal(out.shape)

    def f(x):
        args = list(arrays)
        args[wrt] = x
        with paddle.no_grad():
            return float(np.sum(fn(*[T(a, sg=True) for a in args]).numpy() * w))

    ts = [T(a) for a in arrays]
    (fn(*ts) * T(w, sg=True)).sum().backward()
    np.testing.assert_allclose(ts[wrt].grad.numpy(), numeric_grad(f, np.array(arrays[wrt])),
                               rtol=1e-6, atol=1e-7)


# ---------------------------------------------------------------------------
# matmul, mm, bmm
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("xs,ys,tx,ty", [
    ((3, 4), (4, 5), False, False), ((4,), (4,), False, False), ((3, 4), (4,), False, False),
    ((4,), (4, 5), False, False), ((2, 3, 4), (4, 5), False, False),
    ((2, 1, 3, 4), (5, 4, 2), False, False), ((4, 3), (5, 4), True, True),
    ((4,), (5, 4), True, True),
])
def test_matmul_matches_numpy(xs, ys, tx, ty):
    x, y = rand(*xs, dtype="float32"), rand(*ys, dtype="float32")
    out = paddle.matmul(T(x, "float32"), T(y, "float32"), transpose_x=tx, transpose_y=ty)
    xm = np.swapaxes(x, -1, -2) if tx and x.ndim > 1 else x
    ym = np.swapaxes(y, -1, -2) if ty and y.ndim > 1 else y
    assert out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), np.matmul(xm, ym), rtol=1e-5, atol=1e-5)


def test_matmul_operator_method_and_int_dtypes():
    a = paddle.to_tensor([[1, 2], [3, 4]])
    b = paddle.to_tensor([[5, 6], [7, 8]])
    for out in (a @ b, a.matmul(b), paddle.mm(a, b), a.mm(b)):
        assert out.dtype == paddle.int64
        np.testing.assert_array_equal(out.numpy(), [[19, 22], [43, 50]])


def test_matmul_gradients():
    check_grad(lambda x, y: paddle.matmul(x, y), rand(2, 3, 4), rand(4, 2), wrt=0)
    check_grad(lambda x, y: paddle.matmul(x, y), rand(2, 3, 4), rand(4, 2), wrt=1)
    check_grad(lambda x, y: paddle.matmul(x, y, transpose_y=True), rand(3,), rand(2, 3), wrt=1)


def test_matmul_errors():
    with pytest.raises(ValueError, match=r"matmul: .*\[3, 4\].*\[5, 6\]"):
        paddle.matmul(T(rand(3, 4)), T(rand(5, 6)))
    with pytest.raises(ValueError, match="at least 1-D"):
        paddle.matmul(T(1.0), T(rand(3)))


def test_mm_is_matmul_without_transposes():
    x, y = rand(2, 3, 4), rand(4, 5)
    np.testing.assert_allclose(paddle.mm(T(x), T(y)).numpy(), x @ y)
    assert paddle.mm(T(rand(3)), T(rand(3))).shape == []
    with pytest.raises(ValueError, match="mm|matmul"):
        paddle.mm(T(rand(2, 3)), T(rand(2, 3)))


def test_bmm():
    x, y = rand(2, 3, 4), rand(2, 4, 5)
    out = paddle.bmm(T(x), T(y))
    np.testing.assert_allclose(out.numpy(), x @ y)
    np.testing.assert_allclose(T(x).bmm(T(y)).numpy(), x @ y)
    check_grad(paddle.bmm, x, y, wrt=0)
    check_grad(paddle.bmm, x, y, wrt=1)


@pytest.mark.parametrize("xs,ys,exc,match", [
    ((3, 4), (4, 5), ValueError, r"bmm: .*3-D.*\[3, 4\] and \[4, 5\]"),
    ((2, 3, 4), (3, 4, 5), ValueError, r"bmm: .*same batch size.*\[2, 3, 4\] and \[3, 4, 5\]"),
    ((1, 3, 4), (2, 4, 5), ValueError, "same batch size"),
    ((2, 3, 4), (2, 5, 5), ValueError, r"\[2, 3, 4\] and \[2, 5, 5\]"),
])
def test_bmm_errors(xs, ys, exc, match):
    with pytest.raises(exc, match=match):
        paddle.bmm(T(rand(*xs)), T(rand(*ys)))


def test_bmm_rejects_integers():
    with pytest.raises(TypeError, match="bmm: .*float"):
        paddle.bmm(paddle.ones([1, 2, 2], "int64"), paddle.ones([1, 2, 2], "int64"))


# ---------------------------------------------------------------------------
# dot, outer, t
# ---------------------------------------------------------------------------

def test_dot_vectors_and_rows():
    x, y = rand(5), rand(5)
    out = paddle.dot(T(x), T(y))
    assert out.shape == []
    np.testing.assert_allclose(out.numpy(), x @ y)
    x, y = rand(3, 4), rand(3, 4)
    out = T(x).dot(T(y))
    assert out.shape == [3]
    np.testing.assert_allclose(out.numpy(), np.sum(x * y, axis=1))
    ints = paddle.dot(paddle.to_tensor([1, 2, 3]), paddle.to_tensor([4, 5, 6]))
    assert ints.dtype == paddle.int64 and ints.item() == 32
    assert paddle.dot(T(rand(0)), T(rand(0))).item() == 0


def test_dot_gradients():
    check_grad(paddle.dot, rand(4), rand(4), wrt=0)
    check_grad(paddle.dot, rand(3, 4), rand(3, 4), wrt=1)


@pytest.mark.parametrize("xs,ys,match", [
    ((), (), r"dot: .*1-D.*\[\]"),
    ((2, 2, 3), (2, 2, 3), r"\[2, 2, 3\]"),
    ((3,), (4,), r"same shape, got \[3\] and \[4\]"),
    ((3,), (2, 3), r"same shape, got \[3\] and \[2, 3\]"),
])
def test_dot_errors(xs, ys, match):
    with pytest.raises(ValueError, match=match):
        paddle.dot(T(rand(*xs)), T(rand(*ys)))


def test_outer():
    x, y = rand(2, 3), rand(4)
    out = paddle.outer(T(x), T(y))
    assert out.shape == [6, 4]
    np.testing.assert_allclose(out.numpy(), np.outer(x, y))
    assert paddle.outer(T(2.0), T(rand(4))).shape == [1, 4]
    assert paddle.outer(T(rand(0)), T(rand(3))).shape == [0, 3]
    ints = paddle.outer(paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4, 5]))
    assert ints.dtype == paddle.int64
    np.testing.assert_array_equal(ints.numpy(), [[3, 4, 5], [6, 8, 10]])
    check_grad(paddle.outer, rand(2, 2), rand(3), wrt=0)
    check_grad(paddle.outer, rand(2, 2), rand(3), wrt=1)


def test_t():
    x = T(rand(2, 3))
    np.testing.assert_array_equal(paddle.t(x).numpy(), x.numpy().T)
    np.testing.assert_array_equal(x.t().numpy(), x.numpy().T)
    v, s = T(rand(3)), T(1.5)
    assert paddle.t(v) is v and paddle.t(s) is s  # as Paddle: returned as they are
    check_grad(paddle.t, rand(2, 3))
    with pytest.raises(ValueError, match=r"t: .*at most 2 dimensions.*\[2, 3, 4\]"):
        paddle.t(T(rand(2, 3, 4)))


# ---------------------------------------------------------------------------
# einsum
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("eq,shapes", [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...jk->...kj", [(2, 3, 2)]),
    ("ij,ij->ij", [(1, 3), (2, 3)]),
    ("i,j->ij", [(2,), (3,)]),
    ("ij->", [(2, 3)]),
    (",i->i", [(), (3,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
])
def test_einsum_matches_numpy(eq, shapes):
    arrays = [rand(*s) for s in shapes]
    out = paddle.einsum(eq, *[T(a) for a in arrays])
    np.testing.assert_allclose(out.numpy(), np.einsum(eq, *arrays), rtol=1e-12, atol=1e-12)
    for k in range(len(arrays)):
        check_grad(lambda *ts: paddle.einsum(eq, *ts), *arrays, wrt=k)


def test_einsum_spaces_and_case_as_paddle():
    a, b = rand(2, 3), rand(3, 4)
    out = paddle.einsum("i J , J k -> i k", T(a), T(b))  # Paddle lower-cases the labels
    np.testing.assert_allclose(out.numpy(), a @ b)
    m = rand(3, 3)
    np.testing.assert_allclose(paddle.einsum("iI", T(m)).numpy(), np.trace(m))  # a trace


def test_einsum_gradients_match_paddle():
    x, y = T([[1.0, 2.0], [3.0, 4.0]]), T([[5.0, 6.0], [7.0, 8.0]])
    paddle.einsum("ij,jk->ik", x, y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[11, 15], [11, 15]])
    np.testing.assert_allclose(y.grad.numpy(), [[4, 4], [6, 6]])
    x = T([[1.0, 2.0], [3.0, 4.0]])
    paddle.einsum("ii", x).backward()
    np.testing.assert_allclose(x.grad.numpy(), np.eye(2))


def test_einsum_second_derivative():
    x = T(rand(3, 3))
    y = paddle.einsum("ij,jk->", x, x)  # sum(x @ x)
    (gx,) = paddle.grad(y, x, create_graph=True)
    (ggx,) = paddle.grad((gx * gx).sum(), x)

    def first(a):  # the gradient of sum(a @ a): ones @ a^T + a^T @ ones
        one = np.ones((3, 3))
        return one @ a.T + a.T @ one
    expected = numeric_grad(lambda a: np.sum(first(a) ** 2), x.numpy())
    np.testing.assert_allclose(ggx.numpy(), expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("eq,shapes,exc,match", [
    ("ij,jk->ik", [(2, 3)], ValueError, "2 operand term"),
    ("ijk->i", [(2, 3)], ValueError, r"shape \[2, 3\]"),
    ("ij,jk->ik", [(2, 3), (4, 4)], ValueError, "'j'.*3 and 4"),
    ("...ij->ij", [(5, 2, 3)], ValueError, r"'\.\.\.'"),
    ("i->i->i", [(2,)], ValueError, "'->'"),
    ("i1->i", [(2, 2)], ValueError, "invalid term"),
    ("ij->k", [(2, 2)], ValueError, "'k'"),
])
def test_einsum_errors(eq, shapes, exc, match):
    with pytest.raises(exc, match=match):
        paddle.einsum(eq, *[T(rand(*s)) for s in shapes])


def test_einsum_rejects_integers_and_lists():
    with pytest.raises(TypeError, match="float"):
        paddle.einsum("ij->", paddle.ones([2, 2], "int64"))
    with pytest.raises(TypeError, match="Tensor"):
        paddle.einsum("ij,jk", [T(rand(2, 2)), T(rand(2, 2))])


# ---------------------------------------------------------------------------
# kron, cross
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("xs,ys", [((2, 3), (4,)), ((2, 2), (3, 2)), ((), (4,)), ((), ()),
                                   ((2, 1, 3), (2, 2)), ((0, 2), (3,))])
def test_kron(xs, ys):
    x, y = rand(*xs), rand(*ys)
    out = paddle.kron(T(x), T(y))
    np.testing.assert_allclose(out.numpy(), np.kron(x, y))
    np.testing.assert_allclose(T(x).kron(T(y)).numpy(), np.kron(x, y))
    if x.size and y.size:
        check_grad(paddle.kron, x, y, wrt=0)
        check_grad(paddle.kron, x, y, wrt=1)


def test_kron_integers():
    a = paddle.to_tensor([[1, 2], [3, 4]])
    out = paddle.kron(a, paddle.to_tensor([1, 10]))
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), [[1, 10, 2, 20], [3, 30, 4, 40]])


def test_cross():
    x, y = rand(4, 3), rand(4, 3)
    np.testing.assert_allclose(paddle.cross(T(x), T(y)).numpy(), np.cross(x, y))
    x, y = rand(3, 3), rand(3, 3)  # default: the first axis of size 3, here axis 0
    np.testing.assert_allclose(paddle.cross(T(x), T(y)).numpy(), np.cross(x, y, axis=0))
    np.testing.assert_allclose(paddle.cross(T(x), T(y), axis=None).numpy(), np.cross(x, y, axis=0))
    np.testing.assert_allclose(T(x).cross(T(y), axis=-1).numpy(), np.cross(x, y, axis=-1))
    ints = paddle.cross(paddle.to_tensor([1, 0, 0]), paddle.to_tensor([0, 1, 0]))
    assert ints.dtype == paddle.int64
    np.testing.assert_array_equal(ints.numpy(), [0, 0, 1])
    check_grad(lambda a, b: paddle.cross(a, b, axis=1), rand(2, 3, 2), rand(2, 3, 2), wrt=0)
    check_grad(lambda a, b: paddle.cross(a, b, axis=1), rand(2, 3, 2), rand(2, 3, 2), wrt=1)


@pytest.mark.parametrize("xs,ys,axis,exc,match", [
    ((3, 3), (1, 3), 9, ValueError, r"same shape.*\[3, 3\] and \[1, 3\]"),
    ((2, 4), (2, 4), 9, ValueError, r"no dimension of size 3.*\[2, 4\]"),
    ((3, 4), (3, 4), 1, ValueError, "size 4"),
    ((4, 3), (4, 3), 5, IndexError, "out of range"),
])
def test_cross_errors(xs, ys, axis, exc, match):
    with pytest.raises(exc, match=match):
        paddle.cross(T(rand(*xs)), T(rand(*ys)), axis=axis)


# ---------------------------------------------------------------------------
# norms
# ---------------------------------------------------------------------------

X24 = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 12


@pytest.mark.parametrize("kwargs,expected", [
    # Paddle's documented examples (paddle.linalg.norm)
    ({"p": "fro", "axis": [0, 1]}, [17.43559647, 16.91153526, 16.73320007, 16.91153526]),
    ({"p": 2, "axis": -1}, [[21.11871147, 13.19090557, 5.47722578],
                            [3.74165750, 11.22497177, 19.13112640]]),
    ({"p": 2, "axis": [0, 1]}, [15.75857544, 14.97978878, 14.69693947, 14.97978973]),
    ({"p": float("inf")}, 12.0),
    ({"p": float("inf"), "axis": 0}, [[12, 11, 10, 9], [8, 7, 6, 7], [8, 9, 10, 11]]),
    ({"p": -float("inf")}, 0.0),
    # captured from Paddle 3.3.1
    ({"p": "nuc", "axis": [0, 1]}, [23.219624, 22.828732, 22.69694, 22.828732]),
    ({"p": 1, "axis": [0, 1]}, [12, 12, 12, 12]),
    ({"p": -1, "axis": [1, 2]}, [15, 12]),
])
def test_norm_paddle_values(kwargs, expected):
    out = paddle.linalg.norm(paddle.to_tensor(X24), **kwargs)
    assert out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("p,axis,keepdim", [
    ("fro", None, False), ("fro", None, True), ("fro", 1, False), ("fro", [1], True),
    (None, -1, False), (2, None, False), (1, 0, True), (3, 2, False), (0.5, None, False),
    (-1, 1, False), (0, 1, False), (np.inf, -1, True), (-np.inf, 0, False), (2, [0, 1, 2], False),
    ("fro", [0, 2], True), ("nuc", [1, 2], False), ("nuc", (2, 1), True), (2, [1, 2], False),
    (-2, [2, 1], True), (1, [0, 1], True), (-1, [1, 2], False), (np.inf, [2, 1], False),
    (-np.inf, [0, 2], True),
])
def test_norm_matches_numpy(p, axis, keepdim):
    x = rand(2, 3, 4)
    out = paddle.linalg.norm(T(x), p=p, axis=axis, keepdim=keepdim)
    np.testing.assert_allclose(out.numpy(), np_norm(x, p, axis, keepdim), rtol=1e-10, atol=1e-12)
    assert paddle.norm(T(x), p, axis, keepdim).shape == out.shape


def np_norm(x, p, axis, keepdim):
    """Paddle's norm in NumPy: two axes (or 'nuc') give a matrix norm, else a vector norm."""
    axes = tuple(range(x.ndim)) if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
    if len(axes) == 2 and (axis is not None or p == "nuc"):
        return np.linalg.norm(x, ord="fro" if p is None else p, axis=axes, keepdims=keepdim)
    p = 2 if p in ("fro", None) else p
    a = np.abs(x)
    if p == np.inf:
        return a.max(axis=axes, keepdims=keepdim)
    if p == -np.inf:
        return a.min(axis=axes, keepdims=keepdim)
    if p == 0:
        return np.count_nonzero(a, axis=axes, keepdims=keepdim).astype(x.dtype)
    return np.sum(a ** p, axis=axes, keepdims=keepdim) ** (1 / p)


def test_norm_default_and_method():
    x = rand(3, 4)
    np.testing.assert_allclose(paddle.norm(T(x)).numpy(), np.linalg.norm(x))
    np.testing.assert_allclose(T(x).norm(p=1, axis=1).numpy(), np.abs(x).sum(1))
    np.testing.assert_allclose(paddle.linalg.norm(T(x), p="nuc").numpy(), np.linalg.norm(x, "nuc"))
    assert paddle.norm(T(-3.0)).item() == 3.0
    np.testing.assert_allclose(paddle.linalg.vector_norm(T(x), p=3).numpy(),
                               np.sum(np.abs(x) ** 3) ** (1 / 3))
    np.testing.assert_allclose(paddle.linalg.matrix_norm(T(x), p=np.inf).numpy(),
                               np.linalg.norm(x, np.inf))


@pytest.mark.parametrize("p,axis,exc,match", [
    (3, [0, 1], ValueError, "'fro', 'nuc'"),
    (0.5, [1, 2], ValueError, "'fro', 'nuc'"),
    ("nuc", None, ValueError, "2 dimensions"),
    ("fro", [0, 1, 2], ValueError, "2 dimensions"),
    ("abc", [0, 1], ValueError, "'abc'"),
    (2, 3, ValueError, "out of range"),
    ("fro", [1, 1], ValueError, "two different dimensions"),
])
def test_norm_errors(p, axis, exc, match):
    with pytest.raises(exc, match=match):
        paddle.linalg.norm(T(rand(2, 3, 4)), p=p, axis=axis)


def test_norm_rejects_integers():
    with pytest.raises(TypeError, match="float"):
        paddle.norm(paddle.to_tensor([1, 2, 3]))


@pytest.mark.parametrize("p,axis", [("fro", None), (2, 1), (1, 0), (3, None), (0.5, 1),
                                    (-1, 1), (np.inf, 1), (-np.inf, None), ("nuc", [0, 1]),
                                    (2, [0, 1]), (-2, [1, 0]), (1, [0, 1]), (-np.inf, [0, 1]),
                                    ("fro", [1, 0])])
def test_norm_gradients(p, axis):
    x = RNG.uniform(0.3, 2, (3, 4)) * RNG.choice([-1, 1], (3, 4))
    check_grad(lambda t: paddle.linalg.norm(t, p=p, axis=axis), x)


def test_norm_gradients_follow_paddle_at_zeros_and_ties():
    z = T(np.zeros(3))
    paddle.linalg.norm(z).backward()
    np.testing.assert_array_equal(z.grad.numpy(), [0, 0, 0])
    t = T([1.0, -3.0, 3.0])
    paddle.linalg.norm(t, p=float("inf")).backward()
    np.testing.assert_array_equal(t.grad.numpy(), [0, -1, 1])
    t = T([1.0, 0.0, 3.0])
    paddle.linalg.norm(t, p=3).backward()
    np.testing.assert_allclose(t.grad.numpy(), [0.10844959, 0, 0.9760463], rtol=1e-6)
    t = T([1.0, 0.0, 3.0])
    paddle.linalg.norm(t, p=0).backward()
    np.testing.assert_array_equal(t.grad.numpy(), [0, 0, 0])


def test_norm_second_derivative():
    x = T(rand(4))
    (g,) = paddle.grad(paddle.norm(x), x, create_graph=True)
    (h,) = paddle.grad(g.sum(), x)
    xn = x.numpy()
    n = np.linalg.norm(xn)
    hessian = np.eye(4) / n - np.outer(xn, xn) / n ** 3
    np.testing.assert_allclose(h.numpy(), hessian.sum(0), rtol=1e-10)


# ---------------------------------------------------------------------------
# inverse, det, solve
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3), (1, 1), (0, 0), (0, 2, 2)])
def test_inverse_and_det(shape):
    a = well_conditioned(*shape)
    np.testing.assert_allclose(paddle.inverse(T(a)).numpy(), np.linalg.inv(a), atol=1e-12)
    np.testing.assert_allclose(paddle.linalg.inv(T(a)).numpy(), np.linalg.inv(a), atol=1e-12)
    np.testing.assert_allclose(T(a).inverse().numpy(), np.linalg.inv(a), atol=1e-12)
    d = paddle.linalg.det(T(a))
    assert d.shape == list(shape[:-2])
    np.testing.assert_allclose(d.numpy(), np.linalg.det(a), rtol=1e-12)
    if a.size:
        check_grad(paddle.inverse, a)
        check_grad(paddle.linalg.det, a)


def test_inverse_det_solve_gradients_match_paddle():
    a = T([[2.0, 1.0], [1.0, 3.0]])
    paddle.linalg.det(a).backward()
    np.testing.assert_allclose(a.grad.numpy(), [[3, -1], [-1, 2]])
    a = T([[2.0, 1.0], [1.0, 3.0]])
    paddle.linalg.inv(a).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [[-0.16, -0.08], [-0.08, -0.04]], atol=1e-12)
    a, b = T([[2.0, 1.0], [1.0, 3.0]]), T([1.0, 2.0])
    paddle.linalg.solve(a, b).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [[-0.08, -0.24], [-0.04, -0.12]], atol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), [0.4, 0.2], atol=1e-12)


def test_det_second_derivative():
    a = T(well_conditioned(3, 3))
    (g,) = paddle.grad(paddle.linalg.det(a), a, create_graph=True)
    (h,) = paddle.grad(g.sum(), a)

    def first(m):
        return np.linalg.det(m) * np.linalg.inv(m).T
    np.testing.assert_allclose(h.numpy(), numeric_grad(lambda m: first(m).sum(), a.numpy()),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("shape,exc,match", [
    ((2, 3), ValueError, r"square.*\[2, 3\]"),
    ((3,), ValueError, r"at least 2 dimensions.*\[3\]"),
])
def test_inverse_det_shape_errors(shape, exc, match):
    for fn in (paddle.inverse, paddle.linalg.det, paddle.linalg.cholesky):
        with pytest.raises(exc, match=match):
            fn(T(rand(*shape)))


def test_singular_and_integer_inputs():
    with pytest.raises(ValueError, match="inverse: .*singular"):
        paddle.linalg.inv(T(np.zeros((2, 2))))
    with pytest.raises(ValueError, match="solve: .*singular"):
        paddle.linalg.solve(T(np.ones((2, 2))), T(rand(2)))
    with pytest.raises(TypeError, match="float"):
        paddle.linalg.det(paddle.ones([2, 2], "int64"))
    assert paddle.linalg.det(T(np.ones((2, 2)))).item() == 0


@pytest.mark.parametrize("xs,ys,out", [
    ((3, 3), (3, 2), (3, 2)), ((3, 3), (3,), (3,)), ((2, 3, 3), (2, 3), (2, 3)),
    ((2, 3, 3), (3,), (2, 3)), ((3, 3, 3), (3, 3), (3, 3)), ((2, 3, 3), (3, 3), (2, 3, 3)),
    ((2, 1, 3, 3), (4, 3, 2), (2, 4, 3, 2)), ((2, 3, 3), (2, 3, 1), (2, 3, 1)),
])
def test_solve_shapes_as_paddle(xs, ys, out):
    a, b = well_conditioned(*xs), rand(*ys)
    x = paddle.linalg.solve(T(a), T(b))
    assert x.shape == list(out)
    vector = len(ys) == 1 or (len(ys) == len(xs) - 1 and ys[:-1] == xs[:-2])
    expected = np.linalg.solve(a, b[..., None])[..., 0] if vector else np.linalg.solve(a, b)
    np.testing.assert_allclose(x.numpy(), expected, rtol=1e-10)
    np.testing.assert_allclose(T(a).solve(T(b)).numpy(), expected, rtol=1e-10)
    check_grad(paddle.linalg.solve, a, b, wrt=0)
    check_grad(paddle.linalg.solve, a, b, wrt=1)


@pytest.mark.parametrize("xs,ys,match", [
    ((3, 3), (4, 2), r"\[3, 3\].*\[4, 2\]"),
    ((1, 3, 3), (5, 3), r"\[1, 3, 3\].*\[5, 3\]"),
    ((3, 4), (3, 2), r"square.*\[3, 4\]"),
])
def test_solve_errors(xs, ys, match):
    with pytest.raises(ValueError, match=match):
        paddle.linalg.solve(T(rand(*xs)), T(rand(*ys)))


# ---------------------------------------------------------------------------
# cholesky, qr, svd
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3), (1, 1)])
def test_cholesky(shape):
    a = spd(*shape)
    low = paddle.linalg.cholesky(T(a))
    np.testing.assert_allclose(low.numpy(), np.linalg.cholesky(a), rtol=1e-12)
    up = paddle.cholesky(T(a), upper=True)
    np.testing.assert_allclose(up.numpy(), np.swapaxes(np.linalg.cholesky(a), -1, -2), rtol=1e-12)
    np.testing.assert_allclose(T(a).cholesky().numpy(), np.linalg.cholesky(a), rtol=1e-12)
    check_grad(paddle.linalg.cholesky, a)
    check_grad(lambda t: paddle.linalg.cholesky(t, upper=True), a)


def test_cholesky_gradient_matches_paddle():
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    w = np.arange(1, 10).reshape(3, 3) / 10
    expected = {False: [[0.0067294, 0.03484711, 0.0764706], [0.03484711, 0.14441783, 0.23238743],
                        [0.0764706, 0.23238743, 0.32346033]],
                True: [[0.02806329, -0.00802626, -0.00845383],
                       [-0.00802626, 0.14606244, 0.17208516],
                       [-0.00845383, 0.17208516, 0.32346033]]}
    for upper, value in expected.items():
        t = T(a)
        (paddle.linalg.cholesky(t, upper=upper) * T(w, sg=True)).sum().backward()
        np.testing.assert_allclose(t.grad.numpy(), value, rtol=1e-6)


def test_cholesky_not_positive_definite():
    with pytest.raises(ValueError, match="cholesky: .*positive definite"):
        paddle.linalg.cholesky(T(-spd(3, 3)))


def with_singular_values(*shape):
    *batch, m, n = shape
    k = min(m, n)
    u = np.linalg.qr(RNG.standard_normal((*batch, m, m)))[0][..., :k]
    v = np.linalg.qr(RNG.standard_normal((*batch, n, n)))[0][..., :k]
    return (u * np.arange(k, 0, -1.0)) @ np.swapaxes(v, -1, -2)


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 4), (2, 4, 3)])
def test_qr(shape):
    a = with_singular_values(*shape)
    q, r = paddle.linalg.qr(T(a))
    k = min(shape[-2:])
    assert q.shape == [*shape[:-1], k] and r.shape == [*shape[:-2], k, shape[-1]]
    np.testing.assert_allclose(q.numpy() @ r.numpy(), a, atol=1e-12)
    qtq = np.swapaxes(q.numpy(), -1, -2) @ q.numpy()
    np.testing.assert_allclose(qtq, np.broadcast_to(np.eye(k), qtq.shape), atol=1e-12)
    np.testing.assert_allclose(r.numpy(), np.triu(r.numpy()))
    np.testing.assert_allclose(paddle.linalg.qr(T(a), mode="r").numpy(), r.numpy())
    q2, r2 = T(a).qr()
    np.testing.assert_allclose(q2.numpy(), q.numpy())
    check_grad(lambda t: paddle.linalg.qr(t)[0], a)
    check_grad(lambda t: paddle.linalg.qr(t)[1], a)


def test_qr_complete_and_errors():
    a = with_singular_values(4, 3)
    q, r = paddle.linalg.qr(T(a), mode="complete")
    assert q.shape == [4, 4] and r.shape == [4, 3]
    np.testing.assert_allclose(q.numpy() @ r.numpy(), a, atol=1e-12)
    with pytest.raises(ValueError, match="mode"):
        paddle.linalg.qr(T(a), mode="full")
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        paddle.linalg.qr(T(rand(4)))
    t = T(a)
    with pytest.raises(RuntimeError, match="mode='complete'"):
        paddle.linalg.qr(t, mode="complete")[0].sum().backward()


def test_qr_gradient_matches_paddle():
    a = T([[3.0, 1.0], [1.0, 2.0], [0.0, 1.0]])
    q, r = paddle.linalg.qr(a)
    (r.sum() + q.sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), [[-0.9449508, -0.72723836], [-0.3274251, -0.98056287],
                                                [-0.0368448, -0.76360357]], rtol=1e-6)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3), (2, 4, 3), (5, 1)])
def test_svd(shape):
    a = with_singular_values(*shape)
    u, s, vh = paddle.linalg.svd(T(a))
    k = min(shape[-2:])
    assert u.shape == [*shape[:-1], k] and s.shape == [*shape[:-2], k]
    assert vh.shape == [*shape[:-2], k, shape[-1]]
    np.testing.assert_allclose((u.numpy() * s.numpy()[..., None, :]) @ vh.numpy(), a, atol=1e-12)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), rtol=1e-12)
    for i in range(3):
        check_grad(lambda t, i=i: paddle.linalg.svd(t)[i], a)


def test_svd_full_matrices():
    a = with_singular_values(4, 2)
    u, s, vh = paddle.linalg.svd(T(a), full_matrices=True)
    assert u.shape == [4, 4] and s.shape == [2] and vh.shape == [2, 2]
    np.testing.assert_allclose(u.numpy()[:, :2] * s.numpy() @ vh.numpy(), a, atol=1e-12)
    with pytest.raises(RuntimeError, match="full_matrices"):
        paddle.linalg.svd(T(a), full_matrices=True)[0].sum().backward()


def test_svd_gradient_of_singular_values_matches_paddle():
    a = T([[3.0, 1.0], [1.0, 2.0], [0.0, 1.0]])
    paddle.linalg.svd(a)[1].sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [[0.9851736, 0.029351115], [0.061391264, 0.85970247],
                                                [-0.1602, 0.50995123]], rtol=1e-6, atol=1e-6)


def test_svd_errors():
    with pytest.raises(ValueError, match="svd: .*at least 2 dimensions"):
        paddle.linalg.svd(T(rand(3)))
    with pytest.raises(TypeError, match="float"):
        paddle.linalg.svd(paddle.ones([2, 2], "int32"))


# ---------------------------------------------------------------------------
# the paddle.linalg namespace and top-level names
# ---------------------------------------------------------------------------

def test_linalg_namespace():
    for name in ["cholesky", "cross", "det", "inv", "matmul", "matrix_norm", "norm", "qr",
                 "solve", "svd", "vector_norm"]:
        assert callable(getattr(paddle.linalg, name)), name
        assert name in paddle.linalg.__all__
    assert paddle.linalg.inv is paddle.inverse
    assert paddle.linalg.norm is paddle.norm
    for name in ["mm", "bmm", "dot", "outer", "t", "einsum", "kron", "cross", "norm", "inverse",
                 "cholesky", "matmul"]:
        assert callable(getattr(paddle, name)), name
