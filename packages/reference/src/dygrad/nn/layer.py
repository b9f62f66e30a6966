"""nn.Layer: the base class of every model and layer, as Paddle's ``paddle.nn.Layer``.

A Layer owns parameters, buffers and sublayers. Assigning an attribute files it by type:

- a :class:`~dygrad.Parameter` goes to ``_parameters``,
- a Layer goes to ``_sub_layers``,
- any other Tensor goes to ``_buffers`` as a non-persistable buffer (``register_buffer``
  makes persistable ones, which ``state_dict`` includes),

and reading the attribute finds it there. Traversals (``parameters``, ``named_sublayers``,
``state_dict``, ...) walk the tree in registration order, depth first, the owner before its
sublayers; ``parameters()`` lists a shared parameter once, ``state_dict()`` under every name.
"""

from __future__ import annotations

import itertools
import re
import sys
import warnings
import weakref
from collections import OrderedDict

import numpy as np

from .._core import dtype as _dt
from .._core import errors as _errors
from .._core import program as _program
from .._core.autograd import no_grad
from .._core.dispatch import ops
from .._core.engine import current
from .._core.place import Place, parse_device
from .._core.tensor import Parameter, Tensor
from .initializer import Constant, XavierUniform
from .initializer.initializer import _global_bias_initializer, _global_weight_initializer
from .param_attr import ParamAttr

_counters: dict = {}


def _unique_name(key: str) -> str:
    """``key_0``, ``key_1``, ...: Paddle's per-prefix counters for layer and parameter names."""
    n = _counters.setdefault(key, itertools.count())
    return f"{key}_{next(n)}"


def _camel_to_snake(name: str) -> str:
    """'MyModel' -> 'my_model', 'HTTPServer2D' -> 'http_server2d' (Paddle's rule)."""
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


class HookRemoveHelper:
    """What ``register_forward_*_hook`` and ``register_state_dict_hook`` return:
    ``remove()`` unregisters the hook."""

    _ids = itertools.count()

    def __init__(self, hooks: dict):
        self._hooks = hooks
        self._hook_id = next(HookRemoveHelper._ids)

    def remove(self):
        self._hooks.pop(self._hook_id, None)


_CONTAINERS = (list, tuple, dict)
_STORES = ("_parameters", "_sub_layers", "_buffers")  # the registries, in __getattr__'s order


class _Registry(OrderedDict):
    """A layer's ``_parameters``, ``_sub_layers`` or ``_buffers``: an OrderedDict that, on
    every change however made (the Layer's methods, containers, user code writing it
    directly), has its layer copy what ``__getattr__`` would find for the name into the
    instance dict (``Layer._mirror``), so reading ``layer.weight`` or ``model.linear1`` is
    a normal attribute lookup: no failed lookup and ``__getattr__`` frame on every forward.
    It holds its layer weakly; a copy or unpickled registry has none until
    ``Layer.__setstate__`` binds it."""

    __slots__ = ("_owner",)

    def __init__(self, *args, **kwargs):
        self._owner = None
        super().__init__(*args, **kwargs)

    def _changed(self, name):
        layer = self._owner() if self._owner is not None else None
        if layer is not None:
            layer._mirror(name)

    def __setitem__(self, name, value):
        super().__setitem__(name, value)
        self._changed(name)

    def __delitem__(self, name):
        super().__delitem__(name)
        self._changed(name)

    def pop(self, name, *default):
        value = super().pop(name, *default)
        self._changed(name)
        return value

    def popitem(self, last=True):
        name, value = super().popitem(last)
        self._changed(name)
        return name, value

    def setdefault(self, name, default=None):
        if name not in self:
            self[name] = default
        return self[name]

    def update(self, *args, **kwargs):
        for name, value in OrderedDict(*args, **kwargs).items():
            self[name] = value

    def __ior__(self, other):
        self.update(other)
        return self

    def clear(self):
        names = list(self)
        super().clear()
        for name in names:
            self._changed(name)

    def __reduce__(self):  # copies and pickles without the layer (its __setstate__ binds them)
        return type(self), (), None, None, iter(self.items())


