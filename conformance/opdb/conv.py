"""Op database entries: convolution and pooling ops.

The NumPy statements here do not slide windows: along each spatial axis a 0/1 matrix
``S[o, k, i]`` says whether output position o reads input position i at kernel position k
(``i == o * stride + k * dilation - pad_before``), and a convolution is one einsum of x,
those matrices and the filter. Its two gradients are the same einsum solved for x or for the
filter.
"""

import numpy as np

from . import ErrorInput, OpInfo, Sample, make

# ---------------------------------------------------------------------------
# convolutions
# ---------------------------------------------------------------------------


def _reads(size, out, k, s, d, pad_before):
    """S[o, k, i] = 1 where output o reads input i at kernel position k."""
    o, kk, i = np.ix_(np.arange(out), np.arange(k), np.arange(size))
    return (i == o * s + kk * d - pad_before).astype(np.float64)


def _out(size, k, s, p, d):
    return (size + p[0] + p[1] - (k - 1) * d - 1) // s + 1


def _letters(nd):
    return "ijk"[:nd], "pqr"[:nd], "uvw"[:nd]  # input, output, kernel positions


def _mats(size, ksize, strides, paddings, dilations, out=None):
    out = out or [_out(n, k, s, p, d) for n, k, s, p, d in
                  zip(size, ksize, strides, paddings, dilations)]
    return [_reads(n, o, k, s, d, p[0])
            for n, o, k, s, d, p in zip(size, out, ksize, strides, dilations, paddings)]


def _chan_first(a, fmt):
    return np.moveaxis(a, -1, 1) if fmt[-1] == "C" else a


def _chan_back(a, fmt):
    return np.moveaxis(a, 1, -1) if fmt[-1] == "C" else a


def _spec(nd):
    i, p, u = _letters(nd)
    mats = ",".join(f"{a}{b}{c}" for a, b, c in zip(p, u, i))
    return i, p, u, mats


