"""Op dispatch: run an op of the table on the current engine and record it for autograd.

``apply(op, *inputs, **attrs)`` is the only way an op runs in eager mode:

1. the engine's kernel for ``op`` runs on the inputs' arrays;
2. the results are wrapped in Tensors;
3. if grad mode is on, the op is differentiable and some input needs a gradient, one
   :class:`~dygrad._core.autograd.Node` is recorded and becomes the outputs' ``_grad_fn``;
   else an input that needs a gradient is marked with where the tape was cut (:class:`Cut`).

``ops.<name>(...)`` is ``apply`` bound to a row: gradient rules and the public API use it.
"""

from __future__ import annotations

import functools
import itertools
import weakref

import numpy as np

from . import dtype as _dt
from . import errors as _errors
from .autograd import Node, grad_mode
from .engine import on_engine_change
from .optable import TABLE, OpDef


class _NoEngineYet(dict):
    """Until an engine is chosen: the first kernel lookup chooses the default one."""

    def __missing__(self, name):
        from .engine import current
        current()
        return _kernels[name]


_kernels: dict = _NoEngineYet()


_array_type = np.ndarray
_ensure = np.asarray


_static = None  # static mode's hooks (dygrad._core.program), None in eager mode
_debug = None  # a debugging mode's wrapper (dygrad.debug), None when off


def _use_engine(engine):
    global _kernels, _array_type, _ensure
    _kernels = engine.kernels
    _array_type = engine.array_type
    _ensure = engine.ensure
    # static and debugging modes: the hooks win
    fast = (engine.fast_paths or {}) if _static is None and _debug is None else {}
    for name, fn in REFERENCE_PATHS.items():  # the engine's compiled equivalents, if any
        globals()[name] = fast.get(name, fn)
    make = fast.get("binary_operator")  # compiled operators: no Python frame per ``a + b``
    for dunder, (fn, op, reflected) in REFERENCE_OPERATORS.items():
        setattr(Tensor, dunder, fn if make is None or op is None else make(op, reflected, fn.__name__))
    if _debug is not None:
        for name, fn in DEBUG_PATHS.items():
            globals()[name] = _debug(name, fn)
    ops._rebind()


def set_static_hooks(hooks):
    """Static mode: ``apply``/``apply_inplace`` hand every op to ``hooks`` (which append it
    to a program) and the engine's compiled fast paths step aside; None restores them."""
    global _static
    _static = hooks
    from .engine import current
    _use_engine(current())


def set_debug_hook(hook):
    """A debugging mode (anomaly detection, the profiler): while ``hook`` is set, ``apply``
    and ``apply_inplace`` are ``hook(name, reference_function)`` and every engine fast path
    steps aside (the engine is selected again, so autograd's walk follows); None restores
    them. Nothing is checked per op: a mode that is off costs nothing."""
    global _debug
    _debug = hook
    from .engine import get_engine, set_engine
    set_engine(get_engine())


def debug_hook():
    """The debugging mode's wrapper, None when no mode is on (engines read it)."""
    return _debug


def _tensor_cls():
    from .tensor import Tensor
    return Tensor


def apply(op: OpDef, *inputs, **attrs):
    """Run ``op`` on Tensors ``inputs`` with attributes ``attrs``; record it if needed."""
    if _static is not None:
        return _static.apply(op, *inputs, **attrs)
    if op.variadic:
        flat = (*inputs[0], *inputs[1:])
        arrays = ([t._data for t in inputs[0]], *[t._data for t in inputs[1:]])
    else:
        flat = inputs
        arrays = [t._data for t in inputs]
    if op.random:
        from .engine import current
        attrs["rng"] = current().generator
    try:
        out = _kernels[op.name](*arrays, **attrs)
    except Exception as exc:
        _explain(op, exc, arrays, attrs)
    need = False
    if grad_mode.enabled and op.grad is not None:
        for t in flat:
            if not t.stop_gradient:
                need = True
                break
    elif _mark_cuts:
        for t in flat:
            if not t.stop_gradient and t._cut is None:
                if grad_mode.user_off or grad_mode.enabled:  # not a backward walk
                    note_cuts(op, flat, out)
                break
    cls = type(out)
    if cls is tuple:
        return _wrap_outputs(op, out, need, flat, attrs)
    if cls is not _array_type:
        out = _ensure(out)
    t = _new(Tensor)
    t._data = out
    t.stop_gradient = not need
    t._version = [0]
    t._grad_fn = Node(op, attrs, flat, (t,)) if need else None
    return t


def _wrap_outputs(op, out, need, flat, attrs):
    """Tensors for a kernel's several outputs; one node shared by the differentiable ones."""
    wrap = Tensor._wrap
    nondiff = op.nondiff_outputs
    outs = tuple(wrap(a if type(a) is _array_type else _ensure(a), not need or name in nondiff)
                 for a, name in zip(out, op.outputs))
    if need:
        node = Node(op, attrs, flat, outs)
        for i, t in enumerate(outs):
            if not t.stop_gradient:
                t._grad_fn, t._out_idx = node, i
    return outs


