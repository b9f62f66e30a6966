"""Losses of paddle.nn and paddle.nn.functional: values against NumPy statements, gradients
against finite differences, Paddle's shapes, reductions and errors. Numbers said to come
from Paddle 3.3.1 were computed with it on the same inputs."""

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn

REDUCTIONS = ["mean", "sum", "none"]


def t(a, grad=False):
    return paddle.to_tensor(np.asarray(a), stop_gradient=not grad)


def reduce_np(loss, reduction):
    return {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction](loss)


def numeric_grad(f, x, eps=1e-6):
    """Central differences of the scalar f at the float64 array x."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        hi = f(x)
        x[i] = old - eps
        lo = f(x)
        x[i] = old
        g[i] = (hi - lo) / (2 * eps)
    return g


def check_grad(loss_fn, x, *rest, rtol=1e-5, atol=1e-7):
    """d sum(loss_fn(x, *rest)) / dx: backward against central differences (float64)."""
    xt = t(x, grad=True)
    loss_fn(xt, *[t(r) for r in rest]).sum().backward()

    def f(a):
        return float(loss_fn(t(a), *[t(r) for r in rest]).sum().numpy())
    np.testing.assert_allclose(xt.grad.numpy(), numeric_grad(f, np.array(x, np.float64)),
                               rtol=rtol, atol=atol)


# ---------------------------------------------------------------------------
# cross-entropy
# ---------------------------------------------------------------------------

def np_log_softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def np_cross_entropy(x, label, weight=None, ignore_index=-100, reduction="mean"):
    """Hard labels [N], classes on the last axis: -w[y] * log softmax(x)[y]; 'mean' divides
    by the summed weights of the kept samples (all samples when no weight and a negative
    ignore_index: Paddle's rule)."""
    keep = label != ignore_index
    safe = np.where(keep, label, 0)
    nll = -np.take_along_axis(np_log_softmax(x), safe[:, None], 1)[:, 0] * keep
    w = (weight[safe] if weight is not None else np.ones(len(label))) * keep
    loss = nll * w if weight is not None else nll
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    if weight is None and ignore_index < 0:
        return loss.mean()
    return loss.sum() / (w.sum() or 1.0)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 1])
def test_cross_entropy_matches_numpy(reduction, weighted, ignore_index):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 4))
    label = np.array([0, 3, 1, -100, 2, 1]) if ignore_index < 0 else np.array([0, 3, 1, 1, 2, 2])
    weight = rng.uniform(0.5, 2.0, 4) if weighted else None
    out = F.cross_entropy(t(x), t(label), weight=None if weight is None else t(weight),
                          ignore_index=ignore_index, reduction=reduction)
    np.testing.assert_allclose(out.numpy(), np_cross_entropy(x, label, weight, ignore_index,
                                                             reduction), rtol=1e-10)
    layer = nn.CrossEntropyLoss(weight=None if weight is None else t(weight),
                                ignore_index=ignore_index, reduction=reduction)
    np.testing.assert_allclose(layer(t(x), t(label)).numpy(), out.numpy())


def test_cross_entropy_values_from_paddle():
    # Expected values computed with Paddle 3.3.1 on these inputs.
    x = np.array([[0.3, -1.2, 0.8], [1.5, 0.2, -0.4], [-0.7, 0.9, 0.1], [0.0, 0.5, -1.0]])
    w = np.array([1.0, 2.0, 3.0])
    ignored = np.array([0, -100, 2, 1])
    hard = np.array([0, 1, 2, 1])
    assert float(F.cross_entropy(t(x), t(ignored))) == pytest.approx(0.7401513134113229, rel=1e-8)
    assert float(F.cross_entropy(t(x), t(ignored), weight=t(w))) == \
        pytest.approx(1.0279618860525275, rel=1e-8)
    assert float(F.cross_entropy(t(x), t(hard), ignore_index=1, weight=t(w))) == \
        pytest.approx(1.2398775264104271, rel=1e-8)
    assert float(F.cross_entropy(t(x), t(hard), label_smoothing=0.1)) == \
        pytest.approx(1.1723517252418423, rel=1e-8)
    assert float(F.cross_entropy(t(x), t(hard), label_smoothing=0.1, weight=t(w))) == \
        pytest.approx(1.1963398161490446, rel=1e-8)


