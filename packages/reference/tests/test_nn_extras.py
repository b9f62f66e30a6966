"""sequence_mask, gumbel_softmax, pairwise_distance / PairwiseDistance: against NumPy
statements, Paddle 3.3.1 behaviour (shapes, dtypes, defaults, errors) and gradients."""

import numpy as np
import pytest
from gradcheck import check_grads

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn


def test_sequence_mask_matches_numpy():
    lengths = np.array([[1, 3], [0, 2]])
    x = paddle.to_tensor(lengths)
    out = F.sequence_mask(x)
    assert out.dtype == paddle.int64 and out.shape == [2, 2, 3]
    np.testing.assert_array_equal(out.numpy(), np.arange(3) < lengths[..., None])
    for maxlen, dtype in ((5, "float32"), (paddle.to_tensor(4), "bool"), (2, "int32"),
                          (paddle.to_tensor([1]), "float64"), (-1, "int8")):
        out = F.sequence_mask(x, maxlen, dtype)
        n = 3 if maxlen == -1 else int(maxlen.item() if isinstance(maxlen, paddle.Tensor)
                                       else maxlen)
        assert out.numpy().dtype == np.dtype(dtype)
        np.testing.assert_array_equal(out.numpy(), np.arange(n) < lengths[..., None])
    # float lengths: maxlen is max(x) truncated, positions j < x (as Paddle 3.3.1)
    np.testing.assert_array_equal(
        F.sequence_mask(paddle.to_tensor([1.5, 2.0], "float32")).numpy(), [[1, 1], [1, 1]])
    np.testing.assert_array_equal(F.sequence_mask(paddle.to_tensor([-1, 2], "int32")).numpy(),
                                  [[0, 0], [1, 1]])
    assert F.sequence_mask(paddle.to_tensor(3)).numpy().tolist() == [1, 1, 1]
    assert F.sequence_mask(paddle.to_tensor(np.zeros(0, "int64"))).shape == [0, 0]


def test_sequence_mask_errors():
    with pytest.raises(TypeError, match="sequence_mask: x must be a Tensor"):
        F.sequence_mask([1, 2])
    with pytest.raises(TypeError, match="sequence_mask: x must be int32, int64, float32 or"):
        F.sequence_mask(paddle.to_tensor([True]))
    with pytest.raises(TypeError, match="sequence_mask: maxlen must be an int"):
        F.sequence_mask(paddle.to_tensor([1]), paddle.to_tensor([1.0]))


def np_softmax(x, axis):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


@pytest.mark.parametrize("axis", [-1, 0])
def test_gumbel_softmax_matches_numpy_with_the_same_noise(axis):
    x = np.random.default_rng(0).standard_normal((3, 5))
    for dtype in ("float32", "float64"):
        paddle.seed(7)
        out = F.gumbel_softmax(paddle.to_tensor(x, dtype), temperature=0.5, axis=axis)
        paddle.seed(7)  # the same draws: u uniform in (0, 1)
        u = paddle.uniform([3, 5], dtype, min=float(np.finfo(dtype).tiny), max=1.0).numpy()
        expected = np_softmax((x - np.log(-np.log(u.astype("float64")))) / 0.5, axis)
        assert out.dtype == paddle.to_tensor(x, dtype).dtype
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-4, atol=1e-6)
        paddle.seed(7)
        hard = F.gumbel_softmax(paddle.to_tensor(x, dtype), 0.5, hard=True, axis=axis).numpy()
        np.testing.assert_array_equal(hard, expected == expected.max(axis, keepdims=True))


def test_gumbel_softmax_samples_follow_softmax_probabilities():
    paddle.seed(3)
    logits = np.log([0.2, 0.5, 0.3])
    hard = F.gumbel_softmax(paddle.to_tensor(np.tile(logits, (4000, 1))), 2.0, hard=True)
    assert set(np.unique(hard.numpy())) == {0.0, 1.0} and np.all(hard.numpy().sum(1) == 1)
    # Gumbel-max: argmax(x + g) is distributed as softmax(x), whatever the temperature
    np.testing.assert_allclose(hard.numpy().mean(0), [0.2, 0.5, 0.3], atol=0.03)
    assert F.gumbel_softmax(paddle.ones([0, 3])).shape == [0, 3]


def test_gumbel_softmax_gradients_soft_and_straight_through():
    paddle.set_default_dtype("float64")
    x = np.random.default_rng(1).standard_normal((2, 4))

    def sample(t, hard=False):
        paddle.seed(11)  # the same noise at every evaluation
        return F.gumbel_softmax(t, 0.7, hard=hard)
    check_grads(sample, x, rtol=1e-5)
    w = np.random.default_rng(2).standard_normal((2, 4))
    grads = []
    for hard in (False, True):
        t = paddle.to_tensor(x, stop_gradient=False)
        (sample(t, hard) * paddle.to_tensor(w)).sum().backward()
        grads.append(t.grad.numpy())
    # hard=True: one-hot values, the soft sample's gradient (the straight-through estimator)
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-12)
    assert np.abs(grads[1]).max() > 1e-3


