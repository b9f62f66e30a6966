"""The array namespace the GPU kernels are written against: ``Compat(cupy)`` on the GPU.

The GPU kernels are the reference kernels with their module global ``np`` bound to a
``Compat`` (see ``gpu_kernels``). A ``Compat`` holds only the part of NumPy's API that
CuPy implements (``CUPY_API``, and of the ufunc methods only ``add.at`` and friends), plus
fill-ins (``FILL_INS``) for the few things the reference kernels use that CuPy lacks,
written on that same API: ``multiply.at``, ``multiply.outer``, ``logaddexp.reduce``,
``max``/``min`` with ``initial``, ``divide`` with ``where``, ``indices(sparse=True)``,
``pad`` with an array of widths, ``prod`` of a shape tuple (computed on the host),
``errstate`` (CuPy has no floating-point error flags), a random generator with ``normal``
and ``permutation``, and LAPACK errors raised on the GPU too.

``Compat(numpy)`` is the same namespace on NumPy (or on any module of NumPy's functions),
restricted the same way: the CPU tests run every GPU kernel with it, so a NumPy-only call
in a kernel, or a wrong fill-in, fails there, without a GPU.
"""

from __future__ import annotations

import contextlib
from types import SimpleNamespace

import numpy

# The NumPy names CuPy implements that the kernels use (a test checks each against CuPy).
CUPY_API = frozenset("""
    abs add all allclose any arange arccos arcsin arctan arctan2 argmax argmin argsort argwhere array
    asarray bincount bitwise_and bitwise_or bitwise_xor bool_ broadcast_arrays
    broadcast_shapes broadcast_to ceil clip complex64 complex128 concatenate copysign cos cosh
    cross cumprod cumsum divide dtype einsum empty equal exp expm1 eye finfo flip float16
    float32 float64 floor floor_divide full full_like gcd greater greater_equal indices inf int16
    int32 int64 int8 integer invert isclose isfinite isinf isnan ix_ kron lcm less less_equal log
    log10 log1p log2 logaddexp logical_and logical_not logical_or logical_xor matmul max
    maximum min minimum moveaxis multiply nan ndindex negative not_equal ones ones_like pad pi
    power result_type reciprocal remainder repeat reshape roll round searchsorted sign sin
    signbit sinh sqrt square squeeze stack subtract sum swapaxes take take_along_axis tan tanh tile
    transpose tril triu true_divide trunc uint8 unique where zeros zeros_like
    arccosh arcsinh arctanh fmax fmin nextafter
""".split())

# ufunc methods CuPy implements (``at`` only for ufuncs with an atomic scatter)
UFUNC_AT = frozenset({"add", "subtract", "maximum", "minimum"})

LINALG = ("cholesky", "det", "eigh", "eigvals", "inv", "qr", "slogdet", "solve", "svd")

# names whose Compat version is a fill-in (the rest are CuPy's own functions)
FILL_INS = ("multiply.at", "multiply.outer", "logaddexp.reduce", "maximum.accumulate",
            "minimum.accumulate", "logaddexp.accumulate", "max", "min", "divide",
            "indices", "pad", "prod", "errstate", "random.default_rng", "sliding_window_view",
            *(f"linalg.{name}" for name in LINALG))

# CuPy's Generator methods the kernels use directly
GENERATOR_API = ("random", "uniform", "integers", "standard_normal", "poisson", "binomial",
                 "standard_gamma")


class _Ufunc:
    """A ufunc with only the methods CuPy has for it, or a fill-in written on ``Compat``."""

    __slots__ = ("_fn", "accumulate", "at", "outer", "reduce", "__name__")

    def __init__(self, fn, **methods):
        self._fn = fn
        self.__name__ = fn.__name__
        for name, m in methods.items():
            setattr(self, name, m)

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)


class _Generator:
    """A random generator with CuPy's Generator's methods (``GENERATOR_API``), plus
    ``normal`` and ``permutation``, which CuPy's Generator lacks."""

    def __init__(self, gen, xp):
        self._gen, self._xp = gen, xp
        for name in GENERATOR_API:
            setattr(self, name, getattr(gen, name))

    def normal(self, loc=0.0, scale=1.0, size=None):
        """loc + scale * a standard normal draw (as NumPy's Generator.normal computes it)."""
        return loc + scale * self._gen.standard_normal(size)

    def permutation(self, n):
        """A random permutation of 0 .. n-1: the order of n uniform draws."""
        return self._xp.argsort(self._gen.random(n))