def test_cross_entropy_label_smoothing_and_soft_labels_match_numpy():
    rng = np.random.default_rng(1)
    x, label = rng.standard_normal((5, 4)), np.array([0, 3, 1, 2, 2])
    eps = 0.2
    soft = (1 - eps) * np.eye(4)[label] + eps / 4
    want = -np.sum(soft * np_log_softmax(x), axis=1, keepdims=True)
    out = F.cross_entropy(t(x), t(label), label_smoothing=eps, reduction="none")
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10)
    out = F.cross_entropy(t(x), t(soft), soft_label=True, reduction="none")
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10)
    w = rng.uniform(0.5, 2.0, 4)
    ws = soft @ w
    out = F.cross_entropy(t(x), t(soft), soft_label=True, weight=t(w))
    np.testing.assert_allclose(out.numpy(), np.sum(want[:, 0] * ws) / np.sum(ws), rtol=1e-10)


def test_cross_entropy_probabilities_and_axis():
    rng = np.random.default_rng(2)
    p = rng.dirichlet(np.ones(3), 4)
    label = np.array([2, 0, 1, 1])
    out = F.cross_entropy(t(p), t(label), use_softmax=False, reduction="none")
    np.testing.assert_allclose(out.numpy(), -np.log(p[np.arange(4), label]), rtol=1e-12)
    x = rng.standard_normal((2, 5, 3))                  # classes on axis 1
    lab = rng.integers(0, 5, (2, 3))
    out = F.cross_entropy(t(x), t(lab), axis=1, reduction="none")
    want = -np.take_along_axis(np_log_softmax(x, 1), lab[:, None], 1)[:, 0]
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10)


@pytest.mark.parametrize("kwargs,label,shape", [
    ({}, [0, 2, 1], [3]),
    ({}, [[0], [2], [1]], [3, 1]),
    ({"label_smoothing": 0.1}, [0, 2, 1], [3, 1]),      # Paddle keeps a trailing 1 here
    ({"weight": [1.0, 2.0, 3.0]}, [0, 2, 1], [3]),
])
def test_cross_entropy_none_shapes_as_paddle(kwargs, label, shape):
    kwargs = {k: t(v) if k == "weight" else v for k, v in kwargs.items()}
    out = F.cross_entropy(t(np.zeros((3, 3))), t(label), reduction="none", **kwargs)
    assert out.shape == shape
    soft = F.cross_entropy(t(np.zeros((3, 3))), t(np.full((3, 3), 1 / 3)), soft_label=True,
                           reduction="none")
    assert soft.shape == [3, 1]


def test_cross_entropy_int32_labels_1d_input_and_stability():
    x = np.array([[1000.0, 0.0, -1000.0], [0.5, 0.2, 0.1]], np.float32)
    out = F.cross_entropy(t(x), t(np.array([1, 0], np.int32)), reduction="none")
    assert out.numpy().dtype == np.float32
    np.testing.assert_allclose(out.numpy(), [1000.0, -np_log_softmax(x[1:].astype(float))[0, 0]],
                               rtol=1e-6)
    assert F.cross_entropy(t(np.array([1.0, 2.0, 3.0])), t(np.array(2))).shape == []


