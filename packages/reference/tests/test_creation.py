"""Creation and random functions: zeros/ones/full/empty(_like), arange, linspace, eye,
assign, clone, fill_/zero_, and the random family with dygrad.seed.

Expected values come from NumPy statements or, where Paddle's rounding is the point
(arange, linspace), from values captured from PaddlePaddle 3.3.1.
"""

import numpy as np
import pytest

import dygrad as paddle

# ---------------------------------------------------------------------------
# constants
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fn,value", [(paddle.zeros, 0), (paddle.ones, 1)])
def test_zeros_ones_default_float32(fn, value):
    t = fn([2, 3])
    assert t.dtype == paddle.float32 and t.shape == [2, 3]
    np.testing.assert_array_equal(t.numpy(), np.full((2, 3), value, np.float32))
    assert t.stop_gradient


@pytest.mark.parametrize("shape,expected", [
    ([2, 3], [2, 3]), ((2, 3), [2, 3]), (3, [3]), ([], []), (None, []),
    ([np.int64(2), np.int32(1)], [2, 1]), ([0, 4], [0, 4]),
])
def test_shape_from_python(shape, expected):
    assert paddle.zeros(shape).shape == expected


def test_shape_from_tensors():
    assert paddle.zeros(paddle.to_tensor([2, 3])).shape == [2, 3]
    assert paddle.zeros(paddle.to_tensor([2, 1], dtype="int32")).shape == [2, 1]
    assert paddle.zeros(paddle.to_tensor(2)).shape == [2]
    assert paddle.zeros([paddle.to_tensor(2), 3]).shape == [2, 3]
    assert paddle.ones([paddle.to_tensor([2]), 1]).shape == [2, 1]


@pytest.mark.parametrize("shape,exc,match", [
    ([2, -1], ValueError, ">= 0"),
    ([2.0, 3], TypeError, "ints"),
    ("a", TypeError, "shape"),
    ([True, 2], TypeError, "ints"),
])
def test_shape_errors(shape, exc, match):
    with pytest.raises(exc, match=match):
        paddle.zeros(shape)


def test_shape_tensor_must_be_int():
    with pytest.raises(TypeError, match="int32 or int64"):
        paddle.zeros(paddle.to_tensor([2.0, 1.0]))
    with pytest.raises(TypeError, match="one int"):
        paddle.zeros([paddle.to_tensor([2, 2]), 1])


@pytest.mark.parametrize("dtype", ["float64", np.float64, np.dtype("float64"), paddle.float64,
                                   "paddle.float64"])
def test_dtype_spellings(dtype):
    assert paddle.zeros([1], dtype=dtype).dtype == paddle.float64
    assert paddle.ones([1], dtype).numpy().dtype == np.float64


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "bool", "float16",
                                   "complex64"])
def test_ones_every_dtype(dtype):
    t = paddle.ones([2], dtype=dtype)
    np.testing.assert_array_equal(t.numpy(), np.ones(2, dtype))
    assert t.dtype == dtype


def test_unknown_dtype():
    with pytest.raises(TypeError, match="foo"):
        paddle.zeros([2], "foo")


def test_full_dtype_from_fill_value():
    assert paddle.full([2], 1).dtype == paddle.float32  # ints too: the default float dtype
    assert paddle.full([2], 1.5).dtype == paddle.float32
    assert paddle.full([2], True).dtype == paddle.bool
    assert paddle.full([2], 1 + 2j).dtype == paddle.complex128
    assert paddle.full([2], np.float64(2.5)).dtype == paddle.float32
    np.testing.assert_array_equal(paddle.full([2], 1.7, dtype="int64").numpy(), [1, 1])
    np.testing.assert_array_equal(paddle.full([2, 1], paddle.to_tensor(3.0)).numpy(),
                                  [[3.0], [3.0]])
    np.testing.assert_array_equal(paddle.full((), 3).numpy(), np.array(3.0, np.float32))


def test_empty_has_shape_and_dtype():
    t = paddle.empty([2, 3], dtype="int32")
    assert t.shape == [2, 3] and t.dtype == paddle.int32
    assert paddle.empty([4]).dtype == paddle.float32


