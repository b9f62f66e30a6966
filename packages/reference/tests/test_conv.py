"""Convolutions: F.conv1d/2d/3d, the transposed ones, and the Conv layers (values against
NumPy loops, shapes, padding forms, parameters and errors as PaddlePaddle has them)."""

import re

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn
from dygrad.tensor.manipulation import pad

RNG = np.random.default_rng(0)


def conv2d_loop(x, w, stride=(1, 1), pads=((0, 0), (0, 0)), dilation=(1, 1), groups=1):
    """Direct 2-D cross-correlation, one output position at a time (NCHW)."""
    xp = np.pad(x, ((0, 0), (0, 0), *pads))
    n, c = x.shape[:2]
    o, cg, kh, kw = w.shape
    oh = (xp.shape[2] - (kh - 1) * dilation[0] - 1) // stride[0] + 1
    ow = (xp.shape[3] - (kw - 1) * dilation[1] - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    for f in range(o):
        g = f // (o // groups)
        for i in range(oh):
            for j in range(ow):
                r, s = i * stride[0], j * stride[1]
                win = xp[:, g * cg:(g + 1) * cg, r:r + (kh - 1) * dilation[0] + 1:dilation[0],
                         s:s + (kw - 1) * dilation[1] + 1:dilation[1]]
                out[:, f, i, j] = np.sum(win * w[f], axis=(1, 2, 3))
    return out


def t(a, stop_gradient=True):
    return paddle.to_tensor(a, stop_gradient=stop_gradient)


# ---------------------------------------------------------------------------
# F.conv2d
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("padding,pads", [
    (0, ((0, 0), (0, 0))),
    (1, ((1, 1), (1, 1))),
    ([1, 2], ((1, 1), (2, 2))),
    ([1, 0, 2, 1], ((1, 0), (2, 1))),                       # [top, bottom, left, right]
    ([[0, 0], [0, 0], [2, 1], [0, 1]], ((2, 1), (0, 1))),   # Paddle's nested form
    ("VALID", ((0, 0), (0, 0))),
])
def test_conv2d_padding_forms(padding, pads):
    x, w, b = RNG.standard_normal((2, 4, 7, 6)), RNG.standard_normal((6, 2, 3, 2)), \
        RNG.standard_normal(6)
    out = F.conv2d(t(x), t(w), t(b), stride=[2, 1], padding=padding, groups=2)
    want = conv2d_loop(x, w, (2, 1), pads, groups=2) + b[:, None, None]
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10, atol=1e-10)


def test_conv2d_same_padding_ignores_dilation_as_paddle():
    # from Paddle 3.3.1: padding='SAME' with dilation 2 gives the dilation-1 result
    x = np.arange(2 * 3 * 7 * 6, dtype="float32").reshape(2, 3, 7, 6) / 100
    w = np.linspace(-1, 1, 4 * 3 * 3 * 3).astype("float32").reshape(4, 3, 3, 3)
    out = F.conv2d(t(x), t(w), padding="SAME", dilation=2, stride=2)
    assert out.shape == [2, 4, 4, 3]
    np.testing.assert_allclose(float(out.sum()), 84.91960906982422, rtol=1e-5)
    # SAME: out = ceil(in / stride), the odd padding element after
    want = conv2d_loop(x.astype(np.float64), w.astype(np.float64), (2, 2), ((1, 1), (0, 1)))
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-5)


def test_conv2d_dilation_depthwise_and_channels_last():
    x, w = RNG.standard_normal((1, 3, 6, 6)), RNG.standard_normal((6, 1, 2, 3))
    out = F.conv2d(t(x), t(w), padding=1, dilation=[2, 1], groups=3)
    np.testing.assert_allclose(out.numpy(), conv2d_loop(x, w, pads=((1, 1), (1, 1)),
                                                        dilation=(2, 1), groups=3), atol=1e-10)
    nhwc = F.conv2d(t(x.transpose(0, 2, 3, 1)), t(w), padding=1, dilation=[2, 1], groups=3,
                    data_format="NHWC")
    np.testing.assert_allclose(nhwc.numpy(), out.numpy().transpose(0, 2, 3, 1), atol=1e-12)


