"""Vision models and layers: LeNet as Paddle's (structure, state_dict, a Paddle-computed
output); interpolate / Upsample, pixel_shuffle and unfold against NumPy and Paddle."""

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn
from dygrad.vision.models import LeNet

# parameter names and shapes of Paddle 3.3.1's LeNet().state_dict()
PADDLE_LENET = [("features.0.weight", [6, 1, 3, 3]), ("features.0.bias", [6]),
                ("features.3.weight", [16, 6, 5, 5]), ("features.3.bias", [16]),
                ("fc.0.weight", [400, 120]), ("fc.0.bias", [120]),
                ("fc.1.weight", [120, 84]), ("fc.1.bias", [84]),
                ("fc.2.weight", [84, 10]), ("fc.2.bias", [10])]


def test_lenet_state_dict_matches_paddle():
    model = LeNet()
    assert [(k, v.shape) for k, v in model.state_dict().items()] == PADDLE_LENET
    assert paddle.vision.models.LeNet is LeNet


def test_lenet_output_from_a_paddle_state_dict():
    """Weights sin(0.37 k + i) * 0.2 for the i-th entry, input cos(0.11 k); the expected
    output was computed by Paddle 3.3.1's LeNet with the same state dict."""
    model = LeNet()
    state = {}
    for i, (name, shape) in enumerate(PADDLE_LENET):
        n = int(np.prod(shape))
        state[name] = (np.sin(np.arange(n) * 0.37 + i) * 0.2).reshape(shape).astype("float32")
    model.set_state_dict(state)
    x = np.cos(np.arange(2 * 28 * 28) * 0.11).reshape(2, 1, 28, 28).astype("float32")
    out = model(paddle.to_tensor(x))
    want = [[-0.2666148, -0.35238168, -0.39045548, -0.37568313, -0.31006396, -0.2024788,
             -0.06748916, 0.07663479, 0.21038665, 0.31566378],
            [0.07714964, -0.00753147, -0.09119317, -0.16251253, -0.21183687, -0.23248947,
             -0.22167599, -0.18085967, -0.11556451, -0.03462895]]
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-4, atol=1e-5)


def test_lenet_without_classifier_and_training_step():
    features = LeNet(num_classes=0)
    assert not hasattr(features, "fc")
    assert features(paddle.rand([3, 1, 28, 28])).shape == [3, 16, 5, 5]
    paddle.seed(1)
    model = LeNet(num_classes=4)
    opt = paddle.optimizer.Adam(1e-3, parameters=model.parameters())
    x, y = paddle.rand([8, 1, 28, 28]), paddle.rand([8, 4])
    losses = []
    for _ in range(4):
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < losses[0]


def test_lenet_repr_as_paddle():
    # Paddle 3.3.1 prints the same lines
    lines = repr(LeNet()).splitlines()
    assert lines[2] == "    (0): Conv2D(1, 6, kernel_size=[3, 3], padding=1, data_format=NCHW)"
    assert lines[4] == "    (2): MaxPool2D(kernel_size=2, stride=2, padding=0)"
    assert lines[5] == "    (3): Conv2D(6, 16, kernel_size=[5, 5], data_format=NCHW)"


# ---------------------------------------------------------------------------
# interpolate / Upsample, pixel_shuffle, unfold
# ---------------------------------------------------------------------------
RNG = np.random.default_rng(0)
GRID = np.arange(2 * 3 * 4 * 5, dtype="float32").reshape(2, 3, 4, 5)


def t(a, stop_gradient=True):
    return paddle.to_tensor(a, stop_gradient=stop_gradient)


def test_interpolate_nearest():
    x = RNG.standard_normal((2, 3, 4, 5))
    out = F.interpolate(t(x), size=[8, 3])
    rows, cols = np.floor(np.arange(8) * 4 / 8).astype(int), np.floor(np.arange(3) * 5 / 3).astype(int)
    np.testing.assert_array_equal(out.numpy(), x[:, :, rows][:, :, :, cols])
    # from Paddle 3.3.1: scale_factor 1.5 reads columns floor(k / 1.5)
    row = F.interpolate(t(GRID), scale_factor=1.5).numpy()[1, 2, 1]
    np.testing.assert_array_equal(row, [100, 100, 101, 102, 102, 103, 104])


