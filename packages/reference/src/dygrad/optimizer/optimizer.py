"""The optimizer base class, as Paddle's ``paddle.optimizer.Optimizer``.

An optimizer holds the parameters it updates, in one or more *parameter groups* (a list of
dicts with their own options), the learning rate (a float or an
:class:`~dygrad.optimizer.lr.LRScheduler`) and per-parameter state (Adam's moments, ...)
called *accumulators*. ``step()`` updates every parameter that has a gradient:

1. the gradient is read from ``param.grad`` (``loss.backward()`` put it there);
2. gradient clipping (``grad_clip``, e.g. ``paddle.nn.ClipGradByGlobalNorm``) rescales the
   gradients of the group, when set;
3. weight decay adds its term: the parameter's own regularizer (``ParamAttr(regularizer=)``)
   or else the optimizer's ``weight_decay`` (a float is ``L2Decay(float)``); a parameter
   group's ``weight_decay`` becomes its parameters' regularizer, as in Paddle;
   ``param.grad`` itself is left alone by clipping and decay;
4. the subclass's update op of the table (``sgd_``, ``adam_``, ...) runs on the parameter,
   the gradient, the learning rate (times the parameter's multiplier,
   ``ParamAttr(learning_rate=...)`` or its group's ``'learning_rate'``) and the
   accumulators, and updates them in place; the parameter's version is bumped.

A step costs little more than its kernels: the rate is read once per group, and the
update op's kernel runs directly on the arrays (see :meth:`Optimizer._run_op`).
"""

from __future__ import annotations

import numpy as np

from .._core import dispatch
from .._core import errors as _errors
from .._core import program as _program
from .._core.autograd import no_grad
from .._core.creation import to_array
from .._core.dispatch import ops
from .._core.engine import on_engine_change
from .._core.optable import TABLE
from .._core.tensor import Tensor
from ..nn.clip import ClipGradBase
from ..regularizer import L2Decay, WeightDecayRegularizer
from .lr import LambdaDecay, LRScheduler


def _as_regularizer(weight_decay, api="Optimizer"):
    """None, a float (L2 decay coefficient) or a regularizer -> None or a regularizer."""
    if weight_decay is None or isinstance(weight_decay, WeightDecayRegularizer):
        return weight_decay
    if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)):
        raise TypeError(f"{api}: weight_decay must be a float (the L2 decay coefficient), "
                        f"paddle.regularizer.L1Decay/L2Decay or None, got "
                        f"{type(weight_decay).__name__}")
    return L2Decay(float(weight_decay))