def test_conv2d_float32_stays_float32_and_batch_one():
    x = t(RNG.standard_normal((1, 1, 5, 5)).astype("float32"))
    w = t(RNG.standard_normal((2, 1, 3, 3)).astype("float32"))
    out = F.conv2d(x, w)
    assert out.dtype == paddle.float32 and out.shape == [1, 2, 3, 3]


def test_conv2d_gradients_are_the_adjoints():
    x = t(RNG.standard_normal((2, 4, 5, 5)), stop_gradient=False)
    w = t(RNG.standard_normal((6, 2, 3, 3)), stop_gradient=False)
    y = F.conv2d(x, w, stride=2, padding=1, groups=2)
    v = RNG.standard_normal(y.shape)
    (y * t(v)).sum().backward()
    # <v, conv(x, w)> is linear in x and in w: its gradient dotted with x (or w) gives it back
    total = float((y * t(v)).sum())
    np.testing.assert_allclose(np.sum(x.grad.numpy() * x.numpy()), total, rtol=1e-10)
    np.testing.assert_allclose(np.sum(w.grad.numpy() * w.numpy()), total, rtol=1e-10)


def test_conv2d_second_derivative():
    x = t(RNG.standard_normal((1, 2, 4, 4)), stop_gradient=False)
    w = t(RNG.standard_normal((3, 2, 2, 2)), stop_gradient=False)
    y = F.conv2d(x, w, padding=1)
    (gx,) = paddle.grad((y * y).sum(), [x], create_graph=True)
    (gw,) = paddle.grad(gx.sum(), [w])
    assert gw.shape == [3, 2, 2, 2] and np.abs(gw.numpy()).sum() > 0


def test_conv2d_errors_name_the_shapes():
    x = t(np.zeros((2, 3, 5, 5), "float32"))
    with pytest.raises(ValueError, match=re.escape("x of shape [2, 3, 5, 5]") + ".*"
                       + re.escape("filter of shape [4, 2, 3, 3]")):
        F.conv2d(x, t(np.zeros((4, 2, 3, 3), "float32")))
    with pytest.raises(ValueError, match="4-D"):
        F.conv2d(t(np.zeros((3, 5, 5), "float32")), t(np.zeros((4, 3, 3, 3), "float32")))
    with pytest.raises(ValueError, match="SAME"):
        F.conv2d(x, t(np.zeros((4, 3, 3, 3), "float32")), padding="FULL")
    with pytest.raises(ValueError, match="batch or channel"):
        F.conv2d(x, t(np.zeros((4, 3, 3, 3), "float32")),
                 padding=[[0, 1], [0, 0], [1, 1], [1, 1]])
    with pytest.raises(ValueError, match="data_format"):
        F.conv2d(x, t(np.zeros((4, 3, 3, 3), "float32")), data_format="NCWH")
    with pytest.raises(TypeError, match="Tensor"):
        F.conv2d(np.zeros((2, 3, 5, 5)), t(np.zeros((4, 3, 3, 3), "float32")))


# ---------------------------------------------------------------------------
# conv1d, conv3d
# ---------------------------------------------------------------------------

def test_conv1d_is_conv2d_over_a_unit_axis():
    x, w, b = RNG.standard_normal((2, 4, 9)), RNG.standard_normal((6, 2, 3)), \
        RNG.standard_normal(6)
    out = F.conv1d(t(x), t(w), t(b), stride=2, padding=[1, 2], groups=2)
    want = conv2d_loop(x[:, :, None], w[:, :, None], (1, 2), ((0, 0), (1, 2)), groups=2)[:, :, 0]
    np.testing.assert_allclose(out.numpy(), want + b[:, None], atol=1e-10)
    nlc = F.conv1d(t(x.transpose(0, 2, 1)), t(w), t(b), stride=2, padding=[1, 2], groups=2,
                   data_format="NLC")
    np.testing.assert_allclose(nlc.numpy(), out.numpy().transpose(0, 2, 1), atol=1e-12)


