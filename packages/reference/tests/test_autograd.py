"""The tape and its public API: backward, grad (higher order), hooks, PyLayer, safety."""

import gc
import weakref

import numpy as np
import pytest

import dygrad as paddle
from dygrad._core.autograd import BackwardError


def T(x, sg=False, dtype="float64"):
    return paddle.to_tensor(np.asarray(x, dtype=dtype), stop_gradient=sg)


def test_backward_accumulates_into_leaves():
    x = T([1.0, 2.0, 3.0])
    y = (x * x).sum()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [2, 4, 6])
    y2 = (x * x).sum()
    y2.backward()  # gradients add up across backward calls until cleared
    np.testing.assert_allclose(x.grad.numpy(), [4, 8, 12])
    np.testing.assert_allclose(x.gradient(), [4, 8, 12])
    x.clear_grad()  # Paddle 3.3.1: zeros by default, None with set_to_zero=False
    np.testing.assert_array_equal(x.grad.numpy(), [0, 0, 0])
    x.clear_grad(set_to_zero=False)
    assert x.grad is None and x.gradient() is None


def test_clear_grad_zeroes_nan_and_inf():
    """``clear_grad`` sets zeros: a NaN or Inf gradient does not survive it (``g * 0`` would
    keep NaN and turn Inf into NaN)."""
    w = T([1.0, 2.0, 3.0])
    (w * paddle.to_tensor([float("inf"), float("nan"), 1.0])).sum().backward()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    opt.clear_grad()
    np.testing.assert_array_equal(w.grad.numpy(), [0, 0, 0])
    (w * 2.0).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [2, 2, 2])


def test_grad_is_a_tensor_and_shared_inputs_sum():
    x = T([[1.0, 2.0], [3.0, 4.0]])
    y = paddle.matmul(x, x)  # x used twice by one op
    y.sum().backward()
    xn = x.numpy()
    expected = np.ones((2, 2)) @ xn.T + xn.T @ np.ones((2, 2))
    assert isinstance(x.grad, paddle.Tensor) and x.grad.stop_gradient
    np.testing.assert_allclose(x.grad.numpy(), expected)


def test_stop_gradient_prunes_recording():
    x = T([1.0, 2.0], sg=True)
    w = T([3.0, 4.0], sg=True)
    y = x * w
    assert y.stop_gradient and y.grad_fn is None  # no node when no input needs a gradient
    w.stop_gradient = False
    z = x * w
    assert not z.stop_gradient and z.grad_fn is not None
    z.sum().backward()
    assert x.grad is None
    np.testing.assert_allclose(w.grad.numpy(), [1, 2])


def test_no_grad_context_and_decorator():
    x = T([1.0])
    with paddle.no_grad():
        y = x * 2.0
        with paddle.enable_grad():
            z = x * 2.0
    assert y.stop_gradient and not z.stop_gradient
    assert paddle.is_grad_enabled()

    @paddle.no_grad()
    def f(t):
        return t * 3.0
    assert f(x).stop_gradient
    with paddle.set_grad_enabled(False):
        assert not paddle.is_grad_enabled()
    assert paddle.is_grad_enabled()


def test_non_scalar_backward_uses_ones():
    x = T([1.0, 2.0])
    (x * x).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2, 4])


def test_backward_with_grad_tensor():
    x = T([1.0, 2.0])
    (x * x).backward(paddle.to_tensor(np.array([10.0, 100.0])))
    np.testing.assert_allclose(x.grad.numpy(), [20, 400])


def test_backward_twice_needs_retain_graph():
    x = T([1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [4, 8])
    with pytest.raises(BackwardError, match="retain_graph=True"):
        y.backward()


def test_inplace_change_of_saved_tensor_is_caught():
    x = T([1.0, 2.0])
    h = x * 1.0           # non-leaf
    y = (h * h).sum()     # multiply saves h
    h.add_(paddle.to_tensor(np.array([1.0, 1.0])))
    with pytest.raises(BackwardError, match="multiply.*modified in place"):
        y.backward()


def test_inplace_on_leaf_that_needs_grad_is_refused():
    x = T([1.0, 2.0])
    with pytest.raises(RuntimeError, match="leaf"):
        x.add_(paddle.to_tensor(np.array([1.0, 1.0])))
    with paddle.no_grad():
        x.add_(paddle.to_tensor(np.array([1.0, 1.0])))
    np.testing.assert_allclose(x.numpy(), [2, 3])


def test_inplace_op_records_history():
    x = T([1.0, 2.0])
    h = x * 3.0
    h.add_(T([1.0, 1.0], sg=True))
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3, 3])


