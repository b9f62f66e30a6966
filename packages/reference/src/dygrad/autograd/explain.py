"""explain and why_none: whether a gradient reaches a tensor, and if not, why.

What the tape alone tells: which leaves and intermediate results the output's graph
reaches, an input's own ``stop_gradient`` and dtype, and whether any recorded op used a
leaf at all. Where the path was cut (``no_grad``, ``detach()``, an integer op,
``stop_gradient`` set on an intermediate result), and on which line, is known for the
ops that ran in anomaly mode (:func:`detect_anomaly`), which records each op's inputs,
line and Layer.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        return Reason(x, False, "stop_gradient", f"{label}: it has stop_gradient=True; set "
                      f"x.stop_gradient = False before computing the output")
    if anomaly.record_of(output) is not None:
        return Reason(x, False, "not_used", f"{label}: the output does not depend on it "
                      f"(not used on any path to the output)")
    if x._grad_fn is None and (x._accum is None or x._accum() is None):
        return Reason(x, False, "not_used", f"{label}: no op recorded for backward uses it (it "
                      f"is unused, or used only under no_grad, after detach() or through an "
                      f"integer op; run the forward under dygrad.autograd.detect_anomaly() "
                      f"to name the op and line)")
    return Reason(x, False, "cut", f"{label}: it is used by recorded ops, but none on a path "
                  f"to the output (the path is cut by no_grad, detach(), an integer op or "
                  f"stop_gradient; run the forward under dygrad.autograd.detect_anomaly() to "
                  f"name the op and line)")


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
    accum = param._accum() if param._accum is not None else None
    if accum is not None:
        return (f"{name}: ops recorded for backward use it, but backward has not reached it: "
                f"the loss does not depend on those ops, or backward has not run yet (pass the "
                f"output: why_none(param, loss))")
    return (f"{name}: no op recorded for backward uses it (the forward does not use it, or uses "
            f"it under no_grad, after detach() or through an integer op; run the forward under "
            f"dygrad.autograd.detect_anomaly() to name the op and line)")
