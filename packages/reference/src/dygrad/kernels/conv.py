"""Convolution and pooling kernels.

A convolution is *im2col* plus one matrix product: the sliding windows of the padded input
(a strided view, ``sliding_window_view``) are copied once into a matrix whose rows are the
output positions and whose columns are (input channel, kernel position); groups become the
batch dimension of one ``np.matmul``. Its input gradient is the way back, *col2im*: the
product with the filter gives each window's gradient, added into place with one strided
slice per kernel position. Pooling reads the same windows.

Kernels work on channels-first arrays ``[N, C, *spatial]``; a channels-last
``data_format`` (NHWC, NDHWC) is moved there and back.
"""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .._core.ops.conv import ceil_paddings, pool_out_size
from ._registry import kernel


def _first(a, data_format):
    """a with its channel axis at 1."""
    return np.moveaxis(a, -1, 1) if data_format[-1] == "C" else a


def _back(a, data_format):
    """a with its channel axis moved from 1 to where data_format puts it."""
    return np.moveaxis(a, 1, -1) if data_format[-1] == "C" else a


def windows(x, ksize, strides, paddings, dilations, value=0.0):
    """The sliding windows of x [N, C, *spatial] padded by paddings (``value``): a strided
    view [N, C, *out, *ksize]."""
    nd = len(ksize)
    x = np.pad(x, ((0, 0), (0, 0), *paddings), constant_values=value)
    span = [(k - 1) * d + 1 for k, d in zip(ksize, dilations)]
    win = sliding_window_view(x, span, axis=tuple(range(2, 2 + nd)))
    return win[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in strides)
               + tuple(slice(None, None, d) for d in dilations)]


def col2im(cols, size, strides, paddings, dilations):
    """The adjoint of ``windows``: cols [*ksize, N, C, *out] (kernel positions first, so each
    is one block) added into zeros [N, C, *size] at the places the windows read (one strided
    slice per kernel position)."""
    nd = len(size)
    ksize, out = cols.shape[:nd], cols.shape[nd + 2:]
    padded = np.zeros(cols.shape[nd:nd + 2] + tuple(n + a + b for n, (a, b) in
                                                    zip(size, paddings)), dtype=cols.dtype)
    for pos in np.ndindex(*ksize):
        at = tuple(slice(p * d, p * d + s * (o - 1) + 1, s)
                   for p, d, s, o in zip(pos, dilations, strides, out))
        padded[(slice(None), slice(None)) + at] += cols[pos]
    return padded[(slice(None), slice(None))
                  + tuple(slice(a, a + n) for n, (a, _) in zip(size, paddings))]


