"""Convolution and pooling ops.

A convolution ``y = conv(x, w)`` is bilinear, so its two gradients are ops of their own
(``conv2d_grad_input``: the transposed convolution, ``conv2d_grad_filter``), and those are
bilinear too: with ``<a, b>`` the sum of a * b,

    <g, conv(x, w)> = <grad_input(g, w), x> = <grad_filter(x, g), w>

gives every gradient of the three ops in terms of the three ops, so second derivatives work.
``conv2d_transpose`` is ``conv2d_grad_input`` with x as the output gradient.

Attributes come resolved by the functional API: ``strides``, ``dilations`` (one int per
spatial axis), ``paddings`` ((before, after) per spatial axis; Paddle's 'SAME' and 'VALID'
are turned into numbers there), ``groups``, ``data_format``. Pooling ops take channels-first
``[N, C, H, W]`` (``[N, C, D, H, W]``) input; their ``mask`` output is the flat index into
``H * W`` (``D * H * W``) of each maximum, as Paddle's ``max_pool2d_with_index``.
"""

from __future__ import annotations

import numpy as np

from ..dispatch import ops
from ..dtype import from_numpy
from ..optable import TABLE, Meta, OpDef, register

FORMATS = {2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def channels_last(data_format) -> bool:
    return data_format[-1] == "C"


def spatial(shape, data_format) -> tuple:
    """The spatial sizes of a shape in data_format."""
    return tuple(shape[1:-1] if channels_last(data_format) else shape[2:])


def channels(shape, data_format) -> int:
    return shape[-1] if channels_last(data_format) else shape[1]


def _layout(n, c, size, data_format) -> tuple:
    return (n, *size, c) if channels_last(data_format) else (n, c, *size)


def _name(shape) -> str:
    return str(list(shape))


def _check_float(op, *named):
    for what, m in named:
        if m.dtype.kind != "f":
            raise TypeError(f"{op}: {what} must be a float16, float32 or float64 tensor, got "
                            f"{from_numpy(m.dtype).name}")
    if len({m.dtype for _, m in named}) > 1:
        raise TypeError(f"{op}: " + " and ".join(f"{w} ({from_numpy(m.dtype).name})"
                                                   for w, m in named)
                        + " must have the same dtype")


def _check_rank(op, what, m, rank, data_format):
    if len(m.shape) != rank:
        raise ValueError(f"{op}: {what} must be a {rank}-D tensor ({data_format}), got shape "
                         f"{_name(m.shape)}")


def _check_window(op, nd, strides, paddings, dilations=None):
    for what, v in (("strides", strides), ("dilations", dilations)):
        if v is not None and (len(v) != nd or any(int(s) <= 0 for s in v)):
            raise ValueError(f"{op}: {what} must be {nd} positive ints, got {list(v)}")
    if len(paddings) != nd or any(len(p) != 2 or min(p) < 0 for p in paddings):
        raise ValueError(f"{op}: paddings must be {nd} (before, after) pairs of ints >= 0, "
                         f"got {list(paddings)}")


def conv_out_size(op, size, ksize, strides, paddings, dilations) -> tuple:
    """Output spatial sizes of a convolution; an error when the kernel does not fit."""
    out = []
    for n, k, s, (a, b), d in zip(size, ksize, strides, paddings, dilations):
        span = (k - 1) * d + 1
        if n + a + b < span:
            raise ValueError(f"{op}: the kernel (size {k}, dilation {d}, spanning {span}) is "
                             f"larger than the padded input ({n} + {a} + {b}); input size "
                             f"{list(size)}, kernel size {list(ksize)}")
        out.append((n + a + b - span) // s + 1)
    return tuple(out)


def _conv_checks(op, nd, x, filter, strides, paddings, dilations, groups, data_format,
                 x_name="x", transposed=False):
    """Shared validation of conv ops: ranks, dtypes, attributes and the channel rule."""
    if data_format not in FORMATS[nd]:
        raise ValueError(f"{op}: data_format must be one of {FORMATS[nd]}, got {data_format!r}")
    _check_rank(op, x_name, x, nd + 2, data_format)
    _check_rank(op, "filter", filter, nd + 2, data_format)
    _check_float(op, (x_name, x), ("filter", filter))
    _check_window(op, nd, strides, paddings, dilations)
    if not isinstance(groups, (int, np.integer)) or groups < 1:
        raise ValueError(f"{op}: groups must be an int >= 1, got {groups!r}")
    c = channels(x.shape, data_format)
    if transposed:
        if filter.shape[0] != c:
            raise ValueError(f"{op}: the input's channels ({c}, {x_name} of shape "
                             f"{_name(x.shape)}, {data_format}) must equal the filter's first "
                             f"dimension (filter of shape {_name(filter.shape)})")
    elif filter.shape[1] * groups != c or filter.shape[0] % groups:
        raise ValueError(f"{op}: the input's channels ({c}, {x_name} of shape "
                         f"{_name(x.shape)}, {data_format}) must equal the filter's channels "
                         f"({filter.shape[1]}, filter of shape {_name(filter.shape)}) times "
                         f"groups ({groups}), and the filter's {filter.shape[0]} output "
                         f"channels must divide into the groups")
    if transposed and filter.shape[0] % groups:
        raise ValueError(f"{op}: the filter's first dimension ({filter.shape[0]}, filter of "
                         f"shape {_name(filter.shape)}) must divide into groups ({groups})")


def _common(attrs) -> dict:
    return {k: attrs[k] for k in ("strides", "paddings", "dilations", "groups", "data_format")}


def _register_conv(nd):
    """The rows conv{nd}d, conv{nd}d_grad_input and conv{nd}d_grad_filter."""
    conv, grad_input, grad_filter = f"conv{nd}d", f"conv{nd}d_grad_input", f"conv{nd}d_grad_filter"
    ones, zeros = (1,) * nd, ((0, 0),) * nd
    attrs = {"strides": ones, "paddings": zeros, "dilations": ones, "groups": 1,
             "data_format": FORMATS[nd][0]}

    def conv_meta(x, filter, strides=ones, paddings=zeros, dilations=ones, groups=1,
                  data_format=FORMATS[nd][0]):
        _conv_checks(conv, nd, x, filter, strides, paddings, dilations, groups, data_format)
        out = conv_out_size(conv, spatial(x.shape, data_format), filter.shape[2:], strides,
                            paddings, dilations)
        return Meta(_layout(x.shape[0], filter.shape[0], out, data_format), x.dtype)

    def grad_input_meta(out_grad, filter, input_size=ones, strides=ones, paddings=zeros,
                        dilations=ones, groups=1, data_format=FORMATS[nd][0]):
        _conv_checks(grad_input, nd, out_grad, filter, strides, paddings, dilations, groups,
                     data_format, "out_grad", transposed=True)
        want = conv_out_size(grad_input, input_size, filter.shape[2:], strides, paddings,
                             dilations)
        if want != spatial(out_grad.shape, data_format):
            raise ValueError(f"{grad_input}: out_grad of shape {_name(out_grad.shape)} does not "
                             f"come from an input of size {list(input_size)} (that gives "
                             f"{list(want)})")
        return Meta(_layout(out_grad.shape[0], filter.shape[1] * groups, input_size,
                            data_format), out_grad.dtype)

    def grad_filter_meta(input, out_grad, filter_size=ones, strides=ones, paddings=zeros,
                         dilations=ones, groups=1, data_format=FORMATS[nd][0]):
        c, o = channels(input.shape, data_format), channels(out_grad.shape, data_format)
        shape = (o, c // groups, *filter_size)
        conv_meta(input, Meta(shape, out_grad.dtype), strides, paddings, dilations, groups,
                  data_format)
        return Meta(shape, input.dtype)

    def conv_grad(ctx, g):
        a = _common(ctx.attrs)
        dx = dw = None
        if ctx.needs("x"):
            dx = getattr(ops, grad_input)(g, ctx["filter"], input_size=spatial(
                ctx.shape("x"), a["data_format"]), **a)
        if ctx.needs("filter"):
            dw = getattr(ops, grad_filter)(ctx["x"], g, filter_size=ctx.shape("filter")[2:], **a)
        return dx, dw

    def grad_input_grad(ctx, h):
        """Bilinear: d/dout_grad = conv(h, filter), d/dfilter = grad_filter(h, out_grad)."""
        a = _common(ctx.attrs)
        dg = getattr(ops, conv)(h, ctx["filter"], **a) if ctx.needs("out_grad") else None
        dw = (getattr(ops, grad_filter)(h, ctx["out_grad"], filter_size=ctx.shape("filter")[2:],
                                        **a) if ctx.needs("filter") else None)
        return dg, dw

    def grad_filter_grad(ctx, h):
        """Bilinear: d/dinput = grad_input(out_grad, h), d/dout_grad = conv(input, h)."""
        a = _common(ctx.attrs)
        dx = (getattr(ops, grad_input)(ctx["out_grad"], h, input_size=spatial(
            ctx.shape("input"), a["data_format"]), **a) if ctx.needs("input") else None)
        dg = getattr(ops, conv)(ctx["input"], h, **a) if ctx.needs("out_grad") else None
        return dx, dg

    register(OpDef(conv, ("x", "filter"), conv_meta,
                   f"{nd}-D convolution (cross-correlation) of x with filter [out_channels, "
                   f"in_channels / groups, *kernel]: out[n, o] = sum over the input channels "
                   f"of o's group and the kernel of the padded, strided, dilated windows of x "
                   f"times filter[o].", attrs=attrs, grad=conv_grad, saves=("x", "filter")))
    register(OpDef(grad_input, ("out_grad", "filter"), grad_input_meta,
                   f"The gradient of {conv} with respect to x (of spatial size input_size): "
                   f"the transposed convolution of out_grad with filter.",
                   attrs={"input_size": ones, **attrs}, grad=grad_input_grad,
                   saves=("out_grad", "filter")))
    register(OpDef(grad_filter, ("input", "out_grad"), grad_filter_meta,
                   f"The gradient of {conv} with respect to its filter (of spatial size "
                   f"filter_size): sum over the batch and output positions of out_grad times "
                   f"the input's windows.", attrs={"filter_size": ones, **attrs},
                   grad=grad_filter_grad, saves=("input", "out_grad")))


_register_conv(2)
_register_conv(3)


# ---------------------------------------------------------------------------
# fused_conv2d_bias: conv2d and its bias add in one op
# ---------------------------------------------------------------------------

def _fused_conv2d_bias_meta(x, filter, bias, **attrs):
    out = TABLE["conv2d"].infer_meta(x, filter, **attrs)
    if tuple(bias.shape) != (filter.shape[0],):
        raise ValueError(f"conv2d: bias must have shape [{filter.shape[0]}] (the filter's "
                         f"output channels, filter of shape {_name(filter.shape)}), got "
                         f"{_name(bias.shape)}")
    _check_float("conv2d", ("x", x), ("bias", bias))
    return out


def _fused_conv2d_bias_grad(ctx, g):
    """conv2d's gradients, and the bias's: g summed over all but the channel axis."""
    dx, dw = TABLE["conv2d"].grad(ctx, g)
    db = None
    if ctx.needs("bias"):
        db = ops.sum(g, axis=(0, 1, 2) if channels_last(ctx.attrs["data_format"]) else (0, 2, 3))
    return dx, dw, db


register(OpDef("fused_conv2d_bias", ("x", "filter", "bias"), _fused_conv2d_bias_meta,
               "conv2d(x, filter) + bias [out_channels] along the channel axis (F.conv2d with "
               "a bias in one op: engines add the bias while the convolution's output is in "
               "cache).", attrs=TABLE["conv2d"].attrs, grad=_fused_conv2d_bias_grad,
               saves=("x", "filter")))


def transpose_out_size(op, size, ksize, strides, paddings, dilations, output_size):
    """Check that a convolution of output_size gives size (the transposed convolution's
    input), that is output_size is in [smallest, smallest + stride)."""
    for n, k, s, (a, b), d, o in zip(size, ksize, strides, paddings, dilations, output_size):
        least = (n - 1) * s - a - b + (k - 1) * d + 1
        if not least <= o < least + s or o < 1:
            raise ValueError(f"{op}: output_size {list(output_size)} is not reachable from an "
                             f"input of size {list(size)}: each size must be in [inferred, "
                             f"inferred + stride), here [{least}, {least + s}) "
                             f"(kernel {list(ksize)}, strides {list(strides)})")


def _register_transpose(nd):
    """The row conv{nd}d_transpose: conv{nd}d_grad_input with x as the output gradient."""
    op, conv = f"conv{nd}d_transpose", f"conv{nd}d"
    ones, zeros, fmt = (1,) * nd, ((0, 0),) * nd, FORMATS[nd][0]

    def meta(x, filter, output_size=ones, strides=ones, paddings=zeros, dilations=ones,
             groups=1, data_format=fmt):
        _conv_checks(op, nd, x, filter, strides, paddings, dilations, groups, data_format,
                     transposed=True)
        transpose_out_size(op, spatial(x.shape, data_format), filter.shape[2:], strides,
                           paddings, dilations, output_size)
        return Meta(_layout(x.shape[0], filter.shape[1] * groups, tuple(output_size),
                            data_format), x.dtype)

    def grad(ctx, g):
        """out = grad_input(x, filter): dx = conv(g, filter), dfilter = grad_filter(g, x)."""
        a = _common(ctx.attrs)
        dx = getattr(ops, conv)(g, ctx["filter"], **a) if ctx.needs("x") else None
        dw = (getattr(ops, f"{conv}_grad_filter")(g, ctx["x"],
                                                  filter_size=ctx.shape("filter")[2:], **a)
              if ctx.needs("filter") else None)
        return dx, dw

    register(OpDef(op, ("x", "filter"), meta,
                   f"{nd}-D transposed convolution of x with filter [in_channels, out_channels "
                   f"/ groups, *kernel] to spatial size output_size: every input element adds "
                   f"filter times itself into its window of the output ({conv}'s input "
                   f"gradient).",
                   attrs={"output_size": ones, "strides": ones, "paddings": zeros,
                          "dilations": ones, "groups": 1, "data_format": fmt},
                   grad=grad, saves=("x", "filter")))


_register_transpose(2)
_register_transpose(3)


# ---------------------------------------------------------------------------
# pooling (channels-first [N, C, *spatial])
# ---------------------------------------------------------------------------

def pool_out_size(n, k, s, paddings, ceil_mode) -> int:
    a, b = paddings
    return (n + a + b - k + (s - 1 if ceil_mode else 0)) // s + 1


def ceil_paddings(size, kernel_size, strides, paddings, ceil_mode) -> tuple:
    """paddings with the extra 'after' padding that ceil_mode's last windows read."""
    out = []
    for n, k, s, (a, b) in zip(size, kernel_size, strides, paddings):
        o = pool_out_size(n, k, s, (a, b), ceil_mode)
        out.append((a, b + max((o - 1) * s + k - (n + a + b), 0)))
    return tuple(out)


def _pool_meta_for(op, nd=2):
    def meta(x, kernel_size=(1,) * nd, strides=(1,) * nd, paddings=((0, 0),) * nd,
             ceil_mode=False, **rest):
        _check_rank(op, "x", x, nd + 2, FORMATS[nd][0])
        _check_float(op, ("x", x))
        if len(kernel_size) != nd or min(kernel_size) <= 0:
            raise ValueError(f"{op}: kernel_size must be {nd} positive ints, got "
                             f"{list(kernel_size)}")
        _check_window(op, nd, strides, paddings)
        out = tuple(pool_out_size(n, k, s, p, ceil_mode)
                    for n, k, s, p in zip(x.shape[2:], kernel_size, strides, paddings))
        if min(out) <= 0:
            raise ValueError(f"{op}: the window (kernel_size {list(kernel_size)}) is larger "
                             f"than the padded input (x of shape {_name(x.shape)}, paddings "
                             f"{list(paddings)})")
        return Meta(tuple(x.shape[:2]) + out, x.dtype)
    return meta


def _register_pool(nd):
    """The rows max_pool{nd}d, max_pool{nd}d_grad, avg_pool{nd}d, avg_pool{nd}d_grad and
    adaptive_max_pool{nd}d; a mask is the flat index into the input's spatial positions."""
    max_pool, max_grad = f"max_pool{nd}d", f"max_pool{nd}d_grad"
    avg_pool, avg_grad, adaptive = f"avg_pool{nd}d", f"avg_pool{nd}d_grad", f"adaptive_max_pool{nd}d"
    ones, spatial_name = (1,) * nd, " * ".join(FORMATS[nd][0][2:])
    pool_attrs = {"kernel_size": ones, "strides": ones, "paddings": ((0, 0),) * nd,
                  "ceil_mode": False}
    max_meta = _pool_meta_for(max_pool, nd)

    def max_pool_meta(x, **attrs):
        out = max_meta(x, **attrs)
        return out, Meta(out.shape, np.dtype(np.int32))

    def max_pool_grad(ctx, g, g_mask):
        """Each maximum's gradient goes back to where it was read."""
        return getattr(ops, max_grad)(g, ctx["mask"], input_size=ctx.shape("x")[2:])

    register(OpDef(max_pool, ("x",), max_pool_meta,
                   f"The maximum of each (padded, strided) window of x, and its flat index into "
                   f"x's {spatial_name} (int32; -1 and the dtype's lowest value for a window of "
                   f"padding only, which ceil_mode can make).", attrs=pool_attrs,
                   grad=max_pool_grad, saves=("mask",), outputs=("out", "mask"),
                   nondiff_outputs=("mask",)))

    def max_grad_meta(out_grad, mask, input_size=ones):
        if tuple(mask.shape) != tuple(out_grad.shape) or len(out_grad.shape) != nd + 2:
            raise ValueError(f"{max_grad}: out_grad {_name(out_grad.shape)} and mask "
                             f"{_name(mask.shape)} must have the same {nd + 2}-D shape")
        if mask.dtype.kind not in "iu":
            raise TypeError(f"{max_grad}: mask must be an integer tensor, got "
                            f"{from_numpy(mask.dtype).name}")
        return Meta(tuple(out_grad.shape[:2]) + tuple(input_size), out_grad.dtype)

    def max_grad_grad(ctx, h):
        """Linear in out_grad: its gradient reads h at the mask (0 where the mask is -1)."""
        mask = ctx["mask"]
        n, c = mask.shape[:2]
        got = ops.take_along_axis(ops.reshape(h, shape=(n, c, int(np.prod(h.shape[2:])))),
                                  ops.reshape(mask, shape=(n, c, int(np.prod(mask.shape[2:])))),
                                  axis=2)
        got = ops.reshape(got, shape=tuple(mask.shape))
        return (ops.where(ops.greater_equal(mask, ops.full_like(mask)), got,
                          ops.full_like(got)), None)

    register(OpDef(max_grad, ("out_grad", "mask"), max_grad_meta,
                   f"Zeros [N, C, *input_size] with out_grad added at the flat {spatial_name} "
                   f"positions mask names (-1: nowhere): the gradient of {max_pool} and "
                   f"{adaptive}.", attrs={"input_size": ones}, grad=max_grad_grad,
                   saves=("mask",)))

    def avg_pool_grad(ctx, g):
        return getattr(ops, avg_grad)(g, input_size=ctx.shape("x")[2:], **ctx.attrs)

    register(OpDef(avg_pool, ("x",), _pool_meta_for(avg_pool, nd),
                   "The mean of each (padded, strided) window of x: its sum divided by its "
                   "number of elements inside x (exclusive) or inside the padded x (nan for a "
                   "window of padding only with exclusive, which ceil_mode can make).",
                   attrs={**pool_attrs, "exclusive": True}, grad=avg_pool_grad))

    def avg_grad_meta(out_grad, input_size=ones, **attrs):
        shape = tuple(out_grad.shape[:2]) + tuple(input_size)
        want = _pool_meta_for(avg_grad, nd)(Meta(shape, out_grad.dtype), **attrs)
        if tuple(want.shape) != tuple(out_grad.shape):
            raise ValueError(f"{avg_grad}: out_grad of shape {_name(out_grad.shape)} does not "
                             f"come from an input of size {list(input_size)} (that gives "
                             f"{_name(want.shape)})")
        return Meta(shape, out_grad.dtype)

    def avg_grad_grad(ctx, h):
        """Linear in out_grad and the adjoint of the pooling: its gradient is the pooling."""
        attrs = {k: v for k, v in ctx.attrs.items() if k != "input_size"}
        return getattr(ops, avg_pool)(h, **attrs)

    register(OpDef(avg_grad, ("out_grad",), avg_grad_meta,
                   f"The gradient of {avg_pool} on an input of spatial size input_size: each "
                   f"window's out_grad divided by its size, added over the window.",
                   attrs={"input_size": ones, **pool_attrs, "exclusive": True},
                   grad=avg_grad_grad))

    def adaptive_meta(x, output_size=ones):
        _check_rank(adaptive, "x", x, nd + 2, FORMATS[nd][0])
        _check_float(adaptive, ("x", x))
        if len(output_size) != nd or min(output_size) <= 0:
            raise ValueError(f"{adaptive}: output_size must be {nd} positive ints, got "
                             f"{list(output_size)}")
        if min(x.shape[2:]) <= 0:
            raise ValueError(f"{adaptive}: x of shape {_name(x.shape)} has an empty spatial "
                             f"axis")
        shape = tuple(x.shape[:2]) + tuple(output_size)
        return Meta(shape, x.dtype), Meta(shape, np.dtype(np.int32))

    register(OpDef(adaptive, ("x",), adaptive_meta,
                   f"The maximum of x over each of Paddle's adaptive bins (along each spatial "
                   f"axis of size n into m bins: [floor(i n / m), ceil((i + 1) n / m))), and its "
                   f"flat index into {spatial_name} (int32).", attrs={"output_size": ones},
                   grad=max_pool_grad, saves=("mask",), outputs=("out", "mask"),
                   nondiff_outputs=("mask",)))


_register_pool(2)
_register_pool(3)


def _register_unpool(nd):
    """The row max_unpool{nd}d: the values of a max pooling put back where its mask says."""
    op, ones = f"max_unpool{nd}d", (1,) * nd

    def meta(x, indices, output_size=ones):
        _check_rank(op, "x", x, nd + 2, FORMATS[nd][0])
        _check_float(op, ("x", x))
        if tuple(indices.shape) != tuple(x.shape):
            raise ValueError(f"{op}: indices of shape {_name(indices.shape)} must have the "
                             f"shape of x ({_name(x.shape)})")
        if indices.dtype.kind not in "iu":
            raise TypeError(f"{op}: indices must be an int32 or int64 tensor, got "
                            f"{from_numpy(indices.dtype).name}")
        if len(output_size) != nd or min(output_size) <= 0:
            raise ValueError(f"{op}: output_size must be {nd} positive ints, got "
                             f"{list(output_size)}")
        return Meta(tuple(x.shape[:2]) + tuple(output_size), x.dtype)

    def grad(ctx, g):
        """Each value's gradient is g where it was put."""
        n, c = ctx.shape("x")[:2]
        idx = ops.reshape(ctx["indices"], shape=(n, c, int(np.prod(ctx.shape("x")[2:]))))
        got = ops.take_along_axis(ops.reshape(g, shape=(n, c, int(np.prod(g.shape[2:])))), idx,
                                  axis=2)
        return ops.reshape(got, shape=tuple(ctx.shape("x"))), None

    register(OpDef(op, ("x", "indices"), meta,
                   f"Zeros [N, C, *output_size] with each value of x written at the flat "
                   f"{' * '.join(FORMATS[nd][0][2:])} position indices names (of a repeated "
                   f"position, one of its values: the last in x's order on NumPy, as Paddle's "
                   f"CPU kernel): the inverse of max_pool{nd}d.",
                   attrs={"output_size": ones}, grad=grad, saves=("indices",)))


_register_unpool(2)
_register_unpool(3)