def _warn_hidden(layer, name, value, assigned_by=None):
    """Warn (once per layer and attribute) when a plain list/tuple/dict attribute holds
    Layers or Parameters: they are missing from parameters() and state_dict(). Attributes
    that dygrad itself assigns (``assigned_by`` a framework frame) are never warned about."""
    warned = layer.__dict__.setdefault("_warned_containers", set())
    if name in warned:
        return
    if assigned_by is not None and _errors.is_framework_file(assigned_by.f_code.co_filename):
        warned.add(name)
        return
    items = value.values() if type(value) is dict else value
    kinds = {"Parameter" if isinstance(v, Parameter) else "Layer" for v in items
             if isinstance(v, (Layer, Parameter))}
    if not kinds:
        return
    warned.add(name)
    kind = "Parameter" if kinds == {"Parameter"} else "Layer"
    box = {"Layer": "paddle.nn.LayerDict" if type(value) is dict else "paddle.nn.LayerList",
           "Parameter": "paddle.nn.ParameterList"}[kind]
    warnings.warn(
        f"{type(layer).__name__}.{name} is a plain {type(value).__name__} holding "
        f"{' and '.join(sorted(kinds))}s: they are not registered, so parameters(), "
        f"state_dict() and the optimizer miss them. Use {box} instead "
        f"(self.{name} = {box}(...)).", UserWarning, stacklevel=_errors.user_stacklevel())


