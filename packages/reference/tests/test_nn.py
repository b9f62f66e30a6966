"""paddle.nn: Linear, activations and losses (behaviour checked against PaddlePaddle)."""

from unittest.mock import patch

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn
from dygrad._core.dispatch import ops
from dygrad.nn import initializer as I
from dygrad.nn.param_attr import ParamAttr

# ---------------------------------------------------------------------------
# Linear
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(4, 3), (2, 5, 3), (3,)])
def test_linear_forward_matches_numpy(shape):
    lin = nn.Linear(3, 2)
    lin.bias.set_value(np.array([0.5, -1.0], np.float32))
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    out = lin(paddle.to_tensor(x))
    expected = x @ lin.weight.numpy() + lin.bias.numpy()
    assert out.shape == list(expected.shape) and out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(F.linear(paddle.to_tensor(x), lin.weight).numpy(),
                               x @ lin.weight.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(4, 3), (2, 5, 3), (3,), (1, 3)])
def test_linear_is_one_op_equal_to_matmul_and_add(shape, dtype):
    """With gradients recorded, F.linear with a bias is one op (one node) with matmul +
    add's results (their bits, but for the weight's gradient over a batch of matrices);
    ReLU after it stays an op of its own."""
    paddle.set_default_dtype(dtype)  # the conftest restores it
    rng = np.random.default_rng(1)
    w = paddle.to_tensor(rng.standard_normal((3, 2)).astype(dtype), stop_gradient=False)
    b = paddle.to_tensor(rng.standard_normal(2).astype(dtype), stop_gradient=False)
    x = paddle.to_tensor(rng.standard_normal(shape).astype(dtype), stop_gradient=False)
    v = paddle.to_tensor(rng.standard_normal(shape[:-1] + (2,)).astype(dtype))
    fused, plain = F.linear(x, w, b), paddle.add(paddle.matmul(x, w), b)
    assert fused._grad_fn.op.name == "fused_linear_activation"
    assert [e[0] for e in F.relu(fused)._grad_fn.next_edges] == [fused._grad_fn]
    np.testing.assert_array_equal(fused.numpy(), plain.numpy())
    grads = [paddle.grad((out * v).sum(), [x, w, b], create_graph=True) for out in (fused, plain)]
    for g_fused, g_plain in zip(*grads):
        if len(shape) > 2:  # one product over all rows, where matmul's rule sums a batch's
            np.testing.assert_allclose(g_fused.numpy(), g_plain.numpy(), rtol=1e-5, atol=1e-5)
        else:
            np.testing.assert_array_equal(g_fused.numpy(), g_plain.numpy())
    second = [paddle.grad((gx * gx).sum() + (gw * gw).sum(), [w, x]) for gx, gw, _ in grads]
    for g_fused, g_plain in zip(*second):
        np.testing.assert_allclose(g_fused.numpy(), g_plain.numpy(), rtol=1e-5, atol=1e-5)
    with paddle.no_grad():  # no node to record: matmul and add, as before
        np.testing.assert_array_equal(F.linear(x, w, b).numpy(), plain.numpy())


@pytest.mark.parametrize("shape", [(4, 3), (2, 5, 3), (3,)])
@pytest.mark.parametrize("activation", ["none", "relu", "tanh"])
def test_linear_first_order_gradient_is_the_fused_row(shape, activation):
    """Without create_graph the rule of fused_linear_activation takes its weight and bias
    gradients from the fused_linear_activation_grad row, and x's from its z_grad: the same
    gradients as the differentiable ops give; with one input needing none, the ops."""
    rng = np.random.default_rng(2)
    w = paddle.to_tensor(rng.standard_normal((3, 2)), "float32", stop_gradient=False)
    b = paddle.to_tensor(rng.standard_normal(2), "float32", stop_gradient=False)
    x = paddle.to_tensor(rng.standard_normal(shape), "float32", stop_gradient=False)
    v = paddle.to_tensor(rng.standard_normal(shape[:-1] + (2,)), "float32")
    out = ops.fused_linear_activation(x, w, b, activation=activation)
    first = paddle.grad((out * v).sum(), [x, w, b], retain_graph=True)
    with patch.object(ops, "fused_linear_activation_grad", side_effect=AssertionError):
        composite = paddle.grad((out * v).sum(), [x, w, b], create_graph=True)
    for a, c in zip(first, composite):
        np.testing.assert_allclose(a.numpy(), c.numpy(), rtol=1e-5, atol=1e-6)
    b.stop_gradient = True  # the bias needs no gradient: matmuls, as before
    out = ops.fused_linear_activation(x, w, b, activation=activation)
    with patch.object(ops, "fused_linear_activation_grad", side_effect=AssertionError):
        gx, gw = paddle.grad((out * v).sum(), [x, w])
    np.testing.assert_allclose(gw.numpy(), first[1].numpy(), rtol=1e-5, atol=1e-6)