def test_like_functions():
    x = paddle.to_tensor([[1, 2, 3]])
    for fn, value in [(paddle.zeros_like, 0), (paddle.ones_like, 1)]:
        t = fn(x)
        assert t.dtype == paddle.int64 and t.shape == [1, 3]
        np.testing.assert_array_equal(t.numpy(), np.full((1, 3), value))
    assert paddle.empty_like(x).shape == [1, 3] and paddle.empty_like(x).dtype == paddle.int64
    np.testing.assert_array_equal(paddle.full_like(x, 2.5).numpy(), [[2, 2, 2]])  # x's dtype
    f = paddle.full_like(paddle.zeros([2]), 2, dtype="int32")
    assert f.dtype == paddle.int32 and f.tolist() == [2, 2]
    assert paddle.ones_like(paddle.zeros([2]), dtype="bool").tolist() == [True, True]
    assert paddle.zeros_like(paddle.zeros([2, 0])).shape == [2, 0]
    with pytest.raises(TypeError, match="Tensor"):
        paddle.zeros_like(np.zeros(3))


def test_like_functions_need_no_gradient():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    for t in (paddle.zeros_like(x), paddle.ones_like(x), paddle.full_like(x, 3.0),
              paddle.empty_like(x)):
        assert t.stop_gradient


def test_default_dtype_float64():
    paddle.set_default_dtype("float64")  # the conftest restores it
    for t in (paddle.zeros([1]), paddle.ones([1]), paddle.full([1], 2), paddle.empty([1]),
              paddle.arange(0.5, 3), paddle.linspace(0, 1, 3), paddle.eye(2), paddle.rand([1]),
              paddle.randn([1]), paddle.uniform([1]), paddle.normal(shape=[1]),
              paddle.standard_normal([1]), paddle.to_tensor(1.5)):
        assert t.dtype == paddle.float64
    assert paddle.arange(3).dtype == paddle.int64
    assert paddle.randperm(2).dtype == paddle.int64


# ---------------------------------------------------------------------------
# ranges
# ---------------------------------------------------------------------------

def test_arange_dtypes():
    assert paddle.arange(5).dtype == paddle.int64
    assert paddle.arange(5).tolist() == [0, 1, 2, 3, 4]
    b = paddle.arange(1, 3, dtype="float32")
    assert b.dtype == paddle.float32 and b.tolist() == [1.0, 2.0]
    assert paddle.arange(0.5, 3).tolist() == [0.5, 1.5, 2.5]
    assert paddle.arange(1, 3.0).dtype == paddle.float32
    assert paddle.arange(np.float64(2.5)).tolist() == [0.0, 1.0, 2.0]
    assert paddle.arange(np.int32(3)).dtype == paddle.int64
    assert paddle.arange(5, dtype="int32").dtype == paddle.int32
    assert paddle.arange(end=3).tolist() == [0, 1, 2]


def test_arange_tensor_arguments():
    t = paddle.arange(paddle.to_tensor(4))
    assert t.dtype == paddle.int64 and t.tolist() == [0, 1, 2, 3]
    assert paddle.arange(paddle.to_tensor(4.0)).dtype == paddle.float32
    assert paddle.arange(1, paddle.to_tensor(7), paddle.to_tensor(2)).tolist() == [1, 3, 5]


def test_arange_ranges():
    np.testing.assert_allclose(paddle.arange(0, 1, 0.25).numpy(), [0, 0.25, 0.5, 0.75])
    assert paddle.arange(5, 0, -2).tolist() == [5, 3, 1]
    assert paddle.arange(0).shape == [0]
    assert paddle.arange(5, 1).shape == [0]
    # start, end and step are converted to dtype first (as Paddle)
    assert paddle.arange(0.5, 3.5, dtype="int64").tolist() == [0, 1, 2]


def test_arange_accumulates_like_paddle():
    """Each value is the previous plus step in float32: Paddle's values, not NumPy's."""
    a = paddle.arange(0, 100, 0.1).numpy()
    assert a.shape == (1000,) and a.dtype == np.float32
    assert [float(a[i]) for i in (3, 500, 999)] == [0.30000001192092896, 49.99980926513672,
                                                   99.8990478515625]
    b = paddle.arange(-3.3, 7.7, 0.37).numpy()
    assert b.shape == (30,)
    assert [float(b[i]) for i in (1, 15, 29)] == [-2.929999828338623, 2.25, 7.429998397827148]


