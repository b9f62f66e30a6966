"""The optimizer base class, as Paddle's ``paddle.optimizer.Optimizer``.

An optimizer holds the parameters it updates, in one or more *parameter groups* (a list of
dicts with their own options), the learning rate and per-parameter state (Adam's moments,
...) called *accumulators*. ``step()`` updates every parameter that has a gradient:

1. the gradient is read from ``param.grad`` (``loss.backward()`` put it there);
2. gradient clipping (``grad_clip``, e.g. ``paddle.nn.ClipGradByGlobalNorm``) rescales the
   gradients of the group, when set;
3. L2 weight decay, when set, is added: ``g + weight_decay * param`` (Paddle's L2Decay;
   ``param.grad`` itself is left alone by both);
4. the subclass's rule (``_update``) changes the parameter's data in place, with the
   learning rate times the parameter's own multiplier (``ParamAttr(learning_rate=...)`` or
   its group's ``'learning_rate'``).

Updates work on the parameters' engine arrays under ``no_grad`` and bump their versions;
scalars are cast to the parameter's dtype first so the arithmetic is the parameter's own
(float32 for float32 parameters), as Paddle's kernels do it.
"""

from __future__ import annotations

from .._core.autograd import no_grad
from .._core.creation import to_array
from .._core.dispatch import ops
from .._core.tensor import Tensor
from ..nn.clip import ClipGradBase


class Optimizer:
    """Base class of the optimizers: subclasses define ``_update(param, grad, lr, group)``
    and list their accumulators in ``_accumulator_names``."""

    _accumulator_names: tuple = ()

    def __init__(self, learning_rate, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
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
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, float):
            raise TypeError(f"learning rate should be float or LRScheduler, got "
                            f"{type(learning_rate)} here")
        self._check_grad_clip(grad_clip)
        self._learning_rate = learning_rate
        self._weight_decay = self._check_weight_decay(weight_decay)
        self._grad_clip = grad_clip
        self._name = name
        self._parameter_list = list(parameters)
        self._accumulators = {acc: {} for acc in self._accumulator_names}
        self._pending_state = {}  # set_state_dict values for accumulators not yet created
        self._param_groups = []
        if self._parameter_list and isinstance(self._parameter_list[0], dict):
            for group in self._parameter_list:
                self._add_param_group(dict(group))
        else:
            self._param_groups.append({"params": self._check_params(self._parameter_list)})

    @staticmethod
    def _check_weight_decay(weight_decay):
        if weight_decay is None:
            return None
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)):
            raise TypeError(f"weight_decay: only a float (the L2 decay coefficient) or None is "
                            f"supported, got {type(weight_decay).__name__}")
        return float(weight_decay)

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
        'weight_decay': float, 'grad_clip': clip, and the optimizer's own options (Adam's
        'beta1', ...)}; options not given take the optimizer's."""
        if "params" not in group:
            raise ValueError("params should be set in parameters if parameter groups are "
                             "optimized in different options")
        group["params"] = self._check_params(group["params"])
        group["weight_decay"] = self._check_weight_decay(group.get("weight_decay"))
        group["grad_clip"] = self._check_grad_clip(group.get("grad_clip", self._grad_clip))
        seen = {id(p) for g in self._param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        for p in group["params"]:  # as Paddle: the group's rate becomes the parameter's own
            if getattr(p, "optimize_attr", None) is None:
                p.optimize_attr = {}
            p.optimize_attr["learning_rate"] = group.get("learning_rate", 1.0)
        self._param_groups.append(group)

    # -- learning rate -----------------------------------------------------------------
    def get_lr(self) -> float:
        """The current learning rate."""
        return self._learning_rate

    def set_lr(self, value):
        """Set the learning rate (a number)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"The type of 'value' in optimizer.set_lr must be float, but "
                            f"received {type(value)}.")
        self._learning_rate = float(value)

    def _param_lr(self, p, dt):
        """The learning rate for ``p``, in ``p``'s dtype: the global rate times the
        parameter's multiplier."""
        mult = (getattr(p, "optimize_attr", None) or {}).get("learning_rate", 1.0)
        lr = dt(self.get_lr())
        return lr if mult == 1.0 else lr * dt(mult)

    # -- updating ----------------------------------------------------------------------
    @no_grad()
    def step(self):
        """Update every parameter that has a gradient (call after ``loss.backward()``)."""
        for group in self._param_groups:
            pairs = [(p, p.grad) for p in group["params"]
                     if not p.stop_gradient and p.grad is not None]
            self._apply_optimize(pairs, group)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Update the parameters from the gradients that ``loss.backward()`` computed (as in
        Paddle's dygraph mode, ``minimize`` does not run backward itself). Returns
        ``([], [(param, grad), ...])``."""
        if not isinstance(loss, Tensor):
            raise TypeError(f"minimize: loss must be a Tensor, got {type(loss).__name__}")
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

    def _apply_optimize(self, params_grads, group):
        clip = group.get("grad_clip", self._grad_clip)
        if clip is not None and params_grads:
            params_grads = clip(params_grads)
        decay = group.get("weight_decay")  # a group without its own decay uses the global one
        if decay is None:
            decay = self._weight_decay
        for p, g in params_grads:
            dt = p._data.dtype.type
            grad = g._data
            if decay:
                grad = grad + dt(decay) * p._data
            self._update(p, grad, self._param_lr(p, dt), group)
            p._bump()

    def _update(self, p, grad, lr, group):
        """Change ``p._data`` in place from ``grad`` (an engine array) and the rate ``lr``."""
        raise NotImplementedError(f"{type(self).__name__} does not define its update rule")

    def clear_grad(self, set_to_zero=True):
        """Clear the gradients of the parameters: zero them (default), or drop them with
        ``set_to_zero=False``."""
        for group in self._param_groups:
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
        kind in Paddle's order; the tensors themselves, which later steps change."""
        return {acc.name: acc for store in self._accumulators.values() for acc in store.values()}

    def set_state_dict(self, state_dict):
        """Load accumulators saved by ``state_dict()`` (Tensors or arrays; copied):
        existing ones at once, the others when the parameter is first updated."""
        state = dict(state_dict)
        state.pop("LR_Scheduler", None)
        state.pop("master_weights", None)
        loads = []  # check every existing accumulator's value before changing any
        for store in self._accumulators.values():
            for acc in store.values():
                if acc.name not in state:
                    raise KeyError(f"optimizer Tensor {acc.name} not found")
                loads.append((acc, self._state_array(acc.name, state.pop(acc.name),
                                                     acc._data.shape, acc._data.dtype)))
        for acc, array in loads:
            acc._data[...] = array
        self._pending_state = state

    load_state_dict = set_state_dict
