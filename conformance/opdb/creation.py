"""Op database entries: creation and random ops."""

import numpy as np

from . import ALL_NUMERIC, BOOL, OpInfo, Sample, make


def _full_samples(dtype, rng):
    yield Sample((), {"shape": (2, 3), "fill_value": 1.5 if np.dtype(dtype).kind == "f" else 3,
                      "dtype": np.dtype(dtype)})
    yield Sample((), {"shape": (), "fill_value": 0, "dtype": np.dtype(dtype)}, "0-D")
    yield Sample((), {"shape": (0, 2), "fill_value": 1, "dtype": np.dtype(dtype)}, "size 0")


def _full_like_samples(dtype, rng):
    yield Sample((make((2, 3), dtype, rng),), {"fill_value": 1})
    yield Sample((make((), dtype, rng),), {"fill_value": 0, "dtype": np.dtype(np.float64)}, "dtype")


OPS = [
    OpInfo("full", lambda shape, fill_value=0.0, dtype=None: np.full(shape, fill_value, dtype),
           _full_samples, dtypes=ALL_NUMERIC + BOOL, grad=False),
    OpInfo("full_like", lambda x, fill_value=0.0, dtype=None: np.full(
        x.shape, fill_value, x.dtype if dtype is None else dtype),
        _full_like_samples, dtypes=ALL_NUMERIC + BOOL, grad=False),
]
