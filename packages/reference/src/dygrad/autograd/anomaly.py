"""Anomaly mode: the first op whose output holds NaN or Inf raises :class:`AnomalyError`.

``with dygrad.autograd.detect_anomaly():`` or ``paddle.set_flags({'FLAGS_check_nan_inf': 1})``
turn it on. While it is on, every op goes through the reference dispatch (the engine's
fast paths step aside), its outputs are checked, and each op records where it ran (the
user's line and the Layer being called) so that an op of the backward pass can be traced
to the forward line that created it, and :func:`dygrad.autograd.explain` can say where a
gradient was cut. Off, it costs nothing: dispatch's apply is the plain one.

The records live as long as the tensors they describe (and those tensors' history): a
long training run with the mode on keeps the history of tensors carried from step to
step (running statistics computed from the batch, say); turn it on around the steps
being debugged.
"""

from __future__ import annotations

import weakref

import numpy as np

from .._core import autograd as _autograd
from .._core import dispatch as _dispatch
from .._core import engine as _engine
from ..debug import _modes


class AnomalyError(RuntimeError):
    """An op produced NaN or Inf while anomaly mode was on. ``op``, ``phase`` ('forward',
    'backward', or 'update': an optimizer's step), ``layer`` and ``location`` (the user's
    file:line) say where."""

    def __init__(self, message, op, phase, layer, location):
        super().__init__(message)
        self.op, self.phase, self.layer, self.location = op, phase, layer, location


class Record:
    """What anomaly mode remembers of one op that ran: its name, the user's line and Layer,
    whether grad mode was on, the output's dtype and its inputs (Records, or :class:`Leaf`
    for tensors no recorded op made)."""

    __slots__ = ("op", "frame", "layer", "grad_enabled", "inputs", "output", "dtype", "needed")

    def __init__(self, op, frame, layer, grad_enabled, inputs, output, needed):
        self.op, self.frame, self.layer, self.grad_enabled = op, frame, layer, grad_enabled
        self.inputs, self.output, self.needed = inputs, weakref.ref(output), needed
        self.dtype = output._data.dtype

    @property
    def where(self) -> str:
        return _modes.where(self.frame) + (f" (in {self.layer})" if self.layer else "")


class Leaf:
    """An input no recorded op made: the tensor (weakly) and its version counter, which a
    ``detach()`` shares with the tensor it was detached from."""

    __slots__ = ("tensor", "version")

    def __init__(self, t):
        self.tensor, self.version = weakref.ref(t), t._version


_history: dict = {}                        # id(tensor) -> Record of the op that made it
_node_records = weakref.WeakKeyDictionary()  # autograd node -> Record of its forward op


def record_of(t):
    """The Record of the op that made ``t`` (while it lives), or None."""
    return _history.get(id(t))


def all_records():
    """Every Record still reachable: those of living tensors and the ops they came from."""
    seen, stack = set(), list(_history.values())
    while stack:
        rec = stack.pop()
        if id(rec) in seen:
            continue
        seen.add(id(rec))
        yield rec
        stack.extend(e for e in rec.inputs if isinstance(e, Record))


def node_record(node):
    """The Record of the forward op that created autograd ``node``, or None."""
    return _node_records.get(node)


def _backward_node():
    """The autograd node whose gradient rule is running, or None in the forward pass."""
    from .py_layer import _PyLayerNode
    kinds = (_autograd.Node, _autograd.AccumulateGrad, _PyLayerNode)
    import sys
    f = sys._getframe(2)
    while f is not None:
        node = f.f_locals.get("self") if f.f_code.co_name in ("apply", "accumulate") else None
        if isinstance(node, kinds):
            return node
        f = f.f_back
    return None


def _outputs(result):
    return result if isinstance(result, tuple) else (result,)


def _remember(op, inputs, result, node):
    if node is not None:  # ops of a gradient rule: the forward's history is what matters
        return
    flat = (*inputs[0], *inputs[1:]) if op.variadic and inputs and isinstance(inputs[0], list) else inputs
    ins = [_history.get(id(t)) or Leaf(t) for t in flat if isinstance(t, _dispatch.Tensor)]
    frame, layer = _modes.user_frame(3), _modes.layer_path()
    needed = any(not t.stop_gradient for t in flat if isinstance(t, _dispatch.Tensor))
    for t in _outputs(result):
        rec = Record(op.name, frame, layer, _autograd.grad_mode.enabled, ins, t, needed)
        key = id(t)
        _history[key] = rec
        weakref.finalize(t, _history.pop, key, None)
        if t._grad_fn is not None:
            _node_records[t._grad_fn] = rec