class Optimizer:
    """Base class of the optimizers. A subclass lists its accumulators in
    ``_accumulator_names``, its options and their defaults in ``_default_dict`` (which
    parameter groups may override), and defines ``_update(param, grad, lr, group)``, which
    calls its op through :meth:`_run_op`."""

    _accumulator_names: tuple = ()

    def __init_subclass__(cls, **kwargs):
        """dygrad's optimizers' constructors point their refusals at the user's line."""
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__ and cls.__module__.startswith("dygrad."):
            cls.__init__ = _errors.checks_arguments(cls.__init__)

    @_errors.checks_arguments
    def __init__(self, learning_rate, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        if parameters is None and _program.in_static_mode():
            parameters = []  # static mode: minimize() finds the program's parameters
        if parameters is None:
            raise AttributeError("parameters argument given to the Optimizer should not be "
                                 "None in dygraph mode.")
        if isinstance(parameters, Tensor):
            raise TypeError(f"`parameters` argument given to the optimizer should be an "
                            f"iterable of paddle Tensors, but got argument type is "
                            f"`{type(parameters)}`.")
        if isinstance(parameters, dict):
            raise TypeError("`parameters` argument should not get dict type, if parameter "
                            "groups is needed, please set `parameters` as list of dict")
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, (float, LRScheduler)):
            raise TypeError(f"learning rate should be float or LRScheduler, got "
                            f"{type(learning_rate)} here")
        self._check_grad_clip(grad_clip)
        self._learning_rate = learning_rate
        self._regularization = _as_regularizer(weight_decay, type(self).__name__)
        self._grad_clip = grad_clip
        self._name = name
        self._default_dict = {"weight_decay": self._regularization, "grad_clip": grad_clip}
        self._parameter_list = list(parameters)
        self._accumulators = {acc: {} for acc in self._accumulator_names}
        self._pending_state = {}  # set_state_dict values for accumulators not yet created
        self._lr_cache = {}       # (rate, multiplier, dtype) -> learning-rate tensor
        self._multi_precision = False
        self._param_groups = []
        if self._parameter_list and isinstance(self._parameter_list[0], dict):
            for group in self._parameter_list:
                self._add_param_group(dict(group))
        else:
            self._param_groups.append({"params": self._check_params(self._parameter_list),
                                       "grad_clip": grad_clip})

    @staticmethod
    def _check_grad_clip(grad_clip):
        if grad_clip is not None and not isinstance(grad_clip, ClipGradBase):
            raise TypeError("'grad_clip' should be an instance of GradientClipBase's derived "
                            "class (paddle.nn.ClipGradByValue, ClipGradByNorm or "
                            "ClipGradByGlobalNorm)")
        return grad_clip

    @staticmethod
    def _check_params(params):
        if isinstance(params, Tensor):
            return [params]
        if isinstance(params, set):
            raise TypeError("optimizer parameters should be in ordered collections,but "
                            "received set, please use list instead.")
        params = list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer parameters must be Tensors (e.g. "
                                f"layer.parameters()), got {type(p).__name__}")
        return params

    def _add_param_group(self, group):
        """Add a parameter group: {'params': [...], 'learning_rate': multiplier,
        'weight_decay': ..., 'grad_clip': clip, and the optimizer's own options (Adam's
        'beta1', ...)}; options not given take the optimizer's."""
        if "params" not in group:
            raise ValueError("params should be set in parameters if parameter groups are "
                             "optimized in different options")
        group["params"] = self._check_params(group["params"])
        group.setdefault("grad_clip", self._grad_clip)
        self._check_grad_clip(group["grad_clip"])
        seen = {id(p) for g in self._param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self._group_weight_decay(group)
        for p in group["params"]:  # as Paddle: the group's rate becomes the parameter's own
            if getattr(p, "optimize_attr", None) is None:
                p.optimize_attr = {}
            p.optimize_attr["learning_rate"] = group.get("learning_rate", 1.0)
        self._param_groups.append(group)

    def _group_weight_decay(self, group):
        """As Paddle: a group's weight decay (default: the optimizer's) becomes the
        regularizer of each of its parameters."""
        decay = _as_regularizer(group.get("weight_decay", self._regularization),
                                type(self).__name__)
        group["weight_decay"] = decay
        for p in group["params"]:
            p.regularizer = decay

    def _option(self, group, key):
        """Option ``key`` of a parameter group, or the optimizer's."""
        return group.get(key, self._default_dict[key])

    # -- learning rate -----------------------------------------------------------------
    def get_lr(self) -> float:
        """The current learning rate (the scheduler's, when one is used)."""
        if isinstance(self._learning_rate, LRScheduler):
            return self._learning_rate()
        return self._learning_rate

    def set_lr(self, value):
        """Set the learning rate (a number); refused while a scheduler is in use."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"The type of 'value' in optimizer.set_lr must be float, but "
                            f"received {type(value)}.")
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError("optimizer's learning rate can't be LRScheduler when invoke this "
                               "API, because this will lead to conflict.")
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler):
        """Use ``scheduler`` as the learning rate from now on."""
        if not isinstance(scheduler, LRScheduler):
            raise TypeError(f"The type of 'scheduler' in optimizer.set_lr_scheduler must be "
                            f"LRScheduler, but received {type(scheduler)}.")
        self._learning_rate = scheduler

    def _param_lr(self, p, rate=None):
        """The learning rate of ``p`` as a one-element tensor of its dtype: the global rate
        (``rate``, else ``get_lr()``) times the parameter's multiplier, each first cast to
        that dtype."""
        mult = (getattr(p, "optimize_attr", None) or {}).get("learning_rate", 1.0)
        dtype = p._data.dtype
        if isinstance(p, _program.Variable) and isinstance(self._learning_rate, LRScheduler):
            return self._static_lr(mult, dtype)
        key = (self.get_lr() if rate is None else rate, mult, dtype)
        lr = self._lr_cache.get(key)
        if lr is None:
            value = dtype.type(key[0])
            if mult != 1.0:
                value = value * dtype.type(mult)
            if len(self._lr_cache) > 64:  # a scheduler's rates: keep only recent ones
                self._lr_cache.clear()
            lr = self._lr_cache[key] = Tensor._wrap(to_array([value], dtype))
        return lr

    # -- updating ----------------------------------------------------------------------
    def step(self):
        """Update every parameter that has a gradient (call after ``loss.backward()``)."""
        with no_grad():
            for group in self._param_groups:
                pairs = [(p, p._grad) for p in group["params"]
                         if not p.stop_gradient and p._grad is not None]
                self._apply_optimize(pairs, group)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Update the parameters from the gradients that ``loss.backward()`` computed (as in
        Paddle's dygraph mode, ``minimize`` does not run backward itself). Returns
        ``([], [(param, grad), ...])``."""
        if not isinstance(loss, Tensor):
            raise TypeError(f"minimize: loss must be a Tensor, got {type(loss).__name__}")
        if isinstance(loss, _program.Variable):
            return self._static_minimize(loss, parameters, no_grad_set)
        skip = set()
        for v in no_grad_set or ():
            skip.add(v if isinstance(v, str) else id(v))
        chosen = None if not parameters else {id(p) for p in parameters}
        params_grads = []
        with no_grad():
            for group in self._param_groups:
                pairs = [(p, p.grad) for p in group["params"]
                         if p.grad is not None and (chosen is None or id(p) in chosen)
                         and id(p) not in skip and p.name not in skip]
                self._apply_optimize(pairs, group)
                params_grads += pairs
        return [], params_grads

    def _static_minimize(self, loss, parameters, no_grad_set):
        """Static mode: append the backward ops, then the update ops, to the loss's program
        (the parameter groups' options apply to their parameters; the optimizer's own to
        the program's other parameters). A scheduler's rate is read at every run."""
        from ..static import append_backward
        chosen = parameters or [p for g in self._param_groups for p in g["params"]] or None
        params_grads = append_backward(loss, chosen, no_grad_set)
        program = loss.block.program
        default = {"params": [], "grad_clip": self._grad_clip, **self._default_dict}
        by_group = {}
        for p, g in params_grads:
            group = next((grp for grp in self._param_groups
                          if any(q is p for q in grp["params"])), default)
            by_group.setdefault(id(group), (group, []))[1].append((p, g))
        with _program._appending_to(program), program._op_role("optimize"), no_grad():
            for group, pairs in by_group.values():
                self._apply_optimize(pairs, group)
        return [], params_grads

    def _static_lr(self, mult, dtype):
        """Static mode with a scheduler: a variable of the program that the Executor sets to
        the scheduler's rate before every run (times ``mult``, in ``dtype``)."""
        from ..static import create_global_var
        program = _program.state.main
        key = ("lr", id(self), np.dtype(dtype).name)
        var = program._refresh_vars.get(key)
        if var is None:
            var = create_global_var([1], self.get_lr(), np.dtype(dtype).name,
                                    name=_program.unique_name("learning_rate"))
            program._refresh_vars[key] = var
            program._refresh.append((var._data, lambda d=np.dtype(dtype): np.array(
                [self.get_lr()], dtype=d)))
        return var if mult == 1.0 else ops.scale(var, scale=float(mult))

    def _apply_optimize(self, params_grads, group):
        clip = group["grad_clip"]
        if clip is not None and params_grads:
            params_grads = clip(params_grads)
        rate = self.get_lr()  # once per step: a scheduler's call is not free
        done = 0
        if (_update_params is not None and _check_update is None and params_grads
                and self._regularization is None
                and not isinstance(params_grads[0][0], _program.Variable)):
            rule = self._fused_rule(group)
            if rule is not None:
                done = _update_params(rule[0], params_grads, self._param_lr(params_grads[0][0], rate),
                                      *rule[1:])
        for p, g in params_grads[done:]:
            self._update(p, self._regularized_grad(p, g), self._param_lr(p, rate), group)

    def _fused_rule(self, group):
        """How the engine's update of many parameters in one call (``update_params``, see
        :func:`_use_engine`) does ``_update`` for ``group``'s parameters without a
        regularizer: ``(op name, attributes, accumulator stores before the learning rate,
        stores after it)``, or None (this base class: always ``_update``)."""
        return None

    def _regularizer(self, p):
        """The regularizer that applies to ``p``: its own, else the optimizer's."""
        own = getattr(p, "regularizer", None)
        return own if own is not None else self._regularization

    def _regularized_grad(self, p, g):
        """The gradient plus the weight-decay term of ``p``'s regularizer."""
        reg = self._regularizer(p)
        return g if reg is None else ops.add(g, reg(p, g))

    def _update(self, p, grad, lr, group):
        """Run the update op on ``p`` (a Tensor), ``grad`` (a Tensor) and ``lr``."""
        raise NotImplementedError(f"{type(self).__name__} does not define its update rule")

    def _run_op(self, op_name, p, grad, lr, accumulators, **attrs):
        """Run update op ``op_name`` of the table. Its kernel writes into the parameter's
        and the accumulators' arrays; an engine that returns new arrays instead is followed
        by rebinding them.

        This is ``ops.<op_name>(p, grad, lr, *accumulators, **attrs)`` without the Tensors
        that would wrap the outputs, which are the inputs again: the engine's kernel runs
        on the arrays, and a failure is explained by the row's ``infer_meta`` as ``apply``
        does (an update is not differentiable, so there is nothing to record)."""
        if isinstance(p, _program.Variable):  # static mode: append the update op
            _program.append_update(op_name, p, grad, lr, accumulators, attrs)
            return
        arrays = [p._data, grad._data, lr._data, *[t._data for t in accumulators]]
        try:
            outs = dispatch._kernels[op_name](*arrays, **attrs)
        except Exception as exc:
            dispatch._explain(TABLE[op_name], exc, arrays, attrs)
            raise
        if type(outs) is not tuple:
            outs = (outs,)
        for t, out in zip((p, *accumulators), outs):
            if out is not t._data:
                t._data = dispatch._ensure(out)
        p._bump()
        if _check_update is not None:
            _check_update(op_name, p, accumulators)

    def clear_grad(self, set_to_zero=True):
        """Clear the gradients of the parameters: zero them (default), or drop them with
        ``set_to_zero=False``."""
        for group in self._param_groups:
            if _clear_grads is not None:  # the engine's compiled equivalent of the loop
                _clear_grads(group["params"], set_to_zero)
                continue
            for p in group["params"]:
                if not p.stop_gradient:
                    p.clear_gradient(set_to_zero)

    clear_gradients = clear_grad

    # -- state -------------------------------------------------------------------------
    def _accumulator(self, name, p, fill=0.0, shape=None):
        """The accumulator ``name`` of parameter ``p`` (a Tensor in ``p``'s dtype, of
        ``p``'s shape unless given), created filled with ``fill`` on first use, or with the
        value that ``set_state_dict`` left for it."""
        store = self._accumulators[name]
        acc = store.get(p.name)
        if acc is None:
            key = self._state_key(name, p)
            shape = tuple(p._data.shape) if shape is None else tuple(shape)
            if isinstance(p, _program.Variable):  # static: the startup program fills it
                acc = store[p.name] = _program.create_persistable(
                    key, shape, p._data.dtype,
                    lambda: ops.full(shape=shape, fill_value=fill, dtype=p._data.dtype))
                return acc
            if key in self._pending_state:
                acc = Tensor._wrap(self._state_array(key, self._pending_state.pop(key), shape,
                                                     p._data.dtype))
            elif self._pending_state:
                raise KeyError(f"Optimizer set error, {key} should in state dict (the state "
                               f"dict given to set_state_dict has no entry for it)")
            else:
                acc = ops.full(shape=shape, fill_value=fill, dtype=p._data.dtype)
            acc.name = key
            acc.persistable = True
            store[p.name] = acc
        return acc

    def _state_key(self, name, p):
        """Paddle's name of an accumulator: '<param>_<accumulator>_0', with the optimizer's
        ``name`` inserted when it has one ('<param>_<name>_<accumulator>_0')."""
        prefix = f"{self._name}_" if self._name else ""
        return f"{p.name}_{prefix}{name}_0"

    @staticmethod
    def _state_array(key, value, shape, dtype):
        array = to_array(value, dtype)
        if tuple(array.shape) != tuple(shape):
            raise ValueError(f"set_state_dict: {key} receives a shape {list(array.shape)}, but "
                             f"the expected shape is {list(shape)}.")
        return array

    def state_dict(self) -> dict:
        """{name: Tensor} of the accumulators (e.g. 'linear_0.w_0_moment1_0'), grouped by
        kind in Paddle's order, the tensors themselves (later steps change them); plus
        'LR_Scheduler', the scheduler's state, when the learning rate is a scheduler."""
        state = {acc.name: acc for store in self._accumulators.values()
                 for acc in store.values()}
        if isinstance(self._learning_rate, LRScheduler):
            state["LR_Scheduler"] = self._learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict):
        """Load a state saved by ``state_dict()`` (Tensors or arrays; copied): the
        scheduler's at once, existing accumulators at once, the others when their parameter
        is first updated."""
        state = dict(state_dict)
        lr_state = state.pop("LR_Scheduler", None)
        state.pop("master_weights", None)
        if isinstance(self._learning_rate, LRScheduler):
            if lr_state is None and not isinstance(self._learning_rate, LambdaDecay):
                raise AssertionError("LR_Scheduler state must be included in the state dict "
                                     "except LambdaDecay")
        loads = []  # check every existing accumulator's value before changing any
        for store in self._accumulators.values():
            for acc in store.values():
                if acc.name not in state:
                    raise KeyError(f"optimizer Tensor {acc.name} not found")
                loads.append((acc, self._state_array(acc.name, state.pop(acc.name),
                                                     acc._data.shape, acc._data.dtype)))
        if lr_state and isinstance(self._learning_rate, LRScheduler):
            self._learning_rate.set_state_dict(lr_state)
        for acc, array in loads:
            acc._data[...] = array
        self._pending_state = state

    load_state_dict = set_state_dict


# The engine's ``fast_paths['update_params']``, if it has one: ``update_params(op, pairs, lr,
# attrs, before, after)`` runs ``_update``'s op on the leading (parameter, gradient) pairs
# that it can (no regularizer, a multiplier of 1, accumulators made) and says how many;
# ``_apply_optimize`` does the rest one by one.
_update_params = None
# Anomaly mode's check of an update's results (``anomaly.check_update``), while the mode is
# on (the fused ``_update_params`` then steps aside); None, and no cost, while it is off.
_check_update = None


# The engine's ``clear_grads(params, set_to_zero)``: ``clear_grad``'s loop over a group, or
# None.
_clear_grads = None


def _use_engine(engine):
    global _update_params, _clear_grads
    fast = engine.fast_paths or {}
    _update_params, _clear_grads = fast.get("update_params"), fast.get("clear_grads")


on_engine_change(_use_engine)
