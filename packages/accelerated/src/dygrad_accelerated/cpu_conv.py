"""CPU kernels of the conv family: NumPy-level glue around ``_conv.pyx``.

A 2-D convolution is im2col into a buffer laid out for BLAS, a chunk of the batch at a time:
the compiled loop writes the windows as rows (input channel, kernel position; groups are
consecutive row blocks) and columns (output position), either one [C * KH * KW, OH * OW]
block per image, whose ``np.matmul`` with the filter [G, O/G, C/G * KH * KW] is the output
in NCHW order, or, for small images, the chunk's images side by side ([C * KH * KW,
B * OH * OW]) for one bigger product. The input gradient is the filter's transpose times the
output gradient, then col2im (a compiled scatter-add); the filter gradient sums one product
per chunk of the windows side by side with the output gradient. Pooling is one compiled
pass over each [H, W] plane. float16 is computed in float32 and rounded back; channels-last
data is moved to channels-first and back.

With several threads (``dygrad.set_num_threads``) the batch (pooling: the planes) is cut
into one part per thread (``threads.split``), each part running the compiled loops without
the GIL and a single-threaded BLAS product into its own slice of the output.
"""

from __future__ import annotations

import threading

import numpy as np

from dygrad._core.ops.conv import pool_out_size
from dygrad.kernels.conv import _back, _first, pool_divisor

from . import _conv, threads


def _work(a, dtype=None):
    """a as C-contiguous float32/float64 (float16 -> float32, or ``dtype``)."""
    want = dtype or (np.float32 if a.dtype == np.float16 else a.dtype)
    return np.ascontiguousarray(a, dtype=want)


def _out_size(size, ksize, strides, paddings, dilations):
    return tuple((n + a + b - (k - 1) * d - 1) // s + 1
                 for n, k, s, (a, b), d in zip(size, ksize, strides, paddings, dilations))


def _require(ok):
    """Refuse what the loops cannot take (sizes that do not fit together, windows outside the
    input, non-float data): the dispatcher then raises the op table's own error."""
    if not ok:
        raise ValueError("conv-family kernel: inputs outside the op's rules")


def _window_ok(ksize, strides, paddings, dilations=(1, 1)):
    return (len(ksize) == len(strides) == len(paddings) == len(dilations) == 2
            and min(ksize) > 0 and min(strides) > 0 and min(dilations) > 0
            and all(len(p) == 2 and min(p) >= 0 for p in paddings))


def _conv_ok(x, filter, size, out, ksize, strides, paddings, dilations, groups):
    """x [N, C, ...] (channels first) and filter [O, C/G, *ksize] (None: only its shape matters) make an
    output of spatial size ``out`` with these attributes."""
    return (_window_ok(ksize, strides, paddings, dilations) and len(size) == 2
            and isinstance(groups, (int, np.integer)) and groups >= 1
            and x.dtype.kind == "f" and (filter is None or filter.dtype.kind == "f")
            and x.shape[1] % groups == 0 and out[1] % groups == 0
            and tuple(out[2:]) == _out_size(size, ksize, strides, paddings, dilations)
            and min(out[2:]) > 0)


# Below this many output positions per image, the windows of a chunk's images go side by
# side ([C * K, B * L], one product, the output transposed after) rather than one block per
# image ([B, C * K, L], one product per image).
_PER_IMAGE = 256
# The batch is taken in chunks whose windows take about this many bytes: they stay in cache
# between the loop that writes them and the product that reads them, and the buffer for
# them is this thread's, reused from call to call (no fresh pages for every convolution).
_CHUNK_BYTES = 2 << 20

_scratch = threading.local()