_new = object.__new__


# ---------------------------------------------------------------------------
# Where the tape was cut (for dygrad.autograd.explain)
# ---------------------------------------------------------------------------

class Cut:
    """Where a tensor that needs a gradient was first used without recording a node:
    ``op`` (an op name or 'detach'), ``why`` ('no_grad', 'integer': the op is not
    differentiable, 'detach') and ``origin``, the user's line as ``errors.creation_site``
    gives it (None when there is no user frame)."""

    __slots__ = ("op", "why", "origin", "seq")

    def __init__(self, op, why, origin):
        self.op, self.why, self.origin, self.seq = op, why, origin, next(_cut_seq)


_cut_seq = itertools.count()
_cut_tensors = weakref.WeakSet()  # the living tensors marked with a Cut
_mark_cuts = True  # errors.set_record_origin: with origin recording off, no marks


def note_cut(t, op_name, why, origin):
    """Mark ``t`` (which needs a gradient and has no mark yet) with a :class:`Cut`. Only the
    first cut of a tensor is kept, so an op run under no_grad on a parameter every step
    (weight decay, an evaluation) walks the frames once."""
    t._cut = Cut(op_name, why, origin)
    _cut_tensors.add(t)


def note_cuts(op, flat, out):
    """``op`` ran on ``flat`` (giving ``out``) without recording a node although an input
    with no mark yet needs a gradient: mark each such input where the tape was cut, under
    no_grad, or by a non-differentiable op that gives an integer or bool result (argmax, a
    comparison) or takes one (one_hot); ``full_like``'s constant of a float is no cut."""
    if op.grad is not None:  # grad mode is off
        why, float_cut = "no_grad", True
    else:  # a float input is cut where a result is integer or bool
        why = "integer"
        if type(out) is tuple:
            float_cut = any(a.dtype.kind not in "fc" for a in out)
        else:
            float_cut = out.dtype.kind not in "fc"
    origin = None
    for t in flat:
        if not t.stop_gradient and t._cut is None and (float_cut or t._data.dtype.kind not in "fc"):
            if origin is None:
                origin = _errors.creation_site()
            note_cut(t, op.name, why, origin)


def cut_tensors():
    """The living tensors marked with a :class:`Cut`, latest first."""
    return sorted(_cut_tensors, key=lambda t: -t._cut.seq)


def _set_mark_cuts(flag):
    global _mark_cuts
    _mark_cuts = flag


_errors.on_record_origin(_set_mark_cuts)


def _explain(op, exc, arrays, attrs):
    """A kernel failed: raise the table's own error for these inputs when ``infer_meta``
    rejects them (so every engine says the same), else the kernel's error; either names
    the op's Paddle API, the inputs' dtypes and shapes and the user's line
    (:mod:`~dygrad._core.errors`). Costs nothing on the happy path."""
    if isinstance(exc, KeyError) and op.name not in _kernels:
        from .engine import current
        exc = NotImplementedError(f"op {op.name!r} has no kernel on the {current().name!r} engine")
    else:
        from .optable import Meta
        attrs = {k: v for k, v in attrs.items() if k != "rng"}
        metas = [[Meta(a.shape, a.dtype) for a in x] if isinstance(x, list)
                 else Meta(x.shape, x.dtype) for x in arrays]
        try:
            op.infer_meta(*metas, **attrs)
        except Exception as meta_exc:
            exc = meta_exc
    raise _errors.op_failed(exc, op, arrays) from None


def checked_apply(op: OpDef, *inputs, **attrs):
    """``apply`` after ``op.infer_meta`` has accepted the inputs (for rows whose kernels
    would quietly accept inputs that Paddle rejects); a refusal is worded as ``apply``'s."""
    from .optable import Meta
    metas = [[Meta(t._data.shape, t._data.dtype) for t in x] if isinstance(x, list)
             else Meta(x._data.shape, x._data.dtype) for x in inputs]
    try:
        op.infer_meta(*metas, **attrs)
    except Exception as exc:
        arrays = [[t._data for t in x] if isinstance(x, list) else x._data for x in inputs]
        raise _errors.op_failed(exc, op, arrays) from None
    return apply(op, *inputs, **attrs)


