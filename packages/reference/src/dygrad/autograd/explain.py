"""explain and why_none: whether a gradient reaches a tensor, and if not, why.

What the tape alone tells: which leaves and intermediate results the output's graph
reaches, an input's own ``stop_gradient`` and dtype, and whether any recorded op used a
leaf at all. Where the path was cut is marked as it happens, in the default mode too: an
op that runs without recording a node although an input needs a gradient (under
``no_grad``, or an op that is not differentiable: argmax, a comparison, ...) and
``detach()`` of such a tensor mark that input with the op and the user's line
(:class:`dygrad._core.dispatch.Cut`; only a tensor's first cut, and none while
``errors.set_record_origin(False)``). So explain names the op and line of a cut on the
input itself, or on a result computed from it that is still alive. Anomaly mode
(:func:`detect_anomaly`) records every op's inputs, line and Layer, and so also gives the
path to the output and finds ``stop_gradient`` set on an intermediate result after it was
computed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._core import dispatch
from .._core.errors import origin_site
from .._core.tensor import Tensor
from . import anomaly


@dataclass
class Reason:
    """Whether a gradient of the output reaches ``input``; if not, ``reason`` is one of
    'stop_gradient', 'no_grad', 'detach', 'integer', 'not_used', 'cut', with the ``op``
    and the user's line (``location``) where known, and a sentence in ``message``."""

    input: Tensor
    reaches: bool
    reason: str | None
    message: str
    op: str | None = None
    location: str | None = None

    def __str__(self):
        return self.message


def _reached(output):
    """Nodes of the output's graph and the leaves they reach."""
    nodes, leaves = set(), set()
    if output.stop_gradient or output._grad_fn is None:
        return nodes, leaves
    stack = [output._grad_fn]
    while stack:
        node = stack.pop()
        if node in nodes:
            continue
        nodes.add(node)
        tensor = getattr(node, "tensor", None)
        if tensor is not None:
            leaves.add(id(tensor))
        stack.extend(e[0] for e in node.next_edges if e is not None)
    return nodes, leaves


def _label(t, i):
    name = t._name
    return f"input {i}" + (f" ({name})" if name else "") + f", shape {list(t.shape)} {t.dtype.name}"


def explain(output, inputs) -> list:
    """One :class:`Reason` per tensor of ``inputs``: does a gradient of ``output`` reach it?"""
    if not isinstance(output, Tensor):
        raise TypeError(f"explain: output must be a Tensor, got {type(output).__name__}")
    single = isinstance(inputs, Tensor)
    inputs = [inputs] if single else list(inputs)
    for t in inputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"explain: inputs must be Tensors, got {type(t).__name__}")
    nodes, leaves = _reached(output)
    return [_explain_one(output, t, _label(t, i), nodes, leaves) for i, t in enumerate(inputs)]


def _explain_one(output, x, label, nodes, leaves):
    if (x._grad_fn is not None and x._grad_fn in nodes) or (x._grad_fn is None and id(x) in leaves):
        return Reason(x, True, None, f"{label}: a gradient of the output reaches it")
    if x.dtype.np.kind not in "fc":
        return Reason(x, False, "integer", f"{label}: integer tensors get no gradient "
                      f"(only floating-point tensors are differentiable)")
    found = _search(output, x)
    if found is not None:
        return _cut(x, label, *found)
    if x.stop_gradient:
        rec = anomaly.record_of(x)
        if rec is not None and not rec.grad_enabled:
            return Reason(x, False, "no_grad", f"{label}: it was computed by op {rec.op!r} "
                          f"under no_grad at {rec.where}", rec.op, rec.where)
        if x._cut is not None and x._cut.op == "detach_":
            return _marked_reason(x, label, x._cut, x)
        return Reason(x, False, "stop_gradient", f"{label}: it has stop_gradient=True; set "
                      f"x.stop_gradient = False before computing the output")
    if anomaly.record_of(output) is not None:
        return Reason(x, False, "not_used", f"{label}: the output does not depend on it "
                      f"(not used on any path to the output)")
    marked = _marked_cut(x)
    if marked is not None:
        return _marked_reason(x, label, *marked)
    if _unrecorded(x):
        if dispatch._mark_cuts:
            return Reason(x, False, "not_used", f"{label}: no op used it (or only as an index, "
                          f"or through .numpy() or another copy outside the tape)")
        return Reason(x, False, "not_used", f"{label}: no op recorded for backward uses it (it "
                      f"is unused, or used only under no_grad, after detach() or through an "
                      f"integer op; with errors.set_record_origin(False) the cut is not marked: "
                      f"turn it on, or run the forward under dygrad.autograd.detect_anomaly(), "
                      f"to name the op and line)")
    return Reason(x, False, "cut", f"{label}: it is used by recorded ops, but none on a path "
                  f"to the output (the output does not depend on them, or stop_gradient was "
                  f"set on a result after it was computed; run the forward under "
                  f"dygrad.autograd.detect_anomaly() to name the op and line)")