def _buffer(slot, shape, dtype):
    """An uninitialised array of shape/dtype in this thread's scratch buffer ``slot``; it is
    overwritten by the next call that asks for the same slot."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    buf = getattr(_scratch, slot, None)
    if buf is None or buf.size < nbytes:
        buf = np.empty(max(nbytes, 1), dtype=np.uint8)
        setattr(_scratch, slot, buf)
    return buf[:nbytes].view(dtype).reshape(shape)


def _chunks(lo, hi, per_image_bytes):
    """(start, stop) of the chunks of the images lo..hi of a batch."""
    step = max(1, _CHUNK_BYTES // max(per_image_bytes, 1))
    return [(i, min(i + step, hi)) for i in range(lo, hi, step)]


def _im2col(x, ksize, strides, paddings, dilations, out, groups, side_by_side, ones=False):
    """The windows of x [B, C, H, W] in the scratch buffer: [G, C/G * K, B * L] side by side,
    else [B, G, C/G * K (+ 1 with ``ones``: a row of ones after each image's windows, one
    group only), L]."""
    b, rows, length = x.shape[0], x.shape[1] // groups * ksize[0] * ksize[1], out[0] * out[1]
    if side_by_side:
        cols = _buffer("cols", (groups, rows, b * length), x.dtype)
        sn, sr = length, b * length
    else:
        cols = _buffer("cols", (b, groups, rows + ones, length), x.dtype)
        sn, sr = groups * (rows + ones) * length, length
        if ones:
            cols[:, 0, rows] = 1
    _conv.im2col(x, cols.reshape(-1), ksize, strides, paddings, dilations, out, sn, sr)
    return cols


def _conv2d(x, filter, bias, strides, paddings, dilations, groups, data_format):
    """conv2d, plus bias [O] (None: none): in the product, as a column of the filter times a
    row of ones under each image's windows (one block per image, one group), else added to
    each chunk's output while it is in cache."""
    _require(x.ndim == 4 and filter.ndim == 4)
    xc = _work(_first(x, data_format))
    n, o, ksize = xc.shape[0], filter.shape[0], filter.shape[2:]
    out = _out_size(xc.shape[2:], ksize, strides, paddings, dilations)
    _require(xc.shape[1] == filter.shape[1] * groups and _conv_ok(
        xc, filter, xc.shape[2:], (n, o) + out, ksize, strides, paddings, dilations, groups))
    w = _work(filter, xc.dtype).reshape(groups, o // groups, -1)
    length = out[0] * out[1]
    side = length < _PER_IMAGE
    ones = bias is not None and not side and groups == 1
    if bias is not None:
        _require(bias.shape == (o,) and bias.dtype == x.dtype)
        bias = _work(bias, xc.dtype).reshape(o, 1)
        if ones:
            w = np.concatenate([w[0], bias], axis=1)[None]
    y = np.empty((n, o, length), dtype=xc.dtype)

    def part(first, last):
        for lo, hi in _chunks(first, last, w.size // o * groups * length * xc.itemsize):
            cols = _im2col(xc[lo:hi], ksize, strides, paddings, dilations, out, groups, side,
                           ones)
            if side:
                prod = np.matmul(w, cols, out=_buffer(
                    "prod", (groups, o // groups, cols.shape[2]), xc.dtype))
                prod = prod.reshape(o, hi - lo, length).transpose(1, 0, 2)
                if bias is None:
                    y[lo:hi] = prod
                else:
                    np.add(prod, bias, out=y[lo:hi])
            else:
                np.matmul(w, cols, out=y[lo:hi].reshape(hi - lo, groups, o // groups, length))
                if bias is not None and not ones:
                    np.add(y[lo:hi], bias, out=y[lo:hi])
    threads.split(n, y.size * (w.size // o), part)
    return _back(y.astype(x.dtype, copy=False).reshape((n, o) + out), data_format)


def conv2d(x, filter, strides=(1, 1), paddings=((0, 0), (0, 0)), dilations=(1, 1), groups=1,
           data_format="NCHW"):
    """2-D convolution (compiled im2col + matmul, a chunk of the batch at a time)"""
    return _conv2d(x, filter, None, strides, paddings, dilations, groups, data_format)


def fused_conv2d_bias(x, filter, bias, strides=(1, 1), paddings=((0, 0), (0, 0)),
                      dilations=(1, 1), groups=1, data_format="NCHW"):
    """conv2d + bias, the bias added to each chunk of the output while it is in cache"""
    return _conv2d(x, filter, bias, strides, paddings, dilations, groups, data_format)


def conv2d_grad_input(out_grad, filter, input_size=(1, 1), strides=(1, 1),
                      paddings=((0, 0), (0, 0)), dilations=(1, 1), groups=1, data_format="NCHW"):
    """conv2d's input gradient (matmul + compiled col2im, a chunk of the batch at a time)"""
    _require(out_grad.ndim == 4 and filter.ndim == 4 and len(input_size) == 2)
    g = _work(_first(out_grad, data_format))
    _require(g.shape[1] == filter.shape[0] and _conv_ok(
        g, filter, tuple(input_size), g.shape, filter.shape[2:], strides, paddings,
        dilations, groups))
    w = _work(filter, g.dtype)
    n, o, out, ksize = g.shape[0], g.shape[1], g.shape[2:], w.shape[2:]
    rows, length = w.shape[1] * ksize[0] * ksize[1], out[0] * out[1]
    wt = w.reshape(groups, o // groups, rows).transpose(0, 2, 1)
    side = length < _PER_IMAGE
    dx = np.empty((n, groups * w.shape[1]) + tuple(input_size), dtype=g.dtype)

    def part(first, last):
        for lo, hi in _chunks(first, last, groups * rows * length * g.itemsize):
            b = hi - lo
            gb = g[lo:hi].reshape(b, groups, o // groups, length)
            if side:                                                   # [G, C/G * K, B * L]
                go = gb.transpose(1, 2, 0, 3).reshape(groups, o // groups, b * length)
                cols = np.matmul(wt, go, out=_buffer("cols", (groups, rows, b * length),
                                                     g.dtype))
                sn, sr = length, b * length
            else:                                                      # [B, G, C/G * K, L]
                cols = np.matmul(wt, gb, out=_buffer("cols", (b, groups, rows, length),
                                                     g.dtype))
                sn, sr = groups * rows * length, length
            _conv.col2im(cols.reshape(-1), dx[lo:hi], ksize, strides, paddings, dilations,
                         out, sn, sr)
    threads.split(n, g.size * rows, part)
    return _back(dx.astype(out_grad.dtype, copy=False), data_format)


def conv2d_grad_filter(input, out_grad, filter_size=(1, 1), strides=(1, 1),
                       paddings=((0, 0), (0, 0)), dilations=(1, 1), groups=1,
                       data_format="NCHW"):
    """conv2d's filter gradient (compiled im2col of a chunk's images side by side + one
    matmul with the output gradient per chunk)"""
    _require(input.ndim == 4 and out_grad.ndim == 4 and len(filter_size) == 2)
    xc = _work(_first(input, data_format))
    g = _work(_first(out_grad, data_format), xc.dtype)
    _require(g.shape[0] == xc.shape[0] and _conv_ok(
        xc, None, xc.shape[2:], g.shape, tuple(filter_size), strides, paddings, dilations,
        groups))
    n, c, o, out = xc.shape[0], xc.shape[1], g.shape[1], g.shape[2:]
    length, ksize = out[0] * out[1], tuple(filter_size)
    rows = c // groups * ksize[0] * ksize[1]

    def part(first, last):
        dwt = np.zeros((groups, rows, o // groups), dtype=xc.dtype)    # [G, C/G * K, O/G]
        for lo, hi in _chunks(first, last, groups * rows * length * xc.itemsize):
            cols = _im2col(xc[lo:hi], ksize, strides, paddings, dilations, out, groups, True)
            go = g[lo:hi].reshape(hi - lo, groups, o // groups, length).transpose(1, 0, 3, 2)
            dwt += np.matmul(cols, go.reshape(groups, (hi - lo) * length, o // groups))
        return dwt
    dwt = sum(threads.split(n, g.size * rows, part))
    dw = dwt.transpose(0, 2, 1).reshape((o, c // groups) + ksize)
    return np.ascontiguousarray(dw, dtype=input.dtype)


def max_pool2d(x, kernel_size=(1, 1), strides=(1, 1), paddings=((0, 0), (0, 0)),
               ceil_mode=False):
    """window maxima, and where in x [H * W] each came from (-1: a window of padding only)"""
    _require(x.ndim == 4 and x.dtype.kind == "f" and _window_ok(kernel_size, strides, paddings))
    n, c, h, w = x.shape
    out = tuple(pool_out_size(size, k, s, p, ceil_mode)
                for size, k, s, p in zip((h, w), kernel_size, strides, paddings))
    _require(min(out) > 0)
    xc = _work(x).reshape(n * c, h, w)
    y = np.empty((n * c,) + out, dtype=xc.dtype)
    mask = np.empty((n * c,) + out, dtype=np.int32)
    lowest = float(np.finfo(x.dtype).min)
    threads.split(n * c, xc.size, lambda lo, hi: _conv.max_pool(
        xc[lo:hi], y[lo:hi], mask[lo:hi], kernel_size, strides, paddings, lowest))
    return y.astype(x.dtype, copy=False).reshape((n, c) + out), mask.reshape((n, c) + out)


def max_pool2d_grad(out_grad, mask, input_size=(1, 1)):
    """out_grad added into zeros [N, C, *input_size] at the flat positions mask names"""
    _require(out_grad.ndim == 4 and mask.shape == out_grad.shape and mask.dtype.kind in "iu"
             and out_grad.dtype.kind == "f" and len(input_size) == 2)
    n, c = out_grad.shape[:2]
    hw = int(np.prod(input_size))
    length = int(np.prod(out_grad.shape[2:]))
    g = _work(out_grad).reshape(n * c, length)
    index = np.int32 if mask.dtype == np.int32 else np.int64
    m = np.ascontiguousarray(mask, dtype=index).reshape(n * c, length)
    dx = np.empty((n * c, hw), dtype=g.dtype)
    threads.split(n * c, dx.size, lambda lo, hi: _conv.max_pool_grad(g[lo:hi], m[lo:hi],
                                                                      dx[lo:hi]))
    return dx.astype(out_grad.dtype, copy=False).reshape((n, c) + tuple(input_size))


def _divisor(size, kernel_size, strides, paddings, ceil_mode, exclusive):
    """Each window's size [OH, OW] (float64), after checking the window fits."""
    _require(len(size) == 2 and _window_ok(kernel_size, strides, paddings) and min(
        pool_out_size(n, k, s, p, ceil_mode)
        for n, k, s, p in zip(size, kernel_size, strides, paddings)) > 0)
    return np.ascontiguousarray(pool_divisor(size, kernel_size, strides, paddings, ceil_mode,
                                             exclusive), dtype=np.float64)


def avg_pool2d(x, kernel_size=(1, 1), strides=(1, 1), paddings=((0, 0), (0, 0)),
               ceil_mode=False, exclusive=True):
    """window sums divided by the window's size (exclusive: its elements inside x)"""
    _require(x.ndim == 4 and x.dtype.kind == "f")
    n, c, h, w = x.shape
    div = _divisor((h, w), kernel_size, strides, paddings, ceil_mode, exclusive)
    xc = _work(x).reshape(n * c, h, w)
    y = np.empty((n * c,) + div.shape, dtype=xc.dtype)
    _conv.avg_pool(xc, y, div, kernel_size, strides, paddings)
    return y.astype(x.dtype, copy=False).reshape((n, c) + div.shape)


def avg_pool2d_grad(out_grad, input_size=(1, 1), kernel_size=(1, 1), strides=(1, 1),
                    paddings=((0, 0), (0, 0)), ceil_mode=False, exclusive=True):
    """each window's gradient / its size, spread back over the window"""
    _require(out_grad.ndim == 4 and out_grad.dtype.kind == "f")
    n, c = out_grad.shape[:2]
    div = _divisor(tuple(input_size), kernel_size, strides, paddings, ceil_mode, exclusive)
    _require(out_grad.shape[2:] == div.shape)
    g = _work(out_grad).reshape((n * c,) + div.shape)
    dx = np.empty((n * c,) + tuple(input_size), dtype=g.dtype)
    _conv.avg_pool_grad(g, div, dx, kernel_size, strides, paddings)
    return dx.astype(out_grad.dtype, copy=False).reshape((n, c) + tuple(input_size))


KERNELS = {"conv2d": conv2d, "fused_conv2d_bias": fused_conv2d_bias,
           "conv2d_grad_input": conv2d_grad_input,
           "conv2d_grad_filter": conv2d_grad_filter, "max_pool2d": max_pool2d,
           "max_pool2d_grad": max_pool2d_grad, "avg_pool2d": avg_pool2d,
           "avg_pool2d_grad": avg_pool2d_grad}
