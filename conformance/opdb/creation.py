"""Op database entries: creation, copies and random ops.

Random ops (``random=True``) are checked for shape and dtype only; their refs draw from a
NumPy generator with the same distribution, which states what the op means. Their
statistics are tested in packages/reference/tests/test_creation.py.
"""

import numpy as np

from . import ALL_NUMERIC, BOOL, FLOATS16, INTS, UNARY_SHAPES, ErrorInput, OpInfo, Sample, make

_NP = np.random.default_rng(0)  # for the refs of random ops (only shape and dtype count)


def _full_samples(dtype, rng):
    yield Sample((), {"shape": (2, 3), "fill_value": 1.5 if np.dtype(dtype).kind == "f" else 3,
                      "dtype": np.dtype(dtype)})
    yield Sample((), {"shape": (), "fill_value": 0, "dtype": np.dtype(dtype)}, "0-D")
    yield Sample((), {"shape": (0, 2), "fill_value": 1, "dtype": np.dtype(dtype)}, "size 0")


def _full_errors(rng):
    yield ErrorInput(Sample((), {"shape": (2, -1), "fill_value": 0, "dtype": np.dtype("f4")}),
                     ValueError, "must be >= 0")


def _full_like_samples(dtype, rng):
    yield Sample((make((2, 3), dtype, rng),), {"fill_value": 1})
    yield Sample((make((), dtype, rng),), {"fill_value": 0, "dtype": np.dtype(np.float64)}, "dtype")


def _assign_samples(dtype, rng):
    for s in UNARY_SHAPES:
        yield Sample((make(s, dtype, rng),), desc=f"{s}")


def _assign_out_samples(dtype, rng):
    for s in [(), (0,), (1,), (3, 4), (2, 1, 3)]:
        yield Sample((make(s, dtype, rng), make(s, dtype, rng)), desc=f"{s}")


def _arange_samples(dtype, rng):
    d = np.dtype(dtype)
    if d.kind == "f":
        cases = [(0.0, 5.0, 1.0), (-1.5, 2.5, 0.5), (2.0, -1.0, -0.75), (1.0, 1.5, 1.0),
                 (3.0, 1.0, 1.0)]
    else:
        cases = [(0, 5, 1), (-3, 7, 2), (5, -5, -3), (0, 1, 1), (5, 1, 1)]
    for start, end, step in cases:
        yield Sample((), {"start": start, "end": end, "step": step, "dtype": d},
                     f"{start}..{end} by {step}")


def _arange_ref(start=0, end=1, step=1, dtype=None):
    n = max(int(np.ceil((end - start) / step)), 0)
    return (start + step * np.arange(n)).astype(dtype)


def _arange_errors(rng):
    yield ErrorInput(Sample((), {"start": 0, "end": 5, "step": 0, "dtype": np.dtype("i8")}),
                     ValueError, "step must not be 0")


def _linspace_samples(dtype, rng):
    d = np.dtype(dtype)
    for start, stop, num in [(0, 1, 5), (-3, 7, 11), (2, 2, 1), (0, 1, 0), (1, -1, 4),
                             (0, 10, 6), (-5, 5, 7)]:
        if d.kind == "f" or (start == int(start) and stop == int(stop)):
            yield Sample((), {"start": start, "stop": stop, "num": num, "dtype": d},
                         f"{start}..{stop} in {num}")


def _linspace_errors(rng):
    yield ErrorInput(Sample((), {"start": 0, "stop": 1, "num": -1, "dtype": np.dtype("f4")}),
                     ValueError, "num must be >= 0")


def _eye_samples(dtype, rng):
    d = np.dtype(dtype)
    for rows, cols in [(3, None), (2, 3), (4, 2), (3, 0), (0, None), (1, 1)]:
        yield Sample((), {"num_rows": rows, "num_columns": cols, "dtype": d}, f"{rows}x{cols}")


def _eye_errors(rng):
    yield ErrorInput(Sample((), {"num_rows": -1, "num_columns": None, "dtype": np.dtype("f4")}),
                     ValueError, "must be >= 0")


_RANDOM_SHAPES = [(2, 3), (), (0, 4), (1,), (5, 1, 2)]