def test_cross_entropy_gradients():
    rng = np.random.default_rng(3)
    x, label, w = rng.standard_normal((5, 4)), np.array([0, -100, 3, 1, 1]), rng.uniform(1, 2, 4)
    check_grad(lambda a, y, ww: F.cross_entropy(a, y, weight=ww), x, label, w)
    check_grad(lambda a, y: F.cross_entropy(a, y, ignore_index=1, reduction="sum"), x,
               np.abs(label) % 4)
    check_grad(lambda a, y: F.cross_entropy(a, y, label_smoothing=0.3), x, np.abs(label) % 4)
    check_grad(lambda a, y: F.cross_entropy(a, y, use_softmax=False, reduction="none"),
               rng.dirichlet(np.ones(4), 5), np.abs(label) % 4)
    # the softmax's own Jacobian: dlogits = softmax - one_hot, zero where ignored
    xt = t(x, grad=True)
    F.cross_entropy(xt, t(label), reduction="sum").backward()
    p = np.exp(np_log_softmax(x))
    want = (p - np.eye(4)[np.abs(label) % 4]) * (label != -100)[:, None]
    np.testing.assert_allclose(xt.grad.numpy(), want, rtol=1e-10)


def test_cross_entropy_second_derivative_through_create_graph():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 4))
    label = np.array([1, 0, 3])
    xt = t(x, grad=True)
    (g,) = paddle.grad(F.cross_entropy(xt, t(label), reduction="sum"), xt, create_graph=True)
    (gg,) = paddle.grad((g * g).sum(), xt)

    def first(a):
        p = np.exp(np_log_softmax(a))
        return np.sum((p - np.eye(4)[label]) ** 2)
    np.testing.assert_allclose(gg.numpy(), numeric_grad(first, x.copy()), rtol=1e-5, atol=1e-8)


def test_cross_entropy_errors():
    x = t(np.zeros((4, 3)))
    with pytest.raises(ValueError, match=r"label shape \[3, 1\], logits shape \[4, 3\]"):
        F.cross_entropy(x, t(np.zeros((3, 1), np.int64)))
    with pytest.raises(TypeError, match="int32 or int64, got float32"):
        F.cross_entropy(x, t(np.zeros(4, np.float32)))
    with pytest.raises(ValueError, match="rank 1 or 2"):
        F.cross_entropy(x, t(np.zeros((4, 1, 1), np.int64)))
    with pytest.raises(ValueError, match="class dimension"):
        F.cross_entropy(x, t(np.zeros(4, np.int64)), weight=t(np.ones(2)))
    with pytest.raises(ValueError, match="ignore_index must be -100"):
        F.cross_entropy(x, t(np.full((4, 3), 1 / 3)), soft_label=True, ignore_index=1)
    with pytest.raises(ValueError, match="'reduction' in 'cross_entropy'"):
        F.cross_entropy(x, t(np.zeros(4, np.int64)), reduction="avg")
    with pytest.raises(ValueError, match="'reduction' in 'CrossEntropyLoss'"):
        nn.CrossEntropyLoss(reduction="avg")
    with pytest.raises(IndexError, match=r"\[0, 3\)"):
        F.cross_entropy(x, t(np.array([0, 1, 5, 2])))
    with pytest.raises(ValueError, match="at least 1 dimension"):
        F.cross_entropy(t(np.array(1.0)), t(np.array(0)))


def test_softmax_with_cross_entropy():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 3))
    label = np.array([2, 0, 1, 2])
    loss, soft = F.softmax_with_cross_entropy(t(x), t(label), return_softmax=True)
    assert loss.shape == [4, 1]
    np.testing.assert_allclose(soft.numpy(), np.exp(np_log_softmax(x)), rtol=1e-12)
    np.testing.assert_allclose(loss.numpy()[:, 0], np_cross_entropy(x, label, reduction="none"),
                               rtol=1e-10)
    out = F.softmax_with_cross_entropy(t(x.T), t(label[None]), axis=0, ignore_index=0)
    want = np_cross_entropy(x, label, ignore_index=0, reduction="none")
    np.testing.assert_allclose(out.numpy(), want[None], rtol=1e-10)


# ---------------------------------------------------------------------------
# the other losses: values against NumPy, gradients against finite differences
# ---------------------------------------------------------------------------

