"""The layer database: for every public layer of ``dygrad.nn`` (losses included), constructor
settings, sample inputs and the layer's output as a NumPy statement computed from the
layer's own parameters (the op database's counterpart for layers).

An entry is a :class:`LayerInfo` holding :class:`Case` objects. ``Case.ref(sd, *inputs)``
gets ``sd``, the layer's ``state_dict()`` as NumPy arrays, and the inputs; it never calls
dygrad. Layers whose output is random give ``check(out, inputs, layer)`` (statistics,
train/eval behaviour) instead of ``ref``; their gradient check reseeds before every forward.
The suite (``conformance/test_layerdb.py``) runs every case on every installed engine.

Entries live in one module per family; the NumPy math shared by several entries (conv,
pooling, normalisation, activations) is written once below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Callable

import numpy as np


@dataclass
class Case:
    """One constructor setting of a layer, its inputs and its meaning."""

    kwargs: dict                                # constructor arguments
    inputs: Callable                            # inputs(rng) -> tuple of arrays (float64)
    ref: Callable | None = None                 # ref(sd, *inputs) -> array or nested tuple
    desc: str = ""
    train: bool = True                          # layer.train() or layer.eval()
    call: dict = field(default_factory=dict)    # keyword arguments of the call
    pack: Callable | None = None                # pack(tensors) -> positional call arguments
    build: Callable | None = None               # build(nn) -> layer, for layers made of layers
    setup: Callable | None = None               # setup(layer, rng): e.g. running statistics
    check: Callable | None = None               # random layers: check(out, inputs, layer)
    state: Callable | None = None               # state(sd, *inputs) -> {name: value} of the
                                                # state_dict after the forward (running stats)
    tol: tuple = (1e-10, 1e-10)                 # (rtol, atol) of the forward check
    grad: bool = True                           # run the gradient check
    grad_inputs: tuple | None = None            # inputs to differentiate (default: float ones)
    grad_tol: tuple = (1e-5, 1e-6)
    joint_params: bool = False                  # check the parameters together along random
                                                # directions (stacks of layers checked alone)


@dataclass
class LayerInfo:
    name: str                                   # class name in dygrad.nn
    cases: list


def entry(name, *cases):
    return LayerInfo(name, list(cases))


def rand(*shape, low=-2.0, high=2.0):
    """inputs(rng) giving one float64 array per shape."""
    shapes = shape if shape and isinstance(shape[0], tuple) else (shape,)
    return lambda rng: tuple(rng.uniform(low, high, s) for s in shapes)


def unary(fn):
    """ref for a layer without parameters applying ``fn`` to its one input."""
    return lambda sd, x: fn(x)


def _tup(v, n):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


# ---------------------------------------------------------------------------
# activations
# ---------------------------------------------------------------------------

def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softplus(x):
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0)


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def log_softmax(x, axis=-1):
    s = x - x.max(axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis, keepdims=True))


# ---------------------------------------------------------------------------
# convolution and pooling (channels first; N spatial dimensions)
# ---------------------------------------------------------------------------

def conv(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """Cross-correlation of x [N, C, *S] with w [O, C/groups, *K], one kernel position at a
    time."""
    nd = x.ndim - 2
    s, p, d = _tup(stride, nd), _tup(padding, nd), _tup(dilation, nd)
    k = w.shape[2:]
    x = np.pad(x, [(0, 0), (0, 0)] + [(q, q) for q in p])
    size = [(x.shape[2 + i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(nd)]
    o, cg = w.shape[0], x.shape[1] // groups
    og = o // groups
    out = np.zeros((x.shape[0], o, *size))
    for pos in product(*map(range, k)):
        win = x[(slice(None), slice(None)) + tuple(
            slice(pos[i] * d[i], pos[i] * d[i] + s[i] * (size[i] - 1) + 1, s[i])
            for i in range(nd))]
        for g in range(groups):
            out[:, g * og:(g + 1) * og] += np.einsum(
                "nc...,oc->no...", win[:, g * cg:(g + 1) * cg],
                w[(slice(g * og, (g + 1) * og), slice(None)) + pos])
    if b is not None:
        out += b.reshape((1, -1) + (1,) * nd)
    return out


def conv_transpose(x, w, b=None, stride=1, padding=0, output_padding=0, dilation=1, groups=1):
    """Transposed convolution: every input position scatters x * w [C, O/groups, *K] into
    the output at i * stride + k * dilation - padding."""
    nd = x.ndim - 2
    s, p, d = _tup(stride, nd), _tup(padding, nd), _tup(dilation, nd)
    op = _tup(output_padding, nd)
    k = w.shape[2:]
    cg, og = x.shape[1] // groups, w.shape[1]
    full = [(x.shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 + op[i] for i in range(nd)]
    buf = np.zeros((x.shape[0], og * groups, *full))
    for pos in product(*map(range, k)):
        sl = (slice(None), slice(None)) + tuple(
            slice(pos[i] * d[i], pos[i] * d[i] + s[i] * (x.shape[2 + i] - 1) + 1, s[i])
            for i in range(nd))
        for g in range(groups):
            view = buf[:, g * og:(g + 1) * og]
            view[sl] += np.einsum("nc...,co->no...", x[:, g * cg:(g + 1) * cg],
                                  w[(slice(g * cg, (g + 1) * cg), slice(None)) + pos])
    out = buf[(slice(None), slice(None)) + tuple(
        slice(p[i], full[i] - p[i]) for i in range(nd))]
    if b is not None:
        out = out + b.reshape((1, -1) + (1,) * nd)
    return out


def pool(x, kernel, stride=None, padding=0, kind="max", exclusive=True, ceil_mode=False):
    """Max or average pooling of x [N, C, *S]; padded positions never win a max and, with
    ``exclusive``, are not counted in an average."""
    nd = x.ndim - 2
    k = _tup(kernel, nd)
    s, p = _tup(stride if stride is not None else kernel, nd), _tup(padding, nd)
    size = []
    for i in range(nd):
        span = x.shape[2 + i] + 2 * p[i] - k[i]
        n = -(-span // s[i]) + 1 if ceil_mode else span // s[i] + 1
        if ceil_mode and (n - 1) * s[i] >= x.shape[2 + i] + p[i]:
            n -= 1
        size.append(n)
    extra = [max(0, (size[i] - 1) * s[i] + k[i] - x.shape[2 + i] - 2 * p[i]) for i in range(nd)]
    widths = [(0, 0), (0, 0)] + [(p[i], p[i] + extra[i]) for i in range(nd)]
    fill = -np.inf if kind == "max" else 0.0
    xp = np.pad(x, widths, constant_values=fill)
    ones = np.pad(np.ones(x.shape[2:]), widths[2:])
    wins, counts = [], []
    for pos in product(*map(range, k)):
        sl = tuple(slice(pos[i], pos[i] + s[i] * (size[i] - 1) + 1, s[i]) for i in range(nd))
        wins.append(xp[(slice(None), slice(None)) + sl])
        counts.append(ones[sl])
    if kind == "max":
        return np.max(wins, axis=0)
    # Paddle counts padding only inside the padded input (not the ceil_mode overhang)
    inside = np.pad(np.ones(np.add(x.shape[2:], 2 * np.array(p))), [(0, e) for e in extra])
    full = [inside[tuple(slice(pos[i], pos[i] + s[i] * (size[i] - 1) + 1, s[i])
                         for i in range(nd))] for pos in product(*map(range, k))]
    n = np.sum(counts, axis=0) if exclusive else np.sum(full, axis=0)
    return np.sum(wins, axis=0) / n


def adaptive_pool(x, out_size, kind="avg"):
    """Adaptive pooling: output cell i covers [floor(i L / n), ceil((i + 1) L / n))."""
    nd = x.ndim - 2
    n = _tup(out_size, nd)
    n = [x.shape[2 + i] if n[i] is None else n[i] for i in range(nd)]
    out = np.zeros(x.shape[:2] + tuple(n))
    red = np.max if kind == "max" else np.mean
    for idx in product(*map(range, n)):
        sl = tuple(slice(idx[i] * x.shape[2 + i] // n[i],
                         -(-(idx[i] + 1) * x.shape[2 + i] // n[i])) for i in range(nd))
        out[(Ellipsis,) + idx] = red(x[(slice(None), slice(None)) + sl],
                                     axis=tuple(range(2, 2 + nd)))
    return out


def channels_last(fn):
    """fn for channels-first arrays, applied to a channels-last array."""
    def wrapped(x, *args, **kw):
        out = fn(np.moveaxis(x, -1, 1), *args, **kw)
        return np.moveaxis(out, 1, -1)
    return wrapped


# ---------------------------------------------------------------------------
# normalisation (channels first)
# ---------------------------------------------------------------------------

def normalize(x, axes, eps):
    """(x - mean) / sqrt(var + eps) over ``axes`` (biased variance)."""
    m = x.mean(axes, keepdims=True)
    return (x - m) / np.sqrt(x.var(axes, keepdims=True) + eps)


def affine(y, w, b):
    """y * w + b with w, b of shape [C] along axis 1."""
    shape = (1, -1) + (1,) * (y.ndim - 2)
    return y * w.reshape(shape) + b.reshape(shape)


def batch_norm(x, w, b, mean=None, var=None, eps=1e-5):
    """Batch statistics when mean/var are None, else the given (running) statistics."""
    if mean is None:
        y = normalize(x, (0,) + tuple(range(2, x.ndim)), eps)
    else:
        shape = (1, -1) + (1,) * (x.ndim - 2)
        y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
    return affine(y, w, b)


def group_norm(x, groups, w, b, eps=1e-5):
    g = x.reshape(x.shape[0], groups, -1)
    return affine(normalize(g, (2,), eps).reshape(x.shape), w, b)


def linear(x, w, b=None):
    """x @ w + b with Paddle's [in, out] weight."""
    return x @ w + (0 if b is None else b)


def layer_norm(x, w, b, ndim, eps=1e-5):
    return normalize(x, tuple(range(x.ndim - ndim, x.ndim)), eps) * w + b


# ---------------------------------------------------------------------------
# the database
# ---------------------------------------------------------------------------

def _collect() -> dict:
    from importlib import import_module
    db: dict[str, LayerInfo] = {}
    for family in ("layers", "conv", "loss", "rnn"):
        mod = import_module(f"{__name__}.{family}")
        for info in mod.LAYERS:
            if info.name in db:
                raise ValueError(f"layer database: {info.name!r} has two entries")
            db[info.name] = info
    return db


LAYERDB: dict = _collect()
