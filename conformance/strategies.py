"""Hypothesis strategies for the conformance suite: shapes, broadcastable shape tuples
and arrays of a dtype with values in a range.

Shapes include 0-D and size-0/size-1 dimensions, the cases where broadcasting rules
are easiest to get wrong.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

MAX_DIMS = 4
MAX_SIDE = 4


def shapes(min_dims=0, max_dims=MAX_DIMS, min_side=0, max_side=MAX_SIDE):
    """Array shapes (tuples), 0-D and size-0 dimensions included."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def broadcastable_shapes(n=2, max_dims=MAX_DIMS, max_side=MAX_SIDE):
    """``n`` shapes that broadcast together (a tuple of tuples)."""
    return hnp.mutually_broadcastable_shapes(
        num_shapes=n, min_dims=0, max_dims=max_dims, min_side=0, max_side=max_side,
    ).map(lambda r: r.input_shapes)


def elements(dtype, low=-4.0, high=4.0, nonzero=False):
    """Values of ``dtype`` in [low, high] (no NaN or inf); with ``nonzero`` at least 0.25
    (integers: 1) away from zero."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        values = st.integers(int(np.ceil(low)), int(np.floor(high)))
        return values.filter(lambda v: v != 0) if nonzero else values
    width = 8 * dtype.itemsize
    if nonzero:
        return st.one_of(st.floats(max(low, 0.25), high, width=width),
                         st.floats(low, min(high, -0.25), width=width))
    return st.floats(low, high, width=width)


def arrays(dtype, shape, low=-4.0, high=4.0, nonzero=False):
    """Arrays of ``dtype`` and ``shape`` with values from :func:`elements`."""
    return hnp.arrays(np.dtype(dtype), shape, elements=elements(dtype, low, high, nonzero))


@st.composite
def broadcast_operands(draw, dtypes, n=2, ranges=None):
    """``n`` arrays of broadcastable shapes; ``dtypes`` and ``ranges`` (a (low, high,
    nonzero) per operand; default (-4, 4, False)) say what each holds."""
    ranges = ranges or [(-4.0, 4.0, False)] * n
    shape_tuple = draw(broadcastable_shapes(n))
    return tuple(draw(arrays(d, s, *r)) for d, s, r in zip(dtypes, shape_tuple, ranges))