def test_arange_errors():
    with pytest.raises(ValueError, match="step must not be 0"):
        paddle.arange(0, 5, 0)
    with pytest.raises(ValueError, match="step must not be 0"):
        paddle.arange(0.5, 3.7, 0.9, dtype="int64")  # step 0.9 becomes 0


def test_linspace():
    t = paddle.linspace(0, 1, 5)
    assert t.dtype == paddle.float32
    np.testing.assert_allclose(t.numpy(), np.linspace(0, 1, 5), rtol=1e-7)
    assert paddle.linspace(0, 1, 5, dtype="float64").dtype == paddle.float64
    assert paddle.linspace(0, 10, 5, dtype="int32").tolist() == [0, 2, 5, 7, 10]
    assert paddle.linspace(0.5, 3.7, 3, "int64").tolist() == [0, 1, 3]  # ends cast first
    assert paddle.linspace(0, 1, 1).tolist() == [0.0]
    assert paddle.linspace(0, 1, 0).shape == [0]
    assert paddle.linspace(1, 0, 3).tolist() == [1.0, 0.5, 0.0]
    assert paddle.linspace(paddle.to_tensor(0.0), 1, paddle.to_tensor(3)).tolist() == [0, 0.5, 1]


def test_linspace_rounds_like_paddle():
    """The first half counts up from start, the rest down from stop, in float32."""
    c = paddle.linspace(-3.3, 7.7, 101).numpy()
    assert [float(c[i]) for i in (0, 7, 50, 93, 100)] == [
        -3.299999952316284, -2.5299999713897705, 2.1999998092651367, 6.929999828338623,
        7.699999809265137]
    assert paddle.linspace(0, 1, 7).numpy().tolist() == [
        0.0, 0.1666666716337204, 0.3333333432674408, 0.5, 0.6666666269302368,
        0.8333333134651184, 1.0]


def test_linspace_errors():
    with pytest.raises(ValueError, match="num must be >= 0"):
        paddle.linspace(0, 1, -1)
    with pytest.raises(TypeError, match="dtype"):
        paddle.linspace(0, 1, 3, dtype="bool")


def test_eye():
    np.testing.assert_array_equal(paddle.eye(3).numpy(), np.eye(3, dtype=np.float32))
    assert paddle.eye(3).dtype == paddle.float32
    np.testing.assert_array_equal(paddle.eye(2, 3).numpy(), np.eye(2, 3))
    np.testing.assert_array_equal(paddle.eye(4, 2, "int64").numpy(), np.eye(4, 2, dtype=np.int64))
    assert paddle.eye(0).shape == [0, 0] and paddle.eye(3, 0).shape == [3, 0]
    assert paddle.eye(paddle.to_tensor(2)).shape == [2, 2]


@pytest.mark.parametrize("args,kwargs,exc", [
    ((-1,), {}, TypeError), ((2.0,), {}, TypeError), ((2, 3.0), {}, TypeError),
    ((2,), {"dtype": "bool"}, TypeError),
])
def test_eye_errors(args, kwargs, exc):
    with pytest.raises(exc):
        paddle.eye(*args, **kwargs)


# ---------------------------------------------------------------------------
# copies and in-place fills
# ---------------------------------------------------------------------------

def test_assign_copies_tensors():
    x = paddle.to_tensor([1.0, 2.0])
    y = paddle.assign(x)
    assert y is not x and y.tolist() == [1.0, 2.0] and y.dtype == paddle.float32
    x.fill_(5.0)
    assert y.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("data,dtype,shape", [
    (np.array([1.0, 2.0]), "float64", [2]),
    (np.array([1.0, 2.0], dtype="float32"), "float32", [2]),
    ([1, 2], "int64", [2]),
    ((1, 2), "int64", [2]),
    ([1.5, 2], "float64", [2]),
    (3.0, "float64", [1]),
    (3, "int64", [1]),
    (True, "bool", [1]),
])
def test_assign_python_and_numpy_data(data, dtype, shape):
    t = paddle.assign(data)
    assert t.dtype == dtype and t.shape == shape
    np.testing.assert_array_equal(t.numpy(), np.asarray(data).reshape(shape))


