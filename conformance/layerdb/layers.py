"""Activations, common layers (linear, embedding, dropout, padding, ...) and vision layers."""

import math

import numpy as np

from . import Case, adaptive_pool, entry, linear, log_softmax, rand, sigmoid, softmax, softplus, unary

X = rand((2, 3, 5))          # a generic input
X4 = rand((1, 3, 4, 5))      # an image batch of one

_SELU = (1.0507009873554805, 1.6732632423543772)


def _act(name, fn, x=X, **kw):
    return entry(name, Case(kw, x, unary(fn)))


ACTIVATIONS = [
    _act("ReLU", lambda x: np.maximum(x, 0)),
    _act("Sigmoid", sigmoid),
    _act("Tanh", np.tanh),
    entry("Softmax", Case({}, X, unary(softmax)),
          Case({"axis": 1}, X4, unary(lambda x: softmax(x, 1)))),
    entry("LogSoftmax", Case({}, X, unary(log_softmax)),
          Case({"axis": 0}, X, unary(lambda x: log_softmax(x, 0)))),
    _act("ReLU6", lambda x: np.clip(x, 0, 6), x=rand((3, 4), low=-3, high=8)),
    entry("LeakyReLU", Case({}, X, unary(lambda x: np.where(x > 0, x, 0.01 * x))),
          Case({"negative_slope": 0.3}, X, unary(lambda x: np.where(x > 0, x, 0.3 * x)))),
    entry("PReLU",
          Case({}, X4, lambda sd, x: np.where(x > 0, x, sd["_weight"] * x)),
          Case({"num_parameters": 3, "init": 0.1}, X4, desc="per channel",
               ref=lambda sd, x: np.where(x > 0, x, sd["_weight"].reshape(1, 3, 1, 1) * x)),
          Case({"num_parameters": 5, "data_format": "NHWC"}, X4, desc="NHWC",
               ref=lambda sd, x: np.where(x > 0, x, sd["_weight"] * x))),
    entry("ELU", Case({}, X, unary(lambda x: np.where(x > 0, x, np.expm1(x)))),
          Case({"alpha": 0.5}, X, unary(lambda x: np.where(x > 0, x, 0.5 * np.expm1(x))))),
    _act("SELU", lambda x: _SELU[0] * np.where(x > 0, x, _SELU[1] * np.expm1(x))),
    entry("CELU", Case({"alpha": 1.5}, X, unary(
        lambda x: np.maximum(x, 0) + np.minimum(0, 1.5 * np.expm1(x / 1.5))))),
    entry("GELU",
          Case({}, X, unary(lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2))))),
          Case({"approximate": True}, X, unary(lambda x: 0.5 * x * (1 + np.tanh(
              math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))))),
    _act("Silu", lambda x: x * sigmoid(x)),
    _act("Swish", lambda x: x * sigmoid(x)),
    _act("Hardswish", lambda x: x * np.clip(x + 3, 0, 6) / 6, x=rand((4, 5), low=-5, high=5)),
    # Paddle's slope is the literal 0.1666667, not 1/6
    _act("Hardsigmoid", lambda x: np.clip(x * 0.1666667 + 0.5, 0, 1),
         x=rand((4, 5), low=-5, high=5)),
    _act("Mish", lambda x: x * np.tanh(softplus(x))),
    entry("Softplus", Case({}, X, unary(softplus)),
          Case({"beta": 2, "threshold": 1.5}, X, unary(
              lambda x: np.where(2 * x > 1.5, x, softplus(2 * x) / 2)))),
    entry("Hardtanh", Case({}, X, unary(lambda x: np.clip(x, -1, 1))),
          Case({"min": -0.5, "max": 1.5}, X, unary(lambda x: np.clip(x, -0.5, 1.5)))),
    _act("LogSigmoid", lambda x: -softplus(-x)),
    _act("Softsign", lambda x: x / (1 + np.abs(x))),
    _act("Tanhshrink", lambda x: x - np.tanh(x)),
    entry("Hardshrink", Case({"threshold": 0.7}, X, unary(
        lambda x: np.where(np.abs(x) > 0.7, x, 0)))),
    entry("Softshrink", Case({"threshold": 0.7}, X, unary(
        lambda x: np.where(x > 0.7, x - 0.7, np.where(x < -0.7, x + 0.7, 0))))),
    entry("ThresholdedReLU", Case({"threshold": 0.5, "value": 0.25}, X, unary(
        lambda x: np.where(x > 0.5, x, 0.25)))),
    entry("GLU", Case({}, rand((3, 6)), unary(lambda x: x[:, :3] * sigmoid(x[:, 3:]))),
          Case({"axis": 1}, rand((2, 4, 3)),
               unary(lambda x: x[:, :2] * sigmoid(x[:, 2:])))),
    entry("Maxout", Case({"groups": 2}, rand((2, 6, 3, 3)), unary(
        lambda x: x.reshape(2, 3, 2, 3, 3).max(2))),
          Case({"groups": 3, "axis": -1}, rand((2, 3, 2, 6)), desc="last axis", ref=unary(
              lambda x: x.reshape(2, 3, 2, 2, 3).max(4)))),
    entry("Softmax2D", Case({}, rand((2, 3, 4, 5)), unary(lambda x: softmax(x, -3))),
          Case({}, rand((3, 1, 2)), unary(lambda x: softmax(x, -3)), desc="3-D input")),
]


