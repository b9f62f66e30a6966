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


@kernel
def conv3d_transpose(x, filter, output_size=(1, 1, 1), strides=(1, 1, 1),
                     paddings=((0, 0), (0, 0), (0, 0)), dilations=(1, 1, 1), groups=1,
                     data_format="NCDHW"):
    """3-D transposed convolution: conv3d's input gradient with x as the output gradient"""
    return _conv_grad_input(x, filter, output_size, strides, paddings, dilations, groups,
                            data_format)


def pool_divisor(size, kernel_size, strides, paddings, ceil_mode, exclusive):
    """The size of each pooling window [*out]: the window clamped to x (exclusive), else to
    [-pad_before, size + pad_before) (Paddle's rule, which ignores the padding after)."""
    nd, divisor = len(size), 1
    for axis, (n, k, s, (a, b)) in enumerate(zip(size, kernel_size, strides, paddings)):
        start = np.arange(pool_out_size(n, k, s, (a, b), ceil_mode)) * s - a
        lo, hi = (0, n) if exclusive else (-a, n + a)
        count = np.maximum(np.minimum(start + k, hi) - np.maximum(start, lo), 0)
        divisor = divisor * count.reshape((-1,) + (1,) * (nd - 1 - axis))
    return divisor


def _flat_index(coords, size):
    """The flat index into size of per-axis coordinates (broadcast), and where all are
    inside."""
    flat, inside = coords[0], (coords[0] >= 0) & (coords[0] < size[0])
    for c, n in zip(coords[1:], size[1:]):
        flat = flat * n + c
        inside = inside & (c >= 0) & (c < n)
    return flat, inside


def _unravel(arg, shape):
    """The per-axis positions in shape of the flat (row-major) positions arg."""
    out = []
    for n in shape[:0:-1]:
        out.insert(0, arg % n)
        arg = arg // n
    return [arg] + out


def _max_pool(x, kernel_size, strides, paddings, ceil_mode):
    """window maxima, and where in x's flat spatial positions each came from (-1: a window of
    padding only)"""
    nd, size = len(kernel_size), x.shape[2:]
    pads = ceil_paddings(size, kernel_size, strides, paddings, ceil_mode)
    win = windows(x, kernel_size, strides, pads, (1,) * nd, value=-np.inf)
    out = np.full(win.shape[:2 + nd], -np.inf, dtype=x.dtype)
    arg = np.zeros(out.shape, dtype=np.int64)
    for k, pos in enumerate(np.ndindex(*kernel_size)):   # the first maximum wins, as argmax
        value = win[(Ellipsis,) + pos]
        better = value > out
        out = np.where(better, value, out)
        arg = np.where(better, k, arg)
    coords = [(np.arange(o) * s - p[0]).reshape((-1,) + (1,) * (nd - 1 - axis)) + k
              for axis, (o, s, p, k) in enumerate(zip(out.shape[2:], strides, paddings,
                                                      _unravel(arg, kernel_size)))]
    flat, inside = _flat_index(coords, size)
    return (np.where(inside, out, np.finfo(x.dtype).min).astype(x.dtype),
            np.where(inside, flat, -1).astype(np.int32))


@kernel
def max_pool2d(x, kernel_size=(1, 1), strides=(1, 1), paddings=((0, 0), (0, 0)),
               ceil_mode=False):
    """window maxima, and where in x [H * W] each came from (-1: a window of padding only)"""
    return _max_pool(x, kernel_size, strides, paddings, ceil_mode)


@kernel
def max_pool3d(x, kernel_size=(1, 1, 1), strides=(1, 1, 1), paddings=((0, 0), (0, 0), (0, 0)),
               ceil_mode=False):
    """window maxima, and where in x [D * H * W] each came from (-1: padding only)"""
    return _max_pool(x, kernel_size, strides, paddings, ceil_mode)


def _max_pool_grad(out_grad, mask, input_size):
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
def max_pool2d_grad(out_grad, mask, input_size=(1, 1)):
    """out_grad added into zeros [N, C, *input_size] at the flat positions mask names"""
    return _max_pool_grad(out_grad, mask, input_size)


@kernel
def max_pool3d_grad(out_grad, mask, input_size=(1, 1, 1)):
    """out_grad added into zeros [N, C, *input_size] at the flat positions mask names"""
    return _max_pool_grad(out_grad, mask, input_size)


def _avg_pool(x, kernel_size, strides, paddings, ceil_mode, exclusive):
    """window sums divided by the window's size (exclusive: its elements inside x)"""
    nd = len(kernel_size)
    pads = ceil_paddings(x.shape[2:], kernel_size, strides, paddings, ceil_mode)
    total = windows(x, kernel_size, strides, pads, (1,) * nd).sum(axis=tuple(range(-nd, 0)))
    with np.errstate(invalid="ignore", divide="ignore"):  # a window of padding only: nan
        return (total / pool_divisor(x.shape[2:], kernel_size, strides, paddings, ceil_mode,
                                     exclusive)).astype(x.dtype)