def test_assign_list_of_tensors():
    t = paddle.assign([paddle.to_tensor([1.0]), paddle.to_tensor([2.0])])
    assert t.shape == [2, 1] and t.dtype == paddle.float32


def test_assign_rejects_other_types():
    with pytest.raises(TypeError, match="assign"):
        paddle.assign("abc")
    with pytest.raises(TypeError, match="assign"):
        paddle.assign(["a", "b"])


def test_assign_gradient():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    c = paddle.assign(x)
    assert not c.stop_gradient and not c.is_leaf
    (c * c).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_assign_into_output():
    out = paddle.zeros([2])
    v = out.inplace_version
    r = paddle.assign(paddle.ones([2]), output=out)
    assert r is out and out.tolist() == [1.0, 1.0] and out.inplace_version == v + 1
    paddle.assign(np.array([3.0, 4.0], dtype="float32"), output=out)
    assert out.tolist() == [3.0, 4.0]
    x = paddle.ones([2])
    assert paddle.assign(x, output=x) is x


def test_assign_into_output_must_match():
    with pytest.raises(ValueError, match="shape"):
        paddle.assign(paddle.ones([3]), output=paddle.zeros([2]))
    with pytest.raises(TypeError, match="dtype"):
        paddle.assign(paddle.ones([2]), output=paddle.zeros([2], "int64"))


