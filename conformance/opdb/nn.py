"""Op database entries: neural-network ops."""

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