def apply_inplace(op: OpDef, x, *others, **attrs):
    """Run ``op`` and write its result into ``x``'s storage (``add_``, ``x[i] = v``, ...).

    The node is recorded before the write, so a rule that needs the old ``x`` sees its
    version change and refuses to run instead of giving a wrong gradient.
    """
    if _static is not None:
        return _static.apply_inplace(op, x, *others, **attrs)
    need = grad_mode.enabled and op.grad is not None and (
        not x.stop_gradient or any(not t.stop_gradient for t in others))
    if need and x._grad_fn is None and not x.stop_gradient:
        raise _errors.op_failed(RuntimeError(
            f"{op.name}_: a leaf tensor that needs a gradient (stop_gradient=False, e.g. a "
            f"parameter) cannot be changed in place while gradients are recorded; do it under "
            f"dygrad.no_grad() or use the out-of-place op"), op, [x._data, *[t._data for t in others]])
    arrays = [x._data, *[t._data for t in others]]
    try:
        out = _ensure(_kernels[op.name](*arrays, **attrs))
    except Exception as exc:
        _explain(op, exc, arrays, attrs)
    if out.shape != x._data.shape:
        raise _errors.op_failed(ValueError(
            f"{op.name}_: the in-place result has shape {list(out.shape)} but the tensor has "
            f"shape {list(x._data.shape)} (in-place ops cannot broadcast the tensor they "
            f"change)"), op, arrays)
    node = None
    if need:
        old = Tensor._wrap(x._data, x.stop_gradient)
        old._grad_fn, old._out_idx, old._version, old._accum = x._grad_fn, x._out_idx, x._version, x._accum
        node = Node(op, attrs, (old, *others), (x,))
    x._data[...] = out
    x._version[0] += 1
    if node is not None:
        x._grad_fn, x._out_idx, x.stop_gradient = node, 0, False
        node.output_written(0, x)
    return x


class _Ops:
    """``ops.add(x, y)`` runs the table's ``add`` row: ``apply`` with the row bound
    (``functools.partial``, so no Python frame of its own between a caller and an engine's
    compiled ``apply``); an attribute per row, bound on first use and bound again to the
    new ``apply`` whenever the engine or a mode changes it (``_rebind``)."""

    def __getattr__(self, name):
        try:
            op = TABLE[name]
        except KeyError:
            raise AttributeError(f"the op table has no op {name!r}") from None
        call = _bind(op)
        setattr(self, name, call)
        return call

    def _rebind(self):
        for name in list(vars(self)):
            setattr(self, name, _bind(TABLE[name]))


def _bind(op):
    call = functools.partial(apply, op)
    call.__name__ = op.name
    call.__doc__ = op.doc
    return call


ops = _Ops()


# ---------------------------------------------------------------------------
# Operands: Python scalars, NumPy arrays and Tensors of different dtypes
# ---------------------------------------------------------------------------

def promote_types(op_name: str, a: np.dtype, b: np.dtype) -> np.dtype:
    """The common dtype of two tensors in a binary op. As Paddle: two float (or complex)
    dtypes promote to the wider; any other mix is a TypeError (cast one side first)."""
    if a == b:
        return a
    if a.kind in "fc" and b.kind in "fc":
        return np.promote_types(a, b)
    raise _errors.user_error(TypeError(
        f"{op_name}: operands have dtypes {_dt.from_numpy(a).name} and {_dt.from_numpy(b).name}; "
        f"only floating-point dtypes promote automatically. Cast one side first, e.g. "
        f"y.astype('{_dt.from_numpy(a).name}')."))


def scalar_dtype(value, like: np.dtype) -> np.dtype:
    """The dtype a Python scalar takes next to a tensor of dtype ``like``."""
    if isinstance(value, bool):
        return like
    if isinstance(value, (int, np.integer)):
        return like if like.kind != "b" else np.dtype(np.int64)
    if isinstance(value, (float, np.floating)):
        return like if like.kind in "fc" else _dt.default_float().np
    if isinstance(value, complex):
        return np.dtype(np.complex64) if like != np.complex128 else like
    raise TypeError(f"unsupported operand type {type(value).__name__}")


def as_operands(op_name, x, y):
    """Two Tensors of one dtype from ``x``, ``y`` (either may be a scalar or array).

    A Python number takes the tensor's dtype, or the default float dtype next to an integer
    tensor, which is then cast to it (``int_tensor + 1.5`` computes in float32, as Paddle)."""
    T = Tensor
    number_dtype = None
    if not isinstance(x, T):
        is_number = isinstance(x, _NUMBERS)
        x = _other(op_name, x, y)
        number_dtype = x._data.dtype if is_number else None
    elif not isinstance(y, T):
        is_number = isinstance(y, _NUMBERS)
        y = _other(op_name, y, x)
        number_dtype = y._data.dtype if is_number else None
    dx, dy = x._data.dtype, y._data.dtype
    if dx != dy:
        d = number_dtype or promote_types(op_name, dx, dy)
        if dx != d:
            x = ops.cast(x, dtype=d)
        if dy != d:
            y = ops.cast(y, dtype=d)
    return x, y


_NUMBERS = (bool, int, float, complex, np.number, np.bool_)


