"""Ops that create tensors: constants, ranges, copies and random numbers.

Most rows here have no tensor inputs: their shape, dtype and values come from attributes
(the public functions turn lists, Tensors and dtype spellings into plain tuples, numbers
and ``np.dtype``). Random rows (``random=True``) draw from the engine's generator, which
the dispatcher passes to the kernel as ``rng``; ``seed != 0`` asks for a generator of
its own seeded with it, so such a call gives the same numbers every time.
"""

from __future__ import annotations

import math

import numpy as np

from ..dispatch import ops
from ..optable import Meta, OpDef, register, same_meta


def _check_shape(op, shape):
    shape = tuple(shape)
    for i, d in enumerate(shape):
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool):
            raise TypeError(f"{op}: shape must hold ints, got {type(d).__name__} {d!r} at "
                            f"position {i} of {list(shape)}")
        if d < 0:
            raise ValueError(f"{op}: every dimension of shape must be >= 0, got {d} at "
                             f"position {i} of {list(shape)}")
    return tuple(int(d) for d in shape)


def _check_float_dtype(op, dtype):
    if np.dtype(dtype).kind != "f":
        raise TypeError(f"{op}: dtype must be a floating-point dtype (float16, float32, "
                        f"float64), got {np.dtype(dtype).name}")


def _full_meta(shape=None, fill_value=0.0, dtype=None):
    d = np.asarray(fill_value).dtype if dtype is None else np.dtype(dtype)
    return Meta(_check_shape("full", shape), d)


register(OpDef("full", (), _full_meta, "A tensor of shape filled with fill_value.",
               attrs={"shape": None, "fill_value": 0.0, "dtype": None}))


def _full_like_meta(x, fill_value=0.0, dtype=None):
    return Meta(x.shape, x.dtype if dtype is None else np.dtype(dtype))


register(OpDef("full_like", ("x",), _full_like_meta,
               "A tensor like x (its shape; its dtype unless given) filled with fill_value.",
               attrs={"fill_value": 0.0, "dtype": None}))


# ---------------------------------------------------------------------------
# copies
# ---------------------------------------------------------------------------

def _assign_grad(ctx, g):
    """d(copy of x) = dx"""
    return (g,)


register(OpDef("assign", ("x",), same_meta, "A copy of x (differentiable).",
               grad=_assign_grad))


def _assign_out_meta(out, x):
    if tuple(out.shape) != tuple(x.shape):
        raise ValueError(f"assign: output has shape {list(out.shape)} but x has shape "
                         f"{list(x.shape)}; the output of paddle.assign must have x's shape")
    if out.dtype != x.dtype:
        raise TypeError(f"assign: output has dtype {out.dtype.name} but x has dtype "
                        f"{x.dtype.name}; cast x first")
    return Meta(out.shape, out.dtype)


def _assign_out_grad(ctx, g):
    """out's old values are overwritten by x: they get a zero gradient, x gets g."""
    return (ops.full_like(g, fill_value=0) if ctx.needs("out") else None,
            g if ctx.needs("x") else None)


register(OpDef("assign_out", ("out", "x"), _assign_out_meta,
               "x's values, to be written into out's storage (paddle.assign(x, output), "
               "Tensor.fill_, zero_, uniform_, normal_).",
               grad=_assign_out_grad))


# ---------------------------------------------------------------------------
# ranges
# ---------------------------------------------------------------------------

def _arange_meta(start=0, end=1, step=1, dtype=None):
    d = np.array([start, end, step]).dtype if dtype is None else np.dtype(dtype)
    start, end, step = (np.asarray(v).astype(d) for v in (start, end, step))
    if step == 0:
        raise ValueError(f"arange: step must not be 0 (it is 0 once converted to {d.name})")
    return Meta((max(int(math.ceil((end - start) / step)), 0),), d)


register(OpDef("arange", (), _arange_meta,
               "start, start + step, ... below end (above it for a negative step).",
               attrs={"start": 0, "end": 1, "step": 1, "dtype": None}))


def _linspace_meta(start=0.0, stop=1.0, num=1, dtype=None):
    if num < 0:
        raise ValueError(f"linspace: num must be >= 0, got {num}")
    d = np.dtype(np.float64) if dtype is None else np.dtype(dtype)
    if d.kind not in "iuf":
        raise TypeError(f"linspace: dtype must be an int or float dtype, got {d.name}")
    return Meta((num,), d)


register(OpDef("linspace", (), _linspace_meta, "num evenly spaced values from start to stop.",
               attrs={"start": 0.0, "stop": 1.0, "num": 1, "dtype": None}))


def _eye_meta(num_rows=1, num_columns=None, dtype=None):
    cols = num_rows if num_columns is None else num_columns
    shape = _check_shape("eye", (num_rows, cols))
    d = np.dtype(np.float64) if dtype is None else np.dtype(dtype)
    if d.kind == "b":
        raise TypeError("eye: dtype bool is not supported (use an int or float dtype)")
    return Meta(shape, d)