# ---------------------------------------------------------------------------
# random layers: statistics and train/eval instead of a NumPy statement
# ---------------------------------------------------------------------------

def _dropout_check(p, scale, unit=None):
    """Training output: each element (each ``unit`` slice) is 0 or x * scale, with a
    fraction of zeros near p."""
    def check(out, inputs, layer):
        x = inputs[0]
        kept = out != 0
        np.testing.assert_allclose(out[kept], (x * scale)[kept], rtol=1e-12)
        if unit is not None:  # whole channels dropped together
            k = kept.reshape(kept.shape[:2] + (-1,)) if unit == 1 else \
                np.moveaxis(kept, -1, 1).reshape(kept.shape[0], kept.shape[-1], -1)
            assert (k.all(-1) | ~k.any(-1)).all(), "channels are not dropped whole"
        frac = 1 - kept.mean()
        assert abs(frac - p) < 0.1, f"dropped fraction {frac}, expected about {p}"
    return check


def _alpha_dropout_check(p):
    alpha_p = -_SELU[0] * _SELU[1]
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p

    def check(out, inputs, layer):
        x = inputs[0]
        dropped = np.isclose(out, a * alpha_p + b, rtol=1e-12, atol=0)
        np.testing.assert_allclose(out[~dropped], a * x[~dropped] + b, rtol=1e-12)
        assert abs(dropped.mean() - p) < 0.1
    return check


def _rrelu_check(lower, upper):
    def check(out, inputs, layer):
        x = inputs[0]
        np.testing.assert_array_equal(out[x >= 0], x[x >= 0])
        slope = out[x < 0] / x[x < 0]
        assert ((slope >= lower - 1e-12) & (slope <= upper + 1e-12)).all()
        assert slope.std() > 0, "RReLU: one slope for every element in training"
    return check


BIG = rand((20, 10, 10))