def _other(op_name, value, tensor):
    from .creation import to_array
    if isinstance(value, _NUMBERS):
        d = scalar_dtype(value, tensor._data.dtype)
        return Tensor._wrap(to_array(value, d))
    if isinstance(value, (np.ndarray, list, tuple)):
        return Tensor._wrap(to_array(value))
    raise TypeError(f"{op_name}: unsupported operand type {type(value).__name__} "
                    f"(expected a Tensor, a NumPy array or a Python number)")


def binary(op: OpDef, x, y):
    """Apply a binary op after making both operands Tensors of one dtype."""
    T = Tensor
    if type(x) is T and type(y) is T and x._data.dtype == y._data.dtype:  # the hot path
        return apply(op, x, y)
    x, y = as_operands(op.name, x, y)
    return apply(op, x, y)


def install_operators(cls):
    """Give ``cls`` (Tensor) its Python operators, each one op of the table."""
    global Tensor
    Tensor = cls
    table = TABLE

    def bin_op(name, reflected=False):
        op = table.get(name)  # STRICT-LATER
        if reflected:
            def f(self, other):
                return binary(op, other, self)
        else:
            def f(self, other):
                return binary(op, self, other)
        f.__name__ = name
        return f

    def install(dunder, name, reflected=False):
        f = bin_op(name, reflected)
        REFERENCE_OPERATORS[dunder] = (f, table.get(name), reflected)
        setattr(cls, dunder, f)

    for dunder, name in [("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                         ("truediv", "divide"), ("floordiv", "floor_divide"),
                         ("mod", "remainder"), ("pow", "elementwise_pow"),
                         ("matmul", "matmul"), ("and", "bitwise_and"), ("or", "bitwise_or"),
                         ("xor", "bitwise_xor")]:
        install(f"__{dunder}__", name)
        install(f"__r{dunder}__", name, reflected=True)
    # As in Paddle, ``x += y`` rebinds x to a new tensor (no __iadd__): in-place changes
    # are spelled add_/subtract_/scale_/... and x[i] = v.
    for dunder, name in [("eq", "equal"), ("ne", "not_equal"), ("lt", "less_than"),
                         ("le", "less_equal"), ("gt", "greater_than"), ("ge", "greater_equal")]:
        install(f"__{dunder}__", name)
    cls.__neg__ = lambda self: apply(table["neg"], self)
    cls.__pos__ = lambda self: self
    cls.__abs__ = lambda self: apply(table["abs"], self)
    cls.__invert__ = lambda self: apply(table["bitwise_not"], self)

    def getitem(self, index):
        return apply(table["getitem"], self, index=normalize_index(index, self))

    def setitem(self, index, value):
        if not isinstance(value, Tensor):
            from .creation import to_array
            value = Tensor._wrap(to_array(value, self._data.dtype))
        elif value._data.dtype != self._data.dtype:
            value = ops.cast(value, dtype=self._data.dtype)
        apply_inplace(table["setitem"], self, value, index=normalize_index(index, self))
    cls.__getitem__ = getitem
    cls.__setitem__ = setitem
    cls.__hash__ = lambda self: id(self)


def normalize_index(index, x):
    """A Python/NumPy index with Tensors replaced by engine arrays (a kernel attribute)."""
    if not isinstance(index, tuple):
        index = (index,)
    out = []
    for i in index:
        if isinstance(i, Tensor):
            if i._data.dtype.kind not in "iub":
                raise _errors.user_error(IndexError(
                    f"Tensor.__getitem__: index tensors must be int or bool, got {i.dtype} "
                    f"(shape {list(i._data.shape)})"), hint="cast it first: index.astype('int64')")
            out.append(i._data)
        elif isinstance(i, list):
            out.append(np.asarray(i))
        elif isinstance(i, (int, np.integer, slice, np.ndarray)) or i is None or i is Ellipsis:
            out.append(i)
        else:
            raise _errors.user_error(IndexError(
                f"Tensor.__getitem__: unsupported index of type {type(i).__name__}; use ints, "
                f"slices, None, Ellipsis, lists or int/bool tensors"))
    return tuple(out)


Tensor = None  # set by install_operators (tensor.py imports this module first)
# The meaning of the functions an engine may replace by compiled equivalents
# (``Engine.fast_paths``): callers reach them through this module's globals.
REFERENCE_PATHS = {"apply": apply, "binary": binary}
# Tensor's binary operators as install_operators makes them: {dunder: (function, op,
# reflected)}; an engine's ``fast_paths['binary_operator'](op, reflected, name)`` makes
# compiled equivalents, installed and removed with the other fast paths.
REFERENCE_OPERATORS: dict = {}
# What a debugging mode wraps (set_debug_hook).
DEBUG_PATHS = {"apply": apply, "apply_inplace": apply_inplace}
on_engine_change(_use_engine)
