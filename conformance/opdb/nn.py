"""Op database entries: neural-network ops."""

import math

import numpy as np

from . import ErrorInput, OpInfo, Sample, make, unary_samples


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


OPS = [
    OpInfo("relu", lambda x: np.maximum(x, 0), unary_samples()),
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