def test_linear_gradient_does_not_read_its_output_changed_in_place():
    """With no activation the fused rule does not read the Linear's output, so changing it in
    place (a version bump) leaves backward working, as with matmul and add."""
    lin = paddle.nn.Linear(3, 2)
    x = paddle.ones([4, 3])
    out = lin(x)
    out.scale_(2.0)
    out.sum().backward()
    np.testing.assert_allclose(lin.weight.grad.numpy(), np.full((3, 2), 8.0))
    np.testing.assert_allclose(lin.bias.grad.numpy(), np.full(2, 8.0))


def test_linear_as_matmul_and_add_where_one_op_does_not_fit():
    """A bias that broadcasts, an integer input or shapes that disagree: matmul and add, with
    their results and errors."""
    x = paddle.ones([2, 3])
    w = paddle.ones([3, 2])
    w.stop_gradient = False
    out = F.linear(x, w, paddle.to_tensor([[1.0, 2.0]]))
    assert out._grad_fn.op.name == "add"
    np.testing.assert_array_equal(out.numpy(), [[4.0, 5.0], [4.0, 5.0]])
    with pytest.raises(ValueError, match=r"matmul.*\[2, 3\].*\[2, 2\]"):
        F.linear(x, paddle.ones([2, 2]), paddle.ones([2]))
    with pytest.raises(TypeError, match="int64"):
        F.linear(paddle.to_tensor([[1, 2, 3]]), w, paddle.ones([2]))
    with pytest.raises(TypeError, match="bias must be a Tensor"):
        F.linear(x, w, [1.0, 2.0])


def test_linear_without_bias_and_attrs():
    lin = nn.Linear(3, 2, bias_attr=False)
    assert lin.bias is None and [n for n, _ in lin.named_parameters()] == ["weight"]
    assert list(lin.state_dict()) == ["weight"]
    x = np.ones((1, 3), np.float32)
    np.testing.assert_allclose(lin(paddle.to_tensor(x)).numpy(), x @ lin.weight.numpy(),
                               rtol=1e-6)
    lin = nn.Linear(2, 2, weight_attr=I.Constant(2.0),
                    bias_attr=ParamAttr(name="mybias", initializer=I.Constant(1.0),
                                        learning_rate=0.5, trainable=False))
    np.testing.assert_array_equal(lin.weight.numpy(), np.full((2, 2), 2.0))
    assert lin.bias.name == "mybias" and lin.bias.stop_gradient and not lin.bias.trainable
    assert lin.bias.optimize_attr == {"learning_rate": 0.5}
    np.testing.assert_array_equal(lin.bias.numpy(), [1.0, 1.0])
    assert nn.Linear(2, 2, weight_attr="wname").weight.name == "wname"
    assert nn.Layer().create_parameter([2], attr=False) is None


def test_linear_follows_default_dtype():
    paddle.set_default_dtype("float64")  # the conftest restores it
    lin = nn.Linear(2, 2)
    assert lin.weight.dtype == paddle.float64 and lin._dtype == "float64"
    assert repr(lin) == "Linear(in_features=2, out_features=2, dtype=float64)"
    # create_parameter without a dtype follows the default dtype too (Paddle 3.3.1 does,
    # whatever the Layer's own dtype argument)
    assert nn.Layer(dtype="float32").create_parameter([2]).dtype == paddle.float64