RANDOM = [
    entry("Dropout",
          Case({"p": 0.3}, BIG, check=_dropout_check(0.3, 1 / 0.7)),
          Case({"p": 0.3}, X, unary(lambda x: x), train=False, desc="eval: identity"),
          Case({"p": 0.4, "mode": "downscale_in_infer"}, BIG, check=_dropout_check(0.4, 1.0)),
          Case({"p": 0.4, "mode": "downscale_in_infer"}, X, unary(lambda x: 0.6 * x),
               train=False, desc="downscale_in_infer eval"),
          Case({"p": 0.5, "axis": 1}, BIG, desc="axis 1", check=_dropout_check(0.5, 2.0))),
    entry("Dropout2D",
          Case({"p": 0.5}, rand((40, 10, 3, 3)), check=_dropout_check(0.5, 2.0, unit=1)),
          Case({"p": 0.5, "data_format": "NHWC"}, rand((40, 3, 3, 10)),
               check=_dropout_check(0.5, 2.0, unit=-1)),
          Case({"p": 0.5}, X4, unary(lambda x: x), train=False)),
    entry("Dropout3D",
          Case({"p": 0.5}, rand((40, 10, 2, 2, 2)), check=_dropout_check(0.5, 2.0, unit=1)),
          Case({"p": 0.5}, rand((1, 2, 3, 2, 2)), unary(lambda x: x), train=False)),
    entry("AlphaDropout",
          Case({"p": 0.2}, BIG, check=_alpha_dropout_check(0.2)),
          Case({"p": 0.2}, X, unary(lambda x: x), train=False)),
    entry("RReLU",
          Case({"lower": 0.1, "upper": 0.3}, BIG, check=_rrelu_check(0.1, 0.3)),
          Case({"lower": 0.1, "upper": 0.3}, X, train=False, desc="eval: mean slope",
               ref=unary(lambda x: np.where(x >= 0, x, 0.2 * x)))),
]


# ---------------------------------------------------------------------------
# common layers
# ---------------------------------------------------------------------------

def _ids(shape, high, low=0):
    return lambda rng: (rng.integers(low, high, shape).astype(np.int64),)


def _embedding(sd, ids, pad=None):
    out = sd["weight"][ids]
    if pad is not None:
        out[ids == pad % sd["weight"].shape[0]] = 0
    return out


def _pad_widths(padding, nd, last):
    """np.pad widths from Paddle's [last-dim left, right, previous-dim left, right, ...]."""
    pairs = [(padding[2 * i], padding[2 * i + 1]) for i in range(nd)][::-1]
    lead = [(0, 0)] * 2
    return lead[:1] + pairs + lead[1:] if last else lead + pairs


_NP_MODE = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
            "circular": "wrap"}


def _pad(padding, mode="constant", value=0.0, last=False):
    nd = len(padding) // 2

    def ref(sd, x):
        widths = _pad_widths(padding, nd, last)
        kw = {"constant_values": value} if mode == "constant" else {}
        return np.pad(x, widths, mode=_NP_MODE[mode], **kw)
    return ref


def _cosine(x1, x2, axis, eps=1e-8):
    n1 = np.sqrt((x1 ** 2).sum(axis))
    n2 = np.sqrt((x2 ** 2).sum(axis))
    return (x1 * x2).sum(axis) / np.maximum(n1 * n2, eps)


def _bilinear(sd, x1, x2):
    return np.einsum("ni,oij,nj->no", x1, sd["weight"], x2) + sd["bias"]