def test_conv3d_against_a_loop():
    x, w = RNG.standard_normal((1, 2, 4, 3, 5)), RNG.standard_normal((3, 2, 2, 2, 3))
    out = F.conv3d(t(x), t(w), stride=[1, 1, 2], padding=[1, 0, 1])
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (0, 0), (1, 1)))
    want = np.zeros(out.shape)
    for d in range(want.shape[2]):
        for i in range(want.shape[3]):
            for j in range(want.shape[4]):
                win = xp[:, :, d:d + 2, i:i + 2, 2 * j:2 * j + 3]
                want[:, :, d, i, j] = np.einsum("ncdhw,ocdhw->no", win, w)
    np.testing.assert_allclose(out.numpy(), want, atol=1e-10)


# ---------------------------------------------------------------------------
# transposed convolutions
# ---------------------------------------------------------------------------

def test_conv2d_transpose_is_the_adjoint_of_conv2d():
    x, w = RNG.standard_normal((2, 4, 9, 8)), RNG.standard_normal((4, 3, 3, 3))
    y = RNG.standard_normal((2, 4, 5, 4))
    # conv2d maps 3 -> 4 channels with weight [4, 3, 3, 3]; its transpose maps back
    up = F.conv2d_transpose(t(y), t(w), stride=2, padding=1, output_size=[9, 8])
    assert up.shape == [2, 3, 9, 8]
    down = F.conv2d(t(x[:, :3]), t(w), stride=2, padding=1)
    np.testing.assert_allclose(np.sum(up.numpy() * x[:, :3]), np.sum(down.numpy() * y),
                               rtol=1e-10)


def test_conv2d_transpose_output_sizes_as_paddle():
    x, w = t(np.ones((1, 2, 3, 3), "float32")), t(np.ones((2, 4, 3, 3), "float32"))
    # from Paddle 3.3.1: stride 2 gives 7, output_padding 1 gives 8; output_size 9 is refused
    assert F.conv2d_transpose(x, w, stride=2).shape == [1, 4, 7, 7]
    assert F.conv2d_transpose(x, w, stride=2, output_padding=1).shape == [1, 4, 8, 8]
    assert F.conv2d_transpose(x, w, stride=2, output_size=8).shape == [1, 4, 8, 8]
    with pytest.raises(ValueError, match="output_size"):
        F.conv2d_transpose(x, w, stride=2, output_size=9)
    with pytest.raises(ValueError, match="output_padding"):
        F.conv2d_transpose(x, w, stride=2, output_padding=2)
    out = F.conv2d_transpose(x, w, t(np.arange(4, dtype="float32")))
    # all-ones input and filter: each output counts the input positions reaching it, + bias
    np.testing.assert_allclose(out.numpy()[0, 1, 2, 2], 2 * 9 + 1)
    np.testing.assert_allclose(out.numpy()[0, 3, 0, 0], 2 * 1 + 3)


def test_conv1d_transpose():
    x, w = RNG.standard_normal((2, 2, 5)), RNG.standard_normal((2, 3, 3))
    out = F.conv1d_transpose(t(x), t(w), stride=2, padding=1, output_padding=1)
    want = F.conv2d_transpose(t(x[:, :, None]), t(w[:, :, None]), stride=[1, 2],
                              padding=[0, 1], output_padding=[0, 1]).numpy()[:, :, 0]
    assert out.shape == [2, 3, 10]
    np.testing.assert_allclose(out.numpy(), want, atol=1e-12)


# ---------------------------------------------------------------------------
# layers
# ---------------------------------------------------------------------------

def test_conv2d_layer_parameters_and_state_dict():
    conv = nn.Conv2D(4, 8, 3, padding=1, groups=2)
    assert conv.weight.shape == [8, 2, 3, 3] and conv.bias.shape == [8]
    assert list(conv.state_dict()) == ["weight", "bias"]
    assert re.fullmatch(r"conv2d_\d+\.w_0", conv.weight.name)
    assert re.fullmatch(r"conv2d_\d+\.b_0", conv.bias.name)
    np.testing.assert_array_equal(conv.bias.numpy(), np.zeros(8, "float32"))
    assert conv(paddle.rand([2, 4, 5, 5])).shape == [2, 8, 5, 5]
    assert nn.Conv2D(3, 4, 3, bias_attr=False).bias is None