def _check(op, result):
    """Raise AnomalyError if an output of ``op`` holds NaN or Inf."""
    to_numpy = _engine.current().to_numpy
    for t in _outputs(result):
        a = to_numpy(t._data)
        if a.dtype.kind not in "fc" or np.isfinite(a).all():
            continue
        n_nan, n_inf = int(np.isnan(a).sum()), int(np.isinf(a).sum())
        what = " and ".join(s for s in (f"{n_nan} NaN" * bool(n_nan), f"{n_inf} Inf" * bool(n_inf)) if s)
        node = _backward_node()
        if node is None:
            frame, layer = _modes.user_frame(3), _modes.layer_path()
            msg = (f"anomaly mode: op {op.name!r} produced {what} (of {a.size} values, shape "
                   f"{list(a.shape)}) in the forward pass, at {_modes.where(frame)}"
                   + (f", in layer {layer}" if layer else ""))
            raise AnomalyError(msg, op.name, "forward", layer, _modes.where(frame))
        rec = _node_records.get(node)
        forward = getattr(getattr(node, "op", None), "name", None) or node.name
        origin = (f"created at {rec.where}" if rec is not None else
                  "created before anomaly mode was turned on, so its line is unknown")
        layer = rec.layer if rec is not None else None
        location = _modes.where(rec.frame) if rec is not None else None
        msg = (f"anomaly mode: op {op.name!r} produced {what} (of {a.size} values, shape "
               f"{list(a.shape)}) in the backward pass, computing the gradient of forward op "
               f"{forward!r} ({origin}); backward was called at "
               f"{_modes.where(_modes.user_frame(3))}")
        raise AnomalyError(msg, op.name, "backward", layer, location)


def _wrap(name, fn):
    def checked(op, *inputs, **attrs):
        result = fn(op, *inputs, **attrs)
        if _dispatch._static is None:
            _check(op, result)
            _remember(op, inputs, result, _backward_node())
        return result
    checked.__name__ = name
    return checked


class detect_anomaly:
    """Context manager: inside it, the first op whose output holds NaN or Inf raises
    :class:`AnomalyError` naming the op, the layer, the user's line and the pass."""

    def __enter__(self):
        _modes.push(_wrap, layers=True)
        _sync_update_check()
        return self

    def __exit__(self, *exc):
        _modes.pop(_wrap, layers=True)
        _sync_update_check()
        return False


_flag_on = False


def set_check_nan_inf(on) -> None:
    """``FLAGS_check_nan_inf``: anomaly mode for everything that follows."""
    global _flag_on
    on = bool(on)
    if on != _flag_on:
        (_modes.push if on else _modes.pop)(_wrap, layers=True)
        _sync_update_check()
        _flag_on = on


def check_nan_inf() -> bool:
    return _flag_on


def check_update(op_name, p, accumulators):
    """Raise AnomalyError if optimizer update ``op_name`` left NaN or Inf in parameter ``p``
    or one of its accumulators (the update ops write in place, outside dispatch)."""
    to_numpy = _engine.current().to_numpy
    for t in (p, *accumulators):
        a = to_numpy(t._data)
        if a.dtype.kind not in "fc" or np.isfinite(a).all():
            continue
        n_nan, n_inf = int(np.isnan(a).sum()), int(np.isinf(a).sum())
        what = " and ".join(s for s in (f"{n_nan} NaN" * bool(n_nan), f"{n_inf} Inf" * bool(n_inf)) if s)
        part = "" if t is p else f"accumulator {t.name!r} of "
        location = _modes.where(_modes.user_frame(2))
        msg = (f"anomaly mode: op {op_name!r} produced {what} (of {a.size} values, shape "
               f"{list(a.shape)}) in {part}parameter {p.name!r}, in the optimizer update "
               f"(step) at {location}")
        raise AnomalyError(msg, op_name, "update", None, location)


def _sync_update_check():
    """The optimizers check their updates while anomaly mode is on."""
    from ..optimizer import optimizer
    optimizer._check_update = check_update if _wrap in _modes._wrappers else None