def _im2col(x, ksize, strides, paddings, dilations, groups):
    """x's windows as a matrix per group: [G, N * L, C/G * K] (L output positions, K kernel
    positions), and the output's spatial size."""
    n, c, nd = x.shape[0], x.shape[1], len(ksize)
    win = windows(x, ksize, strides, paddings, dilations)
    out = win.shape[2:2 + nd]
    win = win.reshape((n, groups, c // groups) + win.shape[2:])
    perm = (1, 0, *range(3, 3 + nd), 2, *range(3 + nd, 3 + 2 * nd))
    cols = win.transpose(perm).reshape(groups, n * int(np.prod(out)),
                                       c // groups * int(np.prod(ksize)))
    return cols, out


def _conv(x, filter, strides, paddings, dilations, groups, data_format):
    """out[n, o] = sum over c in o's group and kernel positions k of x window * filter"""
    x = _first(x, data_format)
    n, o, nd = x.shape[0], filter.shape[0], filter.ndim - 2
    cols, out = _im2col(x, filter.shape[2:], strides, paddings, dilations, groups)
    w = filter.reshape(groups, o // groups, -1)
    y = np.matmul(cols, w.transpose(0, 2, 1))                      # [G, N * L, O/G]
    y = y.reshape((groups, n) + out + (o // groups,))
    y = y.transpose(1, 0, nd + 2, *range(2, nd + 2)).reshape((n, o) + out)
    return _back(y, data_format)


def _conv_grad_input(out_grad, filter, input_size, strides, paddings, dilations, groups,
                     data_format):
    """The transposed convolution: each output's gradient spread back over its window"""
    g = _first(out_grad, data_format)
    n, o, nd = g.shape[0], g.shape[1], filter.ndim - 2
    out, ksize = g.shape[2:], filter.shape[2:]
    length = int(np.prod(out))
    go = g.reshape(n, groups, o // groups, length).transpose(1, 0, 3, 2).reshape(
        groups, n * length, o // groups)
    cols = np.matmul(go, filter.reshape(groups, filter.shape[0] // groups, -1))  # [G, N L, C/G K]
    cg = filter.shape[1]
    cols = cols.reshape((groups, n) + out + (cg,) + ksize)
    cols = cols.transpose(*range(nd + 3, 2 * nd + 3), 1, 0, nd + 2, *range(2, nd + 2))
    cols = cols.reshape(ksize + (n, groups * cg) + out)                 # [*K, N, C, *out]
    return _back(col2im(cols, tuple(input_size), strides, paddings, dilations), data_format)


def _conv_grad_filter(input, out_grad, filter_size, strides, paddings, dilations, groups,
                      data_format):
    """dfilter[o, c, k] = sum over n and output positions of out_grad * x window"""
    x, g = _first(input, data_format), _first(out_grad, data_format)
    n, o = g.shape[0], g.shape[1]
    cols, _ = _im2col(x, tuple(filter_size), strides, paddings, dilations, groups)
    length = int(np.prod(g.shape[2:]))
    go = g.reshape(n, groups, o // groups, length).transpose(1, 2, 0, 3).reshape(
        groups, o // groups, n * length)
    dw = np.matmul(go, cols)                                        # [G, O/G, C/G * K]
    return dw.reshape((o, x.shape[1] // groups) + tuple(filter_size))


@kernel
def conv2d(x, filter, strides=(1, 1), paddings=((0, 0), (0, 0)), dilations=(1, 1), groups=1,
           data_format="NCHW"):
    """2-D convolution (im2col + one grouped matmul)"""
    return _conv(x, filter, strides, paddings, dilations, groups, data_format)


@kernel
def conv2d_grad_input(out_grad, filter, input_size=(1, 1), strides=(1, 1),
                      paddings=((0, 0), (0, 0)), dilations=(1, 1), groups=1, data_format="NCHW"):
    """conv2d's input gradient (matmul + col2im)"""
    return _conv_grad_input(out_grad, filter, input_size, strides, paddings, dilations, groups,
                            data_format)


@kernel
def conv2d_grad_filter(input, out_grad, filter_size=(1, 1), strides=(1, 1),
                       paddings=((0, 0), (0, 0)), dilations=(1, 1), groups=1,
                       data_format="NCHW"):
    """conv2d's filter gradient (im2col + one grouped matmul)"""
    return _conv_grad_filter(input, out_grad, filter_size, strides, paddings, dilations, groups,
                             data_format)


@kernel
def fused_conv2d_bias(x, filter, bias, strides=(1, 1), paddings=((0, 0), (0, 0)), dilations=(1, 1),
                      groups=1, data_format="NCHW"):
    """conv2d(x, filter) + bias along the channel axis (added in place)"""
    if bias.shape != filter.shape[:1] or bias.dtype != x.dtype:
        raise ValueError("fused_conv2d_bias: the bias does not fit the filter or x")
    y = _conv(x, filter, strides, paddings, dilations, groups, data_format)
    y += bias if data_format[-1] == "C" else bias[:, None, None]
    return y


@kernel
def conv3d(x, filter, strides=(1, 1, 1), paddings=((0, 0), (0, 0), (0, 0)),
           dilations=(1, 1, 1), groups=1, data_format="NCDHW"):
    """3-D convolution (im2col + one grouped matmul)"""
    return _conv(x, filter, strides, paddings, dilations, groups, data_format)


@kernel
def conv3d_grad_input(out_grad, filter, input_size=(1, 1, 1), strides=(1, 1, 1),
                      paddings=((0, 0), (0, 0), (0, 0)), dilations=(1, 1, 1), groups=1,
                      data_format="NCDHW"):
    """conv3d's input gradient (matmul + col2im)"""
    return _conv_grad_input(out_grad, filter, input_size, strides, paddings, dilations, groups,
                            data_format)


@kernel
def conv3d_grad_filter(input, out_grad, filter_size=(1, 1, 1), strides=(1, 1, 1),
                       paddings=((0, 0), (0, 0), (0, 0)), dilations=(1, 1, 1), groups=1,
                       data_format="NCDHW"):
    """conv3d's filter gradient (im2col + one grouped matmul)"""
    return _conv_grad_filter(input, out_grad, filter_size, strides, paddings, dilations, groups,
                             data_format)


@kernel
def conv2d_transpose(x, filter, output_size=(1, 1), strides=(1, 1), paddings=((0, 0), (0, 0)),
                     dilations=(1, 1), groups=1, data_format="NCHW"):
    """2-D transposed convolution: conv2d's input gradient with x as the output gradient"""
    return _conv_grad_input(x, filter, output_size, strides, paddings, dilations, groups,
                            data_format)


def pool_divisor(size, kernel_size, strides, paddings, ceil_mode, exclusive):
    """The size of each pooling window [OH, OW]: the window clamped to x (exclusive), else to
    [-pad_before, size + pad_before) (Paddle's rule, which ignores the padding after)."""
    counts = []
    for n, k, s, (a, b) in zip(size, kernel_size, strides, paddings):
        start = np.arange(pool_out_size(n, k, s, (a, b), ceil_mode)) * s - a
        lo, hi = (0, n) if exclusive else (-a, n + a)
        counts.append(np.maximum(np.minimum(start + k, hi) - np.maximum(start, lo), 0))
    return np.multiply.outer(*counts)


@kernel
def max_pool2d(x, kernel_size=(1, 1), strides=(1, 1), paddings=((0, 0), (0, 0)),
               ceil_mode=False):
    """window maxima, and where in x [H * W] each came from (-1: a window of padding only)"""
    size = x.shape[2:]
    pads = ceil_paddings(size, kernel_size, strides, paddings, ceil_mode)
    win = windows(x, kernel_size, strides, pads, (1, 1), value=-np.inf)
    out = np.full(win.shape[:4], -np.inf, dtype=x.dtype)
    arg = np.zeros(win.shape[:4], dtype=np.int64)
    for k, pos in enumerate(np.ndindex(*kernel_size)):   # the first maximum wins, as argmax
        value = win[(Ellipsis,) + pos]
        better = value > out
        out = np.where(better, value, out)
        arg = np.where(better, k, arg)
    row = np.arange(out.shape[2])[:, None] * strides[0] - paddings[0][0] + arg // kernel_size[1]
    col = np.arange(out.shape[3]) * strides[1] - paddings[1][0] + arg % kernel_size[1]
    inside = (row >= 0) & (row < size[0]) & (col >= 0) & (col < size[1])
    mask = np.where(inside, row * size[1] + col, -1).astype(np.int32)
    return np.where(inside, out, np.finfo(x.dtype).min).astype(x.dtype), mask


@kernel
def max_pool2d_grad(out_grad, mask, input_size=(1, 1)):
    """out_grad added into zeros [N, C, *input_size] at the flat positions mask names"""
    n, c = out_grad.shape[:2]
    hw = int(np.prod(input_size))
    m = mask.reshape(n * c, int(np.prod(mask.shape[2:]))).astype(np.int64)
    flat = m + (np.arange(n * c) * hw)[:, None]
    keep = m >= 0
    total = np.bincount(flat[keep], weights=out_grad.reshape(m.shape)[keep],
                        minlength=n * c * hw)
    return total.astype(out_grad.dtype).reshape((n, c) + tuple(input_size))


@kernel
def avg_pool2d(x, kernel_size=(1, 1), strides=(1, 1), paddings=((0, 0), (0, 0)),
               ceil_mode=False, exclusive=True):
    """window sums divided by the window's size (exclusive: its elements inside x)"""
    pads = ceil_paddings(x.shape[2:], kernel_size, strides, paddings, ceil_mode)
    total = windows(x, kernel_size, strides, pads, (1, 1)).sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):  # a window of padding only: nan
        return (total / pool_divisor(x.shape[2:], kernel_size, strides, paddings, ceil_mode,
                                     exclusive)).astype(x.dtype)


@kernel
def avg_pool2d_grad(out_grad, input_size=(1, 1), kernel_size=(1, 1), strides=(1, 1),
                    paddings=((0, 0), (0, 0)), ceil_mode=False, exclusive=True):
    """each window's gradient / its size, spread back over the window (col2im)"""
    pads = ceil_paddings(input_size, kernel_size, strides, paddings, ceil_mode)
    with np.errstate(invalid="ignore", divide="ignore"):
        g = out_grad / pool_divisor(input_size, kernel_size, strides, paddings, ceil_mode,
                                    exclusive)
    cols = np.broadcast_to(g.astype(out_grad.dtype), tuple(kernel_size) + g.shape)
    return col2im(cols, tuple(input_size), strides, pads, (1, 1))


def adaptive_bins(n, m):
    """Paddle's adaptive bins of n positions into m: [floor(i n / m), ceil((i + 1) n / m))."""
    i = np.arange(m)
    return (i * n) // m, -((-(i + 1) * n) // m)


@kernel
def adaptive_max_pool2d(x, output_size=(1, 1)):
    """maxima over Paddle's adaptive bins, and where in x [H * W] each came from"""
    h, w = x.shape[2:]
    (rs, re), (cs, ce) = adaptive_bins(h, output_size[0]), adaptive_bins(w, output_size[1])
    kh, kw = int(np.max(re - rs)), int(np.max(ce - cs))
    rows, cols = rs[:, None] + np.arange(kh), cs[:, None] + np.arange(kw)   # [OH, KH], [OW, KW]
    valid = (rows < re[:, None])[:, :, None, None] & (cols < ce[:, None])[None, None]
    patch = x[:, :, np.minimum(rows, h - 1)[:, :, None, None], np.minimum(cols, w - 1)]
    patch = np.where(valid, patch, -np.inf).transpose(0, 1, 2, 4, 3, 5)
    flat = patch.reshape(patch.shape[:4] + (kh * kw,))
    arg = np.argmax(flat, axis=-1)
    out = np.take_along_axis(flat, arg[..., None], axis=-1)[..., 0].astype(x.dtype)
    row = rows[np.arange(output_size[0])[:, None], arg // kw]
    col = cols[np.arange(output_size[1]), arg % kw]
    return out, (row * w + col).astype(np.int32)
