"""Op database entries: matrix products and linear algebra."""

import numpy as np

from . import ErrorInput, FLOATS, OpInfo, Sample, make


def _matmul_ref(x, y, transpose_x=False, transpose_y=False):
    if transpose_x and x.ndim > 1:
        x = np.swapaxes(x, -1, -2)
    if transpose_y and y.ndim > 1:
        y = np.swapaxes(y, -1, -2)
    return np.matmul(x, y)


def _matmul_samples(dtype, rng):
    m = lambda *s: make(s, dtype, rng)  # noqa: E731
    yield Sample((m(3, 4), m(4, 5)), desc="2-D")
    yield Sample((m(4, 3), m(4, 5)), {"transpose_x": True}, "transpose_x")
    yield Sample((m(3, 4), m(5, 4)), {"transpose_y": True}, "transpose_y")
    yield Sample((m(4, 3), m(5, 4)), {"transpose_x": True, "transpose_y": True}, "both")
    yield Sample((m(4,), m(4,)), desc="1-D x 1-D")
    yield Sample((m(3, 4), m(4,)), desc="2-D x 1-D")
    yield Sample((m(4,), m(4, 5)), desc="1-D x 2-D")
    yield Sample((m(2, 3, 4), m(4, 5)), desc="batched x 2-D")
    yield Sample((m(2, 1, 3, 4), m(5, 4, 2)), desc="batch broadcasting")
    yield Sample((m(2, 3, 4), m(4,)), desc="batched x 1-D")
    yield Sample((m(4,), m(2, 4, 5)), desc="1-D x batched")
    yield Sample((m(2, 4, 3), m(2, 5, 4)), {"transpose_x": True, "transpose_y": True}, "batched transposes")
    yield Sample((m(0, 4), m(4, 5)), desc="size 0")


def _matmul_errors(rng):
    f = np.float32
    yield ErrorInput(Sample((make((3, 4), f, rng), make((5, 6), f, rng))), ValueError, "contracted")
    yield ErrorInput(Sample((make((), f, rng), make((3,), f, rng))), ValueError, "at least 1-D")


OPS = [
    OpInfo("matmul", _matmul_ref, _matmul_samples, dtypes=FLOATS, gradgrad=True,
           tol={np.float32: (1e-5, 1e-5)}, errors=_matmul_errors),
]
