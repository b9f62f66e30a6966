"""paddle.autograd: ``backward``, ``grad``, ``PyLayer`` and the grad-mode switches.

All of them drive the one backward walk of :mod:`dygrad._core.autograd`.
"""

from __future__ import annotations

from .._core import autograd as _autograd
from .._core.autograd import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .._core.creation import to_tensor
from .._core.dispatch import ops
from .._core.tensor import Tensor
from .anomaly import AnomalyError, detect_anomaly
from .explain import Reason, explain, why_none
from .py_layer import PyLayer, PyLayerContext
from .stepping import BackwardStep, step_backward

__all__ = ["backward", "grad", "PyLayer", "PyLayerContext", "no_grad", "enable_grad",
           "set_grad_enabled", "is_grad_enabled", "detect_anomaly", "AnomalyError", "explain",
           "why_none", "Reason", "step_backward", "BackwardStep"]


def _as_list(x, what):
    if isinstance(x, Tensor):
        return [x], True
    if isinstance(x, (list, tuple)) and all(isinstance(t, Tensor) for t in x):
        return list(x), False
    raise TypeError(f"{what}: expected a Tensor or a list/tuple of Tensors, got {type(x).__name__}")


def _grads_for(outputs, grad_outputs, what):
    """One gradient per output: ones (Paddle's default) where none is given."""
    if grad_outputs is None:
        return [ops.full_like(t, fill_value=1) for t in outputs]
    if isinstance(grad_outputs, Tensor):
        grad_outputs = [grad_outputs]
    grad_outputs = list(grad_outputs)
    if len(grad_outputs) != len(outputs):
        raise ValueError(f"{what}: got {len(grad_outputs)} gradients for {len(outputs)} outputs")
    out = []
    for t, g in zip(outputs, grad_outputs):
        if g is None:
            g = ops.full_like(t, fill_value=1)
        elif not isinstance(g, Tensor):
            g = to_tensor(g, dtype=t.dtype)
        out.append(g)
    return out


def backward(tensors, grad_tensors=None, retain_graph=False):
    """Accumulate into ``.grad`` of the leaves the gradients of several ``tensors`` at once
    (one walk, so shared parts of the graph run once)."""
    tensors, _ = _as_list(tensors, "paddle.autograd.backward")
    grads = _grads_for(tensors, grad_tensors, "paddle.autograd.backward")
    _autograd.run_backward(tensors, grads, retain_graph=retain_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, no_grad_vars=None):
    """Gradients of ``outputs`` with respect to ``inputs``, returned (``.grad`` untouched).

    With ``create_graph=True`` the gradients carry their own graph, so they can be
    differentiated again (second and higher derivatives).
    """
    outputs, _ = _as_list(outputs, "paddle.grad outputs")
    inputs, single = _as_list(inputs, "paddle.grad inputs")
    if not only_inputs:
        raise ValueError("paddle.grad: only_inputs=False is not supported (as in Paddle 2.x)")
    if retain_graph is None:
        retain_graph = create_graph
    if no_grad_vars is not None:
        no_grad_vars, _ = _as_list(no_grad_vars, "paddle.grad no_grad_vars")
    grads = _grads_for(outputs, grad_outputs, "paddle.grad")
    result = _autograd.run_backward(outputs, grads, retain_graph=retain_graph,
                                    create_graph=create_graph,
                                    inputs=inputs, allow_unused=allow_unused,
                                    no_grad_vars=no_grad_vars)
    return result
