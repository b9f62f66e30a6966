"""Random tensors (paddle.tensor.random).

Every function draws from the current engine's generator, so ``dygrad.seed(n)`` makes
them reproducible; ``uniform``'s ``seed`` argument, when nonzero, uses a generator of its
own seeded with it instead (the same numbers on every call).
"""

from __future__ import annotations

import numpy as np

from .._core.dispatch import ops
from .._core.tensor import Tensor
from .creation import _write, convert_dtype, convert_shape, create

__all__ = ["rand", "randn", "uniform", "normal", "standard_normal", "randint", "randperm",
           "rand_like", "randn_like", "randint_like", "bernoulli", "multinomial", "poisson",
           "binomial", "standard_gamma"]
METHODS = ["uniform_", "normal_", "multinomial"]


def uniform(shape, dtype=None, min=-1.0, max=1.0, seed=0, name=None):
    """Values drawn uniformly from [min, max) (default float dtype unless given)."""
    return create("uniform", shape=convert_shape(shape, "uniform"), dtype=convert_dtype(dtype),
                  min=float(min), max=float(max), seed=int(seed))


def rand(shape, dtype=None, name=None):
    """Values drawn uniformly from [0, 1)."""
    return uniform(shape, dtype, min=0.0, max=1.0)


def standard_normal(shape, dtype=None, name=None):
    """Values drawn from the standard normal distribution N(0, 1)."""
    return create("gaussian", shape=convert_shape(shape, "standard_normal"), mean=0.0, std=1.0,
                  seed=0, dtype=convert_dtype(dtype))


def randn(shape, dtype=None, name=None):
    """Values drawn from the standard normal distribution N(0, 1)."""
    return standard_normal(shape, dtype)


def normal(mean=0.0, std=1.0, shape=None, name=None):
    """Values drawn from N(mean, std^2). With Tensor ``mean`` (or ``std``) the result has
    its shape and dtype, one draw per element, as ``standard_normal * std + mean`` so
    gradients reach the Tensor arguments; with numbers, ``shape`` is required."""
    if isinstance(mean, Tensor):
        noise = standard_normal(mean.shape, mean.dtype)
        if isinstance(std, Tensor):
            if std._data.dtype != mean._data.dtype:
                std = ops.cast(std, dtype=mean._data.dtype)
            std = ops.reshape(std, shape=tuple(mean._data.shape))
        else:
            std = float(std)
        return noise * std + mean
    if isinstance(std, Tensor):
        return standard_normal(std.shape, std.dtype) * std + float(mean)
    if shape is None:
        raise ValueError("normal: shape is required when mean and std are numbers")
    return create("gaussian", shape=convert_shape(shape, "normal"), mean=float(mean),
                  std=float(std), seed=0, dtype=convert_dtype(None))


def randint(low=0, high=None, shape=[1], dtype=None, name=None):  # noqa: B006 (Paddle's default)
    """Integers drawn uniformly from [low, high), or from [0, low) without ``high``
    (int64 unless given)."""
    for what, v in (("low", low), ("high", high)):
        if v is not None and (not isinstance(v, (int, np.integer)) or isinstance(v, bool)):
            raise TypeError(f"randint: {what} must be an int, got {type(v).__name__} {v!r}")
    if high is None:
        if low <= 0:
            raise ValueError(f"randint: without high, low must be > 0 (the range is "
                             f"[0, low)), got low={low}")
        low, high = 0, low
    return create("randint", low=int(low), high=int(high),
                  shape=convert_shape(shape, "randint"), dtype=convert_dtype(dtype, np.int64))


def randperm(n, dtype="int64", name=None):
    """A random permutation of the integers 0 .. n-1."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"randperm: n must be an int, got {type(n).__name__} {n!r}")
    return create("randperm", n=int(n), dtype=convert_dtype(dtype, np.int64))


def _requiring_grad(out, requires_grad):
    """``out`` with ``stop_gradient = not requires_grad``."""
    out.stop_gradient = not requires_grad
    return out


def rand_like(input, name=None, *, dtype=None, requires_grad=False):
    """Values drawn uniformly from [0, 1) with input's shape (and dtype unless given)."""
    d = input._data.dtype if dtype is None else convert_dtype(dtype)
    out = create("uniform", shape=tuple(input._data.shape), dtype=d, min=0.0, max=1.0, seed=0)
    return _requiring_grad(out, requires_grad)


def randn_like(x, dtype=None, name=None, *, requires_grad=False):
    """Values drawn from N(0, 1) with x's shape (and dtype unless given)."""
    d = x._data.dtype if dtype is None else convert_dtype(dtype)
    out = create("gaussian", shape=tuple(x._data.shape), mean=0.0, std=1.0, seed=0, dtype=d)
    return _requiring_grad(out, requires_grad)


def randint_like(x, low=0, high=None, dtype=None, name=None):
    """Integers drawn uniformly from [low, high) (from [0, low) without ``high``) with x's
    shape, in x's dtype unless given."""
    if high is None:
        low, high = 0, low
    if low >= high:
        raise ValueError(f"randint_like: low must be less than high, got low={low}, "
                         f"high={high}")
    d = x._data.dtype if dtype is None else convert_dtype(dtype)
    out = create("randint", low=int(low), high=int(high), shape=tuple(x._data.shape),
                 dtype=np.dtype(np.int64))
    return out if d == out._data.dtype else ops.cast(out, dtype=d)


def bernoulli(x, p=None, name=None):
    """1 with probability ``x`` (or ``p`` for every element, when given), else 0, in x's
    dtype."""
    if p is not None:
        x = ops.full_like(x, fill_value=float(p))
    return ops.bernoulli(x)


def multinomial(x, num_samples=1, replacement=False, name=None):
    """``num_samples`` category indices (int64) per row of the 1-D or 2-D ``x``, drawn with
    probabilities proportional to x, with or without replacement."""
    return ops.multinomial(x, num_samples=int(num_samples), replacement=bool(replacement))


def poisson(x, name=None):
    """A Poisson draw with rate ``x`` per element, in x's dtype."""
    return ops.poisson(x)


def binomial(count, prob, name=None):
    """The number of successes (int64) in ``count`` trials of probability ``prob``
    (broadcast together)."""
    return ops.binomial(count, prob)


def standard_gamma(x, name=None):
    """A Gamma(x, 1) draw per element, in x's dtype."""
    return ops.standard_gamma(x)


# ---------------------------------------------------------------------------
# in place: new random values written into x (a zero gradient for its old values)
# ---------------------------------------------------------------------------

def uniform_(x, min=-1.0, max=1.0, seed=0, name=None):
    """Fill ``x`` in place with values drawn uniformly from [min, max); returns ``x``."""
    return _write(x, create("uniform", shape=tuple(x._data.shape), dtype=x._data.dtype,
                            min=float(min), max=float(max), seed=int(seed)), "uniform_")


def normal_(x, mean=0.0, std=1.0, name=None):
    """Fill ``x`` in place with values drawn from N(mean, std^2); returns ``x``."""
    return _write(x, create("gaussian", shape=tuple(x._data.shape), mean=float(mean),
                            std=float(std), seed=0, dtype=x._data.dtype), "normal_")
