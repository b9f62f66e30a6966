"""The tape: graph nodes recorded by the ops, and the backward walk.

Reading guide
-------------
- Every differentiable op that runs with grad mode on, and with some input that needs a
  gradient, records one :class:`Node`: the op's row, its attributes, the metadata of its
  inputs, what its gradient rule asked to keep (``saves``) and an *edge* per input to the
  node that produced it (``None`` where no gradient is needed).
- A leaf tensor that needs a gradient (a parameter, say) is reached through an
  :class:`AccumulateGrad` node, which adds the arriving gradient into ``tensor.grad``.
- :func:`run_backward` counts, for every node reachable from the roots, how many edges
  point at it, then runs a node only when all of its consumers have sent their gradient
  (the dependency-counting walk). Saved data is freed as each node finishes unless
  ``retain_graph``; :func:`dygrad.grad` uses the same walk and captures gradients instead
  of writing ``.grad``.
- Gradient rules are written in ops of the table, so with ``create_graph=True`` the walk
  simply runs them with grad mode on and records the backward graph too.
"""

from __future__ import annotations

import weakref

from . import errors as _errors
from .optable import OpDef


class _GradMode:
    """Whether ops record nodes (``no_grad`` turns it off). ``user_off``: turned off by
    ``no_grad``/``set_grad_enabled(False)`` rather than by a backward walk, so that an op
    which records nothing then cuts the tape where the user asked (dispatch marks it)."""

    __slots__ = ("enabled", "user_off")

    def __init__(self):
        self.enabled = True
        self.user_off = False


grad_mode = _GradMode()


class set_grad_enabled:
    """Context manager and decorator that sets grad mode; ``no_grad``/``enable_grad`` build on it."""

    def __init__(self, mode: bool = True):
        self.mode = bool(mode)
        self.prev = grad_mode.enabled, grad_mode.user_off
        grad_mode.enabled, grad_mode.user_off = self.mode, not self.mode  # a plain call too

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        grad_mode.enabled, grad_mode.user_off = self.prev
        return False


class _GradModeGuard:
    mode = True

    def __enter__(self):
        self._prev = grad_mode.enabled, grad_mode.user_off
        grad_mode.enabled, grad_mode.user_off = self.mode, not self.mode
        return self

    def __exit__(self, *exc):
        grad_mode.enabled, grad_mode.user_off = self._prev
        return False

    def __call__(self, fn):
        import functools

        guard = type(self)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with guard():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradModeGuard):
    """Context manager / decorator: ops inside record nothing."""

    mode = False


class enable_grad(_GradModeGuard):
    """Context manager / decorator: turn recording back on inside a ``no_grad`` region."""

    mode = True


def is_grad_enabled() -> bool:
    return grad_mode.enabled


# ---------------------------------------------------------------------------
# Nodes
# ---------------------------------------------------------------------------

class BackwardError(RuntimeError):
    """Backward cannot run as asked (freed graph, in-place change of a saved tensor, ...)."""


