"""Convolution, pooling and normalisation layers."""

import numpy as np

from . import (
    Case,
    adaptive_pool,
    affine,
    batch_norm,
    channels_last,
    conv,
    conv_transpose,
    entry,
    group_norm,
    layer_norm,
    normalize,
    pool,
    rand,
    unary,
)


def _conv(last=False, pad=None, mode="constant", **kw):
    """ref of a convolution layer; ``pad``: np.pad widths of the spatial axes applied first
    (asymmetric padding, padding modes)."""
    def ref(sd, x):
        if pad is not None:
            x = np.pad(x, [(0, 0), (0, 0)] + pad, mode=mode)
        f = channels_last(conv) if last else conv
        return f(x, sd["weight"], sd.get("bias"), **kw)
    return ref


def _convt(last=False, **kw):
    def ref(sd, x):
        f = channels_last(conv_transpose) if last else conv_transpose
        return f(x, sd["weight"], sd.get("bias"), **kw)
    return ref


def _c(i, o, k, **kw):
    return {"in_channels": i, "out_channels": o, "kernel_size": k, **kw}


CONV = [
    entry("Conv1D",
          Case(_c(2, 3, 3), rand((2, 2, 7)), _conv()),
          Case(_c(4, 2, 2, stride=2, padding=1, dilation=2, groups=2), rand((1, 4, 9)),
               _conv(stride=2, padding=1, dilation=2, groups=2), desc="strided grouped"),
          Case(_c(2, 3, 3, data_format="NLC", bias_attr=False), rand((1, 6, 2)),
               _conv(last=True), desc="NLC no bias"),
          Case(_c(2, 2, 3, padding=2, padding_mode="replicate"), rand((1, 2, 5)),
               _conv(pad=[(2, 2)], mode="edge"), desc="replicate padding")),
    entry("Conv2D",
          Case(_c(3, 2, 3), rand((2, 3, 5, 6)), _conv()),
          Case(_c(4, 6, (2, 3), stride=(2, 1), padding=1, groups=2), rand((1, 4, 5, 5)),
               _conv(stride=(2, 1), padding=1, groups=2), desc="stride/padding/groups"),
          Case(_c(2, 2, 2, dilation=2, data_format="NHWC"), rand((1, 5, 6, 2)),
               _conv(last=True, dilation=2), desc="NHWC dilation"),
          Case(_c(3, 3, 3, groups=3, padding=1, bias_attr=False), rand((1, 3, 4, 3)),
               _conv(padding=1, groups=3), desc="depthwise"),
          Case(_c(2, 3, 3, padding="same"), rand((1, 2, 4, 5)), _conv(padding=1), desc="same"),
          Case(_c(2, 2, 3, padding=[1, 0, 2, 1]), rand((1, 2, 4, 5)),
               _conv(pad=[(1, 0), (2, 1)]), desc="asymmetric padding"),
          Case(_c(2, 2, 3, padding=1, padding_mode="reflect"), rand((1, 2, 4, 5)),
               _conv(pad=[(1, 1), (1, 1)], mode="reflect"), desc="reflect padding"),
          Case(_c(2, 2, 3, padding=1, padding_mode="circular"), rand((1, 2, 4, 5)),
               _conv(pad=[(1, 1), (1, 1)], mode="wrap"), desc="circular padding")),
    entry("Conv3D",
          Case(_c(2, 2, 2), rand((1, 2, 3, 4, 3)), _conv()),
          Case(_c(2, 4, 2, stride=2, padding=1, groups=2), rand((2, 2, 3, 3, 3)),
               _conv(stride=2, padding=1, groups=2)),
          Case(_c(2, 3, (1, 2, 2), data_format="NDHWC"), rand((1, 2, 3, 3, 2)),
               _conv(last=True), desc="NDHWC")),
    entry("Conv1DTranspose",
          Case(_c(2, 3, 3), rand((2, 2, 5)), _convt()),
          Case(_c(4, 2, 3, stride=2, padding=1, output_padding=1, groups=2, dilation=1),
               rand((1, 4, 4)), _convt(stride=2, padding=1, output_padding=1, groups=2))),
    entry("Conv2DTranspose",
          Case(_c(3, 2, 3), rand((1, 3, 4, 3)), _convt()),
          Case(_c(2, 4, (2, 3), stride=2, padding=1, output_padding=1, groups=2),
               rand((2, 2, 3, 3)), _convt(stride=2, padding=1, output_padding=1, groups=2),
               desc="stride/padding/output_padding/groups"),
          Case(_c(2, 3, 2, dilation=2, data_format="NHWC"), rand((1, 3, 4, 2)),
               _convt(last=True, dilation=2), desc="NHWC dilation"),
          # output_size 8 x 6 instead of 7 x 5: one extra row and column (output_padding)
          Case(_c(2, 2, 3, stride=2), rand((1, 2, 3, 2)), _convt(stride=2, output_padding=1),
               call={"output_size": [8, 6]}, desc="output_size")),
    entry("Conv3DTranspose",
          Case(_c(2, 3, 2), rand((1, 2, 2, 3, 2)), _convt()),
          Case(_c(2, 4, (2, 1, 2), stride=2, padding=1, output_padding=1, groups=2),
               rand((2, 2, 2, 3, 2)), _convt(stride=2, padding=1, output_padding=1, groups=2),
               desc="stride/padding/output_padding/groups"),
          Case(_c(2, 3, 2, dilation=2, data_format="NDHWC"), rand((1, 2, 3, 2, 2)),
               _convt(last=True, dilation=2), desc="NDHWC dilation"),
          Case(_c(2, 2, 2, stride=2), rand((1, 2, 2, 2, 3)), _convt(stride=2, output_padding=1),
               call={"output_size": [5, 5, 7]}, desc="output_size")),
]