COMMON = [
    entry("Linear",
          Case({"in_features": 5, "out_features": 3}, rand((2, 5)),
               lambda sd, x: linear(x, sd["weight"], sd["bias"])),
          Case({"in_features": 3, "out_features": 4, "bias_attr": False}, rand((1, 2, 3)),
               lambda sd, x: linear(x, sd["weight"]), desc="no bias, 3-D input")),
    entry("Bilinear", Case({"in1_features": 3, "in2_features": 2, "out_features": 4},
                           rand((3, 3), (3, 2)), _bilinear),
          Case({"in1_features": 2, "in2_features": 3, "out_features": 1, "bias_attr": False},
               rand((1, 2), (1, 3)), desc="no bias",
               ref=lambda sd, a, b: np.einsum("ni,oij,nj->no", a, sd["weight"], b))),
    entry("Embedding",
          Case({"num_embeddings": 7, "embedding_dim": 3}, _ids((2, 5), 7), _embedding),
          Case({"num_embeddings": 7, "embedding_dim": 3, "padding_idx": -2}, _ids((1, 9), 7),
               lambda sd, i: _embedding(sd, i, -2), desc="padding_idx"),
          Case({"num_embeddings": 5, "embedding_dim": 2, "sparse": True, "padding_idx": 0},
               _ids((7,), 5), lambda sd, i: _embedding(sd, i, 0), desc="sparse")),
    entry("Flatten", Case({}, rand((2, 3, 2, 2)), unary(lambda x: x.reshape(2, -1))),
          Case({"start_axis": 0, "stop_axis": 1}, rand((2, 3, 2)),
               unary(lambda x: x.reshape(6, 2)))),
    entry("Unflatten", Case({"axis": 1, "shape": [2, 3]}, rand((2, 6, 1)),
                            unary(lambda x: x.reshape(2, 2, 3, 1))),
          Case({"axis": -1, "shape": (-1, 2)}, rand((3, 4)),
               unary(lambda x: x.reshape(3, 2, 2)), desc="-1 in shape")),
    entry("Identity", Case({}, X, unary(lambda x: x))),
    entry("Pad1D",
          Case({"padding": [1, 2]}, rand((2, 3, 4)), _pad([1, 2])),
          Case({"padding": [2, 1], "mode": "reflect"}, rand((1, 2, 5)), _pad([2, 1], "reflect")),
          Case({"padding": [1, 2], "mode": "circular"}, rand((1, 2, 5)),
               _pad([1, 2], "circular")),
          Case({"padding": [2, 0], "mode": "replicate", "data_format": "NLC"}, rand((2, 5, 3)),
               _pad([2, 0], "replicate", last=True))),
    entry("Pad2D",
          Case({"padding": [1, 0, 2, 1], "value": 1.5}, X4, _pad([1, 0, 2, 1], value=1.5)),
          Case({"padding": [1, 2, 1, 0], "mode": "reflect"}, X4, _pad([1, 2, 1, 0], "reflect")),
          Case({"padding": [1, 1, 0, 2], "mode": "replicate", "data_format": "NHWC"}, X4,
               _pad([1, 1, 0, 2], "replicate", last=True))),
    entry("Pad3D",
          Case({"padding": [1, 0, 0, 1, 1, 1]}, rand((1, 2, 2, 3, 3)), _pad([1, 0, 0, 1, 1, 1])),
          Case({"padding": [1, 1, 1, 0, 0, 1], "mode": "circular"}, rand((1, 2, 2, 3, 3)),
               _pad([1, 1, 1, 0, 0, 1], "circular"))),
    entry("ZeroPad1D", Case({"padding": [0, 2]}, rand((2, 3, 4)), _pad([0, 2]))),
    entry("ZeroPad2D", Case({"padding": [1, 0, 2, 1]}, X4, _pad([1, 0, 2, 1])),
          Case({"padding": 1, "data_format": "NHWC"}, X4, _pad([1] * 4, last=True))),
    entry("ZeroPad3D", Case({"padding": [1, 0, 0, 1, 2, 1]}, rand((1, 2, 2, 3, 3)),
                            _pad([1, 0, 0, 1, 2, 1]))),
    entry("CosineSimilarity",
          Case({}, rand((3, 4), (3, 4)), lambda sd, a, b: _cosine(a, b, 1)),
          Case({"axis": 0}, rand((5, 2), (5, 2)), lambda sd, a, b: _cosine(a, b, 0))),
    entry("PairwiseDistance",
          Case({}, rand((3, 4), (3, 4)),
               lambda sd, a, b: np.sqrt(((a - b + 1e-6) ** 2).sum(-1))),
          Case({"p": 3.0, "epsilon": 0.0, "keepdim": True}, rand((1, 5), (5,)),
               lambda sd, a, b: (np.abs(a - b) ** 3).sum(-1, keepdims=True) ** (1 / 3),
               desc="p=3, no epsilon, keepdim, broadcast")),
]


