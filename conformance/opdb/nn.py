"""Op database entries: neural-network ops (activations, softmax, dropout, embedding)."""

import math

import numpy as np

from . import FLOATS16, ErrorInput, OpInfo, Sample, make, unary_samples


def _softmax_ref(x, axis=-1):
    """exp(x) / sum(exp(x)) along axis; a 0-D tensor is a single element (softmax 1)."""
    e = np.exp(x.astype(np.float64))
    total = np.sum(e, axis=axis, keepdims=True) if x.ndim else e
    return (e / total).astype(x.dtype)


def _log_softmax_ref(x, axis=-1):
    """x - log(sum(exp(x))) along axis."""
    x64 = x.astype(np.float64)
    total = np.sum(np.exp(x64), axis=axis, keepdims=True) if x.ndim else np.exp(x64)
    with np.errstate(divide="ignore"):  # an empty axis: log(0), but no output element
        return (x64 - np.log(total)).astype(x.dtype)


def softmax_samples(dtype, rng):
    """Every rank from 0-D to 3-D, size-0 and size-1 dimensions, positive and negative axes."""
    for shape, axis in [((), -1), ((), 0), ((1,), 0), ((5,), -1), ((3, 4), -1), ((3, 4), 0),
                        ((2, 1, 3), 1), ((2, 3, 4), -2), ((2, 0, 3), -1), ((2, 0, 3), 1)]:
        yield Sample((make(shape, dtype, rng, -3.0, 3.0),), {"axis": axis}, f"{shape} axis {axis}")
    yield Sample((make((3, 4), dtype, rng),), {}, "default axis")
    # large inputs: the kernels must not overflow exp
    yield Sample((make((2, 3), dtype, rng, 80.0, 90.0),), {"axis": 1}, "large", grad=False)


def softmax_errors(rng):
    yield ErrorInput(Sample((np.array([1, 2], dtype=np.int64),)), TypeError, "floating-point")
    yield ErrorInput(Sample((make((2, 3), np.float32, rng),), {"axis": 2}), ValueError,
                     "axis 2 is out of range")
    yield ErrorInput(Sample((make((2, 3), np.float32, rng),), {"axis": -3}), ValueError,
                     "out of range")


def log_softmax_errors(rng):
    yield ErrorInput(Sample((np.array([1, 2], dtype=np.int32),)), TypeError, "log_softmax")
    yield ErrorInput(Sample((make((4,), np.float64, rng),), {"axis": 1}), ValueError,
                     "out of range")


def _relu_grad_ref(out, out_grad):
    """out_grad where out is positive, 0 where it is 0 (whatever out_grad holds there)."""
    return np.select([out > 0], [out_grad], 0).astype(out_grad.dtype)


def relu_grad_samples(dtype, rng):
    """out as relu makes it (zeros included), each standard shape; an out_grad holding
    inf/nan where out is 0 still gives 0 there."""
    for shape in [(), (1,), (5,), (3, 4), (2, 0, 3), (2, 3, 4)]:
        yield Sample((np.maximum(make(shape, dtype, rng), 0), make(shape, dtype, rng)), {},
                     f"{shape}")
    out = np.array([0.0, 1.5, 0.0, 2.0], dtype)
    yield Sample((out, np.array([np.inf, 1.0, np.nan, -3.0], dtype)), {}, "inf/nan masked",
                 grad=False)


def relu_grad_errors(rng):
    yield ErrorInput(Sample((make((2, 3), np.float32, rng), make((3, 2), np.float32, rng))),
                     ValueError, r"out_grad has shape \[3, 2\] but out has \[2, 3\]")


OPS = [
    OpInfo("relu", lambda x: np.maximum(x, 0), unary_samples(), gradgrad=True),
    OpInfo("relu_grad", _relu_grad_ref, relu_grad_samples, gradgrad=True, grad_inputs=(1,),
           errors=relu_grad_errors),
    OpInfo("softmax", _softmax_ref, softmax_samples, gradgrad=True, errors=softmax_errors),
    OpInfo("log_softmax", _log_softmax_ref, softmax_samples, gradgrad=True,
           errors=log_softmax_errors),
]


# ---------------------------------------------------------------------------
# activations: each reference computes in float64 and casts back
# ---------------------------------------------------------------------------

def _f64(fn):
    """A reference computed in float64 from x (and attributes), cast back to x's dtype."""
    def ref(x, **attrs):
        with np.errstate(over="ignore"):  # exp(1000) in the branch np.where discards
            return np.asarray(fn(x.astype(np.float64), **attrs)).astype(x.dtype)
    ref.__doc__ = fn.__doc__
    return ref


