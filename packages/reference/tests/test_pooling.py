"""Pooling: F.max/avg/adaptive pooling in 1-D and 2-D and their layers (values against
NumPy, Paddle's masks, ceil_mode and exclusive rules, gradients, errors)."""

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn

RNG = np.random.default_rng(0)
LOWEST = np.finfo(np.float32).min


def t(a, stop_gradient=True):
    return paddle.to_tensor(a, stop_gradient=stop_gradient)


def blocks(x, k):
    """x [N, C, H, W] cut into non-overlapping k x k blocks: [N, C, H/k, W/k, k * k]."""
    n, c, h, w = x.shape
    return x.reshape(n, c, h // k, k, w // k, k).transpose(0, 1, 2, 4, 3, 5).reshape(
        n, c, h // k, w // k, k * k)


FIVE = np.arange(25, dtype="float32").reshape(1, 1, 5, 5)


def test_max_pool2d_values_and_mask():
    x = RNG.standard_normal((2, 3, 6, 4))
    out, mask = F.max_pool2d(t(x), 2, return_mask=True)
    b = blocks(x, 2)
    np.testing.assert_array_equal(out.numpy(), b.max(-1))
    assert mask.dtype == paddle.int32
    k = b.argmax(-1)
    rows = np.arange(3)[:, None] * 2 + k // 2
    cols = np.arange(2) * 2 + k % 2
    np.testing.assert_array_equal(mask.numpy(), rows * 4 + cols)
    assert F.max_pool2d(t(x), 2).shape == [2, 3, 3, 2]


def test_max_pool2d_ceil_mode_as_paddle():
    # from Paddle 3.3.1: a window of padding only gives the lowest float32 and mask -1
    out, mask = F.max_pool2d(t(FIVE), 2, 2, padding=1, ceil_mode=True, return_mask=True)
    np.testing.assert_array_equal(out.numpy()[0, 0], [[0, 2, 4, LOWEST], [10, 12, 14, LOWEST],
                                                      [20, 22, 24, LOWEST], [LOWEST] * 4])
    np.testing.assert_array_equal(mask.numpy()[0, 0], [[0, 2, 4, -1], [10, 12, 14, -1],
                                                       [20, 22, 24, -1], [-1] * 4])
    assert F.max_pool2d(t(FIVE), 3, 2, ceil_mode=True).shape == [1, 1, 2, 2]


def test_max_pool2d_gradient_goes_to_the_maxima():
    x = t(RNG.permutation(32).reshape(1, 2, 4, 4).astype("float64"), stop_gradient=False)
    out, mask = F.max_pool2d(x, 3, 1, padding=1, return_mask=True)
    g = RNG.standard_normal(out.shape)
    (out * t(g)).sum().backward()
    want = np.zeros((1, 2, 16))
    for c in range(2):
        np.add.at(want[0, c], mask.numpy()[0, c].ravel(), g[0, c].ravel())
    np.testing.assert_allclose(x.grad.numpy(), want.reshape(1, 2, 4, 4))


def test_max_pool2d_channels_last_and_mask_error():
    x = RNG.standard_normal((1, 4, 4, 3))
    out = F.max_pool2d(t(x), 2, data_format="NHWC")
    np.testing.assert_array_equal(
        out.numpy(), F.max_pool2d(t(x.transpose(0, 3, 1, 2)), 2).numpy().transpose(0, 2, 3, 1))
    with pytest.raises(ValueError, match="data_format must be 'NCHW'"):
        F.max_pool2d(t(x), 2, return_mask=True, data_format="NHWC")


def test_avg_pool2d_values():
    x = RNG.standard_normal((2, 3, 4, 6))
    np.testing.assert_allclose(F.avg_pool2d(t(x), 2).numpy(), blocks(x, 2).mean(-1))
    # exclusive (the default) divides by the elements inside x, else by the window size
    ones = t(np.ones((1, 1, 3, 3)))
    np.testing.assert_allclose(F.avg_pool2d(ones, 3, 1, padding=1).numpy(), np.ones((1, 1, 3, 3)))
    np.testing.assert_allclose(F.avg_pool2d(ones, 3, 1, padding=1, exclusive=False).numpy()[0, 0],
                               [[4 / 9, 6 / 9, 4 / 9], [6 / 9, 1, 6 / 9], [4 / 9, 6 / 9, 4 / 9]])


def test_avg_pool2d_ceil_mode_as_paddle():
    # from Paddle 3.3.1
    excl = F.avg_pool2d(t(FIVE), 2, 2, padding=1, ceil_mode=True).numpy()[0, 0]
    np.testing.assert_allclose(excl[:3, :3], [[0, 1.5, 3.5], [7.5, 9, 11], [17.5, 19, 21]])
    assert np.isnan(excl[3]).all() and np.isnan(excl[:, 3]).all()
    incl = F.avg_pool2d(t(FIVE), 2, 2, padding=1, ceil_mode=True, exclusive=False).numpy()[0, 0]
    np.testing.assert_allclose(incl, [[0, 0.75, 1.75, 0], [3.75, 9, 11, 0], [8.75, 19, 21, 0],
                                      [0, 0, 0, 0]])
    # the padding after x is not counted by non-exclusive windows
    right = F.avg_pool2d(t(FIVE), 2, 2, padding=[0, 1, 0, 1], exclusive=False).numpy()[0, 0]
    np.testing.assert_allclose(right, [[3, 5, 6.5], [13, 15, 16.5], [20.5, 22.5, 24]])


def test_avg_pool2d_divisor_override_and_gradient():
    x = t(RNG.standard_normal((1, 2, 4, 4)), stop_gradient=False)
    out = F.avg_pool2d(x, 2, divisor_override=2)
    np.testing.assert_allclose(out.numpy(), blocks(x.numpy(), 2).sum(-1) / 2)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full((1, 2, 4, 4), 0.5))


