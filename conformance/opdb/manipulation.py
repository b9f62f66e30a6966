"""Op database entries: shape, layout, joining, splitting, indexing."""

import numpy as np

from . import ALL_NUMERIC, BOOL, ErrorInput, OpInfo, Sample, make


def _cast_samples(dtype, rng):
    for target in (np.float32, np.float64, np.int32, np.int64, np.bool_, np.float16):
        yield Sample((make((3, 4), dtype, rng),), {"dtype": np.dtype(target)}, f"to {target.__name__}",
                     grad=np.dtype(target) == np.float64)  # lower precision spoils differences
    yield Sample((make((), dtype, rng),), {"dtype": np.dtype(np.float64)}, "0-D")


def _reshape_samples(dtype, rng):
    yield Sample((make((3, 4), dtype, rng),), {"shape": (4, 3)})
    yield Sample((make((3, 4), dtype, rng),), {"shape": (-1,)}, "-1")
    yield Sample((make((2, 3, 4), dtype, rng),), {"shape": (0, -1)}, "0 keeps a dimension")
    yield Sample((make((), dtype, rng),), {"shape": (1, 1)}, "0-D to 2-D")
    yield Sample((make((1,), dtype, rng),), {"shape": ()}, "to 0-D")
    yield Sample((make((2, 0), dtype, rng),), {"shape": (4, 0, 3)}, "size 0")


def _reshape_errors(rng):
    yield ErrorInput(Sample((make((3, 4), np.float32, rng),), {"shape": (5, -1)}), ValueError,
                     "cannot reshape")
    yield ErrorInput(Sample((make((3, 4), np.float32, rng),), {"shape": (-1, -1)}), ValueError,
                     "only one dimension")


def _broadcast_to_samples(dtype, rng):
    yield Sample((make((3, 1), dtype, rng),), {"shape": (3, 4)})
    yield Sample((make((4,), dtype, rng),), {"shape": (2, 3, 4)}, "new leading dims")
    yield Sample((make((), dtype, rng),), {"shape": (2, 2)}, "0-D")
    yield Sample((make((3, 1), dtype, rng),), {"shape": (-1, 2)}, "-1 keeps")


def _broadcast_to_ref(x, shape):
    lead = len(shape) - x.ndim
    return np.broadcast_to(x, tuple(x.shape[i - lead] if d == -1 else d for i, d in enumerate(shape)))


OPS = [
    OpInfo("cast", lambda x, dtype: x.astype(dtype), _cast_samples, dtypes=ALL_NUMERIC + BOOL),
    OpInfo("reshape", lambda x, shape: x.reshape(tuple(
        x.shape[i] if d == 0 else d for i, d in enumerate(shape))), _reshape_samples,
        dtypes=ALL_NUMERIC, gradgrad=True, errors=_reshape_errors),
    OpInfo("broadcast_to", _broadcast_to_ref, _broadcast_to_samples, dtypes=ALL_NUMERIC,
           gradgrad=True),
]
