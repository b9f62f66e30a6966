"""CPU kernels of the conv family: NumPy-level glue around ``_conv.pyx``.

A 2-D convolution is im2col into a buffer laid out for one BLAS product: the compiled loop
writes each image's windows as a [C * KH * KW, OH * OW] block (groups are consecutive row
blocks), and ``np.matmul`` of the filter [G, O/G, C/G * KH * KW] with it gives the output
[N, G, O/G, OH * OW] in NCHW order directly. The input gradient is the filter's transpose
times the output gradient, then col2im (a compiled scatter-add, one image per thread); the
filter gradient writes the windows of all images side by side ([C * KH * KW, N * OH * OW])
so that it is one product with the output gradient. Pooling is one compiled pass over each
[H, W] plane. float16 is computed in float32 and rounded back; channels-last data is moved
to channels-first and back.
"""

from __future__ import annotations

import numpy as np
from dygrad._core.ops.conv import pool_out_size
from dygrad.kernels.conv import _back, _first, pool_divisor

from . import _conv


def _work(a, dtype=None):
    """a as C-contiguous float32/float64 (float16 -> float32, or ``dtype``)."""
    want = dtype or (np.float32 if a.dtype == np.float16 else a.dtype)
    return np.ascontiguousarray(a, dtype=want)


def _out_size(size, ksize, strides, paddings, dilations):
    return tuple((n + a + b - (k - 1) * d - 1) // s + 1
                 for n, k, s, (a, b), d in zip(size, ksize, strides, paddings, dilations))


