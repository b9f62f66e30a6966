"""``fluid.optimizer``: Paddle 1.x's optimizers in dygraph mode, the 2.x optimizers under the
1.x signatures (``parameter_list``, ``regularization``).

Without a ``parameter_list`` (Paddle 1.4's dygraph, as the seed writes
``SGDOptimizer(learning_rate=1e-3)``), ``minimize(loss)`` updates every trainable parameter
that ``loss`` was computed from (found by walking its graph), as 1.4 updated the parameters
its tracer had seen. ``minimize`` uses the gradients ``loss.backward()`` left, as in 1.x
dygraph.
"""

from __future__ import annotations

from .. import optimizer as _opt
from .._core.autograd import AccumulateGrad
from .._core.tensor import Parameter, Tensor

__all__ = ["SGD", "SGDOptimizer", "Momentum", "MomentumOptimizer", "Adam", "AdamOptimizer"]


def _parameters_of(loss):
    """The trainable Parameters that ``loss``'s graph reaches, in the order found."""
    found, seen, stack = [], set(), [loss.grad_fn] if loss.grad_fn is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, AccumulateGrad):
            if isinstance(node.tensor, Parameter) and node.tensor.trainable:
                found.append(node.tensor)
            continue
        stack.extend(edge[0] for edge in node.next_edges if edge is not None)
    return found


def _rate(learning_rate):
    if isinstance(learning_rate, int) and not isinstance(learning_rate, bool):
        return float(learning_rate)
    return learning_rate


class _Fluid:
    """The 1.x behaviour shared by the optimizers of this module (see the module doc)."""

    def _follow(self, parameter_list):
        self._follow_loss = parameter_list is None
        return [] if parameter_list is None else parameter_list

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        """Update the parameters (``parameter_list``, else the optimizer's) from their
        gradients; returns ([], [(param, grad), ...])."""
        if not isinstance(loss, Tensor):
            raise TypeError(f"minimize: loss must be a Variable, got {type(loss).__name__}")
        if self._follow_loss:
            group = self._param_groups[0]["params"]
            known = {id(p) for p in group}
            group.extend(p for p in _parameters_of(loss) if id(p) not in known)
        return super().minimize(loss, startup_program, parameter_list, no_grad_set)


class SGDOptimizer(_Fluid, _opt.SGD):
    """param -= learning_rate * grad."""

    def __init__(self, learning_rate, parameter_list=None, regularization=None, grad_clip=None,
                 name=None):
        super().__init__(_rate(learning_rate), self._follow(parameter_list), regularization,
                         grad_clip, name=name)


class MomentumOptimizer(_Fluid, _opt.Momentum):
    """velocity = momentum * velocity + grad; param -= learning_rate * velocity (Nesterov's
    form with ``use_nesterov``)."""

    def __init__(self, learning_rate, momentum, parameter_list=None, use_nesterov=False,
                 regularization=None, grad_clip=None, name=None):
        super().__init__(_rate(learning_rate), momentum, self._follow(parameter_list),
                         use_nesterov, regularization, grad_clip, name=name)


class AdamOptimizer(_Fluid, _opt.Adam):
    """Adam (Kingma and Ba) with bias-corrected moments."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameter_list=None, regularization=None, grad_clip=None, name=None,
                 lazy_mode=False):
        super().__init__(_rate(learning_rate), beta1, beta2, epsilon,
                         self._follow(parameter_list), regularization, grad_clip, lazy_mode,
                         name=name)


SGD = SGDOptimizer
Momentum = MomentumOptimizer
Adam = AdamOptimizer
