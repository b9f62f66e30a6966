"""The op database: for every op of the table, sample inputs, its meaning as a NumPy
statement, tolerances and error inputs (in the spirit of PyTorch's OpInfo).

An entry is an :class:`OpInfo`. ``samples(dtype, rng)`` yields :class:`Sample` objects whose
inputs are NumPy arrays (a list of arrays for a variadic first input); ``ref(*inputs,
**attrs)`` states the op's meaning in NumPy. The suite (``conformance/test_opdb.py``) runs
every sample on every installed engine: the reference against ``ref``, other engines
against the reference; then float64 gradient checks by central differences (and second
derivatives where ``gradgrad``), the op's ``infer_meta`` against what the kernel returned,
the kernel's signature against the row's attributes, and each error input.

Entries live in one module per family, mirroring ``dygrad._core.ops``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

FLOATS = (np.float32, np.float64)
FLOATS16 = (np.float16, np.float32, np.float64)
INTS = (np.int32, np.int64)
ALL_NUMERIC = (np.float32, np.float64, np.int32, np.int64)
BOOL = (np.bool_,)

DEFAULT_TOL = {
    np.dtype(np.float16): (1e-2, 1e-2),
    np.dtype(np.float32): (1e-5, 1e-5),
    np.dtype(np.float64): (1e-10, 1e-10),
}


@dataclass
class Sample:
    """One call of an op: positional tensor inputs (NumPy arrays) and attributes."""

    inputs: tuple
    attrs: dict = field(default_factory=dict)
    desc: str = ""
    grad: bool = True          # include in the gradient checks
    noncontig: bool = True     # also run with non-contiguous views of the inputs

    def __repr__(self):
        shapes = [[list(a.shape) for a in i] if isinstance(i, list) else list(np.shape(i))
                  for i in self.inputs]
        return f"Sample({self.desc or ''} shapes={shapes} attrs={self.attrs})"


@dataclass
class ErrorInput:
    """Inputs the op must reject with ``exc`` (message matching ``match``)."""

    sample: Sample
    exc: type
    match: str = ""


@dataclass
class OpInfo:
    name: str                                   # the op table's name
    ref: Callable                               # NumPy statement of the meaning
    samples: Callable[..., Iterable[Sample]]    # samples(dtype, rng)
    dtypes: tuple = FLOATS                      # dtypes the samples are made in
    grad: bool = True                           # check gradients (differentiable ops)
    gradgrad: bool = False                      # check second derivatives too
    tol: dict = field(default_factory=dict)     # dtype -> (rtol, atol), over DEFAULT_TOL
    grad_tol: tuple = (1e-5, 1e-6)              # (rtol, atol) for float64 gradient checks
    errors: Callable | None = None              # errors(rng) -> iterable of ErrorInput
    compare: Callable | None = None             # compare(actual, expected, rtol, atol) for
                                                # outputs defined up to sign/order (svd, ...)
    random: bool = False                        # outputs are random: check shape/dtype/stats
    grad_inputs: tuple | None = None            # indices of inputs to differentiate (default:
                                                # every float input)
    grad_outputs: tuple | None = None           # indices of outputs to differentiate
    inplace: bool = False                       # the kernel writes into its inputs: every
                                                # run gets its own copies of them

    def tolerance(self, dtype):
        dtype = np.dtype(dtype)
        return self.tol.get(dtype, self.tol.get(dtype.type, DEFAULT_TOL.get(dtype, (0, 0))))


# ---------------------------------------------------------------------------
# helpers for writing samples
# ---------------------------------------------------------------------------

def make(shape, dtype, rng, low=-2.0, high=2.0):
    """An array of ``shape``/``dtype`` with values in [low, high) (ints: integers in it,
    bools: random)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    if dtype.kind in "iu":
        return rng.integers(int(low), int(high) + 1, size=shape).astype(dtype)
    return rng.uniform(low, high, size=shape).astype(dtype)


def make_positive(shape, dtype, rng, low=0.5, high=2.0):
    return make(shape, dtype, rng, low, high)


UNARY_SHAPES = [(), (0,), (1,), (5,), (3, 4), (2, 1, 3), (2, 0, 3)]

BINARY_SHAPES = [  # broadcasting pairs, 0-D, size-0 and size-1 dimensions
    ((3, 4), (3, 4)),
    ((3, 4), (4,)),
    ((4,), (3, 4)),
    ((2, 1, 3), (4, 1)),
    ((), (2, 3)),
    ((2, 3), ()),
    ((), ()),
    ((1,), (0,)),
    ((2, 0, 3), (1, 3)),
    ((5, 1), (1, 5)),
]


def unary_samples(low=-2.0, high=2.0, shapes=UNARY_SHAPES, **attrs):
    """A samples() function for elementwise unary ops over the standard shapes."""
    def gen(dtype, rng):
        for s in shapes:
            yield Sample((make(s, dtype, rng, low, high),), dict(attrs), desc=f"{s}")
    return gen


def binary_samples(low=-2.0, high=2.0, shapes=BINARY_SHAPES, low_y=None, high_y=None):
    """A samples() function for elementwise binary ops over broadcasting pairs."""
    def gen(dtype, rng):
        for sx, sy in shapes:
            yield Sample((make(sx, dtype, rng, low, high),
                          make(sy, dtype, rng, low if low_y is None else low_y,
                               high if high_y is None else high_y)), desc=f"{sx}x{sy}")
    return gen


def noncontiguous(a: np.ndarray) -> np.ndarray:
    """A non-contiguous view holding the same values as ``a`` (transposed storage for
    matrices, a strided slice for vectors)."""
    if a.ndim >= 2:
        return np.asfortranarray(a) if a.size > 1 else a
    if a.ndim == 1:
        buf = np.empty((a.shape[0] * 2,), dtype=a.dtype)
        buf[::2] = a
        return buf[::2]
    return a


# ---------------------------------------------------------------------------
# the database
# ---------------------------------------------------------------------------

def _collect() -> dict:
    from . import conv, creation, elementwise, linalg, loss, manipulation, nn, norm, optimizer, reduction
    db: dict[str, OpInfo] = {}
    for mod in (creation, elementwise, linalg, manipulation, nn, reduction, conv, norm, loss,
                optimizer):
        for info in mod.OPS:
            if info.name in db:
                raise ValueError(f"op database: {info.name!r} has two entries")
            db[info.name] = info
    return db


OPDB: dict = _collect()