def test_interpolate_bilinear_align_corners_is_np_interp():
    x = RNG.standard_normal((1, 2, 4, 5))
    out = F.interpolate(t(x), size=[7, 9], mode="bilinear", align_corners=True).numpy()
    hs, ws = np.linspace(0, 3, 7), np.linspace(0, 4, 9)
    along_w = np.apply_along_axis(lambda v: np.interp(ws, np.arange(5), v), 3, x)
    want = np.apply_along_axis(lambda v: np.interp(hs, np.arange(4), v), 2, along_w)
    np.testing.assert_allclose(out, want, atol=1e-12)


@pytest.mark.parametrize("kw,row", [
    # from Paddle 3.3.1 (row [1, 2, 1] of the result)
    (dict(size=[3, 7], mode="bilinear"),
     [107.5, 108.0714035, 108.7856979, 109.5, 110.2143021, 110.9285965, 111.5]),
    (dict(size=[3, 7], mode="bilinear", align_mode=1),
     [106.6667023, 107.3809967, 108.0951996, 108.8095016, 109.5238037, 110.2380981, 110.6667023]),
    (dict(scale_factor=[0.5, 2], mode="bilinear"),
     [112.5, 112.75, 113.25, 113.75, 114.25, 114.75, 115.25, 115.75, 116.25, 116.5]),
])
def test_interpolate_bilinear_as_paddle(kw, row):
    np.testing.assert_allclose(F.interpolate(t(GRID), **kw).numpy()[1, 2, 1], row, rtol=1e-6)


def test_interpolate_bicubic_area_linear_as_paddle():
    # from Paddle 3.3.1
    cubic = F.interpolate(t(GRID), scale_factor=2, mode="bicubic").numpy()[0, 0, 1]
    np.testing.assert_allclose(cubic, [0.8516, 1.1484, 1.625, 2.2539, 2.6602, 3.2539, 3.6602,
                                       4.2891, 4.7656, 5.0625], atol=1e-4)
    area = F.interpolate(t(GRID), size=[3, 2], mode="area").numpy()[0, 0]
    np.testing.assert_allclose(area, [[3.5, 5.5], [8.5, 10.5], [13.5, 15.5]])
    line = F.interpolate(t(np.arange(30, dtype="float32").reshape(2, 3, 5)), size=[8],
                         mode="linear", data_format="NCW").numpy()[0, 0]
    np.testing.assert_allclose(line, [0, 0.4375, 1.0625, 1.6875, 2.3125, 2.9375, 3.5625, 4])


def test_interpolate_channels_last_5d_and_gradient():
    x = RNG.standard_normal((1, 4, 5, 3))
    nhwc = F.interpolate(t(x), size=[7, 2], mode="bilinear", data_format="NHWC")
    nchw = F.interpolate(t(x.transpose(0, 3, 1, 2)), size=[7, 2], mode="bilinear")
    np.testing.assert_allclose(nhwc.numpy(), nchw.numpy().transpose(0, 2, 3, 1), atol=1e-12)
    assert F.interpolate(paddle.rand([1, 2, 3, 4, 5]), scale_factor=2,
                         mode="trilinear").shape == [1, 2, 6, 8, 10]
    # resizing is linear: <v, resize(x)> has gradient resize^T v, whose dot with x gives it back
    xt = t(RNG.standard_normal((2, 1, 3, 4)), stop_gradient=False)
    y = F.interpolate(xt, size=[5, 6], mode="bicubic")
    v = t(RNG.standard_normal(y.shape))
    (y * v).sum().backward()
    np.testing.assert_allclose(np.sum(xt.grad.numpy() * xt.numpy()), float((y * v).sum()),
                               rtol=1e-10)