def _uniform_samples(dtype, rng):
    for s in _RANDOM_SHAPES:
        yield Sample((), {"shape": s, "dtype": np.dtype(dtype), "min": -1.0, "max": 1.0,
                          "seed": 0}, f"{s}")
    yield Sample((), {"shape": (3,), "dtype": np.dtype(dtype), "min": 2.0, "max": 5.0,
                      "seed": 3}, "own seed")


def _random_float_errors(op):
    def errors(rng):
        yield ErrorInput(Sample((), {"shape": (2, -3), "dtype": np.dtype("f4")}), ValueError,
                         "must be >= 0")
        yield ErrorInput(Sample((), {"shape": (2,), "dtype": np.dtype("i4")}), TypeError,
                         f"{op}: dtype must be a floating-point dtype")
    return errors


def _gaussian_samples(dtype, rng):
    for s in _RANDOM_SHAPES:
        yield Sample((), {"shape": s, "mean": 0.0, "std": 1.0, "seed": 0,
                          "dtype": np.dtype(dtype)}, f"{s}")
    yield Sample((), {"shape": (3,), "mean": 2.0, "std": 0.5, "seed": 3,
                      "dtype": np.dtype(dtype)}, "own seed")


def _randint_samples(dtype, rng):
    for s in _RANDOM_SHAPES:
        yield Sample((), {"low": -3, "high": 4, "shape": s, "dtype": np.dtype(dtype)}, f"{s}")


def _randint_errors(rng):
    yield ErrorInput(Sample((), {"low": 3, "high": 3, "shape": (2,), "dtype": np.dtype("i8")}),
                     ValueError, "low must be less than high")
    yield ErrorInput(Sample((), {"low": 0, "high": 3, "shape": (2,), "dtype": np.dtype("f4")}),
                     TypeError, "int32 or int64")


def _randperm_samples(dtype, rng):
    for n in (5, 1, 0):
        yield Sample((), {"n": n, "dtype": np.dtype(dtype)}, f"n={n}")


def _randperm_errors(rng):
    yield ErrorInput(Sample((), {"n": -1, "dtype": np.dtype("i8")}), ValueError, "n must be >= 0")


def _probability_samples(dtype, rng):
    for s in UNARY_SHAPES:
        yield Sample((make(s, dtype, rng, 0.0, 1.0),), desc=f"{s}")


def _rate_samples(dtype, rng):
    for s in UNARY_SHAPES:
        yield Sample((make(s, dtype, rng, 0.5, 4.0),), desc=f"{s}")


def _float_input_errors(op, bad_value):
    def errors(rng):
        yield ErrorInput(Sample((np.array([1, 0]),)), TypeError,
                         f"{op}: x must be float32 or float64")
        yield ErrorInput(Sample((np.array([0.5, bad_value]),)), ValueError,
                         f"{op}: every value of x must be")
    return errors


def _multinomial_samples(dtype, rng):
    for shape, n, replace in (((4,), 3, False), ((4,), 7, True), ((1, 5), 5, False),
                              ((3, 6), 2, True), ((2, 1), 1, False), ((0, 3), 2, True)):
        yield Sample((make(shape, dtype, rng, 0.1, 1.0),),
                     {"num_samples": n, "replacement": replace}, f"{shape} n={n} {replace}")


def _multinomial_ref(x, num_samples, replacement):
    p = x.reshape(-1, x.shape[-1]).astype(np.float64)
    rows = [_NP.choice(p.shape[-1], num_samples, replacement, r / r.sum()) for r in p]
    return np.array(rows, dtype=np.int64).reshape(*x.shape[:-1], num_samples)


def _multinomial_errors(rng):
    p = np.array([0.2, 0.0, 0.8])
    yield ErrorInput(Sample((p, ), {"num_samples": 4, "replacement": False}), ValueError,
                     "must be <= the number of categories")
    yield ErrorInput(Sample((p, ), {"num_samples": 3, "replacement": False}), ValueError,
                     "nonzero probabilities")
    yield ErrorInput(Sample((p, ), {"num_samples": 0, "replacement": True}), ValueError,
                     "num_samples must be > 0")
    yield ErrorInput(Sample((np.ones((1, 1, 2)), ), {"num_samples": 1, "replacement": True}),
                     ValueError, "1-D or 2-D")
    yield ErrorInput(Sample((np.zeros(2), ), {"num_samples": 1, "replacement": True}),
                     ValueError, "positive sum")