def test_assign_into_output_gradient():
    """As Paddle: y's old history gets a zero gradient, z the gradient of y."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 3
    z = paddle.to_tensor([5.0, 6.0], stop_gradient=False)
    paddle.assign(z * 1, output=y)
    (y * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0, 6.0])
    np.testing.assert_allclose(z.grad.numpy(), [1.0, 2.0])


def test_clone():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    for c in (x.clone(), paddle.clone(x)):
        assert c is not x and not c.stop_gradient and not c.is_leaf
        assert c.tolist() == x.tolist()
    c = x.clone()
    (c * c).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0, 6.0])
    i = paddle.to_tensor([1, 2])
    ci = i.clone()
    assert ci.dtype == paddle.int64 and ci.stop_gradient
    i.zero_()
    assert ci.tolist() == [1, 2]


def test_clone_second_derivative():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    c = paddle.clone(x * x)
    (g,) = paddle.grad(c.sum(), x, create_graph=True)
    np.testing.assert_allclose(g.numpy(), [2.0, 4.0, 6.0])
    (g2,) = paddle.grad(g.sum(), x)
    np.testing.assert_allclose(g2.numpy(), [2.0, 2.0, 2.0])


def test_fill_and_zero():
    x = paddle.zeros([2, 2])
    v = x.inplace_version
    assert x.fill_(2.5) is x
    np.testing.assert_array_equal(x.numpy(), np.full((2, 2), 2.5))
    assert x.inplace_version == v + 1
    assert x.zero_() is x and x.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert x.inplace_version == v + 2
    i = paddle.to_tensor([1, 2, 3])
    assert i.fill_(2.7).tolist() == [2, 2, 2] and i.dtype == paddle.int64  # keeps the dtype
    assert paddle.to_tensor([True]).fill_(0).tolist() == [False]


def test_fill_value_must_be_a_number():
    with pytest.raises(TypeError, match="int or float"):
        paddle.zeros([3]).fill_(paddle.to_tensor(2.0))


@pytest.mark.parametrize("method,args", [("fill_", (2.0,)), ("zero_", ()), ("uniform_", ()),
                                         ("normal_", ())])
def test_in_place_on_a_leaf_that_needs_a_gradient(method, args):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(RuntimeError, match=method):
        getattr(x, method)(*args)
    with paddle.no_grad():
        getattr(x, method)(*args)
    assert not x.stop_gradient and x.is_leaf


@pytest.mark.parametrize("method,args", [("fill_", (5.0,)), ("zero_", ()), ("uniform_", ()),
                                         ("normal_", ())])
def test_in_place_on_a_non_leaf_gives_zero_gradient(method, args):
    """As Paddle: the overwritten values pass no gradient back to x, but x.grad is zeros."""
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x * 2
    getattr(y, method)(*args)
    assert not y.stop_gradient
    (y * 1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 0.0])


def test_fill_keeps_later_uses_differentiable():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x * 2
    y.fill_(5.0)
    (y * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0, 5.0, 5.0])  # Paddle's result


# ---------------------------------------------------------------------------
# random
# ---------------------------------------------------------------------------

RANDOM_CALLS = {
    "rand": lambda: paddle.rand([3, 4]),
    "randn": lambda: paddle.randn([3, 4]),
    "uniform": lambda: paddle.uniform([3, 4], min=-2.0, max=2.0),
    "normal": lambda: paddle.normal(1.0, 2.0, [3, 4]),
    "normal_tensor_mean": lambda: paddle.normal(paddle.zeros([3, 4])),
    "standard_normal": lambda: paddle.standard_normal([3, 4]),
    "randint": lambda: paddle.randint(0, 1000, [3, 4]),
    "randperm": lambda: paddle.randperm(12),
    "uniform_": lambda: paddle.zeros([3, 4]).uniform_(),
    "normal_": lambda: paddle.zeros([3, 4]).normal_(),
}


@pytest.mark.parametrize("name", list(RANDOM_CALLS))
def test_random_reproducible_after_seed(name):
    call = RANDOM_CALLS[name]
    paddle.seed(123)
    a = call().numpy()
    b = call().numpy()
    paddle.seed(123)
    a2 = call().numpy()
    b2 = call().numpy()
    np.testing.assert_array_equal(a, a2)
    np.testing.assert_array_equal(b, b2)
    assert not np.array_equal(a, b), "two draws without reseeding gave the same values"


def test_seed_returns_a_generator_object():
    assert paddle.seed(7).initial_seed() == 7


def test_uniform_seed_argument():
    a = paddle.uniform([5], seed=3)
    b = paddle.uniform([5], seed=3)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(a.numpy(), paddle.uniform([5], seed=4).numpy())
    # its own generator: the global one is neither used nor advanced
    paddle.seed(1)
    first = paddle.rand([4]).numpy()
    paddle.seed(1)
    paddle.uniform([4], seed=3)
    np.testing.assert_array_equal(paddle.rand([4]).numpy(), first)
    c = paddle.zeros([5]).uniform_(seed=3)
    d = paddle.zeros([5]).uniform_(seed=3)
    np.testing.assert_array_equal(c.numpy(), d.numpy())


@pytest.mark.parametrize("call,dtype,shape", [
    (lambda: paddle.rand([2, 3]), "float32", [2, 3]),
    (lambda: paddle.rand([2], "float64"), "float64", [2]),
    (lambda: paddle.rand(3), "float32", [3]),
    (lambda: paddle.rand([]), "float32", []),
    (lambda: paddle.rand([0, 2]), "float32", [0, 2]),
    (lambda: paddle.randn([2], dtype="float16"), "float16", [2]),
    (lambda: paddle.uniform([2], "float64"), "float64", [2]),
    (lambda: paddle.standard_normal([2], "float64"), "float64", [2]),
    (lambda: paddle.normal(shape=[2, 3]), "float32", [2, 3]),
    (lambda: paddle.normal(paddle.to_tensor([1.0, 2.0, 3.0]), 1.0), "float32", [3]),
    (lambda: paddle.normal(0.0, paddle.to_tensor([1.0, 2.0], dtype="float64")), "float64", [2]),
    (lambda: paddle.randint(5), "int64", [1]),
    (lambda: paddle.randint(2, 5, [3]), "int64", [3]),
    (lambda: paddle.randint(5, shape=[2], dtype="int32"), "int32", [2]),
    (lambda: paddle.randint(high=3, shape=[2]), "int64", [2]),
    (lambda: paddle.randint(0, 5, paddle.to_tensor([2])), "int64", [2]),
    (lambda: paddle.randperm(5), "int64", [5]),
    (lambda: paddle.randperm(5, "float32"), "float32", [5]),
    (lambda: paddle.randperm(0), "int64", [0]),
    (lambda: paddle.zeros([3], "float64").normal_(), "float64", [3]),
])
def test_random_shapes_and_dtypes(call, dtype, shape):
    t = call()
    assert t.dtype == dtype and t.shape == shape and t.stop_gradient


N = 200_000


def test_uniform_statistics():
    paddle.seed(0)
    u = paddle.rand([N]).numpy()
    assert u.min() >= 0.0 and u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.01 and abs(u.std() - np.sqrt(1 / 12)) < 0.01
    v = paddle.uniform([N], min=2.0, max=5.0).numpy()
    assert v.min() >= 2.0 and v.max() < 5.0 and abs(v.mean() - 3.5) < 0.02
    w = paddle.uniform([N]).numpy()  # Paddle 2.x's default range [-1, 1)
    assert w.min() >= -1.0 and w.max() < 1.0 and abs(w.mean()) < 0.01
    z = paddle.zeros([N]).uniform_(min=-3.0, max=-1.0).numpy()
    assert z.min() >= -3.0 and z.max() < -1.0 and abs(z.mean() + 2.0) < 0.02


def test_normal_statistics():
    paddle.seed(0)
    for t, mean, std in [(paddle.randn([N]), 0.0, 1.0),
                         (paddle.standard_normal([N], "float64"), 0.0, 1.0),
                         (paddle.normal(2.0, 3.0, [N]), 2.0, 3.0),
                         (paddle.zeros([N]).normal_(-1.0, 0.5), -1.0, 0.5)]:
        a = t.numpy()
        assert abs(a.mean() - mean) < 0.03 * std and abs(a.std() - std) < 0.03 * std
    m = paddle.to_tensor(np.repeat([[-5.0], [5.0]], N // 2, axis=1).astype("float32"))
    s = paddle.to_tensor(np.repeat([[0.1], [2.0]], N // 2, axis=1).astype("float32"))
    a = paddle.normal(m, s).numpy()
    assert a.shape == (2, N // 2)
    np.testing.assert_allclose(a.mean(axis=1), [-5.0, 5.0], atol=0.05)
    np.testing.assert_allclose(a.std(axis=1), [0.1, 2.0], rtol=0.03)


def test_randint_and_randperm_values():
    paddle.seed(0)
    r = paddle.randint(-3, 4, [N]).numpy()
    assert r.min() == -3 and r.max() == 3
    counts = np.bincount(r + 3)
    assert counts.min() > 0.9 * N / 7
    assert set(paddle.randint(2, shape=[100]).tolist()) == {0, 1}
    p = paddle.randperm(50).numpy()
    assert sorted(p.tolist()) == list(range(50)) and not np.array_equal(p, np.arange(50))


def test_normal_gradients_reach_tensor_arguments():
    mean = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    std = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    out = paddle.normal(mean, std)
    out.sum().backward()
    np.testing.assert_allclose(mean.grad.numpy(), [1.0, 1.0, 1.0])
    m, s, o = (t.numpy().astype(np.float64) for t in (mean, std, out))
    # d out / d std = the standard draw, which out = mean + std * draw (in float32) gives to
    # two roundings of float32 numbers of at most |mean| + |out| (a relative tolerance failed
    # for draws near 0, 1 run in 200)
    np.testing.assert_array_less(np.abs(std.grad.numpy() - (o - m) / s),
                                 2 * np.spacing(np.float32(np.abs(m) + np.abs(o))) / s)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: paddle.rand([2], "int32"), TypeError, "floating-point"),
    (lambda: paddle.randn([2], dtype="int64"), TypeError, "floating-point"),
    (lambda: paddle.uniform([2], "int32"), TypeError, "floating-point"),
    (lambda: paddle.to_tensor([1, 2]).uniform_(), TypeError, "floating-point"),
    (lambda: paddle.to_tensor([1, 2]).normal_(), TypeError, "floating-point"),
    (lambda: paddle.normal(paddle.to_tensor([1, 2])), TypeError, "floating-point"),
    (lambda: paddle.normal(), ValueError, "shape"),
    (lambda: paddle.rand([2, -1]), ValueError, ">= 0"),
    (lambda: paddle.randint(0, 5, [3], "float32"), TypeError, "int32 or int64"),
    (lambda: paddle.randint(5, 2), ValueError, "low must be less than high"),
    (lambda: paddle.randint(0), ValueError, "low must be > 0"),
    (lambda: paddle.randint(2.5), TypeError, "int"),
    (lambda: paddle.randperm(2.0), TypeError, "int"),
    (lambda: paddle.randperm(-1), ValueError, ">= 0"),
    (lambda: paddle.randperm(3, dtype="bool"), TypeError, "dtype"),
])
def test_random_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