RNG = np.random.default_rng(10)
A = RNG.standard_normal((3, 4))
B = RNG.standard_normal((3, 4))
P = 1 / (1 + np.exp(-A))
Y = RNG.uniform(0, 1, (3, 4))
W = RNG.uniform(0.5, 2.0, 4)


def np_softplus(x):
    return np.logaddexp(0, x)


CASES = {
    "l1_loss": (lambda a, b, r: F.l1_loss(a, b, r), lambda r: reduce_np(np.abs(A - B), r),
                nn.L1Loss, (A, B)),
    "smooth_l1_loss": (
        lambda a, b, r: F.smooth_l1_loss(a, b, r, delta=0.8),
        lambda r: reduce_np(np.where(np.abs(A - B) < 0.8, 0.5 * (A - B) ** 2,
                                     0.8 * (np.abs(A - B) - 0.4)), r),
        lambda reduction: nn.SmoothL1Loss(reduction, delta=0.8), (A, B)),
    "mse_loss": (lambda a, b, r: F.mse_loss(a, b, r), lambda r: reduce_np((A - B) ** 2, r),
                 nn.MSELoss, (A, B)),
    "binary_cross_entropy": (
        lambda a, b, r: F.binary_cross_entropy(a, b, t(W), r),
        lambda r: reduce_np(-W * (Y * np.log(P) + (1 - Y) * np.log(1 - P)), r),
        lambda reduction: nn.BCELoss(t(W), reduction), (P, Y)),
    "binary_cross_entropy_with_logits": (
        lambda a, b, r: F.binary_cross_entropy_with_logits(a, b, t(W), r, pos_weight=t(W[::-1])),
        lambda r: reduce_np(W * ((1 - Y) * A + (1 + (W[::-1] - 1) * Y) * np_softplus(-A)), r),
        lambda reduction: nn.BCEWithLogitsLoss(t(W), reduction, t(W[::-1])), (A, Y)),
}


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_elementwise_losses(name, reduction):
    fn, want, layer, inputs = CASES[name]
    out = fn(*[t(a) for a in inputs], reduction)
    np.testing.assert_allclose(out.numpy(), want(reduction), rtol=1e-10)
    assert out.shape == ([] if reduction != "none" else [3, 4])
    np.testing.assert_allclose(layer(reduction=reduction)(*[t(a) for a in inputs]).numpy(),
                               out.numpy(), rtol=1e-12)
    check_grad(lambda a, b: fn(a, b, reduction), *inputs)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mse_loss_runs_the_fused_op_with_both_gradients(reduction, dtype):
    """One shape, one float dtype, reduced: the fused row, with input's and label's gradient."""
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((2, 5, 3)).astype(dtype), rng.standard_normal((2, 5, 3)).astype(dtype)
    x, y = t(a, grad=True), t(b, grad=True)
    loss = F.mse_loss(x, y, reduction)
    assert loss.grad_fn.op.name == "mse_loss" and loss.shape == [] and loss.dtype == x.dtype
    np.testing.assert_allclose(loss.numpy(), reduce_np((a - b) ** 2, reduction), rtol=1e-6)
    loss.backward()
    want = 2 * (a - b) / (a.size if reduction == "mean" else 1)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(y.grad.numpy(), -want, rtol=1e-6)


def test_mse_loss_second_derivatives_through_the_fused_gradient():
    """d/dx of |d loss/dx|^2 = 8 (x - y) / n^2, and of the label-side terms."""
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    x, y = t(a, grad=True), t(b, grad=True)
    gx, = paddle.grad(F.mse_loss(x, y), [x], create_graph=True)
    gg_x, gg_y = paddle.grad((gx * gx).sum(), [x, y])
    np.testing.assert_allclose(gg_x.numpy(), 8 * (a - b) / 144, rtol=1e-12)
    np.testing.assert_allclose(gg_y.numpy(), -8 * (a - b) / 144, rtol=1e-12)
    check_grad(lambda u, v: F.mse_loss(u, v, "sum"), a, b)