class Node:
    """One recorded op. Also the ``ctx`` that the op's gradient rule reads."""

    __slots__ = ("op", "attrs", "next_edges", "in_meta", "out_meta", "_saved", "_freed",
                 "pre_hooks", "origin", "__weakref__")

    def __init__(self, op: OpDef, attrs: dict, inputs, outputs):
        self.op = op
        self.origin = _errors.creation_site()  # the user's forward line, for backward errors
        self.attrs = {**op.attrs, **attrs} if attrs else op.attrs
        edges = []
        meta = []
        for t in inputs:
            d = t._data
            meta.append((d.shape, d.dtype))
            if t.stop_gradient:
                edges.append(None)
            elif t._grad_fn is not None:
                edges.append((t._grad_fn, t._out_idx))
            else:
                edges.append(_leaf_edge(t))
        self.next_edges = edges
        self.in_meta = meta
        self.out_meta = [(t._data.shape, t._data.dtype) for t in outputs]
        self._freed = False
        self.pre_hooks = None
        saved = None
        if op.saves:
            saved = {}
            names, outs = op.inputs, op.outputs
            for name in op.saves:
                if name in outs:
                    t = outputs[outs.index(name)]
                    saved[name] = (t._data, _box(t), t._version[0], outs.index(name), t.stop_gradient)
                else:
                    t = inputs[names.index(name)] if not op.variadic or name != names[0] else None
                    if t is None:  # a variadic input: save the whole list
                        n_rest = len(names) - 1
                        lst = inputs[: len(inputs) - n_rest]
                        saved[name] = ([(x, _box(x), x._version[0]) for x in lst], None, None, None, None)
                    else:
                        saved[name] = (t, _box(t), t._version[0], None, None)
        self._saved = saved

    def __repr__(self):
        return f"<{self.op.name}Backward>"

    @property
    def name(self) -> str:
        return f"{self.op.name}_grad"

    # -- what a gradient rule reads ----------------------------------------------------
    def __getitem__(self, name: str):
        """The saved input or output ``name`` (checked against in-place changes)."""
        if self._saved is None:
            raise self._freed_error()
        try:
            entry = self._saved[name]
        except KeyError:
            raise KeyError(f"op {self.op.name!r} did not save {name!r}; its row saves "
                           f"{list(self.op.saves)}") from None
        first, box, version, out_idx, stop = entry
        if box is None:  # variadic list
            return [self._check(t, b, v, name) for t, b, v in first]
        if box[0] != version:
            raise self._inplace_error(name, version, box[0])
        if out_idx is None:
            return first
        t = _dispatch.Tensor._wrap(first, stop)
        if grad_mode.enabled and not stop:  # create_graph: the output keeps its history
            t._grad_fn, t._out_idx = self, out_idx
        return t

    def output_written(self, index: int, t):
        """An in-place op has just written output ``index`` (``t``): a saved copy of that
        output is the written value, at its new version."""
        name = self.op.outputs[index]
        if self._saved and name in self._saved:
            data, box, _, out_idx, _ = self._saved[name]
            self._saved[name] = (data, box, t._version[0], out_idx, t.stop_gradient)

    def _check(self, t, box, version, name):
        if box[0] != version:
            raise self._inplace_error(name, version, box[0])
        return t

    def shape(self, name: str) -> tuple:
        """Shape of input ``name`` when the op ran."""
        return self.in_meta[self.op.inputs.index(name)][0]

    def dtype(self, name: str):
        return self.in_meta[self.op.inputs.index(name)][1]

    def needs(self, name_or_index) -> bool:
        """Whether input ``name`` (or flat index) needs a gradient."""
        i = self.op.inputs.index(name_or_index) if type(name_or_index) is str else name_or_index
        return self.next_edges[i] is not None

    @property
    def n_outputs(self) -> int:
        return len(self.out_meta)

    # -- running -----------------------------------------------------------------------
    def apply(self, grads, retain_graph: bool):
        """Input gradients from output gradients (flat, one per recorded input)."""
        if self._freed:
            raise self._freed_error()
        op = self.op
        if any(g is None for g in grads):
            grads = [g if g is not None else _zeros(shape, dtype)
                     for g, (shape, dtype) in zip(grads, self.out_meta)]
        result = op.grad(self, *grads)
        if not isinstance(result, (tuple, list)):
            result = (result,)
        if op.variadic:
            result = (*result[0], *result[1:])
        if len(result) != len(self.next_edges):
            raise BackwardError(f"gradient rule of {op.name!r} returned {len(result)} gradients "
                                f"for {len(self.next_edges)} inputs")
        if not retain_graph:
            self._saved = None
            self._freed = True
        return result

    def _freed_error(self):
        return BackwardError(
            f"backward through op {self.op.name!r} a second time: its saved tensors were freed "
            f"after the first backward. Pass retain_graph=True to the first backward() (or "
            f"dygrad.grad) to keep them.")

    def _inplace_error(self, name, then, now):
        return BackwardError(
            f"a tensor that backward of op {self.op.name!r} needs ({name!r}) was modified in "
            f"place after the op ran (version {then} when saved, {now} now): the gradient "
            f"would be wrong. Use the out-of-place op (e.g. x = x + y instead of x.add_(y)) or "
            f"clone() the tensor before changing it.")