class Compat:
    """CuPy's NumPy API the kernels may use, on ``base`` (``cupy`` or ``numpy``)."""

    def __init__(self, base):
        self.base = base
        on_cupy = base.__name__ == "cupy"
        for name in CUPY_API:
            if hasattr(Compat, name):  # a fill-in method
                continue
            value = getattr(base, name)
            if isinstance(value, numpy.ufunc):  # NumPy's ufuncs: only CuPy's methods
                value = _Ufunc(value, **({"at": value.at} if name in UFUNC_AT else {}))
            setattr(self, name, value)
        self.multiply = _Ufunc(base.multiply, at=self._multiply_at, outer=self._multiply_outer)
        self.logaddexp = _Ufunc(base.logaddexp, reduce=self._logaddexp_reduce)
        for ufunc in (self.maximum, self.minimum, self.logaddexp):
            ufunc.accumulate = self._accumulator(ufunc)
        self.divide = _Ufunc(self._divide)
        self.sliding_window_view = base.lib.stride_tricks.sliding_window_view
        self.errstate = _no_errstate if on_cupy else numpy.errstate
        self.random = SimpleNamespace(default_rng=self.default_rng)
        guard = _linalg_raises if on_cupy else contextlib.nullcontext
        self.linalg = SimpleNamespace(LinAlgError=numpy.linalg.LinAlgError, **{
            name: _guarded(getattr(base.linalg, name), guard) for name in LINALG})

    def default_rng(self, seed=None):
        """A ``_Generator`` on ``base``'s generator seeded with ``seed``."""
        return _Generator(self.base.random.default_rng(seed), self)

    def prod(self, a, *args, **kwargs):
        """``base.prod``; a shape (a tuple or list of ints) is multiplied on the host."""
        if isinstance(a, (tuple, list)):
            return numpy.prod(a, *args, **kwargs)
        return self.base.prod(a, *args, **kwargs)

    def max(self, a, axis=None, keepdims=False, initial=None):
        """``base.max``; with ``initial``, the maximum of it and the elements (so an empty
        axis gives ``initial``)."""
        return self._extreme(self.base.max, self.base.maximum, numpy.max, a, axis, keepdims,
                             initial)

    def min(self, a, axis=None, keepdims=False, initial=None):
        """``base.min``; with ``initial`` as :meth:`max`."""
        return self._extreme(self.base.min, self.base.minimum, numpy.min, a, axis, keepdims,
                             initial)

    def _extreme(self, reduce, pair, host, a, axis, keepdims, initial):
        if initial is None:
            return reduce(a, axis=axis, keepdims=keepdims)
        if a.size == 0:  # nothing to reduce: ``initial`` in the result's shape (from the host)
            empty = numpy.empty(a.shape, a.dtype)
            return self.asarray(host(empty, axis=axis, keepdims=keepdims, initial=initial))
        return pair(reduce(a, axis=axis, keepdims=keepdims), initial)

    def _divide(self, a, b, out=None, where=True):
        """a / b; with ``where``, only where it holds, ``out``'s values elsewhere."""
        if where is True:
            return self.base.divide(a, b, out=out)
        with self.errstate(divide="ignore", invalid="ignore"):  # at the positions left out
            q = self.where(where, self.base.divide(a, b), out)
        if out is None:
            return q
        out[...] = q
        return out

    def indices(self, dimensions, dtype=int, sparse=False):
        """``base.indices``; ``sparse=True`` gives one broadcastable arange per axis."""
        if not sparse:
            return self.base.indices(dimensions, dtype=dtype)
        k = len(dimensions)
        return tuple(self.arange(n, dtype=dtype).reshape((1,) * i + (n,) + (1,) * (k - i - 1))
                     for i, n in enumerate(dimensions))

    def pad(self, array, pad_width, mode="constant", **kwargs):
        """``base.pad``; ``pad_width`` may be an array (taken to the host as a list)."""
        if isinstance(pad_width, self.base.ndarray):
            pad_width = pad_width.tolist()
        return self.base.pad(array, pad_width, mode=mode, **kwargs)

    def _multiply_at(self, a, indices, b):
        """``a[indices] *= b`` with every repeated index applied once per occurrence (NumPy's
        ``multiply.at``): the occurrences of a position are taken in rounds, in their order."""
        flat = self.arange(a.size).reshape(a.shape)[indices]
        vals = self.broadcast_to(self.asarray(b, dtype=a.dtype), flat.shape).reshape(-1)
        flat = flat.reshape(-1)
        order = self.argsort(flat, kind="stable")
        flat, vals = flat[order], vals[order]
        rank = self.arange(flat.size) - self.searchsorted(flat, flat, side="left")
        out = a.reshape(-1).copy()
        for r in range(int(rank.max()) + 1 if rank.size else 0):
            pick = rank == r
            out[flat[pick]] *= vals[pick]
        a[...] = out.reshape(a.shape)

    def _multiply_outer(self, a, b):
        """a[..., None, ...] * b: every product of an element of a with one of b."""
        a, b = self.asarray(a), self.asarray(b)
        return self.multiply(a.reshape(a.shape + (1,) * b.ndim), b)

    def _accumulator(self, pair):
        """``pair.accumulate``: out_k = pair(out_{k-1}, a_k) along axis, one step (over
        every other axis at once) per position."""
        def accumulate(a, axis=0, dtype=None):
            out = self.moveaxis(self.asarray(a, dtype=dtype).copy(), axis, 0)
            for k in range(1, out.shape[0]):
                out[k] = pair(out[k - 1], out[k])
            return self.moveaxis(out, 0, axis)
        return accumulate

    def _logaddexp_reduce(self, a, axis=0):
        """log(sum(exp(a))) along axis, shifted by the maximum so nothing overflows."""
        m = self.max(a, axis=axis, keepdims=True)
        m = self.where(self.isfinite(m), m, 0)
        with self.errstate(divide="ignore"):  # log(0) = -inf where every term is -inf
            total = self.log(self.sum(self.exp(a - m), axis=axis, keepdims=True))
        return self.squeeze(total + m, axis=axis)


def _guarded(fn, guard):
    def call(*args, **kwargs):
        with guard():
            return fn(*args, **kwargs)
    call.__name__ = fn.__name__
    return call


def _linalg_raises():
    """CuPy's LAPACK calls report singular or indefinite matrices only when asked."""
    import cupyx
    return cupyx.errstate(linalg="raise")


@contextlib.contextmanager
def _no_errstate(**kwargs):
    """``errstate`` on the GPU: CuPy sets no floating-point error flags, so nothing to do."""
    yield