def _conv_ref(x, filter, strides=None, paddings=None, dilations=None, groups=1,
              data_format="NCHW"):
    """out[n, g, o, p] = sum x[n, g, c, i] S[p, u, i] w[g, o, c, u] (one einsum)."""
    nd, dtype = filter.ndim - 2, x.dtype
    x = _chan_first(x.astype(np.float64), data_format)
    n, c = x.shape[:2]
    w = filter.astype(np.float64).reshape((groups, -1) + filter.shape[1:])
    i, p, u, mats = _spec(nd)
    s = _mats(x.shape[2:], filter.shape[2:], strides, paddings, dilations)
    xg = x.reshape((n, groups, c // groups) + x.shape[2:])
    y = np.einsum(f"nGc{i},{mats},Goc{u}->nGo{p}", xg, *s, w)
    return _chan_back(y.reshape((n, y.shape[1] * y.shape[2]) + y.shape[3:]), data_format).astype(
        dtype)


def _conv_grad_input_ref(out_grad, filter, input_size=None, strides=None, paddings=None,
                         dilations=None, groups=1, data_format="NCHW"):
    """dx[n, g, c, i] = sum g[n, g, o, p] S[p, u, i] w[g, o, c, u]."""
    nd = filter.ndim - 2
    g = _chan_first(out_grad.astype(np.float64), data_format)
    n = g.shape[0]
    w = filter.astype(np.float64).reshape((groups, -1) + filter.shape[1:])
    i, p, u, mats = _spec(nd)
    s = _mats(input_size, filter.shape[2:], strides, paddings, dilations, list(g.shape[2:]))
    gg = g.reshape((n, groups, g.shape[1] // groups) + g.shape[2:])
    dx = np.einsum(f"nGo{p},{mats},Goc{u}->nGc{i}", gg, *s, w)
    dx = dx.reshape((n, dx.shape[1] * dx.shape[2]) + dx.shape[3:])
    return _chan_back(dx, data_format).astype(out_grad.dtype)


def _conv_grad_filter_ref(input, out_grad, filter_size=None, strides=None, paddings=None,
                          dilations=None, groups=1, data_format="NCHW"):
    """dw[g, o, c, u] = sum x[n, g, c, i] S[p, u, i] g[n, g, o, p]."""
    nd = len(filter_size)
    x = _chan_first(input.astype(np.float64), data_format)
    g = _chan_first(out_grad.astype(np.float64), data_format)
    n = x.shape[0]
    i, p, u, mats = _spec(nd)
    s = _mats(x.shape[2:], filter_size, strides, paddings, dilations, list(g.shape[2:]))
    xg = x.reshape((n, groups, x.shape[1] // groups) + x.shape[2:])
    gg = g.reshape((n, groups, g.shape[1] // groups) + g.shape[2:])
    dw = np.einsum(f"nGc{i},{mats},nGo{p}->Goc{u}", xg, *s, gg)
    return dw.reshape((-1,) + dw.shape[2:]).astype(input.dtype)


def _conv_transpose_ref(x, filter, output_size=None, **attrs):
    """The input gradient of a convolution with x as its output gradient."""
    return _conv_grad_input_ref(x, filter, input_size=output_size, **attrs)


# (x shape, filter shape, attrs): batch 1, odd sizes, groups, depthwise, strides,
# dilations, asymmetric paddings, channels-last
CONV2D_CASES = [
    ((1, 1, 5, 5), (2, 1, 3, 3), {}),
    ((2, 3, 5, 4), (4, 3, 2, 3), {"strides": (2, 1), "paddings": ((1, 1), (0, 2))}),
    ((2, 4, 6, 5), (6, 2, 3, 3), {"groups": 2, "dilations": (2, 1), "paddings": ((2, 1), (1, 1))}),
    ((1, 3, 5, 5), (3, 1, 3, 3), {"groups": 3, "strides": (2, 2), "paddings": ((1, 1), (1, 1))}),
    ((2, 5, 4, 3), (2, 3, 2, 2), {"data_format": "NHWC", "paddings": ((0, 1), (1, 0))}),
    ((1, 2, 1, 1), (3, 2, 1, 1), {}),
    ((0, 2, 4, 4), (3, 2, 3, 3), {"paddings": ((1, 1), (0, 0))}),       # an empty batch
]

CONV3D_CASES = [
    ((1, 2, 3, 4, 3), (3, 2, 2, 2, 2), {}),
    ((2, 2, 4, 3, 3), (2, 1, 2, 1, 2), {"groups": 2, "strides": (2, 1, 1),
                                         "paddings": ((1, 0), (0, 1), (1, 1)),
                                         "dilations": (1, 1, 2)}),
    ((1, 3, 3, 3, 2), (2, 2, 1, 2, 2), {"data_format": "NDHWC", "paddings": ((0, 0), (1, 1),
                                                                              (0, 1))}),
]


def _full_attrs(nd, attrs):
    a = {"strides": (1,) * nd, "paddings": ((0, 0),) * nd, "dilations": (1,) * nd, "groups": 1,
         "data_format": "NCHW" if nd == 2 else "NCDHW"}
    a.update(attrs)
    return a


def _conv_out_shape(xshape, fshape, a):
    nd = len(fshape) - 2
    last = a["data_format"][-1] == "C"
    size = xshape[1:-1] if last else xshape[2:]
    out = tuple(_out(n, k, s, p, d) for n, k, s, p, d in
                zip(size, fshape[2:], a["strides"], a["paddings"], a["dilations"]))
    return ((xshape[0],) + out + (fshape[0],)) if last else (xshape[0], fshape[0]) + out, size, nd


def _conv_samples(cases):
    def gen(dtype, rng):
        for xs, fs, attrs in cases:
            yield Sample((make(xs, dtype, rng), make(fs, dtype, rng)),
                         _full_attrs(len(fs) - 2, attrs), f"{xs} * {fs}")
    return gen


def _grad_input_samples(cases):
    def gen(dtype, rng):
        for xs, fs, attrs in cases:
            a = _full_attrs(len(fs) - 2, attrs)
            ys, size, _ = _conv_out_shape(xs, fs, a)
            yield Sample((make(ys, dtype, rng), make(fs, dtype, rng)),
                         {"input_size": tuple(size), **a}, f"{ys} -> {xs}")
    return gen


def _grad_filter_samples(cases):
    def gen(dtype, rng):
        for xs, fs, attrs in cases:
            a = _full_attrs(len(fs) - 2, attrs)
            ys, _, _ = _conv_out_shape(xs, fs, a)
            yield Sample((make(xs, dtype, rng), make(ys, dtype, rng)),
                         {"filter_size": tuple(fs[2:]), **a}, f"{xs}, {ys} -> {fs}")
    return gen


def conv2d_transpose_samples(dtype, rng):
    """Transposed-convolution layout: filter [in, out / groups, kh, kw]; output sizes
    including the larger ones output_padding reaches."""
    for xs, fs, out, attrs in [
        ((1, 2, 3, 3), (2, 3, 3, 3), (5, 5), {}),
        ((2, 2, 3, 2), (2, 2, 3, 2), (6, 4), {"strides": (2, 2), "paddings": ((1, 1), (0, 1))}),
        ((1, 4, 2, 3), (4, 1, 2, 2), (4, 10), {"groups": 2, "dilations": (2, 2),
                                              "strides": (2, 3), "paddings": ((1, 0), (0, 0))}),
        ((2, 3, 2, 2), (2, 2, 2, 2), (6, 5), {"data_format": "NHWC", "strides": (2, 2),
                                              "paddings": ((0, 1), (0, 0))}),
    ]:
        yield Sample((make(xs, dtype, rng), make(fs, dtype, rng)),
                     {"output_size": out, **_full_attrs(2, attrs)}, f"{xs} -> {out}")


def conv3d_transpose_samples(dtype, rng):
    """As conv2d_transpose_samples, with filter [in, out / groups, kd, kh, kw]."""
    for xs, fs, out, attrs in [
        ((1, 2, 2, 3, 2), (2, 3, 2, 2, 3), (3, 4, 4), {}),
        ((2, 4, 2, 2, 3), (4, 1, 2, 3, 2), (4, 2, 7), {"groups": 2, "strides": (2, 1, 2),
                                                      "paddings": ((0, 1), (1, 1), (0, 0))}),
        ((1, 1, 2, 2, 2), (1, 2, 2, 2, 2), (5, 4, 3), {"dilations": (2, 1, 1),
                                                      "strides": (2, 2, 1)}),
        ((1, 2, 3, 2, 3), (3, 2, 1, 2, 2), (4, 4, 3), {"data_format": "NDHWC",
                                                      "strides": (2, 1, 1)}),
    ]:
        yield Sample((make(xs, dtype, rng), make(fs, dtype, rng)),
                     {"output_size": out, **_full_attrs(3, attrs)}, f"{xs} -> {out}")


def conv3d_transpose_errors(rng):
    x = make((1, 2, 2, 2, 2), np.float32, rng)
    yield ErrorInput(Sample((x, make((3, 1, 2, 2, 2), np.float32, rng)),
                            {"output_size": (3, 3, 3)}), ValueError,
                     r"conv3d_transpose: the input's channels \(2.*filter's first dimension")


def conv2d_errors(rng):
    x = make((2, 3, 5, 5), np.float32, rng)
    yield ErrorInput(Sample((x, make((4, 2, 3, 3), np.float32, rng))), ValueError,
                     r"input's channels \(3, x of shape \[2, 3, 5, 5\].*filter of shape "
                     r"\[4, 2, 3, 3\]")
    yield ErrorInput(Sample((x, make((4, 1, 3, 3), np.float32, rng)), {"groups": 2}),
                     ValueError, "groups")
    yield ErrorInput(Sample((make((3, 5, 5), np.float32, rng), make((4, 3, 3, 3), np.float32,
                                                                    rng))),
                     ValueError, "x must be a 4-D tensor")
    yield ErrorInput(Sample((x, make((4, 3, 7, 3), np.float32, rng))), ValueError,
                     "larger than the padded input")


def conv3d_errors(rng):
    yield ErrorInput(Sample((make((1, 2, 3, 3, 3), np.float64, rng),
                             make((2, 3, 1, 1, 1), np.float64, rng))),
                     ValueError, r"filter of shape \[2, 3, 1, 1, 1\]")


def conv2d_transpose_errors(rng):
    x = make((1, 2, 3, 3), np.float32, rng)
    yield ErrorInput(Sample((x, make((3, 4, 3, 3), np.float32, rng)), {"output_size": (5, 5)}),
                     ValueError, "filter's first dimension")


def _conv_bias_ref(x, filter, bias, data_format="NCHW", **attrs):
    """The convolution plus bias[o] at every position of output channel o."""
    y = _conv_ref(x.astype(np.float64), filter.astype(np.float64), data_format=data_format,
                  **attrs)
    return (_chan_back(_chan_first(y, data_format) + bias.reshape(-1, 1, 1), data_format)
            .astype(x.dtype))


def fused_conv2d_bias_samples(dtype, rng):
    for xs, fs, attrs in CONV2D_CASES:
        yield Sample((make(xs, dtype, rng), make(fs, dtype, rng), make(fs[:1], dtype, rng)),
                     _full_attrs(2, attrs), f"{xs} * {fs} + bias")


def fused_conv2d_bias_errors(rng):
    x, w = make((2, 3, 5, 5), np.float32, rng), make((4, 3, 3, 3), np.float32, rng)
    yield ErrorInput(Sample((x, w, make((3,), np.float32, rng))), ValueError,
                     r"bias must have shape \[4\].*got \[3\]")
    yield ErrorInput(Sample((x, w, make((1, 4), np.float32, rng))), ValueError,
                     r"bias must have shape \[4\]")
    yield ErrorInput(Sample((x, w, make((4,), np.float64, rng))), TypeError,
                     r"x \(float32\) and bias \(float64\) must have the same dtype")
    yield ErrorInput(Sample((x, make((4, 2, 3, 3), np.float32, rng), make((4,), np.float32,
                                                                          rng))),
                     ValueError, r"conv2d: the input's channels \(3")


_CONV_TOL = {np.float32: (1e-4, 1e-4)}

OPS = [
    OpInfo("conv2d", _conv_ref, _conv_samples(CONV2D_CASES), gradgrad=True, tol=_CONV_TOL,
           errors=conv2d_errors),
    OpInfo("conv2d_grad_input", _conv_grad_input_ref, _grad_input_samples(CONV2D_CASES),
           gradgrad=True, tol=_CONV_TOL),
    OpInfo("conv2d_grad_filter", _conv_grad_filter_ref, _grad_filter_samples(CONV2D_CASES),
           gradgrad=True, tol=_CONV_TOL),
    OpInfo("fused_conv2d_bias", _conv_bias_ref, fused_conv2d_bias_samples, gradgrad=True,
           tol=_CONV_TOL, errors=fused_conv2d_bias_errors),
    OpInfo("conv3d", _conv_ref, _conv_samples(CONV3D_CASES), gradgrad=True, tol=_CONV_TOL,
           errors=conv3d_errors),
    OpInfo("conv3d_grad_input", _conv_grad_input_ref, _grad_input_samples(CONV3D_CASES),
           gradgrad=True, tol=_CONV_TOL),
    OpInfo("conv3d_grad_filter", _conv_grad_filter_ref, _grad_filter_samples(CONV3D_CASES),
           gradgrad=True, tol=_CONV_TOL),
    OpInfo("conv2d_transpose", _conv_transpose_ref, conv2d_transpose_samples, gradgrad=True,
           tol=_CONV_TOL, errors=conv2d_transpose_errors),
    OpInfo("conv3d_transpose", _conv_transpose_ref, conv3d_transpose_samples, gradgrad=True,
           tol=_CONV_TOL, errors=conv3d_transpose_errors),
]


# ---------------------------------------------------------------------------
# pooling
# ---------------------------------------------------------------------------

def _pool_out(n, k, s, p, ceil_mode):
    return (n + p[0] + p[1] - k + (s - 1 if ceil_mode else 0)) // s + 1


def _pool_mats(size, kernel_size, strides, paddings, ceil_mode):
    return [_reads(n, _pool_out(n, k, s, p, ceil_mode), k, s, 1, p[0])
            for n, k, s, p in zip(size, kernel_size, strides, paddings)]


def _pool_count(size, kernel_size, strides, paddings, ceil_mode, exclusive):
    """Each window's number of positions inside x (exclusive), else inside
    [-pad_before, size + pad_before) (Paddle counts no padding after)."""
    counts = []
    for n, k, s, p in zip(size, kernel_size, strides, paddings):
        o = _pool_out(n, k, s, p, ceil_mode)
        pos = np.arange(o)[:, None] * s - p[0] + np.arange(k)            # [O, K]
        lo, hi = (0, n) if exclusive else (-p[0], n + p[0])
        counts.append(np.sum((pos >= lo) & (pos < hi), axis=1))
    return np.multiply.outer(*counts)


def _max_pool2d_ref(x, kernel_size=None, strides=None, paddings=None, ceil_mode=False):
    """Each window's maximum read through the 0/1 matrices: x at the positions a window reads,
    -inf elsewhere; the flat index of the first maximum; -1 and the lowest value for a window
    that reads nothing."""
    sh, sw = _pool_mats(x.shape[2:], kernel_size, strides, paddings, ceil_mode)
    # [OH, KH, H] x [OW, KW, W] -> does window (p, q) at kernel (u, v) read x[i, j]?
    reads = np.einsum("pui,qvj->pqijuv", sh, sw).reshape(sh.shape[0], sw.shape[0], -1,
                                                           sh.shape[1] * sw.shape[1]).any(-1)
    n, c = x.shape[:2]
    vals = np.where(reads, x.reshape(n, c, 1, 1, reads.shape[-1]), -np.inf)  # [N, C, OH, OW, HW]
    out, mask = vals.max(-1), vals.argmax(-1)
    empty = ~reads.any(-1)
    return (np.where(empty, np.finfo(x.dtype).min, out).astype(x.dtype),
            np.where(empty, -1, mask).astype(np.int32))


def _avg_pool2d_ref(x, kernel_size=None, strides=None, paddings=None, ceil_mode=False,
                    exclusive=True):
    """Window sums through the 0/1 matrices, over the window's count."""
    sh, sw = _pool_mats(x.shape[2:], kernel_size, strides, paddings, ceil_mode)
    total = np.einsum("ncij,pui,qvj->ncpq", x.astype(np.float64), sh, sw)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (total / _pool_count(x.shape[2:], kernel_size, strides, paddings, ceil_mode,
                                    exclusive)).astype(x.dtype)


def _avg_pool2d_grad_ref(out_grad, input_size=None, kernel_size=None, strides=None,
                         paddings=None, ceil_mode=False, exclusive=True):
    """Each window's gradient over its count, added where the window reads."""
    sh, sw = _pool_mats(input_size, kernel_size, strides, paddings, ceil_mode)
    with np.errstate(invalid="ignore", divide="ignore"):
        g = out_grad / _pool_count(input_size, kernel_size, strides, paddings, ceil_mode,
                                   exclusive)
    return np.einsum("ncpq,pui,qvj->ncij", g.astype(np.float64), sh, sw).astype(out_grad.dtype)


def _max_pool2d_grad_ref(out_grad, mask, input_size=None):
    """out_grad added at the positions the mask names (none for -1)."""
    n, c = out_grad.shape[:2]
    out = np.zeros((n, c, int(np.prod(input_size))), dtype=out_grad.dtype)
    m = mask.reshape(n, c, int(np.prod(mask.shape[2:])))
    ni, ci, _ = np.indices(m.shape)
    keep = m >= 0
    np.add.at(out, (ni[keep], ci[keep], m[keep]), out_grad.reshape(m.shape)[keep])
    return out.reshape((n, c) + tuple(input_size))


def _adaptive_max_pool2d_ref(x, output_size=None):
    """The maximum over each bin [floor(i H / OH), ceil((i + 1) H / OH)) x (same for W),
    one bin at a time."""
    h, w = x.shape[2:]
    oh, ow = output_size
    out = np.empty(x.shape[:2] + (oh, ow), dtype=x.dtype)
    mask = np.empty(out.shape, dtype=np.int32)
    for i in range(oh):
        r0, r1 = i * h // oh, -(-(i + 1) * h // oh)
        for j in range(ow):
            c0, c1 = j * w // ow, -(-(j + 1) * w // ow)
            block = x[:, :, r0:r1, c0:c1].reshape(x.shape[:2] + ((r1 - r0) * (c1 - c0),))
            k = block.argmax(-1)
            out[:, :, i, j] = block.max(-1)
            mask[:, :, i, j] = (r0 + k // (c1 - c0)) * w + c0 + k % (c1 - c0)
    return out, mask


# (x shape, attrs): batch 1, odd sizes, padding, strides other than the kernel, ceil_mode
POOL_CASES = [
    ((1, 1, 4, 4), {"kernel_size": (2, 2), "strides": (2, 2)}),
    ((2, 3, 5, 5), {"kernel_size": (3, 3), "strides": (2, 2), "paddings": ((1, 1), (1, 1))}),
    ((1, 2, 5, 4), {"kernel_size": (2, 3), "strides": (2, 1), "paddings": ((1, 0), (0, 1)),
                    "ceil_mode": True}),
    ((1, 1, 5, 5), {"kernel_size": (3, 2), "strides": (2, 2), "paddings": ((0, 2), (1, 1))}),
    ((2, 1, 7, 3), {"kernel_size": (3, 2), "strides": (3, 2), "ceil_mode": True}),
    ((1, 2, 1, 1), {"kernel_size": (1, 1)}),
    ((0, 2, 4, 4), {"kernel_size": (2, 2), "strides": (2, 2)}),          # an empty batch
]


def _pool_attrs(attrs):
    return {"kernel_size": (1, 1), "strides": (1, 1), "paddings": ((0, 0), (0, 0)),
            "ceil_mode": False, **attrs}


def _distinct(shape, dtype, rng):
    """Values a step apart, shuffled: maxima are unique and stay put under small steps."""
    return (rng.permutation(int(np.prod(shape))).reshape(shape) * 0.1 - 1.0).astype(dtype)


def max_pool2d_samples(dtype, rng):
    for shape, attrs in POOL_CASES:
        yield Sample((_distinct(shape, dtype, rng),), _pool_attrs(attrs), f"{shape}")


def avg_pool2d_samples(dtype, rng):
    for shape, attrs in POOL_CASES:
        for exclusive in (True, False):
            yield Sample((make(shape, dtype, rng),), {**_pool_attrs(attrs), "exclusive": exclusive},
                         f"{shape} exclusive={exclusive}")
    # a window of padding only (ceil_mode): nan where exclusive, as Paddle
    yield Sample((make((1, 1, 5, 5), dtype, rng),),
                 {**_pool_attrs({"kernel_size": (2, 2), "strides": (2, 2),
                                 "paddings": ((1, 1), (1, 1)), "ceil_mode": True}),
                  "exclusive": True}, "padding-only window", grad=False)


def avg_pool2d_grad_samples(dtype, rng):
    for shape, attrs in POOL_CASES:
        a = _pool_attrs(attrs)
        out = [_pool_out(n, k, s, p, a["ceil_mode"])
               for n, k, s, p in zip(shape[2:], a["kernel_size"], a["strides"], a["paddings"])]
        for exclusive in (True, False):
            yield Sample((make(shape[:2] + tuple(out), dtype, rng),),
                         {"input_size": shape[2:], **a, "exclusive": exclusive}, f"{shape}")


def max_pool2d_grad_samples(dtype, rng):
    for shape, attrs in POOL_CASES:
        _, mask = _max_pool2d_ref(_distinct(shape, np.float64, rng), **_pool_attrs(attrs))
        yield Sample((make(mask.shape, dtype, rng), mask), {"input_size": shape[2:]}, f"{shape}")
    # several outputs reading the same maximum (overlapping windows) accumulate
    yield Sample((make((1, 1, 2, 2), dtype, rng), np.array([[[[4, 4], [4, 0]]]], np.int32)),
                 {"input_size": (3, 3)}, "repeated")


def adaptive_max_pool2d_samples(dtype, rng):
    for shape, size in [((1, 1, 5, 5), (3, 3)), ((2, 3, 7, 4), (2, 3)), ((1, 2, 4, 4), (4, 4)),
                        ((2, 1, 3, 5), (1, 1)), ((1, 1, 2, 3), (5, 4)), ((0, 2, 3, 3), (2, 2))]:
        yield Sample((_distinct(shape, dtype, rng),), {"output_size": size}, f"{shape}->{size}")


def pool_errors(rng):
    yield ErrorInput(Sample((make((2, 3, 4), np.float32, rng),), {"kernel_size": (2, 2)}),
                     ValueError, "x must be a 4-D tensor")
    yield ErrorInput(Sample((make((1, 1, 2, 2), np.float32, rng),), {"kernel_size": (3, 3)}),
                     ValueError, "larger than the padded input")


def max_pool2d_grad_errors(rng):
    yield ErrorInput(Sample((make((1, 1, 2, 2), np.float32, rng), np.zeros((1, 1, 2), np.int32)),
                            {"input_size": (4, 4)}), ValueError, "same 4-D shape")


OPS += [
    OpInfo("max_pool2d", _max_pool2d_ref, max_pool2d_samples, gradgrad=True, errors=pool_errors),
    OpInfo("max_pool2d_grad", _max_pool2d_grad_ref, max_pool2d_grad_samples, gradgrad=True,
           errors=max_pool2d_grad_errors),
    OpInfo("avg_pool2d", _avg_pool2d_ref, avg_pool2d_samples, gradgrad=True, errors=pool_errors),
    OpInfo("avg_pool2d_grad", _avg_pool2d_grad_ref, avg_pool2d_grad_samples, gradgrad=True),
    OpInfo("adaptive_max_pool2d", _adaptive_max_pool2d_ref, adaptive_max_pool2d_samples,
           gradgrad=True),
]



# ---------------------------------------------------------------------------
# 3-D pooling: along the flat spatial positions, window o reads input i where it does along
# every axis, so the windows' reads are the Kronecker product of the axes' 0/1 matrices.
# ---------------------------------------------------------------------------

def _pool_reads(size, kernel_size, strides, paddings, ceil_mode):
    """R[o, i] (flat output and input positions) = True where window o reads input i."""
    reads = np.ones((1, 1), dtype=bool)
    for m in _pool_mats(size, kernel_size, strides, paddings, ceil_mode):
        reads = np.kron(reads, m.any(axis=1)).astype(bool)
    return reads


def _pool_count3(size, kernel_size, strides, paddings, ceil_mode, exclusive):
    """Each window's count: the product of its counts along the axes (as _pool_count)."""
    count = np.ones(())
    for n, k, s, p in zip(size, kernel_size, strides, paddings):
        pos = np.arange(_pool_out(n, k, s, p, ceil_mode))[:, None] * s - p[0] + np.arange(k)
        lo, hi = (0, n) if exclusive else (-p[0], n + p[0])
        count = np.multiply.outer(count, np.sum((pos >= lo) & (pos < hi), axis=1))
    return count


def _pool3_out(size, kernel_size, strides, paddings, ceil_mode):
    return tuple(_pool_out(n, k, s, p, ceil_mode)
                 for n, k, s, p in zip(size, kernel_size, strides, paddings))


def _max_pool3d_ref(x, kernel_size=None, strides=None, paddings=None, ceil_mode=False):
    """x at the positions each window reads, -inf elsewhere: the maximum and the flat index of
    the first maximum; -1 and the lowest value for a window that reads nothing."""
    reads = _pool_reads(x.shape[2:], kernel_size, strides, paddings, ceil_mode)
    n, c = x.shape[:2]
    vals = np.where(reads, x.reshape(n, c, 1, reads.shape[1]), -np.inf)   # [N, C, O, DHW]
    out, mask = vals.max(-1), vals.argmax(-1)
    empty = ~reads.any(-1)
    shape = (n, c) + _pool3_out(x.shape[2:], kernel_size, strides, paddings, ceil_mode)
    return (np.where(empty, np.finfo(x.dtype).min, out).astype(x.dtype).reshape(shape),
            np.where(empty, -1, mask).astype(np.int32).reshape(shape))


def _avg_pool3d_ref(x, kernel_size=None, strides=None, paddings=None, ceil_mode=False,
                    exclusive=True):
    """Window sums through the reads matrix, over the window's count."""
    reads = _pool_reads(x.shape[2:], kernel_size, strides, paddings, ceil_mode)
    n, c = x.shape[:2]
    total = x.astype(np.float64).reshape(n, c, reads.shape[1]) @ reads.T
    count = _pool_count3(x.shape[2:], kernel_size, strides, paddings, ceil_mode, exclusive)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (total.reshape((n, c) + count.shape) / count).astype(x.dtype)


def _avg_pool3d_grad_ref(out_grad, input_size=None, kernel_size=None, strides=None,
                         paddings=None, ceil_mode=False, exclusive=True):
    """Each window's gradient over its count, added where the window reads."""
    reads = _pool_reads(input_size, kernel_size, strides, paddings, ceil_mode)
    count = _pool_count3(input_size, kernel_size, strides, paddings, ceil_mode, exclusive)
    n, c = out_grad.shape[:2]
    with np.errstate(invalid="ignore", divide="ignore"):
        g = (out_grad.astype(np.float64) / count).reshape(n, c, reads.shape[0])
    return (g @ reads).reshape((n, c) + tuple(input_size)).astype(out_grad.dtype)


def _adaptive_max_pool3d_ref(x, output_size=None):
    """The maximum over each bin (along each axis [floor(i n / m), ceil((i + 1) n / m))), one
    bin at a time, its index found by comparing x with the bin's maximum."""
    size = x.shape[2:]
    out = np.empty(x.shape[:2] + tuple(output_size), dtype=x.dtype)
    mask = np.empty(out.shape, dtype=np.int32)
    flat = np.arange(int(np.prod(size))).reshape(size)
    for o in np.ndindex(*output_size):
        box = tuple(slice(i * n // m, -(-(i + 1) * n // m)) for i, n, m in zip(o, size,
                                                                              output_size))
        block = x[(slice(None), slice(None)) + box]
        block = block.reshape(x.shape[:2] + (int(np.prod(block.shape[2:])),))
        out[(Ellipsis,) + o] = block.max(-1)
        mask[(Ellipsis,) + o] = flat[box].reshape(-1)[block.argmax(-1)]
    return out, mask


# (x shape, attrs): batch 1, odd sizes, padding, strides other than the kernel, ceil_mode
POOL3D_CASES = [
    ((1, 1, 2, 4, 4), {"kernel_size": (2, 2, 2), "strides": (2, 2, 2)}),
    ((2, 2, 3, 5, 4), {"kernel_size": (3, 3, 2), "strides": (2, 2, 1),
                       "paddings": ((1, 1), (1, 1), (0, 1))}),
    ((1, 2, 5, 3, 4), {"kernel_size": (2, 2, 3), "strides": (2, 1, 2),
                       "paddings": ((1, 0), (0, 1), (1, 1)), "ceil_mode": True}),
    ((1, 1, 1, 1, 1), {"kernel_size": (1, 1, 1), "strides": (1, 1, 1)}),
    ((0, 2, 2, 2, 2), {"kernel_size": (2, 2, 2), "strides": (2, 2, 2)}),     # an empty batch
]


def _pool3d_attrs(attrs):
    return {"paddings": ((0, 0),) * 3, "ceil_mode": False, **attrs}


def max_pool3d_samples(dtype, rng):
    for shape, attrs in POOL3D_CASES:
        yield Sample((_distinct(shape, dtype, rng),), _pool3d_attrs(attrs), f"{shape}")
    x = _distinct((1, 2, 4, 3, 6), dtype, rng)[:, :, :, :, ::2]              # non-contiguous
    yield Sample((x,), _pool3d_attrs({"kernel_size": (2, 2, 2), "strides": (1, 1, 1)}),
                 "strided view")


def avg_pool3d_samples(dtype, rng):
    for shape, attrs in POOL3D_CASES:
        for exclusive in (True, False):
            yield Sample((make(shape, dtype, rng),),
                         {**_pool3d_attrs(attrs), "exclusive": exclusive},
                         f"{shape} exclusive={exclusive}")
    yield Sample((make((1, 1, 3, 3, 3), dtype, rng),),
                 {**_pool3d_attrs({"kernel_size": (2, 2, 2), "strides": (2, 2, 2),
                                   "paddings": ((1, 1),) * 3, "ceil_mode": True}),
                  "exclusive": True}, "padding-only window", grad=False)


def avg_pool3d_grad_samples(dtype, rng):
    for shape, attrs in POOL3D_CASES:
        a = _pool3d_attrs(attrs)
        out = _pool3_out(shape[2:], a["kernel_size"], a["strides"], a["paddings"],
                         a["ceil_mode"])
        for exclusive in (True, False):
            yield Sample((make(shape[:2] + out, dtype, rng),),
                         {"input_size": shape[2:], **a, "exclusive": exclusive}, f"{shape}")


def max_pool3d_grad_samples(dtype, rng):
    for shape, attrs in POOL3D_CASES:
        _, mask = _max_pool3d_ref(_distinct(shape, np.float64, rng), **_pool3d_attrs(attrs))
        yield Sample((make(mask.shape, dtype, rng), mask), {"input_size": shape[2:]}, f"{shape}")
    yield Sample((make((1, 1, 1, 2, 2), dtype, rng), np.array([[[[[7, 7], [7, -1]]]]], np.int32)),
                 {"input_size": (2, 2, 2)}, "repeated and -1")


def adaptive_max_pool3d_samples(dtype, rng):
    for shape, size in [((1, 1, 3, 5, 5), (2, 3, 3)), ((2, 2, 4, 3, 5), (3, 2, 2)),
                        ((1, 1, 2, 2, 3), (4, 3, 5)), ((2, 1, 3, 3, 3), (1, 1, 1)),
                        ((0, 2, 3, 3, 3), (2, 2, 2))]:
        yield Sample((_distinct(shape, dtype, rng),), {"output_size": size}, f"{shape}->{size}")


def pool3d_errors(rng):
    yield ErrorInput(Sample((make((2, 3, 4, 4), np.float32, rng),), {"kernel_size": (2, 2, 2)}),
                     ValueError, "x must be a 5-D tensor")
    yield ErrorInput(Sample((make((1, 1, 2, 2, 2), np.float32, rng),),
                            {"kernel_size": (3, 3, 3)}), ValueError,
                     "larger than the padded input")
    yield ErrorInput(Sample((make((1, 1, 2, 2, 2), np.float32, rng),), {"kernel_size": (2, 2)}),
                     ValueError, "kernel_size must be 3 positive ints")


def max_pool3d_grad_errors(rng):
    yield ErrorInput(Sample((make((1, 1, 2, 2, 2), np.float32, rng),
                             np.zeros((1, 1, 2, 2), np.int32)), {"input_size": (4, 4, 4)}),
                     ValueError, "same 5-D shape")


OPS += [
    OpInfo("max_pool3d", _max_pool3d_ref, max_pool3d_samples, gradgrad=True,
           errors=pool3d_errors),
    OpInfo("max_pool3d_grad", _max_pool2d_grad_ref, max_pool3d_grad_samples, gradgrad=True,
           errors=max_pool3d_grad_errors),
    OpInfo("avg_pool3d", _avg_pool3d_ref, avg_pool3d_samples, gradgrad=True,
           errors=pool3d_errors),
    OpInfo("avg_pool3d_grad", _avg_pool3d_grad_ref, avg_pool3d_grad_samples, gradgrad=True),
    OpInfo("adaptive_max_pool3d", _adaptive_max_pool3d_ref, adaptive_max_pool3d_samples,
           gradgrad=True),
]



# ---------------------------------------------------------------------------
# max_unpool: values written at flat spatial positions
# ---------------------------------------------------------------------------

def _max_unpool_ref(x, indices, output_size=None):
    """out[n, c].flat[indices[n, c, ...]] = x[n, c, ...], one plane at a time (in x's order,
    so of a repeated position the last value stays)."""
    n, c = x.shape[:2]
    out = np.zeros((n, c, int(np.prod(output_size))), dtype=x.dtype)
    for i, j in np.ndindex(n, c):
        for v, k in zip(x[i, j].reshape(-1), indices[i, j].reshape(-1)):
            out[i, j, k] = v
    return out.reshape((n, c) + tuple(output_size))


def _positions(shape, output_size, rng):
    """Distinct flat positions of output_size for each [N, C] plane, shaped like x."""
    n, c = shape[:2]
    size, count = int(np.prod(output_size)), int(np.prod(shape[2:]))
    return np.array([rng.choice(size, count, replace=False) for _ in range(n * c)],
                    dtype=np.int32).reshape(shape)


def _max_unpool_samples(cases):
    def gen(dtype, rng):
        for shape, size in cases:
            yield Sample((make(shape, dtype, rng), _positions(shape, size, rng)),
                         {"output_size": size}, f"{shape} -> {size}")
        x = make((1, 1) + (2,) * (len(cases[0][1])), dtype, rng)
        mask = np.zeros(x.shape, np.int32)                   # every value at position 0
        yield Sample((x, mask), {"output_size": cases[0][1]}, "repeated position", grad=False)
    return gen


def _max_unpool_errors(nd):
    def gen(rng):
        x = make((1, 1) + (2,) * nd, np.float32, rng)
        yield ErrorInput(Sample((x, np.full(x.shape, 9, np.int32)), {"output_size": (2,) * nd}),
                         ValueError, rf"max_unpool{nd}d: indices must be in \[0, {2 ** nd}\)")
        yield ErrorInput(Sample((x, np.zeros((1, 2) + (2,) * nd, np.int32)),
                                {"output_size": (4,) * nd}), ValueError,
                         "must have the shape of x")
    return gen


OPS += [
    OpInfo("max_unpool2d", _max_unpool_ref,
           _max_unpool_samples([((1, 1, 2, 2), (4, 4)), ((2, 3, 3, 2), (5, 4)),
                                ((1, 2, 1, 3), (3, 7)), ((0, 2, 2, 2), (4, 4))]),
           gradgrad=True, errors=_max_unpool_errors(2)),
    OpInfo("max_unpool3d", _max_unpool_ref,
           _max_unpool_samples([((1, 1, 1, 2, 2), (2, 4, 4)), ((2, 2, 2, 3, 1), (3, 5, 2))]),
           gradgrad=True, errors=_max_unpool_errors(3)),
]