def test_conv_default_weight_is_normal_with_paddles_std():
    paddle.seed(3)
    conv = nn.Conv2D(16, 64, 5, groups=4)
    w = conv.weight.numpy()
    # std = sqrt(2 / (in_channels * kh * kw)), in_channels counted whole (not per group)
    np.testing.assert_allclose(w.std(), np.sqrt(2 / (16 * 25)), rtol=0.05)
    assert abs(w.mean()) < 0.01


def test_conv_layer_reprs_as_paddle():
    # strings printed by Paddle 3.3.1
    assert repr(nn.Conv2D(3, 4, 3)) == "Conv2D(3, 4, kernel_size=[3, 3], data_format=NCHW)"
    assert repr(nn.Conv2D(2, 4, 3, stride=2, padding=1, dilation=2, groups=2,
                          padding_mode="reflect")) == (
        "Conv2D(2, 4, kernel_size=[3, 3], stride=[2, 2], padding=1, padding_mode=reflect, "
        "dilation=[2, 2], groups=2, data_format=NCHW)")
    assert repr(nn.Conv2DTranspose(2, 4, 3, stride=2, padding=1, output_padding=1)) == (
        "Conv2DTranspose(2, 4, kernel_size=[3, 3], stride=[2, 2], padding=1, output_padding=1, "
        "data_format=NCHW)")
    assert repr(nn.Conv1D(2, 3, 3)) == "Conv1D(2, 3, kernel_size=[3], data_format=NCL)"


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_conv2d_padding_modes(mode):
    conv = nn.Conv2D(2, 3, 3, padding=1, padding_mode=mode)
    x = paddle.rand([1, 2, 5, 4])
    want = F.conv2d(pad(x, [1, 1, 1, 1], mode=mode), conv.weight, conv.bias)
    np.testing.assert_allclose(conv(x).numpy(), want.numpy(), rtol=1e-6)
    assert conv(x).shape == [1, 3, 5, 4]


def test_conv_layer_errors():
    with pytest.raises(ValueError, match="padding_mode"):
        nn.Conv2D(2, 3, 3, padding_mode="mirror")
    with pytest.raises(TypeError, match="padding must be an int"):
        nn.Conv2D(2, 3, 3, padding=[1, 1], padding_mode="reflect")
    with pytest.raises(ValueError, match="divisible by groups"):
        nn.Conv2D(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="data_format"):
        nn.Conv2D(3, 4, 3, data_format="NCL")


def test_other_conv_layers_shapes():
    c1 = nn.Conv1D(3, 5, 3, stride=2, padding=1, data_format="NLC")
    assert c1.weight.shape == [5, 3, 3] and c1(paddle.rand([2, 9, 3])).shape == [2, 5, 5]
    c3 = nn.Conv3D(2, 4, [1, 2, 3], padding=1)
    assert c3.weight.shape == [4, 2, 1, 2, 3]
    assert c3(paddle.rand([1, 2, 3, 4, 5])).shape == [1, 4, 5, 5, 5]
    t2 = nn.Conv2DTranspose(4, 6, 3, stride=2, groups=2)
    assert t2.weight.shape == [4, 3, 3, 3] and t2.bias.shape == [6]
    assert t2(paddle.rand([1, 4, 3, 3])).shape == [1, 6, 7, 7]
    assert t2(paddle.rand([1, 4, 3, 3]), output_size=[8, 8]).shape == [1, 6, 8, 8]
    t1 = nn.Conv1DTranspose(2, 3, 4, stride=2)
    assert t1.weight.shape == [2, 3, 4] and t1(paddle.rand([1, 2, 5])).shape == [1, 3, 12]


def test_conv2d_layer_trains():
    paddle.seed(0)
    conv = nn.Conv2D(1, 2, 3, padding=1)
    opt = paddle.optimizer.SGD(0.1, parameters=conv.parameters())
    x, target = paddle.rand([4, 1, 6, 6]), paddle.rand([4, 2, 6, 6])
    losses = []
    for _ in range(5):
        loss = ((conv(x) - target) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < losses[0]
