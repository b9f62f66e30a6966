"""F.conv2d / Conv2D with a bias as one op (``fused_conv2d_bias``): conv2d + add's results,
gradients and errors, on every engine; conv2d and add wherever the one op does not fit."""

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad.autograd import why_none

pytestmark = pytest.mark.usefixtures("engine")


def _tensors(dtype, xs=(2, 3, 7, 6), ws=(4, 3, 3, 2), seed=0):
    rng = np.random.default_rng(seed)
    return [paddle.to_tensor(rng.standard_normal(s).astype(dtype), stop_gradient=False)
            for s in (xs, ws, ws[:1])]


def _plain(x, w, b, data_format="NCHW", **kw):
    """conv2d and the bias add as two ops (what F.conv2d ran before the fused op)."""
    out = F.conv2d(x, w, data_format=data_format, **kw)
    return paddle.add(out, b if data_format == "NHWC" else b.reshape([1, -1, 1, 1]))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("data_format,kw", [
    ("NCHW", {}),
    ("NCHW", {"stride": 2, "padding": 1}),
    ("NHWC", {"padding": [1, 0, 0, 1]}),
])
def test_conv2d_with_bias_is_one_op_equal_to_conv2d_and_add(dtype, data_format, kw):
    x, w, b = _tensors(dtype, xs=(2, 7, 6, 3) if data_format == "NHWC" else (2, 3, 7, 6))
    fused, plain = F.conv2d(x, w, b, data_format=data_format, **kw), _plain(
        x, w, b, data_format, **kw)
    assert fused._grad_fn.op.name == "fused_conv2d_bias"
    np.testing.assert_array_equal(fused.numpy(), plain.numpy())
    v = paddle.to_tensor(np.random.default_rng(1).standard_normal(fused.shape).astype(dtype))
    grads = [paddle.grad((out * v).sum(), [x, w, b], create_graph=True)
             for out in (fused, plain)]
    tol = 1e-5 if dtype == "float32" else 1e-12
    for g_fused, g_plain in zip(*grads):
        np.testing.assert_allclose(g_fused.numpy(), g_plain.numpy(), rtol=tol, atol=tol)
    axes = (0, 1, 2) if data_format == "NHWC" else (0, 2, 3)
    np.testing.assert_allclose(grads[0][2].numpy(), v.numpy().sum(axis=axes), rtol=tol)
    second = [paddle.grad((gx * gx).sum() + (gw * gw).sum(), [w, x]) for gx, gw, _ in grads]
    for g_fused, g_plain in zip(*second):
        np.testing.assert_allclose(g_fused.numpy(), g_plain.numpy(), rtol=tol, atol=tol)


def test_conv2d_layer_under_no_grad_is_one_op():
    """No node under no_grad, but the tape is cut at the one op, and the result is conv2d +
    add's."""
    paddle.seed(0)
    conv = paddle.nn.Conv2D(3, 5, 3, padding=1)
    x = paddle.to_tensor(np.random.default_rng(2).standard_normal((1, 3, 4, 5)), "float32")
    with paddle.no_grad():
        out = conv(x)  # frozen conv
        plain = _plain(x, conv.weight, conv.bias, padding=1)
    np.testing.assert_array_equal(out.numpy(), plain.numpy())
    assert "by op 'fused_conv2d_bias'" in why_none(conv.bias)


def test_one_op_training_matches_conv2d_and_add():
    """A few SGD steps of Conv2D + ReLU + Linear: the same losses and parameters as with
    conv2d and add (run as two ops by hand)."""
    def run(fused):
        paddle.seed(3)
        conv, fc = paddle.nn.Conv2D(1, 4, 3), paddle.nn.Linear(4 * 4 * 4, 3)
        opt = paddle.optimizer.SGD(0.1, parameters=conv.parameters() + fc.parameters())
        rng = np.random.default_rng(4)
        losses = []
        for _ in range(3):
            x = paddle.to_tensor(rng.standard_normal((2, 1, 6, 6)).astype("float32"))
            h = conv(x) if fused else _plain(x, conv.weight, conv.bias)
            loss = fc(F.relu(h).flatten(1)).square().mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return losses, conv.weight.numpy(), conv.bias.numpy()
    for got, want in zip(run(True), run(False)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_conv2d_and_add_where_one_op_does_not_fit():
    """A bias that is not [out_channels] of x's dtype: conv2d and add, with their results and
    errors."""
    x, w, _ = _tensors("float32")
    out = F.conv2d(x, w, paddle.ones([4, 1, 1]))  # broadcasts as add does
    assert out._grad_fn.op.name == "add"
    np.testing.assert_array_equal(out.numpy(), F.conv2d(x, w).numpy() + 1)
    with pytest.raises(ValueError, match="add"):
        F.conv2d(x, w, paddle.ones([3]))
    b64 = paddle.ones([4], "float64")
    out = F.conv2d(x, w, b64)
    assert out._grad_fn.op.name == "add"
    assert out.dtype == paddle.add(F.conv2d(x, w), b64.reshape([1, -1, 1, 1])).dtype
    with pytest.raises(TypeError, match="bias must be a Tensor"):
        F.conv2d(x, w, [1.0, 2.0, 3.0, 4.0])


def test_one_op_errors_name_conv2d():
    x, w, b = _tensors("float32")
    with pytest.raises(ValueError, match=r"conv2d: the input's channels \(3") as info:
        F.conv2d(x, paddle.ones([4, 2, 3, 3]), b)
    assert "paddle.nn.functional.conv2d(x: float32[2, 3, 7, 6]" in str(info.value)


def test_static_programs_keep_conv2d_and_add():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            img = paddle.static.data("img", [None, 1, 6, 6], "float32")
            paddle.nn.Conv2D(1, 2, 3)(img)
        types = [op.type for op in main.global_block().ops]
    finally:
        paddle.disable_static()
    assert "conv2d" in types and "fused_conv2d_bias" not in types