# ---------------------------------------------------------------------------
# vision layers
# ---------------------------------------------------------------------------

def _src(out, inp, align_corners, align_mode=0):
    """Fractional source coordinate of each output position (linear interpolation)."""
    i = np.arange(out, dtype=np.float64)
    if align_corners:
        return i * ((inp - 1) / (out - 1) if out > 1 else 0.0)
    if align_mode == 1:
        return i * inp / out
    return np.maximum((i + 0.5) * inp / out - 0.5, 0)


def _linear_axis(x, axis, out, align_corners, align_mode=0):
    inp = x.shape[axis]
    s = _src(out, inp, align_corners, align_mode)
    i0 = np.minimum(np.floor(s).astype(int), inp - 1)
    i1 = np.minimum(i0 + 1, inp - 1)
    lam = (s - i0).reshape((-1,) + (1,) * (x.ndim - axis - 1))
    return np.take(x, i0, axis) * (1 - lam) + np.take(x, i1, axis) * lam


def _bilinear_resize(size, align_corners, align_mode=0):
    def ref(sd, x):
        for ax, n in zip((2, 3), size):
            x = _linear_axis(x, ax, n, align_corners, align_mode)
        return x
    return ref


def _cubic_weights(t, a=-0.75):
    """Keys' cubic convolution weights of the 4 neighbours at offsets -1, 0, 1, 2."""
    def near(d):
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):
        return ((d - 5) * d + 8) * d * a - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _bicubic(size, align_corners):
    def ref(sd, x):
        for ax, n in zip((2, 3), size):
            inp = x.shape[ax]
            i = np.arange(n, dtype=np.float64)
            src = i * (inp - 1) / (n - 1) if align_corners else (i + 0.5) * inp / n - 0.5
            base = np.floor(src).astype(int)
            w = _cubic_weights((src - base).reshape((-1,) + (1,) * (x.ndim - ax - 1)))
            x = sum(wk * np.take(x, np.clip(base + k - 1, 0, inp - 1), ax)
                    for k, wk in enumerate(w))
        return x
    return ref


def _nearest(size):
    def ref(sd, x):
        for ax, n in zip(range(2, 2 + len(size)), size):
            x = np.take(x, np.floor(np.arange(n) * x.shape[ax] / n).astype(int), ax)
        return x
    return ref


def _unfold(k, d=1, p=0, s=1):
    def ref(sd, x):
        xp = np.pad(x, [(0, 0), (0, 0), (p, p), (p, p)])
        oh = (xp.shape[2] - d * (k - 1) - 1) // s + 1
        ow = (xp.shape[3] - d * (k - 1) - 1) // s + 1
        cols = [xp[:, :, i * d:i * d + s * (oh - 1) + 1:s, j * d:j * d + s * (ow - 1) + 1:s]
                for i in range(k) for j in range(k)]
        return np.stack(cols, 2).reshape(x.shape[0], -1, oh * ow)
    return ref


def _fold(size, k, d=1, p=0, s=1):
    """col2im: each column's block added back at its place, one kernel position at a time."""
    def ref(sd, x):
        n, c = x.shape[0], x.shape[1] // (k * k)
        oh = (size[0] + 2 * p - d * (k - 1) - 1) // s + 1
        ow = (size[1] + 2 * p - d * (k - 1) - 1) // s + 1
        cols = x.reshape(n, c, k, k, oh, ow)
        out = np.zeros((n, c, size[0] + 2 * p, size[1] + 2 * p))
        for i in range(k):
            for j in range(k):
                out[:, :, i * d:i * d + s * (oh - 1) + 1:s,
                    j * d:j * d + s * (ow - 1) + 1:s] += cols[:, :, i, j]
        return out[:, :, p:p + size[0], p:p + size[1]]
    return ref