def _pool(kind, **kw):
    return unary(lambda x: pool(x, kind=kind, **kw))


P1 = rand((2, 3, 7))
P2 = rand((1, 2, 5, 7))
P3 = rand((1, 2, 3, 5, 4))

POOL = [
    entry("MaxPool1D", Case({"kernel_size": 2}, P1, _pool("max", kernel=2)),
          Case({"kernel_size": 2, "return_mask": True}, rand((2, 3, 6)), desc="return_mask",
               ref=lambda sd, x: (pool(x, 2, kind="max"),
                                  _argmax_mask_1d(x))),
          Case({"kernel_size": 3, "stride": 2, "padding": 1}, P1,
               _pool("max", kernel=3, stride=2, padding=1))),
    entry("MaxPool2D",
          Case({"kernel_size": 2}, P2, _pool("max", kernel=2)),
          Case({"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}, P2,
               _pool("max", kernel=3, stride=2, padding=1, ceil_mode=True), desc="ceil_mode"),
          Case({"kernel_size": (2, 3), "stride": 1, "data_format": "NHWC"}, rand((1, 4, 5, 2)),
               unary(lambda x: channels_last(pool)(x, (2, 3), 1, kind="max")), desc="NHWC"),
          Case({"kernel_size": 2, "return_mask": True}, rand((2, 1, 4, 4)), grad=True,
               desc="return_mask", ref=lambda sd, x: (
                   pool(x, 2, kind="max"),
                   _argmax_mask(x)))),
    entry("AvgPool1D", Case({"kernel_size": 3, "stride": 2}, P1, _pool("avg", kernel=3, stride=2)),
          Case({"kernel_size": 3, "stride": 2, "padding": 1, "exclusive": False}, P1,
               _pool("avg", kernel=3, stride=2, padding=1, exclusive=False))),
    entry("AvgPool2D",
          Case({"kernel_size": 2}, P2, _pool("avg", kernel=2)),
          Case({"kernel_size": 3, "stride": 2, "padding": 1}, P2,
               _pool("avg", kernel=3, stride=2, padding=1), desc="exclusive padding"),
          Case({"kernel_size": 3, "stride": 2, "padding": 1, "exclusive": False}, P2,
               _pool("avg", kernel=3, stride=2, padding=1, exclusive=False)),
          Case({"kernel_size": 2, "ceil_mode": True}, P2,
               _pool("avg", kernel=2, ceil_mode=True), desc="ceil_mode"),
          Case({"kernel_size": 2, "divisor_override": 3}, P2,
               unary(lambda x: pool(x, 2, kind="avg") * 4 / 3), desc="divisor_override"),
          Case({"kernel_size": 2, "data_format": "NHWC"}, rand((1, 4, 5, 3)),
               unary(lambda x: channels_last(pool)(x, 2, kind="avg")))),
    entry("AdaptiveAvgPool1D", Case({"output_size": 3}, P1, unary(lambda x: adaptive_pool(x, 3)))),
    entry("AdaptiveAvgPool2D",
          Case({"output_size": (2, 3)}, P2, unary(lambda x: adaptive_pool(x, (2, 3)))),
          Case({"output_size": [None, 2], "data_format": "NHWC"}, rand((1, 3, 5, 2)),
               unary(lambda x: channels_last(adaptive_pool)(x, (None, 2))))),
    entry("AdaptiveMaxPool1D", Case({"output_size": 3}, P1,
                                    unary(lambda x: adaptive_pool(x, 3, "max")))),
    entry("AdaptiveMaxPool2D", Case({"output_size": (3, 2)}, P2,
                                    unary(lambda x: adaptive_pool(x, (3, 2), "max"))),
          Case({"output_size": 2, "return_mask": True}, rand((1, 2, 4, 4)), desc="return_mask",
               ref=lambda sd, x: (adaptive_pool(x, 2, "max"), _argmax_mask(x)))),
    entry("MaxPool3D",
          Case({"kernel_size": 2}, P3, _pool("max", kernel=2)),
          Case({"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}, P3,
               _pool("max", kernel=3, stride=2, padding=1, ceil_mode=True), desc="ceil_mode"),
          Case({"kernel_size": (2, 1, 3), "stride": 1, "data_format": "NDHWC"},
               rand((1, 3, 2, 4, 2)),
               unary(lambda x: channels_last(pool)(x, (2, 1, 3), 1, kind="max")), desc="NDHWC"),
          Case({"kernel_size": 2, "return_mask": True}, rand((2, 1, 2, 4, 4)), grad=True,
               desc="return_mask",
               ref=lambda sd, x: (pool(x, 2, kind="max"), _argmax_mask_3d(x)))),
    entry("AvgPool3D",
          Case({"kernel_size": 2}, P3, _pool("avg", kernel=2)),
          Case({"kernel_size": 3, "stride": 2, "padding": 1}, P3,
               _pool("avg", kernel=3, stride=2, padding=1), desc="exclusive padding"),
          Case({"kernel_size": 3, "stride": 2, "padding": 1, "exclusive": False}, P3,
               _pool("avg", kernel=3, stride=2, padding=1, exclusive=False)),
          Case({"kernel_size": 2, "ceil_mode": True}, P3,
               _pool("avg", kernel=2, ceil_mode=True), desc="ceil_mode"),
          Case({"kernel_size": 2, "divisor_override": 3}, P3,
               unary(lambda x: pool(x, 2, kind="avg") * 8 / 3), desc="divisor_override"),
          Case({"kernel_size": 2, "data_format": "NDHWC"}, rand((1, 2, 4, 5, 3)),
               unary(lambda x: channels_last(pool)(x, 2, kind="avg")))),
    entry("AdaptiveAvgPool3D",
          Case({"output_size": (2, 3, 2)}, P3, unary(lambda x: adaptive_pool(x, (2, 3, 2)))),
          Case({"output_size": [None, 2, 3], "data_format": "NDHWC"}, rand((1, 3, 5, 4, 2)),
               unary(lambda x: channels_last(adaptive_pool)(x, (None, 2, 3))))),
    entry("AdaptiveMaxPool3D", Case({"output_size": (3, 2, 2)}, P3,
                                    unary(lambda x: adaptive_pool(x, (3, 2, 2), "max"))),
          Case({"output_size": 2, "return_mask": True}, rand((1, 2, 4, 4, 4)),
               desc="return_mask",
               ref=lambda sd, x: (adaptive_pool(x, 2, "max"), _argmax_mask_3d(x)))),
]



def _unpool_inputs(shape, output_size):
    """x and distinct flat positions of output_size per plane (as a max pooling's mask)."""
    def inputs(rng):
        n, c = shape[:2]
        size, count = int(np.prod(output_size)), int(np.prod(shape[2:]))
        idx = np.stack([rng.choice(size, count, replace=False) for _ in range(n * c)])
        return rng.uniform(-2, 2, shape), idx.reshape(shape).astype(np.int32)
    return inputs


def _unpool_ref(output_size):
    def ref(sd, x, idx):
        n, c = x.shape[:2]
        out = np.zeros((n * c, int(np.prod(output_size))))
        out[np.arange(n * c)[:, None], idx.reshape(n * c, -1)] = x.reshape(n * c, -1)
        return out.reshape((n, c) + tuple(output_size))
    return ref


UNPOOL = [
    entry("MaxUnPool1D",
          Case({"kernel_size": 2}, _unpool_inputs((2, 3, 3), (6,)), _unpool_ref((6,)),
               grad=True),
          Case({"kernel_size": 3, "stride": 2, "padding": 1}, _unpool_inputs((1, 2, 4), (7,)),
               _unpool_ref((7,)), desc="stride/padding"),
          Case({"kernel_size": 2, "output_size": [7]}, _unpool_inputs((1, 1, 3), (7,)),
               _unpool_ref((7,)), desc="output_size")),
    entry("MaxUnPool2D",
          Case({"kernel_size": 2}, _unpool_inputs((2, 2, 2, 3), (4, 6)), _unpool_ref((4, 6)),
               grad=True),
          Case({"kernel_size": 3, "stride": 2, "padding": 1, "output_size": [6, 4]},
               _unpool_inputs((1, 2, 3, 2), (6, 4)), _unpool_ref((6, 4)), desc="output_size")),
    entry("MaxUnPool3D",
          Case({"kernel_size": 2}, _unpool_inputs((1, 2, 1, 2, 3), (2, 4, 6)),
               _unpool_ref((2, 4, 6)), grad=True),
          Case({"kernel_size": (1, 2, 2), "stride": (1, 2, 1), "output_size": [1, 2, 3, 5, 4]},
               _unpool_inputs((1, 2, 3, 2, 3), (3, 5, 4)), _unpool_ref((3, 5, 4)),
               desc="output_size")),
]


def _argmax_mask_3d(x):
    """Flat index (within each D*H*W volume) of each 2x2x2 window's maximum."""
    n, c, d, h, w = x.shape
    win = x.reshape(n, c, d // 2, 2, h // 2, 2, w // 2, 2).transpose(
        0, 1, 2, 4, 6, 3, 5, 7).reshape(n, c, d // 2, h // 2, w // 2, 8)
    k = win.argmax(-1)
    planes = np.arange(d // 2)[:, None, None] * 2 + k // 4
    rows = np.arange(h // 2)[:, None] * 2 + k // 2 % 2
    cols = np.arange(w // 2) * 2 + k % 2
    return ((planes * h + rows) * w + cols).astype(np.int32)


def _argmax_mask_1d(x):
    """Index (along L) of each length-2 window's maximum."""
    n, c, length = x.shape
    k = x[..., :length // 2 * 2].reshape(n, c, -1, 2).argmax(-1)
    return (np.arange(length // 2) * 2 + k).astype(np.int32)


def _argmax_mask(x):
    """Flat index (within each H*W plane) of each 2x2 window's maximum."""
    n, c, h, w = x.shape
    win = x.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(
        n, c, h // 2, w // 2, 4)
    k = win.argmax(-1)
    rows = np.arange(h // 2)[:, None] * 2 + k // 2
    cols = np.arange(w // 2)[None, :] * 2 + k % 2
    return (rows * w + cols).astype(np.int32)


# ---------------------------------------------------------------------------
# normalisation
# ---------------------------------------------------------------------------

def _running_stats(layer, rng):
    """Random running statistics, so eval mode uses something other than 0 and 1."""
    c = layer._mean.shape[0]
    layer._mean.set_value(rng.uniform(-1, 1, c))
    layer._variance.set_value(rng.uniform(0.5, 2, c))


def _bn(last=False, eps=1e-5, running=False):
    def ref(sd, x):
        f = channels_last(batch_norm) if last else batch_norm
        stats = (sd["_mean"], sd["_variance"]) if running else (None, None)
        return f(x, sd["weight"], sd["bias"], *stats, eps=eps)
    return ref


def _running_update(momentum=0.9, last=False):
    """Running statistics after a training forward: momentum * old + (1 - momentum) *
    batch statistic (Paddle keeps the biased batch variance)."""
    def state(sd, x):
        axes = tuple(range(x.ndim - 1)) if last else (0,) + tuple(range(2, x.ndim))
        return {"_mean": momentum * sd["_mean"] + (1 - momentum) * x.mean(axes),
                "_variance": momentum * sd["_variance"] + (1 - momentum) * x.var(axes)}
    return state


def _bn_cases(nd, shape):
    fmt = {1: "NLC", 2: "NHWC", 3: "NDHWC"}[nd]
    c = shape[1]
    last_shape = (shape[0],) + shape[2:] + (c,)
    return [
        Case({"num_features": c, "momentum": 0.8}, rand(shape), _bn(), desc="train",
             state=_running_update(0.8)),
        Case({"num_features": c, "epsilon": 1e-3}, rand(shape), _bn(eps=1e-3, running=True),
             train=False, setup=_running_stats, desc="eval"),
        Case({"num_features": c, "data_format": fmt}, rand(last_shape), _bn(last=True),
             desc=fmt, state=_running_update(last=True)),
        Case({"num_features": c, "use_global_stats": True}, rand(shape), _bn(running=True),
             setup=_running_stats, desc="use_global_stats in train"),
    ]


def _inorm(sd, x, eps=1e-5):
    return affine(normalize(x, tuple(range(2, x.ndim)), eps), sd["scale"], sd["bias"])


def _lrn(size, alpha=1e-4, beta=0.75, k=1.0):
    def ref(sd, x):
        sq = np.pad(x ** 2, [(0, 0), (size // 2, (size - 1) // 2)] + [(0, 0)] * (x.ndim - 2))
        s = sum(sq[:, i:i + x.shape[1]] for i in range(size))
        return x / (k + alpha * s / size) ** beta
    return ref


NORM = [
    entry("BatchNorm",
          # the old API makes its parameters in its own ``dtype`` argument
          Case({"num_channels": 3, "dtype": "float64"}, rand((4, 3, 2, 2)), _bn(), desc="train",
               state=_running_update()),
          Case({"num_channels": 3, "dtype": "float64"}, rand((1, 3, 3)), _bn(running=True),
               train=False, setup=_running_stats, desc="eval"),
          Case({"num_channels": 3, "dtype": "float64", "data_layout": "NHWC"},
               rand((2, 2, 2, 3)), _bn(last=True), desc="NHWC")),
    entry("BatchNorm1D", Case({"num_features": 3}, rand((5, 3)), _bn(), desc="2-D input",
                              state=_running_update()),
          *_bn_cases(1, (2, 3, 4))),
    entry("BatchNorm2D", *_bn_cases(2, (2, 3, 3, 2))),
    entry("BatchNorm3D", *_bn_cases(3, (2, 2, 2, 3, 2))),
    entry("LayerNorm",
          Case({"normalized_shape": 4, "weight_attr": False, "bias_attr": False},
               rand((3, 4)), lambda sd, x: normalize(x, (1,), 1e-5), desc="no affine"),
          Case({"normalized_shape": 5}, rand((2, 3, 5)),
               lambda sd, x: layer_norm(x, sd["weight"], sd["bias"], 1)),
          Case({"normalized_shape": [3, 4], "epsilon": 1e-3}, rand((1, 2, 3, 4)),
               desc="2 axes, weight kept flat",
               ref=lambda sd, x: layer_norm(x, sd["weight"].reshape(3, 4),
                                            sd["bias"].reshape(3, 4), 2, 1e-3))),
    entry("GroupNorm",
          Case({"num_groups": 2, "num_channels": 4}, rand((2, 4, 3, 2)),
               lambda sd, x: group_norm(x, 2, sd["weight"], sd["bias"])),
          Case({"num_groups": 3, "num_channels": 3, "epsilon": 1e-3}, rand((1, 3, 5)),
               lambda sd, x: group_norm(x, 3, sd["weight"], sd["bias"], 1e-3)),
          Case({"num_groups": 2, "num_channels": 4, "data_format": "NHWC"}, rand((1, 2, 3, 4)),
               lambda sd, x: np.moveaxis(group_norm(np.moveaxis(x, -1, 1), 2, sd["weight"],
                                                    sd["bias"]), 1, -1), desc="NHWC")),
    entry("InstanceNorm1D", Case({"num_features": 3}, rand((2, 3, 5)), _inorm)),
    entry("InstanceNorm2D", Case({"num_features": 2}, rand((1, 2, 3, 4)), _inorm),
          Case({"num_features": 2, "epsilon": 1e-2}, rand((2, 2, 3, 3)),
               lambda sd, x: _inorm(sd, x, 1e-2))),
    entry("InstanceNorm3D", Case({"num_features": 2}, rand((2, 2, 2, 3, 2)), _inorm)),
    entry("LocalResponseNorm",
          Case({"size": 3}, rand((2, 5, 2, 3)), _lrn(3)),
          Case({"size": 4, "alpha": 0.5, "beta": 0.5, "k": 2.0}, rand((1, 6, 3, 2)),
               _lrn(4, 0.5, 0.5, 2.0))),
]

LAYERS = CONV + POOL + UNPOOL + NORM