def test_static_mode_hard_gumbel_gradient_and_the_other_functions(static):
    main, startup = static
    x = paddle.static.data("x", [2, 4], "float32")
    x.stop_gradient = False
    hard = F.gumbel_softmax(x, hard=True)
    grad = paddle.static.gradients([(hard * paddle.arange(4, dtype="float32")).sum()], [x])[0]
    lengths = paddle.static.data("lengths", [3], "int64")
    outs = [hard, grad, F.pairwise_distance(x, x * 2), F.sequence_mask(lengths, 3)]
    exe = paddle.static.Executor()
    exe.run(startup)
    a = np.arange(8, dtype="float32").reshape(2, 4) / 4
    h, g, d, m = exe.run(main, feed={"x": a, "lengths": np.array([1, 3, 0])}, fetch_list=outs)
    assert np.all(h.sum(1) == 1) and set(np.unique(h)) == {0.0, 1.0}
    # the soft sample's softmax gradient: nonzero, summing to 0 along the axis
    assert np.abs(g).max() > 1e-3
    np.testing.assert_allclose(g.sum(1), 0, atol=1e-6)
    np.testing.assert_allclose(d, np.sqrt(((-a + 1e-6) ** 2).sum(1)), rtol=1e-6)
    np.testing.assert_array_equal(m, [[1, 0, 0], [1, 1, 1], [0, 0, 0]])


def test_gumbel_softmax_errors():
    with pytest.raises(ValueError, match="temperature must be greater than 0"):
        F.gumbel_softmax(paddle.ones([2, 3]), 0.0)
    with pytest.raises(ValueError, match=r"axis must be in \[-2, 2\)"):
        F.gumbel_softmax(paddle.ones([2, 3]), axis=2)
    with pytest.raises(TypeError, match="gumbel_softmax: x must be a floating-point"):
        F.gumbel_softmax(paddle.ones([2, 3], "int64"))


def np_pairwise(x, y, p, eps=1e-6, keepdim=False):
    d = np.abs(x - y + eps)
    if p == np.inf:
        out = d.max(-1, keepdims=keepdim)
    elif p == -np.inf:
        out = d.min(-1, keepdims=keepdim)
    elif p == 0:
        out = (d != 0).sum(-1, keepdims=keepdim).astype(d.dtype)
    else:
        out = (d ** p).sum(-1, keepdims=keepdim) ** (1 / p)
    return out


@pytest.mark.parametrize("p", [2.0, 1, 3.5, -2, 0, np.inf, -np.inf])
def test_pairwise_distance_matches_numpy(p):
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal((5, 7)), rng.standard_normal((5, 7))
    for dtype in ("float32", "float64"):
        xt, yt = paddle.to_tensor(x, dtype), paddle.to_tensor(y, dtype)
        out = F.pairwise_distance(xt, yt, p)
        assert out.shape == [5] and out.dtype == xt.dtype
        np.testing.assert_allclose(out.numpy(), np_pairwise(x, y, p), rtol=1e-5)
        out = nn.PairwiseDistance(p, epsilon=0.0, keepdim=True)(xt, yt[1])
        assert out.shape == [5, 1]
        np.testing.assert_allclose(out.numpy(), np_pairwise(x, y[1], p, 0.0, True), rtol=1e-5)


def test_pairwise_distance_paddle_details_and_gradients():
    x, y = paddle.to_tensor([[1., 3], [3, 5]]), paddle.to_tensor([[5., 6], [7, 8]])
    # from Paddle 3.3.1: epsilon is added to x - y before the norm
    np.testing.assert_allclose(F.pairwise_distance(x, y).numpy(), [4.9999986, 4.9999986],
                               rtol=1e-6)
    np.testing.assert_allclose(F.pairwise_distance(x, x).numpy(), [1.4142136e-06] * 2, rtol=1e-6)
    one_d = F.pairwise_distance(paddle.to_tensor([1., 2]), paddle.to_tensor([4., 6]))
    assert one_d.shape == [] and F.pairwise_distance(x, y, keepdim=True).shape == [2, 1]
    assert F.pairwise_distance(paddle.ones([2, 2, 3]), paddle.zeros([2, 2, 3])).shape == [2, 2]
    assert repr(nn.PairwiseDistance()) == "PairwiseDistance(p=2.0)"
    assert repr(nn.PairwiseDistance(3, 1e-5, True)) == \
        "PairwiseDistance(p=3, epsilon=1e-05, keepdim=True)"
    rng = np.random.default_rng(5)
    paddle.set_default_dtype("float64")
    check_grads(lambda a, b: F.pairwise_distance(a, b, 3.0), rng.standard_normal((3, 4)),
                rng.standard_normal((3, 4)))


def test_pairwise_distance_errors():
    with pytest.raises(TypeError, match="pairwise_distance: y must be a floating-point"):
        F.pairwise_distance(paddle.ones([2, 3]), paddle.ones([2, 3], "int64"))
    with pytest.raises(TypeError, match="pairwise_distance: x must be a Tensor"):
        F.pairwise_distance(np.ones((2, 3)), paddle.ones([2, 3]))
    with pytest.raises(ValueError):
        F.pairwise_distance(paddle.ones([2, 3]), paddle.ones([2, 4]))
    with pytest.raises(ValueError, match="p must be a number"):
        nn.PairwiseDistance("fro")(paddle.ones([2, 3]), paddle.ones([2, 3]))