def test_paddle_grad_does_not_touch_dot_grad():
    x = T([1.0, 2.0])
    y = (x * x * x).sum()
    (g,) = paddle.grad(y, x)
    np.testing.assert_allclose(g.numpy(), [3, 12])
    assert x.grad is None
    assert g.stop_gradient


def test_second_and_third_derivatives():
    x = T([0.5, 2.0])
    y = (x * x * x).sum()
    (g,) = paddle.grad(y, x, create_graph=True)
    np.testing.assert_allclose(g.numpy(), 3 * x.numpy() ** 2)
    assert not g.stop_gradient
    (g2,) = paddle.grad(g.sum(), x, create_graph=True)
    np.testing.assert_allclose(g2.numpy(), 6 * x.numpy())
    (g3,) = paddle.grad(g2.sum(), x)
    np.testing.assert_allclose(g3.numpy(), [6, 6])


def test_second_derivative_through_matmul():
    rng = np.random.default_rng(0)
    a = T(rng.standard_normal((3, 3)))
    y = paddle.matmul(a, a).sum()
    (g,) = paddle.grad(y, a, create_graph=True)
    (h,) = paddle.grad((g * g).sum(), a)
    # numerical check of d/da sum(g(a)^2)
    def gfun(an):
        ones = np.ones((3, 3))
        return ones @ an.T + an.T @ ones
    an = a.numpy()
    eps = 1e-6
    num = np.zeros_like(an)
    for i in np.ndindex(an.shape):
        p, m = an.copy(), an.copy()
        p[i] += eps
        m[i] -= eps
        num[i] = ((gfun(p) ** 2).sum() - (gfun(m) ** 2).sum()) / (2 * eps)
    np.testing.assert_allclose(h.numpy(), num, rtol=1e-6, atol=1e-6)


def test_grad_allow_unused_and_no_grad_vars():
    x, z = T([1.0]), T([2.0])
    y = (x * 2.0).sum()
    with pytest.raises(BackwardError, match="allow_unused"):
        paddle.grad(y, [x, z], retain_graph=True)
    gx, gz = paddle.grad(y, [x, z], allow_unused=True, retain_graph=True)
    assert gz is None
    np.testing.assert_allclose(gx.numpy(), [2])
    h = x * 3.0
    out = (h * x).sum()  # d/dx = 6x through both paths; 3x with h held constant
    (g,) = paddle.grad(out, x, no_grad_vars=[h])
    np.testing.assert_allclose(g.numpy(), [3])


def test_grad_of_intermediate_tensor():
    x = T([1.0, 2.0])
    h = x * x
    y = (h * 3.0).sum()
    (gh,) = paddle.grad(y, h)
    np.testing.assert_allclose(gh.numpy(), [3, 3])


def test_grad_outputs_and_multiple_roots():
    x = T([1.0, 2.0])
    a, b = x * 2.0, x * x
    ga, gb = T([1.0, 1.0], sg=True), T([10.0, 10.0], sg=True)
    (g,) = paddle.grad([a, b], x, grad_outputs=[ga, gb])
    np.testing.assert_allclose(g.numpy(), [2 + 20, 2 + 40])
    x2 = T([1.0, 2.0])
    paddle.autograd.backward([x2 * 2.0, (x2 * x2).sum()])
    np.testing.assert_allclose(x2.grad.numpy(), [4, 6])


def test_hooks_on_leaf_and_intermediate():
    x = T([1.0, 2.0])
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.numpy().copy()))
    h = x * 2.0
    h.register_hook(lambda g: g * 10.0)  # replaces the gradient flowing through h
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [20, 20])
    np.testing.assert_allclose(seen[0], [20, 20])
    handle.remove()
    x.clear_grad()
    (x * 1.0).sum().backward()
    assert len(seen) == 1