def _avg_pool_grad(out_grad, input_size, kernel_size, strides, paddings, ceil_mode, exclusive):
    """each window's gradient / its size, spread back over the window (col2im)"""
    pads = ceil_paddings(input_size, kernel_size, strides, paddings, ceil_mode)
    with np.errstate(invalid="ignore", divide="ignore"):
        g = out_grad / pool_divisor(input_size, kernel_size, strides, paddings, ceil_mode,
                                    exclusive)
    cols = np.broadcast_to(g.astype(out_grad.dtype), tuple(kernel_size) + g.shape)
    return col2im(cols, tuple(input_size), strides, pads, (1,) * len(kernel_size))


@kernel
def avg_pool2d(x, kernel_size=(1, 1), strides=(1, 1), paddings=((0, 0), (0, 0)),
               ceil_mode=False, exclusive=True):
    """window sums divided by the window's size (exclusive: its elements inside x)"""
    return _avg_pool(x, kernel_size, strides, paddings, ceil_mode, exclusive)


@kernel
def avg_pool3d(x, kernel_size=(1, 1, 1), strides=(1, 1, 1), paddings=((0, 0), (0, 0), (0, 0)),
               ceil_mode=False, exclusive=True):
    """window sums divided by the window's size (exclusive: its elements inside x)"""
    return _avg_pool(x, kernel_size, strides, paddings, ceil_mode, exclusive)


@kernel
def avg_pool2d_grad(out_grad, input_size=(1, 1), kernel_size=(1, 1), strides=(1, 1),
                    paddings=((0, 0), (0, 0)), ceil_mode=False, exclusive=True):
    """each window's gradient / its size, spread back over the window (col2im)"""
    return _avg_pool_grad(out_grad, input_size, kernel_size, strides, paddings, ceil_mode,
                          exclusive)


@kernel
def avg_pool3d_grad(out_grad, input_size=(1, 1, 1), kernel_size=(1, 1, 1), strides=(1, 1, 1),
                    paddings=((0, 0), (0, 0), (0, 0)), ceil_mode=False, exclusive=True):
    """each window's gradient / its size, spread back over the window (col2im)"""
    return _avg_pool_grad(out_grad, input_size, kernel_size, strides, paddings, ceil_mode,
                          exclusive)


def adaptive_bins(n, m):
    """Paddle's adaptive bins of n positions into m: [floor(i n / m), ceil((i + 1) n / m))."""
    i = np.arange(m)
    return (i * n) // m, -((-(i + 1) * n) // m)


def _adaptive_max_pool(x, output_size):
    """maxima over Paddle's adaptive bins, and where in x's flat spatial positions each came
    from: each bin padded to the longest bin's size (with -inf), one gather, one argmax."""
    nd, size = len(output_size), x.shape[2:]
    starts, idx, valid = [], [], True
    for axis, (n, m) in enumerate(zip(size, output_size)):
        start, end = adaptive_bins(n, m)
        at = start[:, None] + np.arange(int(np.max(end - start)))       # [O, K] along the axis
        shape = [1] * (2 * nd)
        shape[axis], shape[nd + axis] = at.shape
        starts.append(start.reshape(shape[:nd]))
        idx.append(np.minimum(at, n - 1).reshape(shape))                 # [*O, *K] broadcast
        valid = valid & (at < end[:, None]).reshape(shape)
    patch = np.where(valid, x[(slice(None), slice(None)) + tuple(idx)], -np.inf)
    kshape = patch.shape[2 + nd:]
    flat = patch.reshape(patch.shape[:2 + nd] + (int(np.prod(kshape)),))
    arg = np.argmax(flat, axis=-1)
    out = np.take_along_axis(flat, arg[..., None], axis=-1)[..., 0].astype(x.dtype)
    coords = [start + k for start, k in zip(starts, _unravel(arg, kshape))]
    return out, _flat_index(coords, size)[0].astype(np.int32)


@kernel
def adaptive_max_pool2d(x, output_size=(1, 1)):
    """maxima over Paddle's adaptive bins, and where in x [H * W] each came from"""
    return _adaptive_max_pool(x, output_size)


@kernel
def adaptive_max_pool3d(x, output_size=(1, 1, 1)):
    """maxima over Paddle's adaptive bins, and where in x [D * H * W] each came from"""
    return _adaptive_max_pool(x, output_size)


def _max_unpool(x, indices, output_size):
    """zeros [N, C, *output_size] with x written at the flat positions indices name"""
    n, c = x.shape[:2]
    size = int(np.prod(output_size))
    idx = indices.reshape(n * c, int(np.prod(x.shape[2:]))).astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= size):
        raise ValueError(f"max_unpool{len(output_size)}d: indices must be in [0, {size}) (the "
                         f"output's {list(output_size)} positions), got values in "
                         f"[{idx.min()}, {idx.max()}]")
    out = np.zeros((n * c, size), dtype=x.dtype)
    out[np.arange(n * c)[:, None], idx] = x.reshape(idx.shape)
    return out.reshape((n, c) + tuple(output_size))


@kernel
def max_unpool2d(x, indices, output_size=(1, 1)):
    """zeros [N, C, *output_size] with x written at the flat H * W positions indices name"""
    return _max_unpool(x, indices, output_size)


@kernel
def max_unpool3d(x, indices, output_size=(1, 1, 1)):
    """zeros [N, C, *output_size] with x written at the flat D * H * W positions indices name"""
    return _max_unpool(x, indices, output_size)