def _unrecorded(x):
    """Whether no recorded op made or uses ``x``."""
    return x._grad_fn is None and (x._accum is None or x._accum() is None)


def _marked_cut(x):
    """The :class:`~dygrad._core.dispatch.Cut` that explains why no gradient reaches ``x``, as
    (cut, the tensor it marks): x's own when no recorded op uses x, else the latest on a
    living result computed from x, else x's own; None without one."""
    own = (x._cut, x) if x._cut is not None else None
    if x._grad_fn is not None:
        target = x._grad_fn
    else:
        target = x._accum() if x._accum is not None else None
        if target is None:  # no recorded op uses x, so no result was computed from it
            return own
    seen = set()
    for c in dispatch.cut_tensors():
        if c is not x and c._grad_fn is not None and _leads_to(c._grad_fn, target, seen):
            return c._cut, c
    return own


def _leads_to(node, target, seen):
    """Whether the backward graph from ``node`` reaches ``target`` (nodes in ``seen`` are
    known not to, and the ones visited join them)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is target:
            return True
        if n in seen:
            continue
        seen.add(n)
        stack.extend(e[0] for e in getattr(n, "next_edges", ()) if e is not None)
    return False


def _marked_reason(x, label, cut, marked):
    """The Reason of a Cut on ``x`` itself or on ``marked``, a result computed from it."""
    only = marked is x and _unrecorded(x)
    if marked is x:
        subject = f"{label}: it is"
    else:
        node = marked._grad_fn
        made = (f"op {node.op.name!r} at {origin_site(node.origin)}"
                if getattr(node, "origin", None) is not None else f"op {node.name!r}")
        subject = f"{label}: a result computed from it (by {made}) is"
    reason, where, what = _cut_words(cut, only)
    return Reason(x, False, reason, f"{subject} {what}", cut.op, where)


def _cut_words(cut, only=False):
    """(reason, the user's line, what happened: 'used only under no_grad, by op ...')."""
    where = origin_site(cut.origin) or "an unknown line (no user code above it)"
    used = "used only" if only else "used"
    if cut.why == "detach":
        return "detach", where, f"{used} through {cut.op}() at {where}, which cuts the graph"
    if cut.why == "integer":
        return "integer", where, (f"{used} by op {cut.op!r} at {where}, which is not "
                                  f"differentiable (integer or boolean values), so no "
                                  f"gradient flows back through it")
    return "no_grad", where, (f"{used} under no_grad, by op {cut.op!r} at {where}, so "
                              f"nothing was recorded for backward")


def _search(output, x):
    """The recorded path from ``x`` to ``output`` as (records from x's consumer outwards,
    detached): None when anomaly mode recorded no path. ``detached`` is set when the path
    starts at a ``detach()`` of x rather than at x."""
    start = anomaly.record_of(output)
    if start is None:
        return None
    xrec = anomaly.record_of(x)
    seen = set()
    stack = [(start, ())]
    while stack:
        rec, path = stack.pop()
        if id(rec) in seen:
            continue
        seen.add(id(rec))
        path = (rec, *path)
        for entry in rec.inputs:
            if entry is xrec and xrec is not None:
                return path, False
            if isinstance(entry, anomaly.Leaf):
                t = entry.tensor()
                if t is x:
                    return path, False
                if entry.version is x._version and t is not x:
                    return path, True
            elif isinstance(entry, anomaly.Record):
                stack.append((entry, path))
    return None


def _cut(x, label, path, detached):
    first = path[0]
    if detached:
        return Reason(x, False, "detach", f"{label}: a detach() of it (which cuts the graph) is "
                      f"what op {first.op!r} at {first.where} uses", first.op, first.where)
    for rec in path:
        if not rec.grad_enabled:
            return Reason(x, False, "no_grad", f"{label}: op {rec.op!r} on the path ran under "
                          f"no_grad at {rec.where}, so nothing was recorded", rec.op, rec.where)
        if rec.dtype.kind not in "fc":
            return Reason(x, False, "integer", f"{label}: op {rec.op!r} at {rec.where} gives an "
                          f"integer ({rec.dtype.name}) result, through which no gradient flows",
                          rec.op, rec.where)
        out = rec.output()
        if out is not None and out.stop_gradient and rec.needed:
            return Reason(x, False, "stop_gradient", f"{label}: the result of op {rec.op!r} at "
                          f"{rec.where} has stop_gradient=True (set after it was computed), "
                          f"which cuts the path", rec.op, rec.where)
    if x.stop_gradient:
        return Reason(x, False, "stop_gradient", f"{label}: it has stop_gradient=True; set "
                      f"x.stop_gradient = False before computing the output")
    return Reason(x, False, "cut", f"{label}: the path to the output through op "
                  f"{first.op!r} at {first.where} carries no gradient", first.op, first.where)


def why_none(param, output=None) -> str:
    """Why ``param.grad`` is None (after a backward); with ``output``, as :func:`explain`."""
    if not isinstance(param, Tensor):
        raise TypeError(f"why_none: expected a Tensor, got {type(param).__name__}")
    name = param._name or f"tensor of shape {list(param.shape)}"
    if param.grad is not None:
        return f"{name}: its .grad is not None"
    if output is not None:
        return str(explain(output, [param])[0]).replace("input 0", name, 1)
    if param.dtype.np.kind not in "fc":
        return f"{name}: integer tensors get no gradient"
    if param.stop_gradient:
        return (f"{name}: it has stop_gradient=True (a parameter created with trainable=False, "
                f"or frozen), so backward gives it no gradient")
    if param._grad_fn is not None:
        return (f"{name}: it is not a leaf (an op computed it), and backward() fills .grad of "
                f"leaves only; register_hook on it, or use dygrad.grad, to see its gradient")
    uses = [rec for rec in anomaly.all_records()
            if any(isinstance(e, anomaly.Leaf) and e.tensor() is param for e in rec.inputs)]
    if uses:
        cut = [rec for rec in uses if not rec.grad_enabled]
        if cut and len(cut) == len(uses):
            return (f"{name}: it is used only under no_grad, by op {cut[0].op!r} at "
                    f"{cut[0].where}")
    marked = _marked_cut(param)
    if marked is not None and (marked[1] is not param or _unrecorded(param)):
        return _marked_reason(param, name, *marked).message
    if not _unrecorded(param):
        also = f"; it is also {_cut_words(marked[0])[2]}" if marked is not None else ""
        return (f"{name}: ops recorded for backward use it, but backward has not reached it: "
                f"the loss does not depend on those ops, or backward has not run yet (pass the "
                f"output: why_none(param, loss)){also}")
    if dispatch._mark_cuts:
        return f"{name}: no op used it (or only as an index, or through .numpy())"
    return (f"{name}: no op recorded for backward uses it (the forward does not use it, or uses "
            f"it under no_grad, after detach() or through an integer op; with "
            f"errors.set_record_origin(False) the cut is not marked: turn it on, or run the "
            f"forward under dygrad.autograd.detect_anomaly(), to name the op and line)")
