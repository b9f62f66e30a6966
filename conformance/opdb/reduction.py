"""Op database entries: reductions, statistics, searching and sorting.

Each NumPy statement spells the meaning out with NumPy's own reductions (``np.sum``,
``np.logaddexp.reduce``, ``np.argsort(kind="stable")``, ...). Gradient samples avoid ties
(max/min, sort, topk) where the op is not differentiable; prod and cumprod have samples
with exact zeros (among those checked for second derivatives), where both are defined.
"""

import warnings

import numpy as np

from . import ALL_NUMERIC, BOOL, FLOATS, FLOATS16, INTS, ErrorInput, OpInfo, Sample, make

F = np.float32
I64 = np.dtype(np.int64)


def _s(*inputs, desc="", grad=True, **attrs):
    return Sample(tuple(inputs), attrs, desc, grad=grad)


def _ax(x, axis):
    """Paddle's axis as NumPy's: None or [] is every axis; a 0-D x has none."""
    if x.ndim == 0 or axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 0):
        return None
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


def _quiet(fn):
    """Run a NumPy statement that warns on empty or degenerate input (mean of nothing...)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn()


# ---------------------------------------------------------------------------
# reductions: samples shared by sum, mean, prod, max, ...
# ---------------------------------------------------------------------------

def reduce_samples(dtype, rng, empty=True, low=-2.0, high=2.0):
    """Axis forms (None, int, negative, list, tuple, []), keepdim, 0-D, size-0 and size-1
    dimensions; ``empty=False`` leaves out reductions over a size-0 dimension."""
    def m(shape):
        return make(shape, dtype, rng, low, high)
    yield _s(m(()), desc="0-D")
    yield _s(m((3, 4)), desc="all")
    yield _s(m((3, 4)), axis=1, desc="axis 1")
    yield _s(m((3, 4)), axis=-1, keepdim=True, desc="axis -1 keepdim")
    yield _s(m((2, 3, 4)), axis=[0, 2], desc="axes [0, 2]")
    yield _s(m((2, 3, 4)), axis=(-1, 0), keepdim=True, desc="axes (-1, 0) keepdim")
    yield _s(m(()), axis=-1, keepdim=True, desc="0-D axis -1 keepdim")
    yield _s(m((3, 4)), axis=[], keepdim=True, desc="axis [] is every axis")
    yield _s(m((1, 5)), axis=0, desc="size-1 axis")
    yield _s(m((2, 0, 3)), axis=0, desc="size-0 kept dimension")
    if empty:
        yield _s(m((2, 0, 3)), axis=1, desc="size-0 axis")
        yield _s(m((0,)), desc="empty, all")


def _axis_errors(op, x=None):
    def errors(rng):
        a = make((3, 4), F, rng) if x is None else x(rng)
        yield ErrorInput(_s(a, axis=2), ValueError, f"{op}: axis 2 is out of range.*rank 2")
        yield ErrorInput(_s(a, axis=[0, -2]), ValueError, f"{op}: axis .* same dimension")
        yield ErrorInput(_s(make((), F, rng), axis=1), ValueError, f"{op}: axis 1 .*rank 0")
    return errors


def _with(*more):
    """Error generators chained."""
    def errors(rng):
        for gen in more:
            yield from gen(rng)
    return errors


def _float_only(op, **attrs):
    def errors(rng):
        yield ErrorInput(_s(make((3,), np.int64, rng), **attrs), TypeError,
                         f"{op}: x has dtype int64, expected a floating-point dtype")
    return errors


def _sum_ref(x, axis=None, dtype=None, keepdim=False):
    if dtype is None and x.dtype.kind in "biu":
        dtype = np.int64
    return np.sum(x, axis=_ax(x, axis), dtype=dtype, keepdims=keepdim)


def _sum_samples(dtype, rng):
    yield from reduce_samples(dtype, rng)
    yield _s(make((3, 4), dtype, rng), axis=0, dtype=np.dtype(np.float64), desc="dtype float64")


def _mean_ref(x, axis=None, keepdim=False):
    return _quiet(lambda: np.mean(x, axis=_ax(x, axis), keepdims=keepdim).astype(x.dtype))


def _prod_ref(x, axis=None, keepdim=False):
    return np.prod(x, axis=_ax(x, axis), dtype=x.dtype, keepdims=keepdim)


def _prod_samples(dtype, rng):
    x = make((3, 4), dtype, rng)
    x[1, 2] = x[2, 0] = x[2, 3] = 0
    yield _s(x, axis=1, desc="rows with no, one and two zeros")
    yield _s(x, axis=0, keepdim=True, desc="columns with no, one and two zeros")
    yield from reduce_samples(dtype, rng)


def _extreme_ref(fn):
    def ref(x, axis=None, keepdim=False):
        return fn(x, axis=_ax(x, axis), keepdims=keepdim)
    return ref


def _extreme_samples(dtype, rng):
    yield from reduce_samples(dtype, rng, empty=False)
    yield _s(np.array([[1, 3, 3], [2, 2, 2]], dtype=dtype), axis=1, desc="ties", grad=False)


def _extreme_errors(op):
    def errors(rng):
        yield ErrorInput(_s(make((2, 0), F, rng), axis=1), ValueError,
                         rf"{op}: cannot reduce x of shape \[2, 0\].*empty dimension")
        yield ErrorInput(_s(make((0,), F, rng)), ValueError, f"{op}: cannot reduce")
    return _with(errors, _axis_errors(op))


def _var_ref(x, axis=None, unbiased=True, keepdim=False):
    return _quiet(lambda: np.var(x, axis=_ax(x, axis), ddof=int(unbiased),
                                 keepdims=keepdim).astype(x.dtype))


def _var_samples(dtype, rng):
    for s in reduce_samples(dtype, rng):
        n_out = np.size(_var_ref(*s.inputs, **s.attrs))
        # a variance of one element (unbiased) is NaN: no gradient to check there
        yield Sample(s.inputs, s.attrs, s.desc, grad=s.inputs[0].ndim > 0 and n_out < s.inputs[0].size)
    x = make((3, 4), dtype, rng)
    yield _s(x, axis=0, unbiased=False, desc="biased")
    yield _s(make((), dtype, rng), unbiased=False, desc="0-D biased")
    yield _s(make((2, 1), dtype, rng), axis=1, desc="one element per row: NaN", grad=False)


def _logsumexp_ref(x, axis=None, keepdim=False):
    return np.logaddexp.reduce(x, axis=_ax(x, axis), keepdims=keepdim).astype(x.dtype)


def _logsumexp_samples(dtype, rng):
    yield from reduce_samples(dtype, rng)
    yield _s(make((2, 3), dtype, rng, 500.0, 700.0), axis=1, desc="large values, no overflow")
    yield _s(np.array([-np.inf, 1.0, 2.0], dtype=dtype), desc="a -inf entry", grad=False)


# ---------------------------------------------------------------------------
# cumsum, cumprod
# ---------------------------------------------------------------------------

def _flat(x, axis):
    return (x.reshape(-1), 0) if axis is None else (x, axis)


def _cumsum_ref(x, axis=None, reverse=False):
    x, axis = _flat(x, axis)
    if x.ndim == 0:
        return x.copy()
    forward = np.cumsum(x, axis=axis, dtype=x.dtype)
    if not reverse:
        return forward
    # the sum from k to the end: the total minus what comes before k
    return np.sum(x, axis=axis, keepdims=True, dtype=x.dtype) - forward + x


def _scan_samples(attr):
    def gen(dtype, rng):
        yield _s(make((3, 4), dtype, rng), desc="None flattens")
        if attr == "dim":
            x = make((3, 4), dtype, rng)
            x[0, 1] = x[1, 1] = x[1, 2] = x[2, 0] = x[2, 2] = 0
            yield _s(x, dim=1, desc="zeros: one, two, first and later")
            yield _s(x, desc="zeros, flattened")
        yield _s(make((3, 4), dtype, rng), **{attr: 0}, desc="axis 0")
        yield _s(make((2, 3, 4), dtype, rng), **{attr: -1}, desc="axis -1")
        yield _s(make((), dtype, rng), desc="0-D, None: shape [1]")
        yield _s(make((), dtype, rng), **{attr: 0}, desc="0-D axis 0")
        yield _s(make((2, 0, 3), dtype, rng), **{attr: 1}, desc="size-0")
        yield _s(make((1, 5), dtype, rng), **{attr: 0}, desc="size-1 axis")
        if attr == "axis":
            yield _s(make((3, 4), dtype, rng), axis=1, reverse=True, desc="reverse")
            yield _s(make((5,), dtype, rng), reverse=True, desc="None reverse")
    return gen


def _scan_errors(op, exc):
    def errors(rng):
        yield ErrorInput(_s(make((3, 4), F, rng), **{"axis" if op == "cumsum" else "dim": 2}), exc,
                         f"{op}: axis 2 is out of range.*rank 2")
        yield ErrorInput(_s(make((3,), np.bool_, rng)), TypeError, f"{op}: x has dtype bool")
    return errors


def _cumprod_ref(x, dim=None):
    x, dim = _flat(x, dim)
    return x.copy() if x.ndim == 0 else np.cumprod(x, axis=dim, dtype=x.dtype)


def _cum_extreme_ref(better):
    """A Python loop over each line: keep the value when it beats (or ties) the running one
    or is the first NaN; a NaN, once kept, stays."""
    def ref(x, axis=None, dtype=I64):
        x, axis = _flat(x, axis)
        if x.ndim == 0:
            return x.copy(), np.zeros((), dtype)
        xs = np.moveaxis(x, axis, -1)
        out, idx = np.empty_like(xs), np.zeros(xs.shape, dtype)
        for line in np.ndindex(xs.shape[:-1]):
            best, at = None, 0
            for k, v in enumerate(xs[line]):
                if best is None or (not np.isnan(best) and (np.isnan(v) or better(v, best))):
                    best, at = v, k
                out[line + (k,)], idx[line + (k,)] = best, at
        return np.moveaxis(out, -1, axis), np.moveaxis(idx, -1, axis)
    return ref


def _cum_extreme_samples(dtype, rng):
    for s in _scan_samples("axis")(dtype, rng):
        if "reverse" not in s.attrs:
            yield s
    ties = make((3, 6), dtype, rng, -2, 2).round()
    yield _s(ties, axis=1, desc="ties", grad=False)
    if np.dtype(dtype).kind == "f":
        x = make((2, 5), dtype, rng)
        x[0, 2] = x[1, 0] = x[1, 3] = np.nan
        yield _s(x, axis=1, desc="NaN", grad=False)
        yield _s(make((4, 3), dtype, rng), axis=0, dtype=np.dtype(np.int32), desc="int32")


def _cum_extreme_errors(op):
    def errors(rng):
        yield ErrorInput(_s(make((3, 4), F, rng), axis=2), IndexError,
                         f"{op}: axis 2 is out of range.*rank 2")
        yield ErrorInput(_s(make((3,), np.bool_, rng)), TypeError, f"{op}: x has dtype bool")
        yield ErrorInput(_s(make((3,), F, rng), dtype=np.dtype(F)), ValueError,
                         "must be int32 or int64")
    return errors


def _logcumsumexp_ref(x, axis=None, reverse=False):
    x, axis = _flat(x, axis)
    if x.ndim == 0:
        return x.copy()
    if reverse:
        return np.flip(_logcumsumexp_ref(np.flip(x, axis), axis), axis)
    wide = x.astype(np.float64)
    m = np.max(wide, axis=axis, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        return (np.log(np.cumsum(np.exp(wide - m), axis=axis)) + m).astype(x.dtype)


def _logcumsumexp_errors(rng):
    yield ErrorInput(_s(make((3, 4), F, rng), axis=-3), IndexError,
                     "logcumsumexp: axis -3 is out of range")
    yield ErrorInput(_s(make((3,), np.int64, rng)), TypeError, "logcumsumexp: x has dtype int64")


def _logcumsumexp_samples(dtype, rng):
    yield from _scan_samples("axis")(dtype, rng)
    yield _s(np.array([[-30.0, 0.0, 1.0], [5.0, -40.0, 3.0]], dtype), axis=1, desc="wide range")

# ---------------------------------------------------------------------------
# argmax, argmin, all, any
# ---------------------------------------------------------------------------

def _arg_ref(fn):
    def ref(x, axis=None, keepdim=False, dtype=I64):
        if x.ndim == 0:
            return np.zeros((), dtype)
        return fn(x, axis=axis, keepdims=keepdim).astype(dtype)
    return ref


def _arg_samples(dtype, rng):
    yield _s(make((3, 4), dtype, rng), desc="flattened")
    yield _s(make((3, 4), dtype, rng), keepdim=True, desc="flattened keepdim")
    yield _s(make((3, 4), dtype, rng), axis=1)
    yield _s(make((2, 3, 4), dtype, rng), axis=-2, keepdim=True, desc="axis -2 keepdim")
    yield _s(make((), dtype, rng), desc="0-D")
    yield _s(make((), dtype, rng), axis=0, desc="0-D axis 0")
    yield _s(make((2, 0), dtype, rng), axis=0, desc="size-0 kept")
    yield _s(make((4, 3), dtype, rng, -1, 1), axis=0, dtype=np.dtype(np.int32), desc="int32, ties")


def _arg_errors(op):
    def errors(rng):
        x = make((3, 4), F, rng)
        yield ErrorInput(_s(x, dtype=np.dtype(np.float32)), ValueError,
                         f"{op}: dtype must be int32 or int64")
        yield ErrorInput(_s(x, axis=-3), ValueError, f"{op}: axis -3 is out of range")
        yield ErrorInput(_s(make((2, 0), F, rng), axis=1), ValueError, f"{op}: cannot search")
        yield ErrorInput(_s(make((0,), F, rng)), ValueError, f"{op}: cannot search")
    return errors


def _logical_ref(fn):
    def ref(x, axis=None, keepdim=False):
        return fn(x, axis=_ax(x, axis), keepdims=keepdim)
    return ref


# ---------------------------------------------------------------------------
# sort, argsort, topk
# ---------------------------------------------------------------------------

def _sort_ref(x, axis=-1, descending=False):
    if x.ndim == 0:
        return x.copy()
    out = np.sort(x, axis=axis)
    return np.flip(out, axis=axis) if descending else out


def _argsort_ref(x, axis=-1, descending=False):
    if x.ndim == 0:
        return np.zeros((), np.int64)
    return np.argsort(-x if descending else x, axis=axis, kind="stable").astype(np.int64)


def _sort_samples(dtype, rng):
    yield _s(make((3, 5), dtype, rng), desc="last axis")
    yield _s(make((3, 5), dtype, rng), axis=0, descending=True, desc="axis 0 descending")
    yield _s(make((2, 3, 4), dtype, rng), axis=-2, desc="axis -2")
    yield _s(make((), dtype, rng), desc="0-D")
    yield _s(make((6,), dtype, rng), descending=True, desc="1-D descending")
    yield _s(make((2, 0, 3), dtype, rng), axis=1, desc="size-0")
    yield _s(make((1, 4), dtype, rng), axis=0, desc="size-1 axis")
    yield _s(make((4, 6), dtype, rng, -1, 1), axis=1, descending=True, desc="ties", grad=False)


def _sort_nan_samples(dtype, rng):
    yield from _sort_samples(dtype, rng)
    if np.dtype(dtype).kind == "f":
        x = np.array([3.0, np.nan, 1.0, 2.0], dtype=dtype)
        yield _s(x, desc="NaN last", grad=False)
        yield _s(x, descending=True, desc="NaN first when descending", grad=False)


def _sort_errors(op):
    def errors(rng):
        yield ErrorInput(_s(make((3, 4), F, rng), axis=2), ValueError, f"{op}: axis 2 is out of range")
        yield ErrorInput(_s(make((), F, rng), axis=1), ValueError, f"{op}: axis 1 is out of range")
    return errors


def _topk_ref(x, k=1, axis=-1, largest=True):
    if x.ndim == 0:
        return x.copy(), np.zeros((), np.int64)
    order = np.argsort(-x if largest else x, axis=axis, kind="stable")
    idx = np.take(order, np.arange(k), axis=axis).astype(np.int64)
    return np.take_along_axis(x, idx, axis=axis), idx


def _topk_samples(dtype, rng):
    yield _s(make((3, 5), dtype, rng), k=2, desc="k=2 last axis")
    yield _s(make((4, 3), dtype, rng), k=1, axis=0, desc="k=1 axis 0")
    yield _s(make((2, 3, 4), dtype, rng), k=3, axis=-2, largest=False, desc="smallest, axis -2")
    yield _s(make((), dtype, rng), k=1, desc="0-D")
    yield _s(make((6,), dtype, rng), k=6, desc="k = size")
    yield _s(make((0, 3), dtype, rng), k=2, axis=1, desc="size-0 kept")
    yield _s(make((3, 8), dtype, rng, -1, 1), k=4, desc="ties: earlier first", grad=False)
    yield _s(make((3, 8), dtype, rng, -1, 1), k=4, largest=False, desc="ties, smallest", grad=False)


def _topk_errors(rng):
    x = make((3, 4), F, rng)
    yield ErrorInput(_s(x, k=5), ValueError, r"topk: k must be between 1 and the size.*got k=5")
    yield ErrorInput(_s(x, k=0), ValueError, "topk: k must be between 1")
    yield ErrorInput(_s(x, k=1, axis=2), ValueError, "topk: axis 2 is out of range")


def _mode_ref(x, axis=-1, keepdim=False):
    if x.ndim == 0:
        return x.copy(), np.zeros((), np.int64)

    def row_mode(row):  # the smallest of the most frequent values, its last position
        values, counts = np.unique(row, return_counts=True)
        value = values[np.argmax(counts)]
        return value, np.flatnonzero(row == value)[-1]
    rows = np.moveaxis(x, axis, -1)
    flat = rows.reshape(-1, rows.shape[-1])
    found = [row_mode(r) for r in flat]
    values = np.array([v for v, _ in found], x.dtype).reshape(rows.shape[:-1])
    indices = np.array([i for _, i in found], np.int64).reshape(rows.shape[:-1])
    if keepdim:
        values, indices = np.expand_dims(values, axis), np.expand_dims(indices, axis)
    return values, indices


def _mode_samples(dtype, rng):
    yield _s(make((3, 5), dtype, rng, -100, 100), desc="distinct, last axis")
    yield _s(make((4, 3), dtype, rng, -100, 100), axis=0, keepdim=True, desc="axis 0 keepdim")
    yield _s(make((2, 3, 4), dtype, rng, -100, 100), axis=-2, desc="axis -2")
    yield _s(make((), dtype, rng), desc="0-D")
    yield _s(make((1, 4), dtype, rng, -100, 100), axis=0, desc="size-1 axis")
    yield _s(make((0, 3), dtype, rng), axis=1, desc="size-0 kept")
    ties = np.floor(make((4, 9), np.float64, rng, -2, 2)).astype(dtype)
    yield _s(ties, desc="repeated values", grad=False)
    yield _s(ties, axis=0, keepdim=True, desc="repeated values, axis 0", grad=False)
    yield _s(np.array([1, 2, 2, 1, 3], dtype), desc="equal counts: the smaller", grad=False)


def _mode_errors(rng):
    yield ErrorInput(_s(make((3, 4), F, rng), axis=2), ValueError, "mode: axis 2 is out of range")
    yield ErrorInput(_s(make((3, 0), F, rng)), ValueError, "mode: axis -1 of x .* no elements")
    yield ErrorInput(_s(make((3,), np.bool_, rng)), TypeError, "mode: x has dtype bool")


# ---------------------------------------------------------------------------
# unique, nonzero, searchsorted
# ---------------------------------------------------------------------------

def _unique_ref(x, axis=None, dtype=I64):
    out, index, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                            return_counts=True, axis=axis)
    return out, index.astype(dtype), inverse.reshape(-1).astype(dtype), counts.astype(dtype)


def _unique_samples(dtype, rng):
    yield _s(make((3, 4), dtype, rng), desc="flattened")
    yield _s(make((), dtype, rng), desc="0-D")
    yield _s(make((0,), dtype, rng), desc="empty")
    yield _s(make((5,), dtype, rng), dtype=np.dtype(np.int32), desc="int32 indices")
    rows = make((2, 3), dtype, rng)
    yield _s(np.concatenate([rows, rows[:1], rows]), axis=0, desc="rows")
    yield _s(np.concatenate([rows, rows[:, :1]], axis=1), axis=-1, desc="columns, axis -1")


def _unique_errors(rng):
    yield ErrorInput(_s(make((3,), F, rng), dtype=np.dtype(np.float32)), TypeError,
                     "unique: dtype must be int32 or int64")
    yield ErrorInput(_s(make((2, 3), F, rng), axis=2), ValueError, "unique: axis 2 is out of range")


def _bincount_ref(x, minlength=0):
    size = max(int(x.max()) + 1 if x.size else 0, minlength)
    return np.array([np.count_nonzero(x == v) for v in range(size)], np.int64)


def _bincount_samples(dtype, rng):
    yield _s(make((20,), dtype, rng, 0, 6), desc="1-D")
    yield _s(make((7,), dtype, rng, 0, 3), minlength=10, desc="minlength beyond max")
    yield _s(make((9,), dtype, rng, 0, 8), minlength=2, desc="minlength below max")
    yield _s(np.zeros((0,), dtype), desc="empty")
    yield _s(np.zeros((0,), dtype), minlength=3, desc="empty, minlength")
    yield _s(np.array([4], dtype), desc="one element")


def _bincount_errors(rng):
    yield ErrorInput(_s(make((3,), F, rng)), TypeError, "bincount: x must be an int32 or int64")
    yield ErrorInput(_s(make((2, 3), np.int64, rng, 0, 3)), ValueError,
                     r"bincount: x must be 1-D, got shape \[2, 3\]")
    yield ErrorInput(_s(np.array([1, 2]), minlength=-1), ValueError,
                     "bincount: minlength must be >= 0")
    yield ErrorInput(_s(np.array([1, -2])), ValueError,
                     "bincount: the elements of x must be non-negative")


def _nonzero_ref(x):
    return np.argwhere(x).astype(np.int64)


def _nonzero_samples(dtype, rng):
    yield _s(make((3, 4), dtype, rng, -1, 1), desc="2-D")
    yield _s(make((7,), dtype, rng, -1, 1), desc="1-D")
    yield _s(make((2, 3, 2), dtype, rng, -1, 1), desc="3-D")
    yield _s(np.zeros((2, 2), dtype), desc="none nonzero")
    yield _s(make((2, 0), dtype, rng), desc="size-0")


def _nonzero_errors(rng):
    yield ErrorInput(_s(make((), F, rng)), ValueError, "nonzero: x must have at least 1 dimension")


def _searchsorted_ref(sorted_sequence, values, out_int32=False, right=False):
    dtype = np.int32 if out_int32 else np.int64
    side = "right" if right else "left"
    if sorted_sequence.ndim == 1:
        return np.searchsorted(sorted_sequence, values, side=side).astype(dtype)
    seq = sorted_sequence.reshape(-1, sorted_sequence.shape[-1])
    vals = values.reshape(seq.shape[0], -1)
    rows = [np.searchsorted(s, v, side=side) for s, v in zip(seq, vals)]
    return np.array(rows, dtype=dtype).reshape(values.shape)


def _searchsorted_samples(dtype, rng):
    seq = np.sort(make((6,), dtype, rng, -3, 3))
    yield _s(seq, make((2, 3), dtype, rng, -4, 4), desc="1-D sequence")
    yield _s(seq, np.concatenate([seq[:3], seq[2:4]]), right=True, desc="right, values in it")
    yield _s(seq, np.concatenate([seq[:3], seq[2:4]]), desc="left, values in it")
    yield _s(seq, make((), dtype, rng, -4, 4), out_int32=True, desc="0-D value, int32")
    yield _s(np.sort(make((2, 3, 5), dtype, rng, -3, 3), axis=-1), make((2, 3, 4), dtype, rng, -4, 4),
             desc="one sequence per row")
    yield _s(np.sort(make((2, 5), dtype, rng, -3, 3), axis=-1), make((2, 0), dtype, rng),
             right=True, desc="no values")
    yield _s(make((0,), dtype, rng), make((3,), dtype, rng), desc="empty sequence")


def _searchsorted_errors(rng):
    yield ErrorInput(_s(make((), F, rng), make((2,), F, rng)), ValueError,
                     "searchsorted: sorted_sequence must have at least 1 dimension")
    yield ErrorInput(_s(make((2, 3), F, rng), make((3, 1), F, rng)), ValueError,
                     r"searchsorted: sorted_sequence has shape \[2, 3\] and values \[3, 1\]")


# ---------------------------------------------------------------------------
# masked_select and its gradient
# ---------------------------------------------------------------------------

def _masked_select_ref(x, mask):
    x, mask = np.broadcast_arrays(x, mask)
    return x[mask]


MASK_SHAPES = [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((), (2, 3)), ((2, 3), ()),
               ((5,), (5,)), ((2, 0), (2, 0)), ((1,), (0,))]


def _masked_select_samples(dtype, rng):
    for sx, sm in MASK_SHAPES:
        yield _s(make(sx, dtype, rng), rng.random(sm) > 0.5, desc=f"{sx} with mask {sm}")


def _masked_select_errors(rng):
    yield ErrorInput(_s(make((3,), F, rng), np.array([1, 0, 1])), TypeError,
                     "masked_select: mask must be a bool tensor")
    yield ErrorInput(_s(make((3,), F, rng), np.array([True, False])), ValueError,
                     "masked_select: shapes")


def _masked_select_grad_ref(out_grad, mask, shape=()):
    out = np.zeros(shape, out_grad.dtype)
    out[np.broadcast_to(mask, shape)] = out_grad
    return out


def _masked_select_grad_samples(dtype, rng):
    for sx, sm in MASK_SHAPES:
        shape = np.broadcast_shapes(sx, sm)
        mask = rng.random(sm) > 0.5
        n = int(np.broadcast_to(mask, shape).sum())
        yield _s(make((n,), dtype, rng), mask, shape=shape, desc=f"{shape} with mask {sm}")


def _masked_select_grad_errors(rng):
    yield ErrorInput(_s(make((2,), F, rng), np.array([True, False, True]), shape=(2,)), ValueError,
                     r"masked_select_grad: mask of shape \[3\] does not broadcast to shape \[2\]")


OPS = [
    OpInfo("sum", _sum_ref, _sum_samples, dtypes=ALL_NUMERIC + BOOL, gradgrad=True,
           errors=_axis_errors("sum")),
    OpInfo("mean", _mean_ref, reduce_samples, dtypes=FLOATS, gradgrad=True,
           errors=_with(_axis_errors("mean"), _float_only("mean"))),
    OpInfo("prod", _prod_ref, _prod_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           tol={F: (1e-5, 1e-6)}, errors=_axis_errors("prod")),
    OpInfo("max", _extreme_ref(np.max), _extreme_samples, dtypes=ALL_NUMERIC + BOOL, gradgrad=True,
           errors=_extreme_errors("max")),
    OpInfo("min", _extreme_ref(np.min), _extreme_samples, dtypes=ALL_NUMERIC + BOOL, gradgrad=True,
           errors=_extreme_errors("min")),
    OpInfo("amax", _extreme_ref(np.max), _extreme_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_extreme_errors("amax")),
    OpInfo("amin", _extreme_ref(np.min), _extreme_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_extreme_errors("amin")),
    OpInfo("var", _var_ref, _var_samples, dtypes=FLOATS, gradgrad=True,
           errors=_with(_axis_errors("var"), _float_only("var"))),
    OpInfo("logsumexp", _logsumexp_ref, _logsumexp_samples, dtypes=FLOATS, gradgrad=True,
           errors=_with(_axis_errors("logsumexp"), _float_only("logsumexp"))),
    OpInfo("cumsum", _cumsum_ref, _scan_samples("axis"), dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_scan_errors("cumsum", IndexError)),
    OpInfo("cumprod", _cumprod_ref, _scan_samples("dim"), dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_scan_errors("cumprod", ValueError)),
    OpInfo("argmax", _arg_ref(np.argmax), _arg_samples, dtypes=ALL_NUMERIC + BOOL,
           errors=_arg_errors("argmax")),
    OpInfo("argmin", _arg_ref(np.argmin), _arg_samples, dtypes=ALL_NUMERIC + BOOL,
           errors=_arg_errors("argmin")),
    OpInfo("all", _logical_ref(np.all), reduce_samples, dtypes=ALL_NUMERIC + BOOL,
           errors=_axis_errors("all")),
    OpInfo("any", _logical_ref(np.any), reduce_samples, dtypes=ALL_NUMERIC + BOOL,
           errors=_axis_errors("any")),
    OpInfo("sort", _sort_ref, _sort_nan_samples, dtypes=ALL_NUMERIC + BOOL, gradgrad=True,
           errors=_sort_errors("sort")),
    OpInfo("argsort", _argsort_ref, _sort_samples, dtypes=ALL_NUMERIC,
           errors=_sort_errors("argsort")),
    OpInfo("topk", _topk_ref, _topk_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_topk_errors),
    OpInfo("mode", _mode_ref, _mode_samples, dtypes=ALL_NUMERIC, gradgrad=True,
           errors=_mode_errors),
    OpInfo("bincount", _bincount_ref, _bincount_samples, dtypes=INTS, errors=_bincount_errors),
    OpInfo("unique", _unique_ref, _unique_samples, dtypes=ALL_NUMERIC + BOOL, errors=_unique_errors),
    OpInfo("nonzero", _nonzero_ref, _nonzero_samples, dtypes=ALL_NUMERIC + BOOL,
           errors=_nonzero_errors),
    OpInfo("searchsorted", _searchsorted_ref, _searchsorted_samples, dtypes=ALL_NUMERIC,
           errors=_searchsorted_errors),
    OpInfo("masked_select", _masked_select_ref, _masked_select_samples, dtypes=ALL_NUMERIC + BOOL,
           gradgrad=True, errors=_masked_select_errors),
    OpInfo("masked_select_grad", _masked_select_grad_ref, _masked_select_grad_samples,
           dtypes=FLOATS + INTS, gradgrad=True, errors=_masked_select_grad_errors),
    OpInfo("cummax", _cum_extreme_ref(np.greater_equal), _cum_extreme_samples,
           dtypes=ALL_NUMERIC, gradgrad=True, errors=_cum_extreme_errors("cummax")),
    OpInfo("cummin", _cum_extreme_ref(np.less_equal), _cum_extreme_samples,
           dtypes=ALL_NUMERIC, gradgrad=True, errors=_cum_extreme_errors("cummin")),
    OpInfo("logcumsumexp", _logcumsumexp_ref, _logcumsumexp_samples, dtypes=FLOATS16,
           gradgrad=True, tol={np.float16: (2e-3, 2e-3)},
           errors=_logcumsumexp_errors),
]