def test_mse_loss_broadcasting_mixed_dtypes_and_none_stay_composites():
    x = t(np.ones((3, 4), np.float32), grad=True)
    for label, reduction in [(t(np.zeros(4, np.float32)), "mean"),
                             (t(np.zeros((3, 4), np.float64)), "mean"),
                             (t(np.zeros((3, 4), np.float32)), "none")]:
        out = F.mse_loss(x, label, reduction)
        assert out.grad_fn.op.name != "mse_loss"
    # Paddle 3.3.1: a float32 input and a float64 label give a float64 loss of 1.0; int64
    # tensors an int64 sum; broadcasting a [4] label is allowed
    assert F.mse_loss(x, t(np.zeros((3, 4)))).dtype == paddle.float64
    out = F.mse_loss(t(np.ones(3, np.int64)), t(np.zeros(3, np.int64)), "sum")
    assert out.dtype == paddle.int64 and int(out) == 3
    with pytest.raises(ValueError, match="cannot be broadcast"):
        F.mse_loss(x, t(np.zeros(3, np.float32)))


def test_mse_loss_over_no_elements():
    """Paddle 3.3.1: NaN for 'mean' over a [0, 3] input, 0 for 'sum'."""
    x, y = t(np.ones((0, 3), np.float32)), t(np.ones((0, 3), np.float32))
    assert np.isnan(F.mse_loss(x, y).numpy()) and float(F.mse_loss(x, y, "sum")) == 0.0


def test_mse_loss_in_a_static_program(static):
    """The fused row appends itself to the program (a -1 batch dimension too) and trains as
    in dygraph."""
    main, startup = static
    x = paddle.static.data("x", [-1, 3], "float32")
    y = paddle.static.data("y", [-1, 3], "float32")
    linear = nn.Linear(3, 3, bias_attr=False)
    loss = F.mse_loss(linear(x), y)
    grads = paddle.static.gradients([loss], [linear.weight])
    assert "mse_loss" in [op.type for op in main.global_block().ops]
    exe = paddle.static.Executor()
    wv, = exe.run(startup, fetch_list=[linear.weight])
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((5, 3)).astype("float32"), rng.standard_normal((5, 3)).astype("float32")
    got_loss, got_grad = exe.run(main, feed={"x": a, "y": b}, fetch_list=[loss, grads[0]])
    d = a @ wv - b
    np.testing.assert_allclose(got_loss, np.mean(d ** 2), rtol=1e-5)
    np.testing.assert_allclose(got_grad, a.T @ (2 * d / d.size), rtol=1e-5, atol=1e-6)


def test_mse_loss_second_derivative_in_a_static_program(static):
    """With a -1 batch dimension the fused gradient's own rule counts the elements when the
    program runs: d/dx |d loss/dx|^2 = 8 (x - y) / n^2."""
    main, startup = static
    x = paddle.static.data("x", [-1, 3], "float64")
    x.stop_gradient = False
    y = paddle.static.data("y", [-1, 3], "float64")
    gx, = paddle.static.gradients([F.mse_loss(x, y)], [x])
    gg, = paddle.static.gradients([paddle.sum(gx * gx)], [x])
    exe = paddle.static.Executor()
    exe.run(startup)
    rng = np.random.default_rng(6)
    for rows in (5, 2):
        a, b = rng.standard_normal((rows, 3)), rng.standard_normal((rows, 3))
        got, = exe.run(main, feed={"x": a, "y": b}, fetch_list=[gg])
        np.testing.assert_allclose(got, 8 * (a - b) / a.size ** 2, rtol=1e-12)