def test_interpolate_errors_as_paddle():
    x = t(GRID)
    with pytest.raises(ValueError, match="exactly one of size and scale_factor"):
        F.interpolate(x, size=[3, 3], scale_factor=2)
    with pytest.raises(ValueError, match="exactly one"):
        F.interpolate(x)
    with pytest.raises(ValueError, match="align_corners"):
        F.interpolate(x, size=[3, 3], align_corners=True)
    with pytest.raises(ValueError, match="'linear' needs a 3-D"):
        F.interpolate(x, size=[3, 3], mode="linear")
    with pytest.raises(ValueError, match="mode"):
        F.interpolate(x, size=[3, 3], mode="lanczos")


def test_upsample_layers():
    x = paddle.rand([1, 2, 3, 4])
    assert nn.Upsample(scale_factor=2)(x).shape == [1, 2, 6, 8]
    np.testing.assert_array_equal(nn.Upsample(size=[5, 5], mode="bilinear")(x).numpy(),
                                  F.upsample(x, size=[5, 5], mode="bilinear").numpy())
    up = nn.UpsamplingBilinear2D(scale_factor=2)(x)
    np.testing.assert_allclose(up.numpy(), F.interpolate(x, scale_factor=2, mode="bilinear",
                                                         align_corners=True).numpy())
    assert nn.UpsamplingNearest2D(size=[3, 8])(x).shape == [1, 2, 3, 8]
    # strings printed by Paddle 3.3.1
    assert repr(nn.Upsample(scale_factor=2)) == ("Upsample(scale_factor=2, mode=nearest, "
                                                 "align_corners=False, align_mode=0, "
                                                 "data_format=None)")
    assert repr(nn.UpsamplingNearest2D(scale_factor=2)) == \
        "UpsamplingNearest2D(scale_factor=2, data_format=NCHW)"


def test_pixel_shuffle():
    x = RNG.standard_normal((2, 12, 3, 4))
    out = F.pixel_shuffle(t(x), 2).numpy()
    assert out.shape == (2, 3, 6, 8)
    for c in range(3):
        for i in range(2):
            for j in range(2):
                np.testing.assert_array_equal(out[:, c, i::2, j::2], x[:, c * 4 + i * 2 + j])
    nhwc = F.pixel_shuffle(t(x.transpose(0, 2, 3, 1)), 2, data_format="NHWC").numpy()
    np.testing.assert_array_equal(nhwc, out.transpose(0, 2, 3, 1))
    assert nn.PixelShuffle(2)(t(x)).shape == [2, 3, 6, 8]
    assert repr(nn.PixelShuffle(2, "NHWC")) == "PixelShuffle(upscale_factor=2, data_format=NHWC)"
    with pytest.raises(ValueError, match="must divide the number of channels"):
        F.pixel_shuffle(t(x), 3)


def test_unfold():
    x = RNG.standard_normal((2, 3, 5, 6))
    out = F.unfold(t(x), [2, 3], strides=[1, 2], paddings=[1, 2, 0, 1], dilations=[2, 1])
    # paddings [top, left, bottom, right]
    xp = np.pad(x, ((0, 0), (0, 0), (1, 0), (2, 1)))
    oh, ow = (6 - 3) // 1 + 1, (9 - 3) // 2 + 1
    want = np.stack([xp[:, :, i:i + 3:2, 2 * j:2 * j + 3].reshape(2, -1)
                     for i in range(oh) for j in range(ow)], axis=-1)
    assert out.shape == [2, 18, oh * ow]
    np.testing.assert_array_equal(out.numpy(), want)
    layer = nn.Unfold([2, 2])
    assert layer(t(x)).shape == [2, 12, 20]
    assert repr(layer) == "Unfold(kernel_size=[2, 2], dilation=1, padding=0, stride=1)"
    with pytest.raises(ValueError, match="larger than the padded input"):
        F.unfold(t(x), [6, 6])
