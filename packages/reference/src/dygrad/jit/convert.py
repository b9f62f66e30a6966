"""Runtime helpers that converted code calls (``_jst.<name>``, as Paddle's dy2static).

Each looks at its values when the converted function runs: a condition that is a Python
value keeps Python's control flow (loops unroll into the program); a condition that is a
static Variable becomes ``static.nn.cond``/``while_loop``. What cannot be converted raises
:class:`~dygrad.jit.breaks.GraphBreak`.
"""

from __future__ import annotations

import types

from .._core.dispatch import ops
from .._core.program import Variable
from .._core.tensor import Tensor
from .breaks import GraphBreak


class _Undefined:
    """The value of a variable not yet assigned when a converted block starts."""

    def __repr__(self):
        return "<undefined>"


UNDEFINED = _Undefined()


def ld(local_vars, name):
    """The current value of local ``name``, or UNDEFINED."""
    return local_vars.get(name, UNDEFINED)


def _tensor_pred(pred, what):
    if isinstance(pred, Variable):
        if pred._data.size != 1:
            raise GraphBreak(f"the condition of {what} is a tensor of shape {pred.shape}; "
                             f"only one-element tensors have a truth value")
        return pred if pred.dtype == "bool" else ops.cast(pred, dtype="bool")
    return None


def python_bool(pred, statement):
    """The condition of a statement that stays Python (it holds return/break/continue):
    a tensor condition is a graph break."""
    if isinstance(pred, Variable):
        raise GraphBreak(f"{statement} on a tensor condition holds return, break or continue, "
                         f"which to_static does not convert")
    return pred


def convert_ifelse(pred, true_fn, false_fn, init, names):
    """``if pred: true_fn(*init) else: false_fn(*init)``; both return the new values of
    ``names``."""
    cond_pred = _tensor_pred(pred, "if")
    if cond_pred is None:
        return true_fn(*init) if pred else false_fn(*init)
    from ..static.nn import cond
    raw = {}

    def branch(key, fn):
        def run():
            values = fn(*init)
            raw[key] = values
            return [v if isinstance(v, Tensor) else None for v in values]
        return run
    try:
        tensors = cond(cond_pred, branch(0, true_fn), branch(1, false_fn))
    except ValueError as exc:
        raise GraphBreak(f"the branches of an if on a tensor give different kinds of values "
                         f"to {', '.join(names)}: {exc}") from exc
    out = []
    for name, t, a, b in zip(names, tensors, raw[0], raw[1]):
        if t is not None:
            out.append(t)
        elif a is b or (type(a) is type(b) and not isinstance(a, Tensor) and _same(a, b)):
            out.append(a)
        else:
            raise GraphBreak(f"an if on a tensor sets {name!r} to different Python values "
                             f"({_short(a)} and {_short(b)}); only tensors may differ")
    return tuple(out)


def convert_ifexp(pred, true_fn, false_fn):
    """``true_fn() if pred else false_fn()``."""
    cond_pred = _tensor_pred(pred, "a conditional expression")
    if cond_pred is None:
        return true_fn() if pred else false_fn()
    from ..static.nn import cond
    try:
        return cond(cond_pred, true_fn, false_fn)
    except (TypeError, ValueError) as exc:
        raise GraphBreak(f"the two values of a conditional expression on a tensor cannot be "
                         f"merged: {exc}") from exc


def _same(a, b):
    try:
        return bool(a == b)
    except Exception:
        return False


def _short(v):
    return "an undefined value" if v is UNDEFINED else f"{type(v).__name__} {v!r}"[:60]


def _as_tensor(v):
    if isinstance(v, bool):
        return ops.full(shape=(), fill_value=v, dtype="bool")
    if isinstance(v, int):
        return ops.full(shape=(), fill_value=v, dtype="int64")
    return ops.full(shape=(), fill_value=v, dtype="float32")


def convert_while_loop(cond_fn, body_fn, init, names):
    """``while cond_fn(*vals): vals = body_fn(*vals)`` over the values of ``names``."""
    vals = tuple(init)
    pred = cond_fn(*vals)
    if _tensor_pred(pred, "while") is None:
        while pred:
            vals = body_fn(*vals)
            pred = cond_fn(*vals)
            if isinstance(pred, Variable):
                raise GraphBreak("a while loop's condition became a tensor after its first "
                                 "iteration (a Python value before); start it as a tensor")
        return vals
    return _tensor_loop(cond_fn, body_fn, vals, names)