def test_bce_clips_log_and_logits_form_is_stable():
    with np.errstate(divide="ignore"):                  # log(0), then clipped
        out = F.binary_cross_entropy(t(np.array([0.0, 1.0])), t(np.array([1.0, 0.0])),
                                     reduction="none")
    np.testing.assert_allclose(out.numpy(), [100.0, 100.0])     # log clipped at -100
    x = np.array([-800.0, 800.0, 0.0])
    out = F.binary_cross_entropy_with_logits(t(x), t(np.array([1.0, 0.0, 1.0])),
                                             reduction="none")
    np.testing.assert_allclose(out.numpy(), [800.0, 800.0, np.log(2)])
    with pytest.raises(ValueError, match=r"shape \[2, 3\] and label shape \[3\]"):
        F.binary_cross_entropy(t(np.full((2, 3), 0.5)), t(np.full(3, 0.5)))
    with pytest.raises(TypeError, match="label must be a floating-point tensor.*int64"):
        F.binary_cross_entropy_with_logits(t(np.zeros(3)), t(np.array([0, 1, 1])))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss(reduction):
    rng = np.random.default_rng(11)
    lp = np.log(rng.dirichlet(np.ones(4), (2, 3)).transpose(0, 2, 1))      # [N, C, d]
    label = np.array([[0, 3, -100], [2, 2, 1]])
    keep = label != -100
    safe = np.where(keep, label, 0)
    picked = -np.take_along_axis(lp, safe[:, None], 1)[:, 0] * W[safe] * keep
    want = picked.sum() / (W[safe] * keep).sum() if reduction == "mean" else \
        reduce_np(picked, reduction)
    out = F.nll_loss(t(lp), t(label), weight=t(W), reduction=reduction)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10)
    layer = nn.NLLLoss(weight=t(W), reduction=reduction)
    np.testing.assert_allclose(layer(t(lp), t(label)).numpy(), want, rtol=1e-10)
    check_grad(lambda a, y: F.nll_loss(a, y, weight=t(W), reduction=reduction), lp, label)


def test_nll_loss_paddle_details():
    lp = np.log(np.full((3, 2), 0.5))
    # every label ignored: 'mean' is 0, not NaN (as Paddle 3.3.1)
    assert float(F.nll_loss(t(lp), t(np.full(3, -100)))) == 0.0
    assert F.nll_loss(t(lp), t(np.array([[0], [1], [1]]))).shape == []
    with pytest.raises(ValueError, match="got shape \\[2\\]"):
        F.nll_loss(t(lp[0]), t(np.array(1)))
    with pytest.raises(ValueError, match=r"label must have shape \[3\].*got \[2\]"):
        F.nll_loss(t(lp), t(np.array([0, 1])))
    with pytest.raises(IndexError, match=r"\[0, 2\)"):
        F.nll_loss(t(lp), t(np.array([0, 2, 1])))
    with pytest.raises(TypeError, match="int32 or int64, got float64"):
        F.nll_loss(t(lp), t(np.array([0.0, 1.0, 1.0])))