def _unshuffle(x, r):
    """pixel_unshuffle of NCHW x: out[:, c * r * r + i * r + j] = x[:, c, i::r, j::r]."""
    c = x.shape[1]
    return np.stack([x[:, k // (r * r), (k // r) % r::r, k % r::r] for k in range(c * r * r)], 1)


VISION = [
    entry("Upsample",
          Case({"scale_factor": 2}, X4, _nearest((8, 10))),
          Case({"size": [5, 7], "mode": "bilinear"}, X4, _bilinear_resize((5, 7), False)),
          Case({"size": [3, 7], "mode": "bilinear", "align_corners": True}, X4,
               _bilinear_resize((3, 7), True)),
          Case({"size": [6, 7], "mode": "bilinear", "align_mode": 1}, X4,
               _bilinear_resize((6, 7), False, 1)),
          Case({"size": [7], "mode": "linear", "data_format": "NCW"}, rand((2, 3, 4)),
               lambda sd, x: _linear_axis(x, 2, 7, False)),
          Case({"size": [3, 5, 4], "mode": "trilinear"}, rand((1, 2, 2, 3, 3)),
               lambda sd, x: _linear_axis(_linear_axis(_linear_axis(x, 2, 3, False), 3, 5, False),
                                          4, 4, False)),
          Case({"size": [6, 7], "mode": "bicubic"}, X4, _bicubic((6, 7), False)),
          Case({"size": [5, 3], "mode": "bicubic", "align_corners": True}, X4,
               _bicubic((5, 3), True)),
          Case({"size": [2, 3], "mode": "area"}, X4,
               unary(lambda x: adaptive_pool(x, (2, 3)))),
          Case({"size": [5, 7], "data_format": "NHWC"}, X4,
               lambda sd, x: np.moveaxis(_nearest((5, 7))(sd, np.moveaxis(x, -1, 1)), 1, -1))),
    entry("UpsamplingNearest2D", Case({"size": [6, 7]}, X4, _nearest((6, 7)))),
    entry("UpsamplingBilinear2D", Case({"scale_factor": 2}, X4, _bilinear_resize((8, 10), True))),
    entry("PixelShuffle", Case({"upscale_factor": 2}, rand((1, 8, 2, 3)), unary(
        lambda x: x.reshape(1, 2, 2, 2, 2, 3).transpose(0, 1, 4, 2, 5, 3).reshape(1, 2, 4, 6)))),
    entry("PixelUnshuffle", Case({"downscale_factor": 2}, rand((1, 2, 4, 6)),
                                 unary(lambda x: _unshuffle(x, 2))),
          Case({"downscale_factor": 2, "data_format": "NHWC"}, rand((2, 4, 2, 3)), unary(
              lambda x: _unshuffle(x.transpose(0, 3, 1, 2), 2).transpose(0, 2, 3, 1)),
               desc="NHWC")),
    entry("ChannelShuffle", Case({"groups": 3}, rand((2, 6, 2, 3)), unary(
        lambda x: x.reshape(2, 3, 2, 2, 3).transpose(0, 2, 1, 3, 4).reshape(2, 6, 2, 3)))),
    entry("Unfold", Case({"kernel_sizes": 2}, X4, _unfold(2)),
          Case({"kernel_sizes": 3, "dilations": 2, "paddings": 1, "strides": 2},
               rand((2, 2, 5, 6)), _unfold(3, 2, 1, 2))),
    entry("Fold", Case({"output_sizes": [4, 5], "kernel_sizes": 2}, rand((2, 12, 12)),
                       _fold((4, 5), 2), grad=True),
          Case({"output_sizes": [5, 6], "kernel_sizes": 3, "dilations": 2, "paddings": 1,
                "strides": 2}, rand((1, 18, 4)), _fold((5, 6), 3, 2, 1, 2))),
]

LAYERS = ACTIVATIONS + RANDOM + COMMON + VISION