def test_pool1d():
    x = RNG.standard_normal((2, 3, 7))
    out, mask = F.max_pool1d(t(x), 3, 2, padding=1, return_mask=True)
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1)), constant_values=-np.inf)
    win = np.stack([xp[..., 2 * i:2 * i + 3] for i in range(4)], axis=2)
    np.testing.assert_array_equal(out.numpy(), win.max(-1))
    np.testing.assert_array_equal(mask.numpy(), np.arange(4) * 2 - 1 + win.argmax(-1))
    avg = F.avg_pool1d(t(x), 2)
    np.testing.assert_allclose(avg.numpy(), x[..., :6].reshape(2, 3, 3, 2).mean(-1))


def adaptive_bins(n, m):
    return [(i * n // m, -(-(i + 1) * n // m)) for i in range(m)]


@pytest.mark.parametrize("size,out", [((5, 5), 3), ((7, 4), [2, 3]), ((6, 6), [None, 2]),
                                      ((3, 5), 1)])
def test_adaptive_pool2d(size, out):
    x = RNG.standard_normal((2, 3) + size)
    oh, ow = (out, out) if isinstance(out, int) else (out[0] or size[0], out[1])
    avg = F.adaptive_avg_pool2d(t(x), out).numpy()
    mx, mask = F.adaptive_max_pool2d(t(x), out, return_mask=True)
    assert avg.shape == (2, 3, oh, ow) and mx.shape == [2, 3, oh, ow]
    for i, (r0, r1) in enumerate(adaptive_bins(size[0], oh)):
        for j, (c0, c1) in enumerate(adaptive_bins(size[1], ow)):
            block = x[:, :, r0:r1, c0:c1]
            np.testing.assert_allclose(avg[:, :, i, j], block.mean(axis=(2, 3)))
            np.testing.assert_array_equal(mx.numpy()[:, :, i, j], block.max(axis=(2, 3)))
    flat = x.reshape(2, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, mask.numpy().reshape(2, 3, -1), 2),
                                  mx.numpy().reshape(2, 3, -1))


def test_adaptive_pool_as_paddle_and_gradients():
    # from Paddle 3.3.1
    out, mask = F.adaptive_max_pool2d(t(FIVE), 3, return_mask=True)
    np.testing.assert_array_equal(mask.numpy()[0, 0], [[6, 8, 9], [16, 18, 19], [21, 23, 24]])
    x = t(RNG.standard_normal((1, 1, 5, 5)), stop_gradient=False)
    F.adaptive_avg_pool2d(x, 2).sum().backward()
    # overlapping bins [0, 3) and [2, 5): the middle row and column count twice
    w = np.array([1 / 3, 1 / 3, 2 / 3, 1 / 3, 1 / 3])
    np.testing.assert_allclose(x.grad.numpy()[0, 0], np.outer(w, w))
    nhwc = F.adaptive_avg_pool2d(t(FIVE.transpose(0, 2, 3, 1)), 2, data_format="NHWC")
    np.testing.assert_allclose(nhwc.numpy().transpose(0, 3, 1, 2),
                               F.adaptive_avg_pool2d(t(FIVE), 2).numpy())


def test_adaptive_pool1d():
    x = RNG.standard_normal((2, 3, 7))
    avg = F.adaptive_avg_pool1d(t(x), 3).numpy()
    mx, mask = F.adaptive_max_pool1d(t(x), 3, return_mask=True)
    for i, (a, b) in enumerate(adaptive_bins(7, 3)):
        np.testing.assert_allclose(avg[..., i], x[..., a:b].mean(-1))
        np.testing.assert_array_equal(mx.numpy()[..., i], x[..., a:b].max(-1))
        np.testing.assert_array_equal(mask.numpy()[..., i], a + x[..., a:b].argmax(-1))


def test_pooling_errors():
    with pytest.raises(ValueError, match="4-D"):
        F.max_pool2d(t(np.zeros((2, 3, 4))), 2)
    with pytest.raises(ValueError, match="3-D"):
        F.avg_pool1d(t(np.zeros((2, 3, 4, 4))), 2)
    with pytest.raises(ValueError, match="larger than the padded input"):
        F.max_pool2d(t(np.zeros((1, 1, 2, 2))), 3)
    with pytest.raises(ValueError, match="output_size"):
        F.adaptive_avg_pool2d(t(np.zeros((1, 1, 4, 4))), 0)
    with pytest.raises(TypeError, match="Tensor"):
        F.avg_pool2d(np.zeros((1, 1, 4, 4)), 2)


def test_pooling_layers():
    x = paddle.rand([2, 3, 8, 8])
    assert nn.MaxPool2D(2)(x).shape == [2, 3, 4, 4]   # stride None means kernel_size
    out, mask = nn.MaxPool2D(3, 2, 1, return_mask=True)(x)
    assert out.shape == mask.shape == [2, 3, 4, 4]
    assert nn.AvgPool2D(3, 1, 1, ceil_mode=True, exclusive=False)(x).shape == [2, 3, 8, 8]
    assert nn.AdaptiveAvgPool2D([2, None])(x).shape == [2, 3, 2, 8]
    assert nn.AdaptiveMaxPool2D(3, return_mask=True)(x)[1].shape == [2, 3, 3, 3]
    x1 = paddle.rand([2, 3, 9])
    assert nn.MaxPool1D(3)(x1).shape == [2, 3, 3]
    assert nn.AvgPool1D(2, 1, padding=1)(x1).shape == [2, 3, 10]
    assert nn.AdaptiveAvgPool1D(4)(x1).shape == [2, 3, 4]
    assert nn.AdaptiveMaxPool1D(4, return_mask=True)(x1)[1].shape == [2, 3, 4]
    assert nn.MaxPool2D(2).parameters() == []


def test_pooling_layer_reprs_as_paddle():
    # strings printed by Paddle 3.3.1
    assert repr(nn.MaxPool2D(2, 1, 1, return_mask=True)) == \
        "MaxPool2D(kernel_size=2, stride=1, padding=1)"
    assert repr(nn.AvgPool1D(3)) == "AvgPool1D(kernel_size=3, stride=None, padding=0)"
    assert repr(nn.AdaptiveAvgPool2D(3)) == "AdaptiveAvgPool2D(output_size=3)"
    assert repr(nn.AdaptiveMaxPool1D(2)) == "AdaptiveMaxPool1D(output_size=2, return_mask=False)"