@pytest.mark.parametrize("reduction", ["mean", "batchmean", "sum", "none"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div(reduction, log_target):
    x = np_log_softmax(A)
    q = np.exp(np_log_softmax(B))
    q[0, 1] = 0.0                                     # a zero target contributes 0
    label = np.log(q + 1e-3) if log_target else q
    pointwise = np.exp(label) * (label - x) if log_target else \
        np.where(q > 0, q * (np.log(np.where(q > 0, q, 1)) - x), 0)
    want = pointwise.sum() / 3 if reduction == "batchmean" else reduce_np(pointwise, reduction)
    out = F.kl_div(t(x), t(label), reduction, log_target=log_target)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(nn.KLDivLoss(reduction, log_target)(t(x), t(label)).numpy(),
                               want, rtol=1e-10)
    check_grad(lambda a, y: F.kl_div(a, y, reduction, log_target), x, label)
    with pytest.raises(ValueError, match="'batchmean'"):
        F.kl_div(t(x), t(q), "avg")


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_margin_ranking_and_cosine_embedding(reduction):
    label = np.array([1.0, -1.0, 1.0, -1.0])
    want = reduce_np(np.maximum(0, -label * (A[0] - B[0]) + 0.3), reduction)
    out = F.margin_ranking_loss(t(A[0]), t(B[0]), t(label), 0.3, reduction)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-12)
    layer = nn.MarginRankingLoss(0.3, reduction)
    np.testing.assert_allclose(layer(t(A[0]), t(B[0]), t(label)).numpy(), want, rtol=1e-12)
    check_grad(lambda a, b, y: F.margin_ranking_loss(a, b, y, 0.3, reduction), A[0], B[0],
               label)

    cls = np.array([1, -1, 2])                          # 2: neither, loss 0 (as Paddle)
    cos = np.sum(A * B, 1) / np.sqrt(np.sum(A * A, 1) * np.sum(B * B, 1))
    pointwise = np.where(cls == 1, 1 - cos, np.where(cls == -1, np.maximum(cos + 0.5, 0), 0))
    out = F.cosine_embedding_loss(t(A), t(B), t(cls), -0.5, reduction)
    np.testing.assert_allclose(out.numpy(), reduce_np(pointwise, reduction), rtol=1e-8)
    layer = nn.CosineEmbeddingLoss(-0.5, reduction)
    np.testing.assert_allclose(layer(t(A), t(B), t(cls)).numpy(), out.numpy())
    check_grad(lambda a, b, y: F.cosine_embedding_loss(a, b, y, -0.5, reduction), A, B, cls)


def test_cosine_embedding_1d_and_errors():
    out = F.cosine_embedding_loss(t(A[0]), t(B[0]), t(np.array([1])), reduction="none")
    assert out.shape == [1]
    with pytest.raises(ValueError, match=r"label must have shape \[3\]"):
        F.cosine_embedding_loss(t(A), t(B), t(np.array([1, 1])))
    with pytest.raises(ValueError, match="same shape"):
        F.cosine_embedding_loss(t(A), t(B[:2]), t(np.array([1, 1, 1])))


@pytest.mark.parametrize("reduction", REDUCTIONS + ["default"])
def test_sigmoid_focal_loss(reduction):
    label = (Y > 0.5).astype(np.float64)
    p = 1 / (1 + np.exp(-A))
    ce = (1 - label) * A + np_softplus(-A)
    p_t = p * label + (1 - p) * (1 - label)
    alpha_t = 0.4 * label + 0.6 * (1 - label)
    pointwise = alpha_t * ce * (1 - p_t) ** 1.5 / 3.0
    kwargs = {} if reduction == "default" else {"reduction": reduction}
    want = reduce_np(pointwise, "sum" if reduction == "default" else reduction)
    out = F.sigmoid_focal_loss(t(A), t(label), t(np.array([3.0])), alpha=0.4, gamma=1.5,
                               **kwargs)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10)
    check_grad(lambda a, y: F.sigmoid_focal_loss(a, y, t(np.array([3.0])), 0.4, 1.5, **kwargs),
               A, label)


def test_log_loss_and_square_error_cost():
    out = F.log_loss(t(P[:, :1]), t(Y[:, :1]))
    want = -Y[:, :1] * np.log(P[:, :1] + 1e-4) - (1 - Y[:, :1]) * np.log(1 - P[:, :1] + 1e-4)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-12)
    check_grad(lambda a, y: F.log_loss(a, y), P[:, :1], Y[:, :1])
    np.testing.assert_allclose(F.square_error_cost(t(A), t(B)).numpy(), (A - B) ** 2)
    check_grad(F.square_error_cost, A, B)


# ---------------------------------------------------------------------------
# CTC
# ---------------------------------------------------------------------------

# Inputs of the CTC values below, which Paddle 3.3.1 computed.
CTC_LOGITS = np.array([
    [[1.62, -0.61, -0.53, -1.07], [0.87, -2.3, 1.74, -0.76]],
    [[0.32, -0.25, 1.46, -2.06], [-0.32, -0.38, 1.13, -1.1]],
    [[-0.17, -0.88, 0.04, 0.58], [-1.1, 1.14, 0.9, 0.5]],
    [[0.9, -0.68, -0.12, -0.94], [-0.27, 0.53, -0.69, -0.4]],
    [[-0.69, -0.85, -0.67, -0.01], [-1.12, 0.23, 1.66, 0.74]]])