class AccumulateGrad:
    """The node behind a leaf that needs a gradient: adds what arrives into ``.grad``."""

    __slots__ = ("tensor", "__weakref__")
    next_edges = ()
    n_outputs = 1
    pre_hooks = None

    def __init__(self, tensor):
        self.tensor = tensor

    def __repr__(self):
        return "<AccumulateGrad>"

    name = "accumulate_grad"

    def accumulate(self, g, create_graph: bool):
        t = self.tensor
        if g._data.dtype != t._data.dtype:
            g = _dispatch.ops.cast(g, dtype=t._data.dtype)
        hooks = t._hooks
        if hooks:
            for fn in list(hooks.values()):
                out = fn(g)
                if out is not None:
                    g = out
        if t._grad is None:
            t._grad = g if create_graph else g.detach()
        else:
            t._grad = t._grad + g


def _box(t):
    return t._version


def edge_of(t):
    """The edge from a consumer to ``t``: (node, output index), or None if no gradient."""
    if t.stop_gradient:
        return None
    fn = t._grad_fn
    if fn is not None:
        return (fn, t._out_idx)
    return _leaf_edge(t)


def _leaf_edge(t):
    """The edge to a leaf's AccumulateGrad node (one per leaf while a graph holds it)."""
    ref = t._accum
    acc = ref() if ref is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        t._accum = weakref.ref(acc)
    return (acc, 0)


def _zeros(shape, dtype):
    return _dispatch.ops.full(shape=tuple(shape), fill_value=0, dtype=dtype)


def sum_to(g, shape):
    """Undo broadcasting: sum ``g`` down to ``shape`` (the one helper every rule uses)."""
    gshape = g._data.shape
    shape = tuple(shape)
    if gshape == shape:
        return g
    ops = _dispatch.ops
    lead = len(gshape) - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(shape)
                                      if d == 1 and gshape[i + lead] != 1)
    if axes:
        g = ops.sum(g, axis=axes, keepdim=True)
    if g._data.shape != shape:
        g = ops.reshape(g, shape=shape)
    return g


# ---------------------------------------------------------------------------
# The walk
# ---------------------------------------------------------------------------

def _key(t):
    if t._grad_fn is not None:
        return (t._grad_fn, t._out_idx)
    edge = edge_of(t)
    return edge


