"""Creation kernels: constants, ranges, copies and random numbers.

Random kernels take the engine's ``np.random.Generator`` as ``rng``; a nonzero ``seed``
attribute replaces it with a generator of its own, seeded with it.
"""

import numpy as np

from .._core.optable import TABLE
from ._registry import kernel


@kernel
def full(shape=None, fill_value=0.0, dtype=None):
    """A new array of shape filled with fill_value"""
    return np.full(tuple(shape), fill_value, dtype=dtype)


@kernel
def full_like(x, fill_value=0.0, dtype=None):
    """A new array like x filled with fill_value"""
    return np.full(x.shape, fill_value, dtype=x.dtype if dtype is None else dtype)


@kernel
def assign(x):
    """A copy of x"""
    return x.copy()


@kernel
def assign_out(out, x):
    """x's values, which the caller writes into out's storage"""
    return x.copy()


@kernel
def arange(start=0, end=1, step=1, dtype=None):
    """start, start + step, ... below end, each value the previous plus step in dtype
    (Paddle's accumulation, so float rounding matches it)"""
    dtype = np.array([start, end, step]).dtype if dtype is None else np.dtype(dtype)
    start, end, step = (np.asarray(v).astype(dtype) for v in (start, end, step))
    if step == 0:
        raise ValueError("arange: step must not be 0")
    values = np.full(max(int(np.ceil((end - start) / step)), 0), step, dtype=dtype)
    values[:1] = start
    return np.cumsum(values, dtype=dtype)


@kernel
def linspace(start=0.0, stop=1.0, num=1, dtype=None):
    """num values from start to stop in dtype: the first half counted up from start, the
    rest down from stop (as Paddle, so both ends are exact); ints are computed in float64
    from start and stop cast to dtype, then truncated"""
    if num < 0:
        raise ValueError("linspace: num must be >= 0")
    dtype = np.dtype(np.float64 if dtype is None else dtype)
    calc = dtype if dtype.kind == "f" else np.dtype(np.float64)
    start, stop = (np.asarray(v).astype(dtype).astype(calc) for v in (start, stop))
    i = np.arange(num, dtype=calc)
    last = calc.type(max(num - 1, 1))
    step = (stop - start) / last
    up, down = start + step * i, stop - step * (last - i)
    return np.where(i < max(num // 2, 1), up, down).astype(dtype)


@kernel
def eye(num_rows=1, num_columns=None, dtype=None):
    """Ones on the main diagonal of a num_rows x num_columns matrix"""
    return np.eye(num_rows, num_columns, dtype=np.float64 if dtype is None else dtype)


@kernel
def uniform(shape=None, dtype=None, min=-1.0, max=1.0, seed=0, *, rng):
    """Values drawn uniformly from [min, max)"""
    rng = np.random.default_rng(seed) if seed else rng
    return rng.uniform(min, max, size=shape).astype(dtype or np.float32, casting="same_kind")


@kernel
def gaussian(shape=None, mean=0.0, std=1.0, seed=0, dtype=None, *, rng):
    """Values drawn from the normal distribution with mean and standard deviation std"""
    rng = np.random.default_rng(seed) if seed else rng
    return rng.normal(mean, std, size=shape).astype(dtype or np.float32, casting="same_kind")


@kernel
def randint(low=0, high=None, shape=None, dtype=None, *, rng):
    """Integers drawn uniformly from [low, high)"""
    return rng.integers(low, high, size=shape, dtype=dtype or np.int64)


@kernel
def randperm(n=1, dtype=None, *, rng):
    """A random permutation of 0 .. n-1"""
    if n < 0:
        raise ValueError("randperm: n must be >= 0")
    return rng.permutation(n).astype(dtype or np.int64)


def _check_range(op, what, x, low, high=None):
    """Raise ValueError unless every value of x lies in [low, high]."""
    if x.size and (x.min() < low or (high is not None and x.max() > high)):
        bounds = f"in [{low}, {high}]" if high is not None else f">= {low}"
        raise ValueError(f"{op}: every value of {what} must be {bounds}, got values in "
                         f"[{x.min()}, {x.max()}]")


@kernel
def bernoulli(x, *, rng):
    """1 where a uniform draw falls below the probability x, else 0"""
    TABLE["bernoulli"].infer_meta(x)
    _check_range("bernoulli", "x", x, 0, 1)
    return (rng.random(x.shape) < x).astype(x.dtype)


@kernel
def poisson(x, *, rng):
    """A Poisson draw with rate x per element"""
    TABLE["poisson"].infer_meta(x)
    _check_range("poisson", "x", x, 0)
    return np.asarray(rng.poisson(x)).astype(x.dtype)


@kernel
def standard_gamma(x, *, rng):
    """A Gamma(x, 1) draw per element"""
    TABLE["standard_gamma"].infer_meta(x)
    _check_range("standard_gamma", "x", x, 0)
    return np.asarray(rng.standard_gamma(x)).astype(x.dtype)


@kernel
def binomial(count, prob, *, rng):
    """The number of successes in count trials, each with probability prob"""
    TABLE["binomial"].infer_meta(count, prob)
    _check_range("binomial", "prob", prob, 0, 1)
    _check_range("binomial", "count", count, 0)
    count, prob = np.broadcast_arrays(count, prob)
    return np.asarray(rng.binomial(count.astype(np.int64), prob)).astype(np.int64)


@kernel
def multinomial(x, num_samples=1, replacement=False, *, rng):
    """Category indices per row of x: with replacement, uniform draws through the rows'
    cumulative distribution; without, the num_samples smallest exponential waiting times
    -log(u) / x (categories in the order drawn)"""
    TABLE["multinomial"].infer_meta(x, num_samples, replacement)
    _check_range("multinomial", "x", x, 0)
    p = x.reshape(-1, x.shape[-1]).astype(np.float64)
    total = p.sum(-1, keepdims=True)
    if (total <= 0).any():
        raise ValueError("multinomial: every row of x must have a positive sum")
    if replacement:
        cdf = np.cumsum(p / total, axis=-1)
        u = rng.random((p.shape[0], num_samples))
        idx = (u[:, :, None] >= cdf[:, None, :]).sum(-1)
        out = np.minimum(idx, p.shape[-1] - 1)
    else:
        if ((p > 0).sum(-1) < num_samples).any():
            raise ValueError(f"multinomial: without replacement every row of x needs at "
                             f"least num_samples ({num_samples}) nonzero probabilities")
        with np.errstate(divide="ignore"):
            wait = -np.log(1.0 - rng.random(p.shape)) / p
        out = np.argsort(wait, axis=-1, kind="stable")[:, :num_samples]
    return out.reshape(*x.shape[:-1], num_samples).astype(np.int64)
