"""Op database entries: reductions, searching and sorting."""

import numpy as np

from . import ALL_NUMERIC, OpInfo, Sample, make


def _sum_ref(x, axis=None, dtype=None, keepdim=False):
    if dtype is None and x.dtype.kind in "biu":
        dtype = np.int64
    ax = None if axis is None or axis == [] else (tuple(axis) if isinstance(axis, (list, tuple)) else axis)
    return np.sum(x, axis=ax, dtype=dtype, keepdims=keepdim)


def reduce_samples(dtype, rng):
    yield Sample((make((), dtype, rng),), {}, "0-D")
    yield Sample((make((3, 4), dtype, rng),), {}, "all")
    yield Sample((make((3, 4), dtype, rng),), {"axis": 1}, "axis 1")
    yield Sample((make((3, 4), dtype, rng),), {"axis": -1, "keepdim": True}, "axis -1 keepdim")
    yield Sample((make((2, 3, 4), dtype, rng),), {"axis": [0, 2]}, "axes [0, 2]")
    yield Sample((make((2, 0, 3), dtype, rng),), {"axis": 1}, "size-0 axis")
    yield Sample((make((1, 5), dtype, rng),), {"axis": 0}, "size-1 axis")


OPS = [
    OpInfo("sum", _sum_ref, reduce_samples, dtypes=ALL_NUMERIC, gradgrad=True),
]