def test_linear_gradients_match_finite_differences():
    paddle.set_default_dtype("float64")
    paddle.seed(3)
    lin = nn.Linear(3, 2)
    lin.bias.set_value(np.array([0.1, -0.2]))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3))
    v = rng.standard_normal((4, 2))
    xt = paddle.to_tensor(x, stop_gradient=False)
    loss = (F.relu(lin(xt)) * paddle.to_tensor(v)).sum()
    loss.backward()
    w0, b0 = lin.weight.numpy().copy(), lin.bias.numpy().copy()

    def f(w, b, xx):
        return float(np.sum(np.maximum(xx @ w + b, 0) * v))

    def numeric(arr, fn, eps=1e-6):
        g = np.zeros_like(arr)
        for i in np.ndindex(arr.shape):
            a, b = arr.copy(), arr.copy()
            a[i] += eps
            b[i] -= eps
            g[i] = (fn(a) - fn(b)) / (2 * eps)
        return g

    np.testing.assert_allclose(lin.weight.grad.numpy(), numeric(w0, lambda w: f(w, b0, x)),
                               rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(lin.bias.grad.numpy(), numeric(b0, lambda b: f(w0, b, x)),
                               rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(xt.grad.numpy(), numeric(x, lambda xx: f(w0, b0, xx)),
                               rtol=1e-6, atol=1e-8)

# ---------------------------------------------------------------------------
# activations and losses
# ---------------------------------------------------------------------------

def test_activation_layers_and_functions():
    x = np.array([[-1.0, 0.5, 2.0], [0.0, -3.0, 1.0]], np.float32)
    t = paddle.to_tensor(x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    soft = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(nn.ReLU()(t).numpy(), np.maximum(x, 0))
    np.testing.assert_allclose(nn.Softmax()(t).numpy(), soft, rtol=1e-6)
    np.testing.assert_allclose(nn.LogSoftmax()(t).numpy(), np.log(soft), rtol=1e-5, atol=1e-6)
    e0 = np.exp(x) / np.exp(x).sum(axis=0, keepdims=True)
    np.testing.assert_allclose(F.softmax(t, axis=0).numpy(), e0, rtol=1e-6)
    np.testing.assert_allclose(nn.Sigmoid()(t).numpy(), 1 / (1 + np.exp(-x)), rtol=1e-6)
    np.testing.assert_allclose(nn.Tanh()(t).numpy(), np.tanh(x), rtol=1e-6)
    out = F.softmax(paddle.to_tensor([1, 2]), dtype="float64")
    assert out.dtype == paddle.float64
    np.testing.assert_allclose(out.numpy(), [0.26894142136999, 0.73105857863000])
    assert F.softmax(paddle.to_tensor(3.0)).item() == 1.0
    with pytest.raises(TypeError, match="must be a Tensor"):
        F.relu(np.ones(2))


def test_softmax_gradient_through_public_api():
    x = paddle.to_tensor(np.array([0.2, -0.4, 1.0]), stop_gradient=False)
    v = np.array([1.0, 2.0, -1.0])
    (F.softmax(x) * paddle.to_tensor(v)).sum().backward()
    s = np.exp(x.numpy()) / np.exp(x.numpy()).sum()
    np.testing.assert_allclose(x.grad.numpy(), s * (v - np.dot(v, s)), rtol=1e-12)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss(reduction):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 3)).astype(np.float32)
    b = rng.standard_normal((4, 3)).astype(np.float32)
    err = (a - b) ** 2
    expected = {"mean": err.mean(), "sum": err.sum(), "none": err}[reduction]
    for out in (F.mse_loss(paddle.to_tensor(a), paddle.to_tensor(b), reduction=reduction),
                nn.MSELoss(reduction)(paddle.to_tensor(a), paddle.to_tensor(b))):
        assert out.shape == list(np.shape(expected))  # reductions give 0-D tensors
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5)


def test_mse_loss_gradient_and_errors():
    x = paddle.to_tensor(np.array([1.0, 2.0, 4.0]), stop_gradient=False)
    y = paddle.to_tensor(np.array([0.0, 2.0, 1.0]))
    nn.MSELoss()(x, y).backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (x.numpy() - y.numpy()) / 3)
    with pytest.raises(ValueError, match="'reduction' in 'mse_loss' should be 'sum', 'mean' or "
                                         "'none', but received x."):
        F.mse_loss(x, y, reduction="x")
    with pytest.raises(ValueError, match="'reduction' in 'MSELoss'"):
        nn.MSELoss("x")


# ---------------------------------------------------------------------------
# containers
# ---------------------------------------------------------------------------
