"""append_backward and gradients: the eager backward walk, run in static mode.

While a program is built, every op that needs a gradient records the same autograd Node
as in eager mode. Walking those nodes from the loss with static mode on runs the table's
gradient rules, whose ops append themselves to the program: the backward part of the
program is the gradient rules themselves, written down instead of run.
"""

from __future__ import annotations

from .._core import autograd
from .._core.program import Variable, _appending_to, variable_of


def _check_var(x, api, arg):
    if not isinstance(x, Variable):
        raise TypeError(f"{api}: {arg} must be a static Variable (built in static mode), got "
                        f"{type(x).__name__}")


def _walk(targets, target_grads, inputs, no_grad_set, create_graph=False):
    """The gradients of ``targets`` w.r.t. ``inputs`` as new Variables (None where no
    path leads), appended to the targets' program as 'backward' ops. ``create_graph``
    records the backward ops too, so that their gradients can be taken in turn."""
    program = targets[0].block.program
    blocked = []
    if no_grad_set:
        names = {v if isinstance(v, str) else v.name for v in no_grad_set}
        blocked = [v for v in program.list_vars() if v.name in names]
    with _appending_to(program), program._op_role("backward"):
        seeds = [g if g is not None else autograd._dispatch.ops.full_like(t, fill_value=1.0)
                 for t, g in zip(targets, target_grads)]
        for t in targets:
            if t.stop_gradient:
                raise ValueError(f"gradients: {t.name!r} does not depend on any variable that "
                                 f"needs a gradient (stop_gradient=True)")
        walk = autograd.REFERENCE_PATHS["run_backward"]
        grads = walk(targets, seeds, retain_graph=True, create_graph=create_graph,
                     inputs=inputs, allow_unused=True, no_grad_vars=blocked)
    return [None if g is None else variable_of(g._data) for g in grads]


def _name_grad(g, x):
    """Call a gradient variable '<x>@GRAD', as Paddle does, when the backward made it."""
    if g is not None and g.name != f"{x.name}@GRAD" and not g.persistable \
            and not g._data.is_data and g._data.const is None \
            and not g.block.has_var(f"{x.name}@GRAD"):
        g.name = f"{x.name}@GRAD"


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None,
                    checkpoints=None):
    """Append the ops that compute the gradient of ``loss`` to its program; returns
    ``[(parameter, gradient), ...]`` for the trainable parameters (or those of
    ``parameter_list``, Variables or names) that ``loss`` depends on. Each gradient is the
    variable '<parameter name>@GRAD'."""
    _check_var(loss, "append_backward", "loss")
    program = loss.block.program
    if parameter_list is None:
        params = [p for p in program.all_parameters() if p.trainable]
    else:
        by_name = {p.name: p for p in program.all_parameters()}
        params = []
        for p in parameter_list:
            name = p if isinstance(p, str) else p.name
            if name not in by_name:
                raise ValueError(f"append_backward: parameter_list names {name!r}, which is "
                                 f"not a parameter of the loss's program")
            params.append(by_name[name])
    skip = {v if isinstance(v, str) else v.name for v in no_grad_set or ()}
    params = [p for p in params if p.name not in skip]
    grads = _walk([loss], [None], params, no_grad_set) if params else []
    pairs = []
    for p, g in zip(params, grads):
        _name_grad(g, p)
        if g is not None:
            pairs.append((p, g))
    return pairs


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """The gradients of the sum of ``targets`` w.r.t. each of ``inputs``, as Variables of
    the program (None for an input that the targets do not depend on)."""
    targets = [targets] if isinstance(targets, Variable) else list(targets)
    inputs = [inputs] if isinstance(inputs, Variable) else list(inputs)
    for t in targets:
        _check_var(t, "gradients", "targets")
    for x in inputs:
        _check_var(x, "gradients", "inputs")
    if target_gradients is None:
        target_gradients = [None] * len(targets)
    elif isinstance(target_gradients, Variable):
        target_gradients = [target_gradients]
    if len(target_gradients) != len(targets):
        raise ValueError(f"gradients: {len(target_gradients)} target_gradients for "
                         f"{len(targets)} targets")
    grads = _walk(targets, list(target_gradients), inputs, no_grad_set, create_graph=True)
    for g, x in zip(grads, inputs):
        _name_grad(g, x)
    return grads
