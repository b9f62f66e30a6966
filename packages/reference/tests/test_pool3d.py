"""3-D pooling: F.max/avg/adaptive pooling over [N, C, D, H, W] and their layers (values
against NumPy window loops, Paddle's masks and padding rules, gradients by central
differences, output shapes for odd sizes, errors)."""

import itertools

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad import nn

RNG = np.random.default_rng(0)


def t(a, stop_gradient=True):
    return paddle.to_tensor(a, stop_gradient=stop_gradient)


def window_loop(x, k, s, p, reduce):
    """reduce over each window of x [N, C, D, H, W] (no ceil_mode), one output at a time;
    reduce gets the window's values inside x and its size counting padding."""
    out_size = [(n + 2 * pp - kk) // ss + 1 for n, kk, ss, pp in zip(x.shape[2:], k, s, p)]
    out = np.empty(x.shape[:2] + tuple(out_size))
    for o in itertools.product(*map(range, out_size)):
        lo = [i * ss - pp for i, ss, pp in zip(o, s, p)]
        box = tuple(slice(max(a, 0), a + kk) for a, kk in zip(lo, k))
        out[(Ellipsis,) + o] = reduce(x[(slice(None), slice(None)) + box], int(np.prod(k)))
    return out


def central_difference(f, x, eps=1e-6):
    """d sum(f(x) * w) / dx for a fixed random w, by central differences (float64)."""
    w = RNG.standard_normal(f(x).shape)
    grad = np.zeros_like(x)
    for i in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = np.sum((f(up) - f(down)) * w) / (2 * eps)
    return w, grad


def check_gradient(fn, x):
    w, want = central_difference(lambda a: fn(t(a)).numpy(), x)
    xt = t(x, stop_gradient=False)
    (fn(xt) * t(w)).sum().backward()
    np.testing.assert_allclose(xt.grad.numpy(), want, rtol=1e-5, atol=1e-6)


def test_max_pool3d_values_and_mask():
    x = RNG.standard_normal((2, 3, 5, 4, 7))
    out, mask = F.max_pool3d(t(x), 3, stride=2, padding=1, return_mask=True)
    want = window_loop(x, (3, 3, 3), (2, 2, 2), (1, 1, 1),
                       lambda b, _: b.max(axis=(2, 3, 4)))
    np.testing.assert_array_equal(out.numpy(), want)
    assert mask.dtype == paddle.int32 and out.shape == [2, 3, 3, 2, 4]
    # the mask is the flat index into D * H * W of each maximum
    np.testing.assert_array_equal(
        np.take_along_axis(x.reshape(2, 3, -1), mask.numpy().reshape(2, 3, -1), axis=2),
        want.reshape(2, 3, -1))


def test_avg_pool3d_values_exclusive_and_not():
    x = RNG.standard_normal((1, 2, 5, 6, 3))
    k, s, p = (2, 3, 2), (2, 2, 1), (1, 1, 0)
    exclusive = F.avg_pool3d(t(x), k, stride=s, padding=p).numpy()
    np.testing.assert_allclose(exclusive, window_loop(x, k, s, p, lambda b, _: b.mean(
        axis=(2, 3, 4))), rtol=1e-12)
    # not exclusive: padding counts in the window's size
    inclusive = F.avg_pool3d(t(x), k, stride=s, padding=p, exclusive=False).numpy()
    np.testing.assert_allclose(inclusive, window_loop(x, k, s, p, lambda b, n: b.sum(
        axis=(2, 3, 4)) / n), rtol=1e-12)


def test_avg_pool3d_divisor_override():
    x = RNG.standard_normal((1, 1, 4, 4, 4))
    got = F.avg_pool3d(t(x), 2, divisor_override=3).numpy()
    np.testing.assert_allclose(got, window_loop(x, (2,) * 3, (2,) * 3, (0,) * 3,
                                                lambda b, _: b.sum(axis=(2, 3, 4)) / 3))


def test_ceil_mode_and_odd_output_shapes():
    x = t(RNG.standard_normal((1, 2, 5, 7, 3)))
    assert F.max_pool3d(x, 2).shape == [1, 2, 2, 3, 1]
    assert F.max_pool3d(x, 2, ceil_mode=True).shape == [1, 2, 3, 4, 2]
    assert F.avg_pool3d(x, 3, stride=2, padding=1, ceil_mode=True).shape == [1, 2, 3, 4, 2]
    assert F.avg_pool3d(x, (1, 2, 3), stride=(1, 2, 3)).shape == [1, 2, 5, 3, 1]
    assert F.max_pool3d(x, 2, padding="SAME").shape == [1, 2, 3, 4, 2]
    assert F.adaptive_avg_pool3d(x, (2, 3, 5)).shape == [1, 2, 2, 3, 5]
    assert F.adaptive_max_pool3d(x, [None, 2, None]).shape == [1, 2, 5, 2, 3]


def test_channels_last_equals_channels_first():
    x = RNG.standard_normal((2, 3, 4, 5, 6))
    last = t(x.transpose(0, 2, 3, 4, 1))
    for f in (lambda a, fmt: F.max_pool3d(a, 2, 1, 1, data_format=fmt),
              lambda a, fmt: F.avg_pool3d(a, (3, 2, 2), 2, data_format=fmt),
              lambda a, fmt: F.adaptive_avg_pool3d(a, (3, 2, 4), data_format=fmt)):
        np.testing.assert_allclose(f(last, "NDHWC").numpy(),
                                   f(t(x), "NCDHW").numpy().transpose(0, 2, 3, 4, 1))


def bins(n, m):
    return [(i * n // m, -(-(i + 1) * n // m)) for i in range(m)]


def adaptive_loop(x, size, reduce):
    out = np.empty(x.shape[:2] + size)
    for o in itertools.product(*map(range, size)):
        box = tuple(slice(*bins(n, m)[i]) for i, n, m in zip(o, x.shape[2:], size))
        out[(Ellipsis,) + o] = reduce(x[(slice(None), slice(None)) + box], axis=(2, 3, 4))
    return out


def test_adaptive_pool3d_values_and_mask():
    x = RNG.standard_normal((2, 2, 5, 3, 7))
    size = (3, 2, 4)
    np.testing.assert_allclose(F.adaptive_avg_pool3d(t(x), size).numpy(),
                               adaptive_loop(x, size, np.mean), rtol=1e-12)
    out, mask = F.adaptive_max_pool3d(t(x), size, return_mask=True)
    want = adaptive_loop(x, size, np.max)
    np.testing.assert_array_equal(out.numpy(), want)
    np.testing.assert_array_equal(
        np.take_along_axis(x.reshape(2, 2, -1), mask.numpy().reshape(2, 2, -1), axis=2),
        want.reshape(2, 2, -1))
    assert F.adaptive_max_pool3d(t(x), 2).shape == [2, 2, 2, 2, 2]


@pytest.mark.parametrize("fn", [
    lambda a: F.max_pool3d(a, 2, stride=1, padding=1),
    lambda a: F.max_pool3d(a, (2, 3, 2), stride=2, ceil_mode=True),
    lambda a: F.avg_pool3d(a, 3, stride=2, padding=1),
    lambda a: F.avg_pool3d(a, 2, stride=(1, 2, 1), exclusive=False, ceil_mode=True),
    lambda a: F.avg_pool3d(a, 2, divisor_override=5),
    lambda a: F.adaptive_avg_pool3d(a, (2, 3, 2)),
    lambda a: F.adaptive_max_pool3d(a, (2, 2, 3)),
], ids=["max", "max-ceil", "avg", "avg-inclusive-ceil", "avg-divisor", "adaptive-avg",
        "adaptive-max"])
def test_gradients_by_central_differences(fn):
    # values a step apart: maxima stay put under the small steps
    x = RNG.permutation(3 * 4 * 5).reshape(1, 1, 3, 4, 5) * 0.1
    check_gradient(fn, x)


def test_layers_match_functions_and_repr():
    x = t(RNG.standard_normal((1, 2, 4, 5, 6)))
    pairs = [(nn.MaxPool3D(2, 1, 1), F.max_pool3d(x, 2, 1, 1)),
             (nn.AvgPool3D(3, 2, exclusive=False), F.avg_pool3d(x, 3, 2, exclusive=False)),
             (nn.AdaptiveAvgPool3D((2, 2, 3)), F.adaptive_avg_pool3d(x, (2, 2, 3))),
             (nn.AdaptiveMaxPool3D(2), F.adaptive_max_pool3d(x, 2))]
    for layer, want in pairs:
        np.testing.assert_array_equal(layer(x).numpy(), want.numpy())
    out, mask = nn.MaxPool3D(2, return_mask=True)(x)
    assert out.shape == mask.shape == [1, 2, 2, 2, 3]
    assert repr(nn.MaxPool3D(2)) == "MaxPool3D(kernel_size=2, stride=None, padding=0)"
    assert repr(nn.AdaptiveMaxPool3D(3)) == "AdaptiveMaxPool3D(output_size=3, return_mask=False)"


def test_errors_name_the_api():
    x = t(RNG.standard_normal((1, 2, 3, 4, 5)))
    with pytest.raises(ValueError, match="max_pool3d: x must be a 5-D tensor"):
        F.max_pool3d(t(np.zeros((1, 2, 3, 4))), 2)
    with pytest.raises(ValueError, match="max_pool3d: when return_mask is True, data_format "
                                         "must be 'NCDHW'"):
        F.max_pool3d(x, 2, return_mask=True, data_format="NDHWC")
    with pytest.raises(ValueError, match="avg_pool3d: data_format must be 'NCDHW' or 'NDHWC'"):
        F.avg_pool3d(x, 2, data_format="NCHW")
    with pytest.raises(ValueError, match="avg_pool3d: kernel_size must be an int or a list of 3"):
        F.avg_pool3d(x, (2, 2))
    with pytest.raises(ValueError, match="max_pool3d: the window"):
        F.max_pool3d(x, 4)
    with pytest.raises(ValueError, match="adaptive_avg_pool3d: output_size must be positive"):
        F.adaptive_avg_pool3d(x, (0, 1, 1))
    with pytest.raises(ValueError, match=r"adaptive_max_pool3d: x must be a 5-D tensor "
                                         r"\[N, C, D, H, W\]"):
        F.adaptive_max_pool3d(t(np.zeros((1, 2, 3))), 2)


# ---------------------------------------------------------------------------
# conv3d_transpose
# ---------------------------------------------------------------------------

def transpose_loop(x, w, groups, stride, pad, dilation, out_size):
    """Each input position adds x times the filter into the output at i * stride + k *
    dilation - pad_before, one kernel position at a time."""
    n, c = x.shape[:2]
    cg, og = c // groups, w.shape[1]
    full = [o + a + b for o, (a, b) in zip(out_size, pad)]
    out = np.zeros((n, og * groups, *full))
    for k in np.ndindex(*w.shape[2:]):
        at = tuple(slice(kk * d, kk * d + s * (i - 1) + 1, s)
                   for kk, d, s, i in zip(k, dilation, stride, x.shape[2:]))
        for g in range(groups):
            part = np.einsum("ncdhw,co->nodhw", x[:, g * cg:(g + 1) * cg],
                             w[(slice(g * cg, (g + 1) * cg), slice(None)) + k])
            out[(slice(None), slice(g * og, (g + 1) * og)) + at] += part
    return out[(slice(None), slice(None)) + tuple(slice(a, a + o) for o, (a, _) in
                                                  zip(out_size, pad))]


def test_conv3d_transpose_values():
    x, w, b = (RNG.standard_normal(s) for s in ((2, 4, 3, 2, 3), (4, 3, 2, 3, 2), (6,)))
    got = F.conv3d_transpose(t(x), t(w), t(b), stride=2, padding=1, output_padding=1, groups=2)
    assert got.shape == [2, 6, 5, 4, 5]
    want = transpose_loop(x, w, 2, (2, 2, 2), ((1, 1),) * 3, (1, 1, 1), (5, 4, 5))
    np.testing.assert_allclose(got.numpy(), want + b.reshape(-1, 1, 1, 1), rtol=1e-10)
    # asymmetric padding, dilation, strides per axis and output_size (one more along H)
    got = F.conv3d_transpose(t(x), t(w), stride=(1, 2, 3), padding=[1, 0, 0, 1, 1, 1],
                             dilation=(2, 1, 1), groups=2, output_size=[4, 5, 7])
    want = transpose_loop(x, w, 2, (1, 2, 3), ((1, 0), (0, 1), (1, 1)), (2, 1, 1), (4, 5, 7))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    last = F.conv3d_transpose(t(x.transpose(0, 2, 3, 4, 1)), t(w), stride=2, groups=2,
                              data_format="NDHWC")
    np.testing.assert_allclose(last.numpy().transpose(0, 4, 1, 2, 3), F.conv3d_transpose(
        t(x), t(w), stride=2, groups=2).numpy(), rtol=1e-12)


def test_conv3d_transpose_gradients_by_central_differences():
    x = RNG.standard_normal((1, 2, 2, 3, 2))
    w = RNG.standard_normal((2, 2, 2, 2, 3))
    check_gradient(lambda a: F.conv3d_transpose(a, t(w), stride=(2, 1, 2), padding=1,
                                                dilation=(1, 2, 1)), x)
    check_gradient(lambda a: F.conv3d_transpose(t(x), a, stride=2, output_padding=1), w)


def test_conv3d_transpose_layer_and_errors():
    layer = nn.Conv3DTranspose(4, 6, (2, 3, 2), stride=2, groups=2)
    assert layer.weight.shape == [4, 3, 2, 3, 2] and layer.bias.shape == [6]
    # repr as Paddle 3.3.1 prints it
    assert repr(layer) == ("Conv3DTranspose(4, 6, kernel_size=[2, 3, 2], stride=[2, 2, 2], "
                           "groups=2, data_format=NCDHW)")
    x = t(RNG.standard_normal((1, 4, 2, 2, 2)))
    assert layer(x).shape == [1, 6, 4, 5, 4]
    assert layer(x, output_size=[5, 6, 5]).shape == [1, 6, 5, 6, 5]
    with pytest.raises(ValueError, match=r"conv3d_transpose: output_size \[9, 9, 9\] is not "
                                         "reachable"):
        F.conv3d_transpose(x, layer.weight, groups=2, output_size=[9, 9, 9])
    with pytest.raises(ValueError, match="conv3d_transpose: data_format must be one of"):
        F.conv3d_transpose(x, layer.weight, groups=2, data_format="NCHW")
    with pytest.raises(ValueError, match="conv3d_transpose: weight must be a 5-D tensor"):
        F.conv3d_transpose(x, t(np.zeros((4, 3, 2, 2))))
    with pytest.raises(ValueError, match="conv3d_transpose: output_padding"):
        F.conv3d_transpose(x, layer.weight, stride=2, output_padding=2, groups=2)


# ---------------------------------------------------------------------------
# max_unpool
# ---------------------------------------------------------------------------

def unpool_loop(x, indices, size):
    """Zeros with each value of x written at its flat index, in x's order."""
    out = np.zeros(x.shape[:2] + (int(np.prod(size)),))
    for (n, c, *pos), v in np.ndenumerate(x):
        out[n, c, indices[(n, c, *pos)]] = v
    return out.reshape(x.shape[:2] + tuple(size))


@pytest.mark.parametrize("nd,shape,k,s,p,size", [
    (1, (2, 3, 7), 2, None, 0, (6,)),
    (2, (2, 3, 5, 7), 3, 2, 1, (5, 7)),
    (3, (1, 2, 4, 4, 6), 2, None, 0, (4, 4, 6)),
])
def test_max_unpool_puts_the_maxima_back(nd, shape, k, s, p, size):
    x = RNG.standard_normal(shape)
    pool, unpool = getattr(F, f"max_pool{nd}d"), getattr(F, f"max_unpool{nd}d")
    out, mask = pool(t(x), k, s, p, return_mask=True)
    got = unpool(out, mask, k, s, p)
    assert got.shape == [shape[0], shape[1], *size]
    np.testing.assert_array_equal(got.numpy(), unpool_loop(out.numpy(), mask.numpy(), size))
    # the layer does the same
    layer = getattr(nn, f"MaxUnPool{nd}D")(k, s, p)
    np.testing.assert_array_equal(layer(out, mask).numpy(), got.numpy())


def test_max_unpool_overlapping_windows_write_once():
    """Overlapping windows share maxima: a repeated index is written, not added (Paddle)."""
    x = np.arange(16.0).reshape(1, 1, 4, 4)
    out, mask = F.max_pool2d(t(x), 3, stride=1, return_mask=True)
    got = F.max_unpool2d(out, mask, 3, stride=1).numpy()
    want = np.zeros((1, 1, 4, 4))
    want[0, 0, 2:, 2:] = [[10, 11], [14, 15]]
    np.testing.assert_array_equal(got, want)
    dup = F.max_unpool2d(t(np.array([[[[1.0, 2.0], [3.0, 4.0]]]])),
                         t(np.array([[[[5, 5], [5, 0]]]], dtype="int32")), 2).numpy()
    # as Paddle 3.3.1: the last value at a repeated position stays
    assert dup[0, 0].reshape(-1)[5] == 3.0 and dup[0, 0, 0, 0] == 4.0


def test_max_unpool_output_size_and_gradient():
    x = RNG.permutation(2 * 3 * 4).reshape(1, 2, 3, 4) * 0.1
    out, mask = F.max_pool2d(t(x), 2, return_mask=True)
    assert F.max_unpool2d(out, mask, 2, output_size=[3, 5]).shape == [1, 2, 3, 5]
    assert F.max_unpool2d(out, mask, 2, output_size=[1, 2, 3, 4]).shape == [1, 2, 3, 4]
    check_gradient(lambda a: F.max_unpool2d(a, mask, 2, output_size=[3, 5]), out.numpy())
    x3 = RNG.standard_normal((1, 1, 2, 2, 3))
    idx = t(RNG.permutation(2 * 4 * 6)[:12].reshape(1, 1, 2, 2, 3).astype("int32"))
    check_gradient(lambda a: F.max_unpool3d(a, idx, 2), x3)
    assert repr(nn.MaxUnPool3D(2, output_size=[4, 4, 4])) == \
        "MaxUnPool3D(output_size=[4, 4, 4])"


def test_max_unpool_errors():
    out, mask = F.max_pool2d(t(RNG.standard_normal((1, 1, 4, 4))), 2, return_mask=True)
    with pytest.raises(ValueError, match=r"max_unpool2d: output_size must be 2 \(or 4\) sizes "
                                         r"each within stride \[2, 2\] of the default \[4, 4\]"):
        F.max_unpool2d(out, mask, 2, output_size=[6, 6])
    with pytest.raises(ValueError, match="max_unpool2d: data_format must be 'NCHW'"):
        F.max_unpool2d(out, mask, 2, data_format="NHWC")
    with pytest.raises(ValueError, match="max_unpool2d: indices of shape"):
        F.max_unpool2d(out, mask[:, :, :1], 2)
    with pytest.raises(ValueError, match=r"max_unpool2d: indices must be in \[0, 16\)"):
        F.max_unpool2d(out, mask * 10, 2)
    with pytest.raises(ValueError, match="max_unpool3d: x must be a 5-D tensor"):
        F.max_unpool3d(out, mask, 2)
    with pytest.raises(ValueError, match="max_unpool1d: data_format must be 'NCL'"):
        F.max_unpool1d(out[:, :, 0], mask[:, :, 0], 2, data_format="NLC")


# ---------------------------------------------------------------------------
# affine_grid and grid_sample
# ---------------------------------------------------------------------------

def sample_loop(x, grid, mode, align_corners):
    """grid_sample with zero padding, one output position at a time."""
    n, c, h, w = x.shape
    out = np.zeros((n, c) + grid.shape[1:3])
    for b, i, j in np.ndindex(n, *grid.shape[1:3]):
        gx, gy = grid[b, i, j]
        if align_corners:
            px, py = (gx + 1) / 2 * (w - 1), (gy + 1) / 2 * (h - 1)
        else:
            px, py = ((gx + 1) * w - 1) / 2, ((gy + 1) * h - 1) / 2
        if mode == "nearest":
            corners = [(int(np.round(px)), int(np.round(py)), 1.0)]
        else:
            x0, y0 = int(np.floor(px)), int(np.floor(py))
            fx, fy = px - x0, py - y0
            corners = [(x0, y0, (1 - fx) * (1 - fy)), (x0 + 1, y0, fx * (1 - fy)),
                       (x0, y0 + 1, (1 - fx) * fy), (x0 + 1, y0 + 1, fx * fy)]
        for cx, cy, weight in corners:
            if 0 <= cx < w and 0 <= cy < h:
                out[b, :, i, j] += weight * x[b, :, cy, cx]
    return out


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("align_corners", [True, False])
def test_grid_sample_values(mode, align_corners):
    x = RNG.standard_normal((2, 3, 4, 5))
    grid = RNG.uniform(-1.2, 1.2, (2, 3, 7, 2))
    got = F.grid_sample(t(x), t(grid), mode=mode, align_corners=align_corners)
    np.testing.assert_allclose(got.numpy(), sample_loop(x, grid, mode, align_corners),
                               rtol=1e-12, atol=1e-12)


def test_grid_sample_padding_modes():
    x = RNG.standard_normal((1, 2, 3, 4))
    y = RNG.uniform(-1, 1, (1, 2, 3, 1))
    d = RNG.uniform(0.1, 0.9, (1, 2, 3, 1))
    right = np.concatenate([1 + d, y], axis=-1)                 # beyond the right edge by d
    # border: reads the last column's values (x clamped to 1)
    np.testing.assert_allclose(
        F.grid_sample(t(x), t(right), padding_mode="border").numpy(),
        F.grid_sample(t(x), t(np.concatenate([np.ones_like(d), y], axis=-1))).numpy(),
        rtol=1e-12)
    # reflection (align_corners): x = 1 + d reads x = 1 - d
    np.testing.assert_allclose(
        F.grid_sample(t(x), t(right), padding_mode="reflection").numpy(),
        F.grid_sample(t(x), t(np.concatenate([1 - d, y], axis=-1))).numpy(), rtol=1e-12)
    far = np.concatenate([3 + d, y], axis=-1)
    assert not F.grid_sample(t(x), t(far)).numpy().any()


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_gradients_by_central_differences(padding_mode):
    x = RNG.standard_normal((1, 2, 3, 4))
    grid = RNG.uniform(-1.4, 1.4, (1, 2, 3, 2))
    check_gradient(lambda a: F.grid_sample(a, t(grid), padding_mode=padding_mode,
                                           align_corners=False), x)
    check_gradient(lambda g: F.grid_sample(t(x), g, padding_mode=padding_mode), grid)


def trilinear_loop(x, grid):
    """5-D grid_sample (align_corners, zero padding), one output position at a time."""
    n, c = x.shape[:2]
    size = np.array(x.shape[2:])
    out = np.zeros((n, c) + grid.shape[1:4])
    for b, *o in np.ndindex(n, *grid.shape[1:4]):
        pos = (grid[(b, *o)][::-1] + 1) / 2 * (size - 1)           # (z, y, x) positions
        low = np.floor(pos).astype(int)
        for corner in np.ndindex(2, 2, 2):
            at = low + corner
            if np.all((at >= 0) & (at < size)):
                weight = np.prod(np.where(corner, pos - low, 1 - (pos - low)))
                out[(b, slice(None), *o)] += weight * x[(b, slice(None), *at)]
    return out


def test_grid_sample_5d_values_and_gradients():
    x = RNG.standard_normal((2, 2, 3, 4, 5))
    grid = RNG.uniform(-1.2, 1.2, (2, 2, 3, 2, 3))
    np.testing.assert_allclose(F.grid_sample(t(x), t(grid)).numpy(), trilinear_loop(x, grid),
                               rtol=1e-12, atol=1e-12)
    small = RNG.uniform(-1.2, 1.2, (1, 1, 2, 2, 3))
    check_gradient(lambda a: F.grid_sample(a, t(small), padding_mode="reflection"), x[:1, :1])
    check_gradient(lambda g: F.grid_sample(t(x[:1, :1]), g, align_corners=False), small)


def test_affine_grid_values_and_gradient():
    theta = RNG.standard_normal((2, 2, 3))
    grid = F.affine_grid(t(theta), [2, 3, 4, 5], align_corners=False).numpy()
    xs, ys = (np.arange(5) * 2 + 1) / 5 - 1, (np.arange(4) * 2 + 1) / 4 - 1
    for b, i, j in np.ndindex(2, 4, 5):
        np.testing.assert_allclose(grid[b, i, j], theta[b] @ [xs[j], ys[i], 1.0], rtol=1e-12)
    ident = np.array([[[1.0, 0, 0], [0, 1, 0]]])
    x = t(RNG.standard_normal((1, 2, 3, 4)))
    # the identity map samples x back (align_corners True: the corners are pixel centres)
    np.testing.assert_allclose(F.grid_sample(x, F.affine_grid(t(ident), [1, 2, 3, 4])).numpy(),
                               x.numpy(), rtol=1e-12)
    check_gradient(lambda a: F.affine_grid(a, [2, 1, 3, 2]), theta)
    theta3 = RNG.standard_normal((1, 3, 4))
    grid3 = F.affine_grid(t(theta3), [1, 1, 2, 3, 4], align_corners=True).numpy()
    assert grid3.shape == (1, 2, 3, 4, 3)
    np.testing.assert_allclose(grid3[0, 1, 2, 3], theta3[0] @ [1.0, 1.0, 1.0, 1.0])


def test_affine_grid_and_grid_sample_errors():
    with pytest.raises(ValueError, match=r"affine_grid: theta must have shape \[2, 2, 3\]"):
        F.affine_grid(t(np.zeros((2, 3, 4))), [2, 1, 3, 3])
    with pytest.raises(ValueError, match="affine_grid: out_shape must have 4"):
        F.affine_grid(t(np.zeros((2, 2, 3))), [2, 3, 3])
    x = t(np.zeros((1, 1, 3, 3)))
    with pytest.raises(ValueError, match=r"grid_sample: grid must have shape \[N, H_out"):
        F.grid_sample(x, t(np.zeros((1, 2, 2, 3))))
    with pytest.raises(ValueError, match=r"grid_sample: grid must have shape \[N, D_out"):
        F.grid_sample(t(np.zeros((1, 1, 2, 3, 3))), t(np.zeros((1, 2, 2, 2))))
    with pytest.raises(ValueError, match="grid_sample: mode must be"):
        F.grid_sample(x, t(np.zeros((1, 2, 2, 2))), mode="bicubic")
    with pytest.raises(ValueError, match="grid_sample: padding_mode must be"):
        F.grid_sample(x, t(np.zeros((1, 2, 2, 2))), padding_mode="circular")


# ---------------------------------------------------------------------------
# fold
# ---------------------------------------------------------------------------

def fold_loop(x, size, k, s, p, d):
    """Each column's values added at its block's positions, one block at a time."""
    n, c = x.shape[0], x.shape[1] // (k[0] * k[1])
    blocks = [(m + 2 * pp - dd * (kk - 1) - 1) // ss + 1
              for m, kk, ss, pp, dd in zip(size, k, s, p, d)]
    out = np.zeros((n, c, size[0] + 2 * p[0], size[1] + 2 * p[1]))
    cols = x.reshape(n, c, k[0], k[1], *blocks)
    for bi, bj, i, j in np.ndindex(*blocks, *k):
        out[:, :, bi * s[0] + i * d[0], bj * s[1] + j * d[1]] += cols[:, :, i, j, bi, bj]
    return out[:, :, p[0]:p[0] + size[0], p[1]:p[1] + size[1]]


def test_fold_values_and_adjoint_of_unfold():
    x = RNG.standard_normal((2, 3 * 6, 3 * 2))
    got = F.fold(t(x), [5, 6], [2, 3], strides=[2, 1], paddings=[1, 0], dilations=[1, 2])
    np.testing.assert_allclose(got.numpy(), fold_loop(x, (5, 6), (2, 3), (2, 1), (1, 0),
                                                      (1, 2)), rtol=1e-12)
    # <unfold(a), x> = <a, fold(x)>
    a = RNG.standard_normal((2, 3, 5, 6))
    cols = F.unfold(t(a), [2, 3], strides=[2, 1], paddings=[1, 0], dilations=[1, 2]).numpy()
    np.testing.assert_allclose(np.sum(cols * x), np.sum(a * got.numpy()), rtol=1e-10)
    layer = nn.Fold([5, 6], [2, 3], dilations=[1, 2], paddings=[1, 0], strides=[2, 1])
    np.testing.assert_array_equal(layer(t(x)).numpy(), got.numpy())
    assert repr(nn.Fold([5, 7], [2, 3])) == \
        "Fold(kernel_size=[2, 3], dilation=1, padding=0, stride=1)"
    check_gradient(lambda v: F.fold(v, [4, 3], 2, strides=1, paddings=1),
                   RNG.standard_normal((1, 8, 20)))


def test_fold_errors():
    with pytest.raises(ValueError, match=r"fold: x's dimension 1 \(7"):
        F.fold(t(np.zeros((1, 7, 12))), [4, 5], 2)
    with pytest.raises(ValueError, match=r"fold: x's dimension 2 \(11\) must be the number of "
                                         r"sliding blocks, 3 \* 4"):
        F.fold(t(np.zeros((1, 8, 11))), [4, 5], 2)
    with pytest.raises(ValueError, match="fold: x must be a 3-D tensor"):
        F.fold(t(np.zeros((8, 12))), [4, 5], 2)