def _binomial_samples(dtype, rng):
    for sc, sp in (((3, 4), (3, 4)), ((2, 1), (3,)), ((), (2, 2)), ((0,), (1,))):
        yield Sample((make(sc, np.int64, rng, 0, 20), make(sp, dtype, rng, 0.0, 1.0)),
                     desc=f"{sc}x{sp}")


def _binomial_errors(rng):
    yield ErrorInput(Sample((np.array([3, 4]), np.array([0.5, 1.5]))), ValueError,
                     "binomial: every value of prob must be in")
    yield ErrorInput(Sample((np.array([3, 4]), np.array([0.5, 0.5, 0.5]))), ValueError,
                     "do not broadcast")


OPS = [
    OpInfo("full", lambda shape, fill_value=0.0, dtype=None: np.full(shape, fill_value, dtype),
           _full_samples, dtypes=ALL_NUMERIC + BOOL, grad=False, errors=_full_errors),
    OpInfo("full_like", lambda x, fill_value=0.0, dtype=None: np.full(
        x.shape, fill_value, x.dtype if dtype is None else dtype),
        _full_like_samples, dtypes=ALL_NUMERIC + BOOL, grad=False),
    OpInfo("assign", lambda x: x.copy(), _assign_samples, dtypes=ALL_NUMERIC + BOOL,
           gradgrad=True),
    OpInfo("assign_out", lambda out, x: x.copy(), _assign_out_samples,
           dtypes=ALL_NUMERIC + BOOL, gradgrad=True),
    OpInfo("arange", _arange_ref, _arange_samples, dtypes=ALL_NUMERIC, grad=False,
           errors=_arange_errors),
    OpInfo("linspace", lambda start, stop, num, dtype: np.linspace(
        np.asarray(start).astype(dtype), np.asarray(stop).astype(dtype), num).astype(dtype),
        _linspace_samples, dtypes=ALL_NUMERIC, grad=False, errors=_linspace_errors),
    OpInfo("eye", lambda num_rows, num_columns, dtype: np.eye(num_rows, num_columns, dtype=dtype),
           _eye_samples, dtypes=ALL_NUMERIC, grad=False, errors=_eye_errors),
    OpInfo("uniform", lambda shape, dtype, min, max, seed: _NP.uniform(
        min, max, shape).astype(dtype), _uniform_samples, dtypes=FLOATS16, random=True,
        grad=False, errors=_random_float_errors("uniform")),
    OpInfo("gaussian", lambda shape, mean, std, seed, dtype: _NP.normal(
        mean, std, shape).astype(dtype), _gaussian_samples, dtypes=FLOATS16, random=True,
        grad=False, errors=_random_float_errors("gaussian")),
    OpInfo("randint", lambda low, high, shape, dtype: _NP.integers(
        low, high, shape).astype(dtype), _randint_samples, dtypes=INTS, random=True,
        grad=False, errors=_randint_errors),
    OpInfo("randperm", lambda n, dtype: _NP.permutation(n).astype(dtype), _randperm_samples,
           dtypes=ALL_NUMERIC, random=True, grad=False, errors=_randperm_errors),
    OpInfo("bernoulli", lambda x: (_NP.random(x.shape) < x).astype(x.dtype),
           _probability_samples, random=True, grad=False,
           errors=_float_input_errors("bernoulli", 1.5)),
    OpInfo("poisson", lambda x: np.asarray(_NP.poisson(x)).astype(x.dtype), _rate_samples, random=True,
           grad=False, errors=_float_input_errors("poisson", -1.0)),
    OpInfo("standard_gamma", lambda x: np.asarray(_NP.standard_gamma(x)).astype(
        x.dtype), _rate_samples,
           random=True, grad=False, errors=_float_input_errors("standard_gamma", -1.0)),
    OpInfo("multinomial", _multinomial_ref, _multinomial_samples, random=True, grad=False,
           errors=_multinomial_errors),
    OpInfo("binomial", lambda count, prob: _NP.binomial(count, prob).astype(np.int64),
           _binomial_samples, random=True, grad=False, errors=_binomial_errors),
]