CTC_LABELS = np.array([[1, 2, 2], [3, 1, 0]], np.int32)
CTC_IN, CTC_LAB = np.array([5, 4]), np.array([3, 2])


def _ctc(reduction, norm_by_times=False, grad=False):
    x = t(CTC_LOGITS, grad=grad)
    return x, F.ctc_loss(x, t(CTC_LABELS), t(CTC_IN), t(CTC_LAB), 0, reduction, norm_by_times)


def test_ctc_loss_values_from_paddle():
    # Expected values computed with Paddle 3.3.1 (F.ctc_loss) on CTC_LOGITS.
    _, out = _ctc("none")
    np.testing.assert_allclose(out.numpy(), [4.862636837504777, 4.017648044824898], rtol=1e-8)
    _, out = _ctc("mean")                # each loss divided by its label length, averaged
    assert float(out) == pytest.approx(1.8148514841236874, rel=1e-8)
    _, out = _ctc("sum")
    assert float(out) == pytest.approx(8.880284882329676, rel=1e-8)
    layer = nn.CTCLoss(blank=0, reduction="none")
    np.testing.assert_allclose(layer(t(CTC_LOGITS), t(CTC_LABELS), t(CTC_IN), t(CTC_LAB)).numpy(),
                               [4.862636837504777, 4.017648044824898], rtol=1e-8)


def test_ctc_gradient_and_norm_by_times():
    x, out = _ctc("sum", grad=True)
    out.backward()
    labels, lens = t(CTC_LABELS), (t(CTC_IN), t(CTC_LAB))

    def f(a):
        return float(F.ctc_loss(t(a), labels, *lens, reduction="sum"))
    np.testing.assert_allclose(x.grad.numpy(), numeric_grad(f, CTC_LOGITS.copy()),
                               rtol=1e-5, atol=1e-7)
    assert not np.any(x.grad.numpy()[4, 1])          # past the second sequence's end
    xn, out = _ctc("sum", norm_by_times=True, grad=True)
    out.backward()
    # norm_by_times divides the gradient (not the loss) by each input length, as Paddle
    np.testing.assert_allclose(xn.grad.numpy(), x.grad.numpy() / CTC_IN[None, :, None],
                               rtol=1e-12)
    assert float(out) == pytest.approx(4.862636837504777 + 4.017648044824898, rel=1e-8)


def test_ctc_impossible_alignment_and_second_derivative():
    # label [1, 2, 2] needs 4 steps; with 2 the loss is 0, as Paddle 3.3.1 (warp-ctc) gives
    x = t(CTC_LOGITS[:2], grad=True)
    out = F.ctc_loss(x, t(CTC_LABELS), t(np.array([2, 2])), t(CTC_LAB), reduction="none")
    np.testing.assert_allclose(out.numpy(), [0.0, 4.87442387515212], rtol=1e-8)
    (g,) = paddle.grad(out.sum(), x)
    assert not np.any(g.numpy()[:, 0])
    out = F.ctc_loss(x, t(CTC_LABELS), t(np.array([2, 2])), t(CTC_LAB))
    with pytest.raises(NotImplementedError, match="second derivatives"):
        paddle.grad(out, x, create_graph=True)


def test_loss_layers_defaults_like_paddle():
    assert nn.CrossEntropyLoss().reduction == "mean"
    assert nn.SmoothL1Loss().delta == 1.0
    assert nn.CTCLoss().blank == 0
    assert nn.KLDivLoss().reduction == "mean"
    assert nn.HuberLoss is nn.SmoothL1Loss            # as paddle.nn.HuberLoss in Paddle 3.3.1
    for name in ("L1Loss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "MarginRankingLoss",
                 "CosineEmbeddingLoss", "CTCLoss"):
        with pytest.raises(ValueError, match=f"'reduction' in '{name}'"):
            getattr(nn, name)(reduction="avg")