_erf = np.vectorize(math.erf, otypes=[np.float64])


def _softplus64(x, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, linear once beta x passes threshold"""
    return np.where(beta * x > threshold, x, np.log1p(np.exp(beta * x)) / beta)


def _sig64(x):
    return 0.5 * (1 + np.tanh(x / 2))


def _gelu64(x, approximate=False):
    """x * Phi(x), or the tanh approximation of it"""
    if approximate:
        return x * 0.5 * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    return x * 0.5 * (1 + _erf(x / np.sqrt(2)))


ACTIVATIONS = {  # name: (reference, attrs of the extra samples, low, high)
    "relu6": (lambda x: np.minimum(np.maximum(x, 0), 6), [], -3.0, 8.0),
    "leaky_relu": (lambda x, negative_slope=0.01: np.where(x > 0, x, negative_slope * x),
                   [{"negative_slope": 0.2}, {"negative_slope": -0.5}], -2.0, 2.0),
    "elu": (lambda x, alpha=1.0: np.where(x > 0, x, alpha * (np.exp(x) - 1)),
            [{"alpha": 0.5}, {"alpha": -1.0}], -3.0, 2.0),
    "selu": (lambda x, scale=1.0507009873554805, alpha=1.6732632423543772:
             scale * np.where(x > 0, x, alpha * (np.exp(x) - 1)),
             [{"scale": 1.5, "alpha": 0.5}], -3.0, 2.0),
    "celu": (lambda x, alpha=1.0: np.maximum(0, x) + np.minimum(0, alpha * (np.exp(x / alpha) - 1)),
             [{"alpha": 2.0}, {"alpha": -0.5}], -2.0, 2.0),
    "gelu": (_gelu64, [{"approximate": True}], -4.0, 4.0),
    "silu": (lambda x: x * _sig64(x), [], -6.0, 6.0),
    "hardswish": (lambda x: x * np.minimum(np.maximum(x + 3, 0), 6) / 6, [], -5.0, 5.0),
    "hardsigmoid": (lambda x, slope=0.1666667, offset=0.5: np.clip(slope * x + offset, 0, 1),
                    [{"slope": 0.2, "offset": 0.3}], -5.0, 5.0),
    "softplus": (_softplus64, [{"beta": 2.0, "threshold": 3.0}, {"beta": 0.5}], -5.0, 5.0),
    "mish": (lambda x: x * np.tanh(_softplus64(x, 1.0, np.inf)), [], -5.0, 5.0),
    "hardtanh": (lambda x, min=-1.0, max=1.0: np.where(x < min, min, np.where(x > max, max, x)),
                 [{"min": -0.5, "max": 1.5}], -2.0, 2.0),
    "softsign": (lambda x: x / (1 + np.abs(x)), [], -3.0, 3.0),
    "tanh_shrink": (lambda x: x - np.tanh(x), [], -3.0, 3.0),
    "hardshrink": (lambda x, threshold=0.5: np.where((x >= threshold) | (x <= -threshold), x, 0),
                   [{"threshold": 1.2}, {"threshold": 0.0}], -2.0, 2.0),
    "softshrink": (lambda x, threshold=0.5: np.where(x > threshold, x - threshold,
                                                     np.where(x < -threshold, x + threshold, 0)),
                   [{"threshold": 1.2}], -2.0, 2.0),
    "thresholded_relu": (lambda x, threshold=1.0, value=0.0: np.where(x > threshold, x, value),
                         [{"threshold": -0.5, "value": 3.0}], -2.0, 2.0),
    "logsigmoid": (lambda x: np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x))), [], -6.0, 6.0),
}


# activations with exp inside: large |x| must not overflow
_EXP_INSIDE = ("silu", "softplus", "mish", "logsigmoid", "elu", "selu", "celu", "gelu")


def _activation_samples(name, extra, low, high):
    base = unary_samples(low, high)

    def gen(dtype, rng):
        yield from base(dtype, rng)
        for attrs in extra:
            yield Sample((make((3, 5), dtype, rng, low, high),), dict(attrs), f"{attrs}")
        if name in _EXP_INSIDE:
            yield Sample((np.array([-1000.0, -30.0, 30.0, 1000.0], dtype=dtype),), {}, "huge",
                         grad=False)
    return gen


def _int_input_errors(name):
    def errors(rng):
        yield ErrorInput(Sample((np.array([1, -2], dtype=np.int64),)), TypeError,
                         f"{name}: x must be a floating-point tensor.*got int64")
        yield ErrorInput(Sample((np.array([1], dtype=np.int32),)), TypeError, "int32")
    return errors


def _activation_info(name, ref, extra, low, high):
    return OpInfo(name, _f64(ref), _activation_samples(name, extra, low, high), gradgrad=True,
                  errors=_int_input_errors(name))


def _prelu_ref(x, weight, data_format="NCHW"):
    """x where x > 0, else weight * x with weight one value or one per channel."""
    if weight.size == 1:
        w = weight.reshape(())
    else:
        c = 1 if data_format[1] == "C" else x.ndim - 1
        w = np.expand_dims(weight, tuple(a for a in range(x.ndim) if a != c))
    return np.where(x > 0, x, w * x).astype(x.dtype)


def prelu_samples(dtype, rng):
    w1 = make((1,), dtype, rng, 0.0, 0.5)
    yield Sample((make((), dtype, rng), w1), {}, "0-D x, one weight")
    yield Sample((make((5,), dtype, rng), w1), {}, "1-D x, one weight")
    yield Sample((make((2, 3, 4, 5), dtype, rng), w1), {}, "NCHW, one weight")
    yield Sample((make((2, 3, 4, 5), dtype, rng), make((3,), dtype, rng)), {}, "NCHW, per channel")
    yield Sample((make((1, 3, 4), dtype, rng), make((3,), dtype, rng)), {"data_format": "NCL"},
                 "NCL, batch 1")
    yield Sample((make((2, 4, 3), dtype, rng), make((3,), dtype, rng)), {"data_format": "NLC"},
                 "NLC")
    yield Sample((make((2, 3, 2, 5), dtype, rng), make((5,), dtype, rng)),
                 {"data_format": "NHWC"}, "NHWC")
    yield Sample((make((2, 2, 3, 1, 2), dtype, rng), make((2,), dtype, rng)),
                 {"data_format": "NCDHW"}, "NCDHW")
    yield Sample((make((3, 2), dtype, rng), make((2,), dtype, rng)), {"data_format": "NC"}, "NC")
    yield Sample((make((0, 3), dtype, rng), make((3,), dtype, rng)), {"data_format": "NC"},
                 "empty batch")


def prelu_errors(rng):
    w = make((3,), np.float32, rng)
    yield ErrorInput(Sample((np.array([[1, 2, 3]], dtype=np.int64), w)), TypeError, "int64")
    yield ErrorInput(Sample((make((2, 4, 5), np.float32, rng), w)), ValueError,
                     "weight has 3 values but x .* has 4 channels")
    yield ErrorInput(Sample((make((2, 3), np.float32, rng), w.astype(np.float64))), ValueError,
                     "float32")


OPS += [_activation_info(n, *spec) for n, spec in ACTIVATIONS.items()]
OPS += [OpInfo("prelu", _prelu_ref, prelu_samples, gradgrad=True, errors=prelu_errors)]


# ---------------------------------------------------------------------------
# dropout (random: the suite compares shapes and dtypes; tests/test_common_layers.py checks
# the values against the mask, the statistics and reproducibility under a seed)
# ---------------------------------------------------------------------------

def _dropout_ref(x, p=0.5, training=True, mode="upscale_in_train", axis=None):
    """A mask keeps each element (or each slice along the axes not in ``axis``) with
    probability 1 - p; out = x * mask / (1 - p) ('upscale_in_train') or x * mask
    ('downscale_in_infer'); at inference the mask is all ones and out = x, or x * (1 - p)."""
    if not training:
        return x * (1.0 if mode == "upscale_in_train" else 1.0 - p), np.ones(x.shape, np.uint8)
    shape = [d if axis is None or i in axis else 1 for i, d in enumerate(x.shape)]
    keep = np.broadcast_to(np.random.default_rng(0).random(shape) >= p, x.shape)
    factor = (0.0 if p == 1 else 1 / (1 - p)) if mode == "upscale_in_train" else 1.0
    return (x * keep * factor).astype(x.dtype), keep.astype(np.uint8)


def dropout_samples(dtype, rng):
    # deterministic calls: gradients are checked on these
    for shape in [(), (0,), (1,), (3, 4)]:
        yield Sample((make(shape, dtype, rng),), {"training": False}, f"{shape} inference")
    yield Sample((make((3, 4), dtype, rng),), {"training": False, "mode": "downscale_in_infer",
                                               "p": 0.3}, "downscale inference")
    yield Sample((make((2, 5), dtype, rng),), {"p": 0.0}, "p=0")
    yield Sample((make((2, 5), dtype, rng),), {"p": 1.0}, "p=1")
    yield Sample((make((2, 5), dtype, rng),), {"p": 1.0, "mode": "downscale_in_infer"}, "p=1 down")
    # random masks
    for shape, attrs in [((5, 7), {}), ((1, 3), {"p": 0.2}), ((2, 0, 3), {}),
                         ((4, 6), {"mode": "downscale_in_infer"}),
                         ((2, 3, 4), {"axis": (0, 2)}), ((3, 4), {"axis": (1,), "p": 0.7})]:
        yield Sample((make(shape, dtype, rng),), attrs, f"{shape} {attrs}", grad=False)


def dropout_errors(rng):
    yield ErrorInput(Sample((np.array([1, 2], dtype=np.int64),)), TypeError,
                     "dropout: x must be a floating-point tensor.*int64")


OPS += [OpInfo("dropout", _dropout_ref, dropout_samples, dtypes=FLOATS16, random=True,
               errors=dropout_errors)]


# ---------------------------------------------------------------------------
# embedding
# ---------------------------------------------------------------------------

def _embedding_ref(x, weight, padding_idx=None):
    """out[..., :] = weight[x[...], :], zero where x == padding_idx."""
    out = np.zeros(x.shape + weight.shape[1:], weight.dtype)
    for pos in np.ndindex(x.shape):
        if x[pos] != padding_idx:
            out[pos] = weight[x[pos]]
    return out


def _embedding_grad_ref(x, out_grad, num_embeddings=0, padding_idx=None):
    """table[k] = sum of out_grad[pos] over the positions with x[pos] == k (k != padding_idx)."""
    table = np.zeros((num_embeddings, out_grad.shape[-1]), out_grad.dtype)
    for k in range(num_embeddings):
        if k != padding_idx:
            table[k] = out_grad[x == k].sum(axis=0)
    return table


def _ids(shape, n, rng, dtype=np.int64):
    return rng.integers(0, n, size=shape).astype(dtype)


def embedding_samples(dtype, rng):
    w = make((6, 3), dtype, rng)
    yield Sample((_ids((4,), 6, rng), w), {}, "1-D ids")
    yield Sample((_ids((2, 5), 6, rng, np.int32), w), {}, "int32 ids, repeats")
    yield Sample((np.array(2, dtype=np.int64), w), {}, "0-D id")
    yield Sample((_ids((0,), 6, rng), w), {}, "no ids")
    yield Sample((_ids((1, 3, 2), 6, rng), make((6, 1), dtype, rng)), {}, "dim 1")
    yield Sample((np.array([[0, 2], [2, 5]]), w), {"padding_idx": 2}, "padding_idx")
    yield Sample((np.array([1, 0, 1]), w), {"padding_idx": 0}, "padding_idx 0")


def embedding_errors(rng):
    w = make((4, 3), np.float32, rng)
    yield ErrorInput(Sample((np.array([1.0, 2.0], dtype=np.float32), w)), TypeError,
                     "ids.*int32 or int64.*float32")
    yield ErrorInput(Sample((np.array([4]), w)), ValueError, r"ids must be in \[0, 4\)")
    yield ErrorInput(Sample((np.array([-1]), w)), ValueError, r"ids must be in \[0, 4\)")
    yield ErrorInput(Sample((np.array([1]), np.ones((4, 2), np.int64))), TypeError,
                     "weight must be a floating-point tensor.*int64")


def embedding_grad_samples(dtype, rng):
    yield Sample((_ids((5,), 4, rng), make((5, 3), dtype, rng)), {"num_embeddings": 4}, "1-D")
    yield Sample((_ids((2, 3), 3, rng, np.int32), make((2, 3, 2), dtype, rng)),
                 {"num_embeddings": 5}, "2-D ids, rows never hit")
    yield Sample((np.array([0, 1, 1, 2]), make((4, 2), dtype, rng)),
                 {"num_embeddings": 3, "padding_idx": 1}, "padding_idx")
    yield Sample((_ids((0,), 4, rng), make((0, 3), dtype, rng)), {"num_embeddings": 4}, "no ids")


def embedding_grad_errors(rng):
    yield ErrorInput(Sample((np.array([0, 3]), make((2, 2), np.float32, rng)),
                            {"num_embeddings": 3}), ValueError, r"ids must be in \[0, 3\)")
    yield ErrorInput(Sample((np.array([0, 1]), make((3, 2), np.float32, rng)),
                            {"num_embeddings": 3}), ValueError, "out_grad must have shape")


OPS += [
    OpInfo("embedding", _embedding_ref, embedding_samples, gradgrad=True, errors=embedding_errors),
    OpInfo("embedding_grad", _embedding_grad_ref, embedding_grad_samples, gradgrad=True,
           errors=embedding_grad_errors),
]