def test_retain_grads_keeps_intermediate_gradient():
    x = T([1.0, 2.0])
    h = x * 2.0
    h.retain_grads()
    (h * h).sum().backward()
    np.testing.assert_allclose(h.grad.numpy(), 2 * h.numpy())
    assert (x * 1.0).grad is None


def test_backward_on_stop_gradient_tensor_errors():
    x = T([1.0], sg=True)
    with pytest.raises(BackwardError, match="stop_gradient=True"):
        (x * 2.0).sum().backward()


def test_detach_cuts_the_graph():
    x = T([1.0, 2.0])
    d = (x * 2.0).detach()
    assert d.stop_gradient and d.is_leaf
    y = (x * d).sum()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [2, 4])


def test_graph_is_freed_after_backward():
    x = T(np.ones(3))
    y = (x * x).sum()
    node = weakref.ref(y.grad_fn)
    y.backward()
    assert y.grad_fn._saved is None  # saved tensors dropped as soon as the node ran
    del y
    gc.collect()
    assert node() is None


class Tanh(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x, scale=1.0):
        y = paddle.to_tensor(np.tanh(x.numpy()) * scale)
        ctx.save_for_backward(y)
        ctx.scale = scale
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy.numpy() * (ctx.scale - y.numpy() ** 2 / ctx.scale)  # NumPy is accepted


class MulTwo(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b, a * 2.0

    @staticmethod
    def backward(ctx, d1, d2):
        a, b = ctx.saved_tensor()
        return d1 * b + d2 * 2.0, d1 * a  # written in dygrad ops


def test_pylayer_with_numpy_backward_and_kwargs():
    x = T([0.1, -0.5])
    y = Tanh.apply(x, scale=2.0)
    assert not y.stop_gradient
    y.sum().backward()
    xn = x.numpy()
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * (1 - np.tanh(xn) ** 2))


def test_pylayer_with_several_outputs():
    a, b = T([1.0, 2.0]), T([3.0, 4.0])
    p, q = MulTwo.apply(a, b)
    (p.sum() + q.sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), [5, 6])
    np.testing.assert_allclose(b.grad.numpy(), [1, 2])


def test_pylayer_second_derivative_via_ops():
    a, b = T([1.0, 2.0]), T([3.0, 4.0])
    p, _ = MulTwo.apply(a, b)
    (ga,) = paddle.grad(p.sum(), a, create_graph=True)
    np.testing.assert_allclose(ga.numpy(), [3, 4])
    (gb,) = paddle.grad(ga.sum(), b)
    np.testing.assert_allclose(gb.numpy(), [1, 1])


def test_pylayer_wrong_number_of_gradients():
    class Bad(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, d):
            return d

    a, b = T([1.0]), T([2.0])
    with pytest.raises(BackwardError, match="returned 1 gradients"):
        Bad.apply(a, b).sum().backward()


def test_training_loop_leaves_no_graph_behind():
    """Refcounting alone frees each step's graph (no reference cycles): with the cyclic
    collector off, no Node survives a training loop."""
    from dygrad._core.autograd import Node
    rng = np.random.default_rng(0)
    inputs = paddle.to_tensor(rng.random((16, 8)))
    w = paddle.Parameter(rng.standard_normal((8, 3)) * 0.1)
    gc.collect()
    # Nodes that other tests' live objects hold (a to_static function's cached programs
    # record their ops' Nodes): kept alive here, so their ids stay theirs
    before = [o for o in gc.get_objects() if isinstance(o, Node)]
    old = {id(o) for o in before}

    def ours():
        return [o for o in gc.get_objects() if isinstance(o, Node) and id(o) not in old]
    gc.disable()
    try:
        for _ in range(50):
            hidden = paddle.matmul(inputs, w)
            out = paddle.matmul(hidden, w, transpose_y=True)
            diff = out + inputs * -1.0
            loss = (diff * diff).sum()
            loss.backward()
            with paddle.no_grad():
                w._data -= 0.01 * w.grad._data
            w.clear_grad()
        del hidden, out, diff
        alive = ours()
        assert loss.grad_fn is not None and len(alive) == 5  # the last step's graph only
        del loss, alive
        assert ours() == []
    finally:
        gc.enable()