class Layer:
    """Base class of layers and models: subclasses create parameters and sublayers in
    ``__init__`` (after ``super().__init__()``) and compute in ``forward``."""

    def __init_subclass__(cls, **kwargs):
        """dygrad's layers' constructors point their refusals at the user's line."""
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__ and cls.__module__.startswith("dygrad."):
            cls.__init__ = _errors.checks_arguments(cls.__init__)

    def __init__(self, name_scope=None, dtype="float32"):
        self.training = True
        if name_scope is None:
            name_scope = _camel_to_snake(type(self).__name__)
        self._full_name = _unique_name(name_scope)
        self._dtype = dtype
        d = self.__dict__
        for name in d.get("_mirrored") or ():  # __init__ again: the registries start anew
            d.pop(name, None)
        d["_mirrored"] = set()  # the names _mirror copied into this dict
        d["_parameters"], d["_buffers"], d["_sub_layers"] = _Registry(), _Registry(), _Registry()
        self._bind_registries()
        self._non_persistable_buffer_names_set = set()
        self._forward_pre_hooks = OrderedDict()
        self._forward_post_hooks = OrderedDict()
        self._state_dict_hooks = OrderedDict()

    # -- calling -----------------------------------------------------------------------
    def forward(self, *inputs, **kwargs):
        """The computation; every Layer subclass defines it."""
        raise NotImplementedError(f"{type(self).__name__} does not define forward()")

    def __call__(self, *inputs, **kwargs):
        try:
            if self._forward_pre_hooks:  # no hook, no cost
                for hook in list(self._forward_pre_hooks.values()):
                    result = hook(self, inputs)
                    if result is not None:
                        inputs = result if isinstance(result, tuple) else (result,)
            outputs = self.forward(*inputs, **kwargs)
            if self._forward_post_hooks:
                for hook in list(self._forward_post_hooks.values()):
                    result = hook(self, inputs, outputs)
                    if result is not None:
                        outputs = result
        except Exception as exc:  # name the layer path (MyNet.block2.fc) in the message
            _errors.layer_failed(exc, self)
            if _errors.BARE_RAISE_KEEPS_TRIM:
                raise
            raise exc
        return outputs

    @staticmethod
    def _add_hook(hooks, hook):
        handle = HookRemoveHelper(hooks)
        hooks[handle._hook_id] = hook
        return handle

    def register_forward_pre_hook(self, hook):
        """Call ``hook(layer, inputs)`` before forward; a returned value (a tuple, or one
        input) replaces the inputs."""
        return self._add_hook(self._forward_pre_hooks, hook)

    def register_forward_post_hook(self, hook):
        """Call ``hook(layer, inputs, outputs)`` after forward; a returned value replaces
        the outputs."""
        return self._add_hook(self._forward_post_hooks, hook)

    def register_state_dict_hook(self, hook):
        """Call ``hook(state_dict)`` at the end of ``state_dict()``; a returned dict
        replaces it."""
        return self._add_hook(self._state_dict_hooks, hook)

    # -- modes -------------------------------------------------------------------------
    def train(self, mode=True):
        """Training mode (``mode=False``: evaluation) for this layer and every sublayer."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for layer in self.sublayers(include_self=True):
            layer.training = mode
        return self

    def eval(self):
        """Evaluation mode for this layer and every sublayer (dropout off, batch norm uses
        its running statistics)."""
        return self.train(False)

    def full_name(self) -> str:
        """The unique name of this layer: its snake-case class name (or ``name_scope``)
        with a counter, e.g. 'linear_0'."""
        return self._full_name

    # -- creating and registering ------------------------------------------------------
    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False,
                         default_initializer=None):
        """A new Parameter of ``shape`` and ``dtype`` (the default dtype when None).

        ``attr`` (a ParamAttr, a name, an Initializer, None, or False for no parameter:
        None is returned) gives its name, initializer, learning rate, regularizer,
        trainable and need_clip. Unnamed parameters are called '<full_name>.w_<n>'
        ('b_<n>' for a bias). The values come from the attr's initializer, else the global
        one (``set_global_initializer``), else ``default_initializer``, else XavierUniform
        (Constant(0.0) for a bias)."""
        attr = ParamAttr._to_attr(None if isinstance(attr, str) and attr == "" else attr)
        if attr is False:
            return None
        shape = [int(d) for d in shape]
        if any(d < 0 for d in shape):
            raise ValueError(f"create_parameter: every dimension of shape must be >= 0, got "
                             f"{shape}")
        dtype = _dt.convert_dtype(_dt.get_default_dtype() if dtype is None else dtype)
        glob = _global_bias_initializer() if is_bias else _global_weight_initializer()
        init = attr.initializer or glob or default_initializer
        if init is None:
            if not dtype.is_floating_point:
                raise TypeError(f"create_parameter: a parameter of dtype {dtype.name} has no "
                                f"default initializer; pass default_initializer (or an "
                                f"initializer in attr) that fits the dtype")
            init = Constant(0.0) if is_bias else XavierUniform()
        name = attr.name or _unique_name(f"{self._full_name}.{'b' if is_bias else 'w'}")
        if _program.in_static_mode():  # a variable of the program, set by the startup program
            return _program.create_persistable(
                name, shape, dtype.np, lambda: init._draw(tuple(shape), dtype.np), parameter=True,
                trainable=attr.trainable, optimize_attr={"learning_rate": attr.learning_rate},
                regularizer=attr.regularizer, need_clip=attr.need_clip)
        p = Parameter(init._generate(tuple(shape), dtype.np), name=name,
                      trainable=attr.trainable, optimize_attr={"learning_rate": attr.learning_rate},
                      regularizer=attr.regularizer, need_clip=attr.need_clip)
        p.do_model_average = attr.do_model_average
        return p

    def add_parameter(self, name, parameter):
        """Register ``parameter`` (a Parameter, or None) under ``name``; returns it."""
        if "_parameters" not in self.__dict__:
            raise RuntimeError("super().__init__() should be called firstly.")
        self._check_new_name(name, "_parameters", "parameter")
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError(f"The parameter to be added should be a Parameter, but received "
                            f"{type(parameter).__name__}.")
        self._parameters[name] = parameter
        return parameter

    def add_sublayer(self, name, sublayer):
        """Register ``sublayer`` (a Layer, or None) under ``name``; returns it."""
        if sublayer is not None and not isinstance(sublayer, Layer):
            raise TypeError(f"add_sublayer: sublayer must be a Layer or None, got "
                            f"{type(sublayer).__name__}")
        self._sub_layers[str(name)] = sublayer
        return sublayer

    def register_buffer(self, name, tensor, persistable=True):
        """Register a Tensor that is state but not a parameter (running statistics, ...);
        persistable buffers are part of ``state_dict``."""
        if "_buffers" not in self.__dict__:
            raise ValueError("super().__init__() should be called first")
        self._check_new_name(name, "_buffers", "buffer")
        if tensor is not None and (not isinstance(tensor, Tensor)
                                   or isinstance(tensor, Parameter)):
            raise TypeError(f"The registered buffer should be a Paddle.Tensor, but received "
                            f"{type(tensor).__name__}.")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    def _check_new_name(self, name, store, what):
        if not isinstance(name, str):
            raise TypeError(f"The name of {what} should be a string, but received "
                            f"{type(name).__name__}.")
        if "." in name:
            raise KeyError(f"The name of {what} can not contain `.`, because when you access "
                           f"the newly added {what} in the form of `self.**.**`, it will cause "
                           f"AttributeError.")
        if name == "":
            raise KeyError(f"The name of {what} can not be empty.")
        if hasattr(self, name) and name not in self.__dict__[store]:
            raise KeyError(f"The {what} '{name}' already exists." if what == "parameter"
                           else f"attribute '{name}' already exists.")

    # -- attribute protocol ------------------------------------------------------------
    def __setattr__(self, name, value):
        d = self.__dict__
        params, layers, buffers = d.get("_parameters"), d.get("_sub_layers"), d.get("_buffers")
        if isinstance(value, Parameter):
            if params is None:
                raise ValueError("super().__init__() should be called first")
            self._forget(name, keep="_parameters")
            params[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"assignment to parameter '{name}' should be of type Parameter "
                                f"or None, but got '{type(value).__name__}'")
            params[name] = None
        elif isinstance(value, Layer):
            if layers is None:
                raise ValueError("super().__init__() should be called first")
            self._forget(name, keep="_sub_layers")
            layers[name] = value
        elif layers is not None and name in layers:
            if value is not None:
                raise TypeError(f"assignment to sublayer '{name}' should be of type Layer or "
                                f"None, but got '{type(value).__name__}'")
            layers[name] = None
        elif isinstance(value, Tensor):
            if buffers is None:
                raise ValueError("super().__init__() should be called first")
            if name not in buffers:  # a plain Tensor attribute: a non-persistable buffer
                self._non_persistable_buffer_names_set.add(name)
            self._forget(name, keep="_buffers")
            buffers[name] = value
        elif buffers is not None and name in buffers:
            if value is not None:
                raise TypeError(f"assignment to buffers '{name}' should be of type Tensor or "
                                f"None, but got '{type(value).__name__}'")
            buffers[name] = None
        else:
            if type(value) in _CONTAINERS:
                _warn_hidden(self, name, value, assigned_by=sys._getframe(1))
            object.__setattr__(self, name, value)

    def _forget(self, name, keep):
        """Remove ``name`` from the instance dict and the registries other than ``keep``
        (where re-assigning keeps its place in the order)."""
        d = self.__dict__
        d.pop(name, None)
        mirrored = d.get("_mirrored")
        if mirrored:
            mirrored.discard(name)
        for store in _STORES:
            if store != keep:
                d[store].pop(name, None)

    def __getattr__(self, name):
        # only called when normal lookup fails: look in the registries (a registered name
        # is mostly found in the instance dict, where _mirror copies it)
        d = self.__dict__
        for store in _STORES:
            registry = d.get(store)
            if registry is not None and name in registry:
                return registry[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _mirror(self, name):
        """After a registry changed ``name``: the instance dict holds what ``__getattr__``
        finds for it, where ``__getattr__`` is what would find it (no plain attribute of that
        name in the instance dict, nor on the class, shadows the registries); else no copy."""
        d = self.__dict__
        mirrored = d.get("_mirrored")
        if mirrored is None or (name in d and name not in mirrored):
            return  # no mirrors (a shallow copy, or a layer being rebuilt); a plain attribute
        if not hasattr(type(self), name):
            for store in _STORES:
                registry = d.get(store)
                if registry is not None and name in registry:
                    d[name] = registry[name]
                    mirrored.add(name)
                    return
        if name in mirrored:
            mirrored.discard(name)
            del d[name]

    def _bind_registries(self):
        for store in _STORES:
            self.__dict__[store]._owner = weakref.ref(self)

    def __setstate__(self, state):
        """Copies and unpickling: registries made anew (``copy.deepcopy``, pickle) become
        this layer's; registries it shares with the layer it was copied from
        (``copy.copy``) stay that layer's, and this one reads them through ``__getattr__``."""
        d = self.__dict__
        d.update(state)
        registries = [d.get(store) for store in _STORES]
        if not all(isinstance(r, _Registry) for r in registries):
            return
        if all(r._owner is None for r in registries):
            self._bind_registries()
        else:
            for name in d.get("_mirrored") or ():
                d.pop(name, None)
            d["_mirrored"] = None

    def __delattr__(self, name):
        d = self.__dict__
        for store in _STORES:
            registry = d.get(store)
            if registry is not None and name in registry:
                del registry[name]
                self._non_persistable_buffer_names_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._sub_layers)
                      | set(self._buffers))

    # -- traversals --------------------------------------------------------------------
    def named_sublayers(self, prefix="", include_self=False, layers_set=None,
                        remove_duplicate=True):
        """(structured name, layer) for every sublayer, depth first, each layer once
        (unless ``remove_duplicate=False``); ``layers_set`` holds layers to skip."""
        if layers_set is None:
            layers_set = set()
        if include_self and self not in layers_set:
            if remove_duplicate:
                layers_set.add(self)
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None:
                continue
            yield from layer.named_sublayers(_join(prefix, key), True, layers_set,
                                             remove_duplicate)

    def _check_hidden(self, include_sublayers):
        """Warn about Layers/Parameters filled into plain containers after assignment."""
        layers = self.sublayers(include_self=True) if include_sublayers else [self]
        for layer in layers:
            for name, value in list(layer.__dict__.items()):
                if type(value) in _CONTAINERS and value:
                    _warn_hidden(layer, name, value)

    def sublayers(self, include_self=False) -> list:
        """Every sublayer (and this layer first with ``include_self``), depth first."""
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_children(self):
        """(name, layer) for the direct sublayers, each layer once."""
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and layer not in seen:
                seen.add(layer)
                yield name, layer

    def children(self):
        """The direct sublayers, each once."""
        for _, layer in self.named_children():
            yield layer

    def _named_members(self, store, prefix, include_sublayers, remove_duplicate):
        seen = set()
        layers = (self.named_sublayers(prefix=prefix, include_self=True,
                                       remove_duplicate=remove_duplicate)
                  if include_sublayers else [(prefix, self)])
        for layer_prefix, layer in layers:
            for name, t in getattr(layer, store).items():
                if t is None or id(t) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(t))
                yield _join(layer_prefix, name), t

    def named_parameters(self, prefix="", include_sublayers=True, remove_duplicate=True):
        """(structured name, parameter), e.g. ('linear1.weight', p); a shared parameter once
        (under its first name) unless ``remove_duplicate=False``."""
        yield from self._named_members("_parameters", prefix, include_sublayers,
                                       remove_duplicate)

    def parameters(self, include_sublayers=True) -> list:
        """Every parameter of this layer and (by default) its sublayers, each once."""
        self._check_hidden(include_sublayers)
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix="", include_sublayers=True, remove_duplicate=True):
        """(structured name, buffer), persistable or not, each buffer once."""
        yield from self._named_members("_buffers", prefix, include_sublayers, remove_duplicate)

    def buffers(self, include_sublayers=True) -> list:
        """Every buffer of this layer and (by default) its sublayers, each once."""
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def apply(self, fn):
        """Call ``fn(layer)`` on every sublayer, then on this layer; returns self."""
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    def clear_gradients(self, set_to_zero=True):
        """Clear the gradients of every trainable parameter (zeros them by default)."""
        for _, p in self.named_parameters():  # not parameters(): no container check per step
            if p.trainable:
                p.clear_gradient(set_to_zero)

    # -- device and dtype --------------------------------------------------------------
    def to(self, device=None, dtype=None, blocking=None):
        """Move (``device``: 'cpu', 'gpu:N' or a Place) and/or cast (``dtype``) every
        parameter, gradient and buffer in place; the Parameter objects stay the same, so an
        optimizer built before still holds them. ``blocking`` is accepted for Paddle's
        signature (copies here are always synchronous). Returns self."""
        if device is None and dtype is None and blocking is None:
            return self
        if device is not None and not isinstance(device, (str, Place)):
            raise ValueError(f"device should be type of str, paddle.CPUPlace, paddle.CUDAPlace "
                             f"or paddle.CUDAPinnedPlace, but got {type(device).__name__}")
        if blocking is not None and not isinstance(blocking, bool):
            raise ValueError("blocking value error, must be the True, False or None")
        place = None if device is None else parse_device(device)
        dtype = None if dtype is None else _dt.convert_dtype(dtype)
        for layer in self.sublayers(include_self=True):
            layer._convert(place, dtype, floating_only=False)
        return self

    def astype(self, dtype=None):
        """Cast every parameter and buffer (floating or not) to ``dtype``; returns self."""
        return self.to(dtype=dtype)

    def _cast_floating(self, dtype, excluded_layers=None):
        """Cast the floating parameters and buffers of the layers whose type is not in
        ``excluded_layers`` (a Layer class or a list of them)."""
        excluded = [] if excluded_layers is None else excluded_layers
        if isinstance(excluded, type):
            excluded = [excluded]
        elif not isinstance(excluded, (list, tuple)):
            raise TypeError(f"excluded_layers should be type nn.Layer or list, but got "
                            f"{type(excluded).__name__}.")
        dtype = _dt.convert_dtype(dtype)
        for layer in self.sublayers(include_self=True):
            if type(layer) not in excluded:
                layer._convert(None, dtype, floating_only=True)
        return self

    def float(self, excluded_layers=None):
        """Cast floating parameters and buffers to float32 (but those of layers whose type
        is in ``excluded_layers``); returns self."""
        return self._cast_floating(_dt.float32, excluded_layers)

    def float16(self, excluded_layers=None):
        """Cast floating parameters and buffers to float16 (as :meth:`float`)."""
        return self._cast_floating(_dt.float16, excluded_layers)

    def half(self):
        """Cast floating parameters and buffers to float16; returns self."""
        return self._cast_floating(_dt.float16)

    def double(self):
        """Cast floating parameters and buffers to float64; returns self."""
        return self._cast_floating(_dt.float64)

    def _convert(self, place, dtype, floating_only):
        """Cast/move this layer's own parameters (and their gradients) and buffers in place."""
        engine = current()

        def convert(t):
            if floating_only and not t.dtype.is_floating_point:
                return
            data = t._data
            if dtype is not None and data.dtype != dtype.np:
                with no_grad():
                    data = ops.cast(Tensor._wrap(data), dtype=dtype.np)._data
            if place is not None:
                data = engine.move(data, place)
            if data is not t._data:
                t._data = data
                t._bump()

        for p in self._parameters.values():
            if p is not None:
                convert(p)
                if p.grad is not None:
                    convert(p.grad)
        for b in self._buffers.values():
            if b is not None:
                convert(b)
        if dtype is not None:
            self._dtype = dtype

    # -- state -------------------------------------------------------------------------
    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                   use_hook=True):
        """{structured name: Tensor} of the parameters and persistable buffers (the tensors
        themselves, not copies), e.g. 'linear1.weight'; a shared parameter appears under
        each of its names. With ``use_hook`` the ``register_state_dict_hook`` hooks run."""
        if destination is None:
            self._check_hidden(include_sublayers)
        dest = OrderedDict() if destination is None else destination
        for name, p in self._parameters.items():
            if p is not None:
                dest[structured_name_prefix + name] = p
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistable_buffer_names_set:
                dest[structured_name_prefix + name] = b
        if include_sublayers:
            for name, layer in self._sub_layers.items():
                if layer is not None:
                    layer.state_dict(dest, True, f"{structured_name_prefix}{name}.", use_hook)
        if use_hook:
            for hook in self._state_dict_hooks.values():
                result = hook(dest)
                if result is not None:
                    dest = result
        return dest

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Copy values from ``state_dict`` (Tensors or NumPy arrays) into this layer's
        parameters and persistable buffers, in place. Keys are structured names
        ('linear1.weight'), or the tensors' own names with ``use_structured_name=False``.

        As Paddle, a key that is absent or whose value has another shape is skipped with a
        warning and listed in ``missing_keys`` (a mis-shaped one in ``unexpected_keys``
        too). A dtype that differs from the target's is an error, raised before anything
        is copied. Returns (missing_keys, unexpected_keys)."""
        missing, matched, pairs = [], set(), []
        for key, target in self.state_dict(use_hook=False).items():
            k = key if use_structured_name else target.name
            value = state_dict.get(k)
            if value is None:
                missing.append(k)
                warnings.warn(f"Skip loading for {key}. {k} is not found in the provided dict.",
                              stacklevel=_errors.user_stacklevel())
                continue
            array = value._data if isinstance(value, Tensor) else np.asarray(value)
            if list(array.shape) != target.shape:
                missing.append(k)
                warnings.warn(f"Skip loading for {key}. {k} receives a shape "
                              f"{list(array.shape)}, but the expected shape is {target.shape}.",
                              stacklevel=_errors.user_stacklevel())
                continue
            if array.dtype != target._data.dtype:
                raise _errors.user_error(TypeError(
                    f"set_state_dict: {k} receives dtype {_dt.convert_dtype(array.dtype).name}, "
                    f"but the expected dtype is {target.dtype.name}; cast the value first"),
                    hint=f"{type(self).__name__}.to(dtype=...) or value.astype('{target.dtype.name}')")
            matched.add(k)
            pairs.append((target, value))
        for target, value in pairs:
            target.set_value(value)
        unexpected = [k for k in state_dict if k not in matched]
        return missing, unexpected

    set_dict = set_state_dict
    load_dict = set_state_dict

    # -- printing ----------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The layer's own settings, shown inside its repr (subclasses override)."""
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        children = [f"({name}): " + repr(layer).replace("\n", "\n  ")
                    for name, layer in self._sub_layers.items()]
        body = ""
        if len(lines) == 1:
            body = lines[0]
        elif lines:
            body = "\n  " + "\n  ".join(lines) + "\n"
        if children:
            body += "\n  " + "\n  ".join(children) + "\n"
        return f"{type(self).__name__}({body})"

__all__ = ["Layer"]