def _tensor_loop(cond_fn, body_fn, vals, names):
    from ..static.nn import while_loop
    carried = [i for i, v in enumerate(vals)
               if isinstance(v, Tensor) or (isinstance(v, (int, float)) and v is not UNDEFINED)]
    full = list(vals)
    for i in carried:
        if not isinstance(full[i], Tensor):
            full[i] = _as_tensor(full[i])

    def expand(loop_vars):
        values = list(full)
        for i, v in zip(carried, loop_vars):
            values[i] = v
        return values

    def cond(*loop_vars):
        p = cond_fn(*expand(loop_vars))
        return _tensor_pred(p, "while") if isinstance(p, Variable) else _as_tensor(bool(p))

    def body(*loop_vars):
        out = body_fn(*expand(loop_vars))
        for i, (name, v) in enumerate(zip(names, out)):
            if i not in carried and v is not full[i] and full[i] is not UNDEFINED:
                raise GraphBreak(f"a while loop on a tensor changes {name!r}, a Python "
                                 f"{type(full[i]).__name__}; only tensors and numbers may "
                                 f"change in it")
        return [out[i] if isinstance(out[i], Tensor) else _as_tensor(out[i]) for i in carried]
    result = while_loop(cond, body, [full[i] for i in carried])
    out = list(vals)
    for i, v in zip(carried, result):
        out[i] = v
    return tuple(out)


def convert_for_range(range_args, body_fn, init, names):
    """``for i in range(*range_args): vals = body_fn(i, *vals)``; returns (i, *vals)."""
    if not any(isinstance(a, Variable) for a in range_args):
        target, vals = init[0], tuple(init[1:])
        for target in range(*range_args):
            vals = body_fn(target, *vals)
        return (target, *vals)
    if len(range_args) == 3 and isinstance(range_args[2], Variable):
        raise GraphBreak("range() with a tensor step is not converted")
    start, stop, step = ((0, *range_args, 1) if len(range_args) == 1 else
                         (*range_args, 1) if len(range_args) == 2 else range_args)
    start = start if isinstance(start, Tensor) else _as_tensor(int(start))
    if step == 0:
        raise ValueError("range() arg 3 must not be zero")

    def cond(i, *vals):
        return i < stop if step > 0 else i > stop

    def body(i, *vals):
        return (i + step, *body_fn(i, *vals))
    out = _tensor_loop(cond, body, (start, *init[1:]), ("<range>", *names[1:]))
    return (out[0] - step, *out[1:])  # the last value taken, as Python's loop variable


def convert_iter(iterable):
    """What ``for x in iterable`` walks: a tensor unrolls over its first dimension."""
    if isinstance(iterable, Variable):
        n = iterable.shape[0] if iterable.shape else None
        if n is None or n < 0:
            raise GraphBreak("for ... in a tensor whose first dimension is unknown (-1) is "
                             "not converted")
        return [iterable[i] for i in range(n)]
    return iterable


def convert_logical_and(x, y_fn):
    """``x and y`` (``y_fn()`` gives y, evaluated only when needed)."""
    if isinstance(x, Variable):
        return ops.logical_and(_tensor_pred(x, "and"), _bool_tensor(y_fn(), "and"))
    return x and y_fn()


def convert_logical_or(x, y_fn):
    """``x or y``."""
    if isinstance(x, Variable):
        return ops.logical_or(_tensor_pred(x, "or"), _bool_tensor(y_fn(), "or"))
    return x or y_fn()


def _bool_tensor(y, what):
    if isinstance(y, Variable):
        return _tensor_pred(y, what)
    return _as_tensor(bool(y))


def convert_logical_not(x):
    """``not x``."""
    if isinstance(x, Variable):
        return ops.logical_not(_tensor_pred(x, "not"))
    return not x


def convert_print(*args, **kwargs):
    """``print``: printing a tensor's value needs the value, a graph break."""
    if any(isinstance(a, Variable) for a in args):
        raise GraphBreak("print() of a tensor needs its value, which the program does not "
                         "have while it is built")
    print(*args, **kwargs)


def convert_call(fn):
    """The converted form of a user function, method or Layer called from converted
    code; framework and library code is called as it is."""
    from ..nn.layer import Layer
    from .transform import convert_function, convertible
    if isinstance(fn, Layer):
        forward = type(fn).forward
        if "forward" in fn.__dict__ or not convertible(forward):
            return fn
        converted = convert_function(forward)
        return lambda *a, **k: _call_layer(fn, converted, a, k)
    if isinstance(fn, types.MethodType) and convertible(fn.__func__):
        return types.MethodType(convert_function(fn.__func__), fn.__self__)
    if isinstance(fn, types.FunctionType) and convertible(fn):
        return convert_function(fn)
    return fn


def _call_layer(layer, forward, args, kwargs):
    fn = types.MethodType(forward, layer)
    layer.__dict__["forward"] = fn  # Layer.__call__ runs the hooks around self.forward
    try:
        return layer(*args, **kwargs)
    finally:
        del layer.__dict__["forward"]