def conv2d(x, filter, strides=(1, 1), paddings=((0, 0), (0, 0)), dilations=(1, 1), groups=1,
           data_format="NCHW"):
    """2-D convolution (compiled im2col + one matmul)"""
    xc = _work(_first(x, data_format))
    w = _work(filter, xc.dtype)
    n, o, ksize = xc.shape[0], w.shape[0], w.shape[2:]
    out = _out_size(xc.shape[2:], ksize, strides, paddings, dilations)
    rows, length = w.shape[1] * ksize[0] * ksize[1], out[0] * out[1]
    cols = np.empty((n, groups, rows, length), dtype=xc.dtype)
    _conv.im2col(xc, cols.reshape(-1), ksize, strides, paddings, dilations, out,
                 groups * rows * length, length)
    y = np.matmul(w.reshape(groups, o // groups, rows), cols).reshape((n, o) + out)
    return _back(y.astype(x.dtype, copy=False), data_format)


def conv2d_grad_input(out_grad, filter, input_size=(1, 1), strides=(1, 1),
                      paddings=((0, 0), (0, 0)), dilations=(1, 1), groups=1, data_format="NCHW"):
    """conv2d's input gradient (one matmul + compiled col2im)"""
    g = _work(_first(out_grad, data_format))
    w = _work(filter, g.dtype)
    n, o, out, ksize = g.shape[0], g.shape[1], g.shape[2:], w.shape[2:]
    rows, length = w.shape[1] * ksize[0] * ksize[1], out[0] * out[1]
    wt = w.reshape(groups, o // groups, rows).transpose(0, 2, 1)
    cols = np.ascontiguousarray(np.matmul(wt, g.reshape(n, groups, o // groups, length)))
    dx = np.empty((n, groups * w.shape[1]) + tuple(input_size), dtype=g.dtype)
    _conv.col2im(cols.reshape(-1), dx, ksize, strides, paddings, dilations, out,
                 groups * rows * length, length)
    return _back(dx.astype(out_grad.dtype, copy=False), data_format)


def conv2d_grad_filter(input, out_grad, filter_size=(1, 1), strides=(1, 1),
                       paddings=((0, 0), (0, 0)), dilations=(1, 1), groups=1,
                       data_format="NCHW"):
    """conv2d's filter gradient (compiled im2col of all images side by side + one matmul)"""
    xc = _work(_first(input, data_format))
    g = _work(_first(out_grad, data_format), xc.dtype)
    n, c, o, out = xc.shape[0], xc.shape[1], g.shape[1], g.shape[2:]
    length, ksize = out[0] * out[1], tuple(filter_size)
    rows = c // groups * ksize[0] * ksize[1]
    cols = np.empty((groups, rows, n * length), dtype=xc.dtype)   # [C * KH * KW, N, OH * OW]
    _conv.im2col(xc, cols.reshape(-1), ksize, strides, paddings, dilations, out, length,
                 n * length)
    go = g.reshape(n, groups, o // groups, length).transpose(1, 2, 0, 3).reshape(
        groups, o // groups, n * length)
    dw = np.matmul(go, cols.transpose(0, 2, 1))                     # [G, O/G, C/G * KH * KW]
    return dw.reshape((o, c // groups) + ksize).astype(input.dtype, copy=False)


def max_pool2d(x, kernel_size=(1, 1), strides=(1, 1), paddings=((0, 0), (0, 0)),
               ceil_mode=False):
    """window maxima, and where in x [H * W] each came from (-1: a window of padding only)"""
    n, c, h, w = x.shape
    out = tuple(pool_out_size(size, k, s, p, ceil_mode)
                for size, k, s, p in zip((h, w), kernel_size, strides, paddings))
    xc = _work(x).reshape(n * c, h, w)
    y = np.empty((n * c,) + out, dtype=xc.dtype)
    mask = np.empty((n * c,) + out, dtype=np.int32)
    _conv.max_pool(xc, y, mask, kernel_size, strides, paddings, float(np.finfo(x.dtype).min))
    return y.astype(x.dtype, copy=False).reshape((n, c) + out), mask.reshape((n, c) + out)


def max_pool2d_grad(out_grad, mask, input_size=(1, 1)):
    """out_grad added into zeros [N, C, *input_size] at the flat positions mask names"""
    n, c = out_grad.shape[:2]
    hw = int(np.prod(input_size))
    length = int(np.prod(out_grad.shape[2:]))
    g = _work(out_grad).reshape(n * c, length)
    index = np.int32 if mask.dtype == np.int32 else np.int64
    m = np.ascontiguousarray(mask, dtype=index).reshape(n * c, length)
    dx = np.empty((n * c, hw), dtype=g.dtype)
    _conv.max_pool_grad(g, m, dx)
    return dx.astype(out_grad.dtype, copy=False).reshape((n, c) + tuple(input_size))


def _divisor(size, kernel_size, strides, paddings, ceil_mode, exclusive):
    return np.ascontiguousarray(pool_divisor(size, kernel_size, strides, paddings, ceil_mode,
                                             exclusive), dtype=np.float64)


def avg_pool2d(x, kernel_size=(1, 1), strides=(1, 1), paddings=((0, 0), (0, 0)),
               ceil_mode=False, exclusive=True):
    """window sums divided by the window's size (exclusive: its elements inside x)"""
    n, c, h, w = x.shape
    div = _divisor((h, w), kernel_size, strides, paddings, ceil_mode, exclusive)
    xc = _work(x).reshape(n * c, h, w)
    y = np.empty((n * c,) + div.shape, dtype=xc.dtype)
    _conv.avg_pool(xc, y, div, kernel_size, strides, paddings)
    return y.astype(x.dtype, copy=False).reshape((n, c) + div.shape)


def avg_pool2d_grad(out_grad, input_size=(1, 1), kernel_size=(1, 1), strides=(1, 1),
                    paddings=((0, 0), (0, 0)), ceil_mode=False, exclusive=True):
    """each window's gradient / its size, spread back over the window"""
    n, c = out_grad.shape[:2]
    div = _divisor(tuple(input_size), kernel_size, strides, paddings, ceil_mode, exclusive)
    g = _work(out_grad).reshape((n * c,) + div.shape)
    dx = np.empty((n * c,) + tuple(input_size), dtype=g.dtype)
    _conv.avg_pool_grad(g, div, dx, kernel_size, strides, paddings)
    return dx.astype(out_grad.dtype, copy=False).reshape((n, c) + tuple(input_size))


KERNELS = {"conv2d": conv2d, "conv2d_grad_input": conv2d_grad_input,
           "conv2d_grad_filter": conv2d_grad_filter, "max_pool2d": max_pool2d,
           "max_pool2d_grad": max_pool2d_grad, "avg_pool2d": avg_pool2d,
           "avg_pool2d_grad": avg_pool2d_grad}
