"""step_backward: the backward walk one node at a time, for learners.

It is :func:`dygrad._core.autograd.run_backward` (the ``backward()`` case: gradients
accumulate into the leaves' ``.grad``) written as a generator: the same dependency
counts, the same order, the same gradient rules and hooks.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._core import autograd as _autograd
from .._core.dispatch import ops
from .._core.tensor import Tensor


@dataclass
class BackwardStep:
    """One node of the walk: ``grads_in`` arrived for its outputs, ``grads_out`` leave for
    its inputs (None where an input needs no gradient). ``leaf`` is the tensor whose
    ``.grad`` an AccumulateGrad node has just updated."""

    index: int
    node: object
    grads_in: list
    grads_out: list
    leaf: Tensor | None = None

    @property
    def name(self) -> str:
        return self.node.name

    def __str__(self):
        def fmt(gs):
            return ", ".join("None" if g is None else f"{list(g.shape)}" for g in gs)
        head = f"step {self.index}: {self.name}"
        if self.leaf is not None:
            return f"{head} -> {self.leaf.name} grad {fmt(self.grads_in)}"
        return f"{head}  in: [{fmt(self.grads_in)}]  out: [{fmt(self.grads_out)}]"


def step_backward(loss, grad_tensor=None, retain_graph=False):
    """Yield a :class:`BackwardStep` per node as ``loss.backward(grad_tensor, retain_graph)``
    would run it; leaves get their ``.grad`` as backward gives it. Exhaust the generator
    to finish the walk."""
    if not isinstance(loss, Tensor):
        raise TypeError(f"step_backward: expected a Tensor, got {type(loss).__name__}")
    if loss.stop_gradient:
        raise _autograd.BackwardError(
            f"step_backward: the tensor (shape {list(loss.shape)}) has stop_gradient=True, so "
            f"no input of it needs a gradient")
    g = ops.full_like(loss, fill_value=1) if grad_tensor is None else grad_tensor
    if list(g.shape) != list(loss.shape):
        raise ValueError(f"step_backward: grad_tensor has shape {list(g.shape)} but the tensor "
                         f"has shape {list(loss.shape)}")
    start, idx = _autograd.edge_of(loss)
    deps, stack, seen = {}, [start], set()
    while stack:  # dependency counts over the reachable graph
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for edge in node.next_edges:
            if edge is not None:
                deps[edge[0]] = deps.get(edge[0], 0) + 1
                if edge[0] not in seen:
                    stack.append(edge[0])
    buffers = {start: [None] * start.n_outputs}
    buffers[start][idx] = g
    ready, step = [start], 0
    while ready:
        node = ready.pop()
        grads = buffers.pop(node, None) or [None] * node.n_outputs
        for i, fns in (node.pre_hooks or {}).items():
            if grads[i] is not None:
                for fn in list(fns.values()):
                    out = fn(grads[i])
                    if out is not None:
                        grads[i] = out
        with _autograd.no_grad():  # as run_backward: no graph of the gradients
            out = _run(node, grads, retain_graph, buffers, deps, ready)
        if out is None:
            yield BackwardStep(step, node, list(grads), [], node.tensor)
        else:
            yield BackwardStep(step, node, list(grads), out)
        step += 1


def _run(node, grads, retain_graph, buffers, deps, ready):
    """Run one node; None for an AccumulateGrad node, else the gradients sent to its inputs."""
    if isinstance(node, _autograd.AccumulateGrad):
        if grads[0] is not None:
            node.accumulate(grads[0], False)
        return None
    if any(x is not None for x in grads):
        out = list(node.apply(grads, retain_graph))
    else:
        out = [None] * len(node.next_edges)
    for k, (edge, gi) in enumerate(zip(node.next_edges, out)):
        if edge is None:
            out[k] = None
            continue
        child, i = edge
        if gi is not None:
            buf = buffers.setdefault(child, [None] * child.n_outputs)
            buf[i] = gi if buf[i] is None else buf[i] + gi
        deps[child] -= 1
        if deps[child] == 0:
            ready.append(child)
    return out