def run_backward(roots, root_grads, retain_graph=False, create_graph=False,
                 inputs=None, allow_unused=False, no_grad_vars=None):
    """Propagate ``root_grads`` from ``roots`` through the recorded graph.

    With ``inputs=None`` gradients of leaves accumulate into ``.grad`` (``backward()``);
    otherwise the gradients reaching ``inputs`` are returned and ``.grad`` is untouched
    (``dygrad.grad``).
    """
    Tensor = _dispatch.Tensor

    # where the walk starts: (node, output index, gradient)
    starts = []
    for t, g in zip(roots, root_grads):
        if t.stop_gradient:
            raise _errors.backward_failed(BackwardError(
                f"backward: the tensor (shape {list(t._data.shape)}) has stop_gradient=True, so "
                f"no input of it needs a gradient. Set stop_gradient=False on the inputs "
                f"(parameters have it already) before computing it."), None)
        if g._data.shape != t._data.shape:
            raise _errors.backward_failed(ValueError(
                f"backward: grad_tensor has shape {list(g._data.shape)} but the tensor has "
                f"shape {list(t._data.shape)}"), None)
        node, idx = edge_of(t)
        starts.append((node, idx, g))

    capture = None
    blocked = set()
    if no_grad_vars:
        for v in no_grad_vars:
            k = _key(v)
            if k is not None:
                blocked.add(k)
    if inputs is not None:
        capture = {}
        for i, t in enumerate(inputs):
            k = _key(t)
            if k is not None:
                capture.setdefault(k, []).append(i)

    # dependency counts over the reachable graph
    deps = {}
    order = []
    seen = set()
    stack = [n for n, _, _ in starts]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        for edge in node.next_edges:
            if edge is None:
                continue
            child = edge[0]
            deps[child] = deps.get(child, 0) + 1
            if child not in seen:
                stack.append(child)

    # with inputs given, run only nodes from which a captured tensor can be reached
    useful = None
    if capture is not None:
        targets = {k[0] for k in capture}
        useful = set()
        changed = True  # iterate to a fixpoint: the DFS order is not a topological order
        while changed:
            changed = False
            for node in order:
                if node in useful:
                    continue
                if node in targets or any(e is not None and e[0] in useful for e in node.next_edges):
                    useful.add(node)
                    changed = True

    buffers = {}
    for node, idx, g in starts:
        buf = buffers.setdefault(node, [None] * node.n_outputs)
        buf[idx] = g if buf[idx] is None else buf[idx] + g
    ready = [n for n in dict.fromkeys(n for n, _, _ in starts) if deps.get(n, 0) == 0]
    results = [None] * (len(inputs) if inputs is not None else 0)

    prev_mode = grad_mode.enabled
    grad_mode.enabled = create_graph
    node = None
    try:
        while ready:
            node = ready.pop()
            grads = buffers.pop(node, None) or [None] * node.n_outputs
            hooks = node.pre_hooks
            if hooks:
                for idx, fns in hooks.items():
                    if grads[idx] is not None:
                        for fn in list(fns.values()):
                            out = fn(grads[idx])
                            if out is not None:
                                grads[idx] = out
            if capture is not None:
                for idx in range(node.n_outputs):
                    for i in capture.get((node, idx), ()):
                        results[i] = grads[idx]
            if isinstance(node, AccumulateGrad):
                if capture is None and grads[0] is not None:
                    node.accumulate(grads[0], create_graph)
                continue
            run = all(g is None for g in grads) is False and (useful is None or any(
                e is not None and e[0] in useful for e in node.next_edges))
            in_grads = node.apply(grads, retain_graph) if run else (None,) * len(node.next_edges)
            for edge, g in zip(node.next_edges, in_grads):
                if edge is None:
                    continue
                child = edge[0]
                if g is not None and edge not in blocked:
                    if not isinstance(g, Tensor):
                        raise BackwardError(f"gradient rule of {node.op.name!r} returned "
                                            f"{type(g).__name__}, expected a Tensor")
                    buf = buffers.get(child)
                    if buf is None:
                        buf = buffers[child] = [None] * child.n_outputs
                    i = edge[1]
                    buf[i] = g if buf[i] is None else buf[i] + g
                deps[child] -= 1
                if deps[child] == 0:
                    ready.append(child)
    except Exception as exc:  # name the op and the forward line that recorded it
        _errors.backward_failed(exc, node)
        if _errors.BARE_RAISE_KEEPS_TRIM:
            raise
        raise exc
    finally:
        grad_mode.enabled = prev_mode

    if inputs is None:
        return None
    for i, t in enumerate(inputs):
        if results[i] is None and not allow_unused:
            raise _errors.backward_failed(BackwardError(
                f"grad: input {i} (shape {list(t._data.shape)}) is not reached from the outputs "
                f"(unused, or cut by stop_gradient/no_grad). Pass allow_unused=True to get None "
                f"for it."), None)
        if results[i] is not None and not create_graph:
            results[i] = results[i].detach()
    return results


# The meaning of the functions an engine may replace by compiled equivalents
# (``Engine.fast_paths``): callers reach them through this module's globals.
REFERENCE_PATHS = {"run_backward": run_backward}
# and the method through which gradient rules read what a node saved (``ctx[name]``)
REFERENCE_NODE_GETITEM = Node.__getitem__


def _use_engine(engine):
    fast = engine.fast_paths or {}
    for name, fn in REFERENCE_PATHS.items():
        globals()[name] = fast.get(name, fn)
    Node.__getitem__ = fast.get("node_getitem", REFERENCE_NODE_GETITEM)


# dispatch (and through it tensor) imports this module first; bind it once both exist
from . import dispatch as _dispatch  # noqa: E402
from .engine import on_engine_change  # noqa: E402

on_engine_change(_use_engine)