register(OpDef("eye", (), _eye_meta, "A num_rows x num_columns matrix with ones on the "
               "diagonal.", attrs={"num_rows": 1, "num_columns": None, "dtype": None}))


# ---------------------------------------------------------------------------
# random numbers (not differentiable: the values do not depend on any input)
# ---------------------------------------------------------------------------

def _uniform_meta(shape=None, dtype=None, min=-1.0, max=1.0, seed=0):
    d = np.dtype(np.float32) if dtype is None else np.dtype(dtype)
    _check_float_dtype("uniform", d)
    return Meta(_check_shape("uniform", shape), d)


register(OpDef("uniform", (), _uniform_meta,
               "Random values uniformly distributed in [min, max).",
               attrs={"shape": None, "dtype": None, "min": -1.0, "max": 1.0, "seed": 0},
               random=True))


def _gaussian_meta(shape=None, mean=0.0, std=1.0, seed=0, dtype=None):
    d = np.dtype(np.float32) if dtype is None else np.dtype(dtype)
    _check_float_dtype("gaussian", d)
    return Meta(_check_shape("gaussian", shape), d)


register(OpDef("gaussian", (), _gaussian_meta,
               "Random values from the normal distribution N(mean, std^2).",
               attrs={"shape": None, "mean": 0.0, "std": 1.0, "seed": 0, "dtype": None},
               random=True))


def _randint_meta(low=0, high=None, shape=None, dtype=None):
    if high is None or low >= high:
        raise ValueError(f"randint: low must be less than high, got low={low}, high={high}")
    d = np.dtype(np.int64) if dtype is None else np.dtype(dtype)
    if d not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"randint: dtype must be int32 or int64, got {d.name}")
    return Meta(_check_shape("randint", shape), d)


register(OpDef("randint", (), _randint_meta,
               "Random integers uniformly distributed in [low, high).",
               attrs={"low": 0, "high": None, "shape": None, "dtype": None}, random=True))


def _randperm_meta(n=1, dtype=None):
    if n < 0:
        raise ValueError(f"randperm: n must be >= 0, got {n}")
    d = np.dtype(np.int64) if dtype is None else np.dtype(dtype)
    if d.kind not in "iuf":
        raise TypeError(f"randperm: dtype must be an int or float dtype, got {d.name}")
    return Meta((n,), d)


register(OpDef("randperm", (), _randperm_meta, "A random permutation of 0, 1, ..., n - 1.",
               attrs={"n": 1, "dtype": None}, random=True))


# random draws whose distribution parameters are tensors (one draw per element)

def _float_input_meta(op):
    def meta(x, **attrs):
        if x.dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise TypeError(f"{op}: x must be float32 or float64, got {x.dtype.name}")
        return Meta(x.shape, x.dtype)
    return meta


register(OpDef("bernoulli", ("x",), _float_input_meta("bernoulli"),
               "1 with probability x, else 0, drawn per element (x's dtype).", random=True))
register(OpDef("poisson", ("x",), _float_input_meta("poisson"),
               "A Poisson draw with rate x per element (x's dtype).", random=True))
register(OpDef("standard_gamma", ("x",), _float_input_meta("standard_gamma"),
               "A Gamma(x, 1) draw per element (x's dtype).", random=True))


def _multinomial_meta(x, num_samples=1, replacement=False):
    if x.dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"multinomial: x must be float32 or float64, got {x.dtype.name}")
    if len(x.shape) not in (1, 2):
        raise ValueError(f"multinomial: x must be 1-D or 2-D (probabilities over its last "
                         f"axis), got shape {list(x.shape)}")
    if num_samples <= 0:
        raise ValueError(f"multinomial: num_samples must be > 0, got {num_samples}")
    if not replacement and num_samples > x.shape[-1]:
        raise ValueError(f"multinomial: without replacement num_samples ({num_samples}) must "
                         f"be <= the number of categories ({x.shape[-1]})")
    return Meta((*x.shape[:-1], num_samples), np.dtype(np.int64))


register(OpDef("multinomial", ("x",), _multinomial_meta,
               "num_samples category indices per row of x, drawn with probabilities "
               "proportional to x (int64).",
               attrs={"num_samples": 1, "replacement": False}, random=True))


def _binomial_meta(count, prob):
    if count.dtype.kind not in "iuf" or prob.dtype.kind != "f":
        raise TypeError(f"binomial: count must be a number dtype and prob a float dtype, got "
                        f"{count.dtype.name} and {prob.dtype.name}")
    try:
        shape = np.broadcast_shapes(tuple(count.shape), tuple(prob.shape))
    except ValueError:
        raise ValueError(f"binomial: count's shape {list(count.shape)} and prob's shape "
                         f"{list(prob.shape)} do not broadcast") from None
    return Meta(shape, np.dtype(np.int64))


register(OpDef("binomial", ("count", "prob"), _binomial_meta,
               "The number of successes in count trials of probability prob (int64).",
               random=True))
