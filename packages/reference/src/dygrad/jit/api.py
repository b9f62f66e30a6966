"""paddle.jit.to_static: run a dygraph function or Layer as a captured static program."""

from __future__ import annotations

import functools
import inspect
import itertools
import weakref

from .._core.dispatch import ops
from .._core.program import (
    Capture,
    NoValueError,
    Program,
    guard_programs,
    in_static_mode,
    set_static_mode,
    state,
    unique_name,
    variable_of,
)
from .._core.tensor import Tensor
from .breaks import GraphBreak, GraphBreakError, locate, reason_of
from .partial_program import PartialProgram, flat_outputs, rebuild
from .transform import convert_function

_ENABLED = [True]
_EAGER = object()  # a cache entry: this signature runs eagerly (a graph break)


def enable_to_static(enable_to_static_bool):
    """``False``: functions decorated by ``to_static`` run eagerly (as plain Python)."""
    if not isinstance(enable_to_static_bool, bool):
        raise TypeError(f"enable_to_static: the argument must be a bool, got "
                        f"{type(enable_to_static_bool).__name__}")
    _ENABLED[0] = enable_to_static_bool


def not_to_static(func=None):
    """Mark ``func`` so that converted code calls it as it is (never converted)."""
    if func is None:
        return not_to_static
    func._jit_not_to_static = True
    return func


def _spec_shape(t, spec):
    """The shape a program for tensor ``t`` is built with: its InputSpec's (-1 dims kept)
    when ``t`` fits it, else its own."""
    shape = tuple(t.shape)
    if spec is not None and len(spec.shape) == len(shape) and all(
            s in (-1, d) for s, d in zip(spec.shape, shape)):
        return tuple(spec.shape)
    return shape


def _signature(x, specs, count):
    """A hashable key for argument ``x`` (tensors by shape, dtype and stop_gradient;
    ``count`` numbers the tensors, to find their InputSpec in ``specs``)."""
    if isinstance(x, Tensor):
        i = next(count)
        spec = specs[i] if specs and i < len(specs) else None
        return ("T", _spec_shape(x, spec), x._data.dtype, x.stop_gradient)
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(_signature(v, specs, count) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((k, _signature(v, specs, count)) for k, v in x.items()))
    try:
        hash(x)
        return ("V", x)
    except TypeError:
        return ("id", id(x))


class StaticFunction:
    """The callable ``to_static`` returns: converts ``function`` at its first call and
    caches one program per signature (input shapes, dtypes, Python arguments, the Layer's
    train/eval mode)."""

    def __init__(self, function, input_spec=None, full_graph=False, instance=None,
                 build_strategy=None):
        self._function = function
        self._instance = instance
        self._input_spec = list(input_spec) if input_spec is not None else None
        self._full_graph = bool(full_graph)
        self._build_strategy = build_strategy
        self._cache: dict = {}
        self._breaks: list = []
        self._bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, function)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        sf = self._bound.get(instance)
        if sf is None:
            sf = self._bound[instance] = StaticFunction(
                self._function, self._input_spec, self._full_graph, instance,
                self._build_strategy)
        return sf

    @property
    def dygraph_function(self):
        return self._function

    def _args(self, args):
        return (self._instance, *args) if self._instance is not None else args

    def __call__(self, *args, **kwargs):
        if not _ENABLED[0]:
            return self._function(*self._args(args), **kwargs)
        if in_static_mode():  # inside another program: append this function's ops to it
            return convert_function(self._function)(*self._args(args), **kwargs)
        training = getattr(self._instance, "training", None)
        if not kwargs and self._input_spec is None and all(type(a) is Tensor for a in args):
            # the common call, tensors only: the same key as _signature's, made directly
            tensors = list(args)
            key = (("tuple", tuple(("T", t._data.shape, t._data.dtype, t.stop_gradient)
                                   for t in args)), ("dict", ()), training)
        else:
            tensors, count = None, itertools.count()
            key = (_signature(args, self._input_spec, count),
                   _signature(kwargs, self._input_spec, count), training)
        entry = self._cache.get(key)
        if entry is None or (entry is not _EAGER and entry.stale()):
            entry = self._cache[key] = self._build(args, kwargs)
        if entry is _EAGER:
            return self._function(*self._args(args), **kwargs)
        if tensors is None:
            tensors = []
            _collect((args, kwargs), tensors)
        return rebuild(entry.structure, entry(tensors))

    def _build(self, args, kwargs):
        """The PartialProgram for these arguments, or _EAGER after a graph break."""
        fn = convert_function(self._function)
        layer = self._instance
        capture = Capture(layer.buffers() if hasattr(layer, "buffers") else ())
        main = Program()
        prev_capture = state.capture
        set_static_mode(True)
        state.capture = capture
        try:
            with guard_programs(main, Program()):
                data = []
                vargs, vkwargs = _to_data((args, kwargs), data, self._input_spec)
                try:
                    out = fn(*self._args(vargs), **vkwargs)
                except (GraphBreak, NoValueError) as exc:
                    found = locate(exc, reason_of(exc))
                    if found not in self._breaks:
                        self._breaks.append(found)
                    if self._full_graph:
                        raise GraphBreakError(
                            f"to_static(full_graph=True) cannot convert "
                            f"{self._function.__qualname__}:\n  {found}") from exc
                    return _EAGER
                out = _map_eager(out)
                outputs, structure = flat_outputs(out)
                program = PartialProgram(main, data, outputs, structure, capture)
                program.append_backward()
        finally:
            state.capture = prev_capture
            set_static_mode(False)
        return program

    def concrete_program(self, input_spec):
        """A PartialProgram built for ``input_spec`` (InputSpecs; -1/None dims allowed)."""
        program = self._build(tuple(input_spec), {})
        if program is _EAGER:
            raise GraphBreakError(f"{self._function.__qualname__} cannot be converted to a "
                                  f"program:\n  {self._breaks[-1]}")
        return program

    def breaks(self) -> list:
        return list(self._breaks)


def _collect(x, out):
    if isinstance(x, Tensor):
        out.append(x)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _collect(v, out)
    elif isinstance(x, dict):
        for v in x.values():
            _collect(v, out)


def _to_data(x, data, specs):
    """``x`` with every tensor (or InputSpec) replaced by a data variable of the current
    program, shaped by its InputSpec in ``specs`` when it fits; their VarDescs are
    appended to ``data``."""
    from ..static.input import InputSpec
    if isinstance(x, (Tensor, InputSpec)):
        i = len(data)
        spec = x if isinstance(x, InputSpec) else (
            specs[i] if specs and i < len(specs) else None)
        if isinstance(x, InputSpec):
            shape, stop = x.shape, x.stop_gradient
        else:
            shape, stop = _spec_shape(x, spec), x.stop_gradient
        name = spec.name if spec is not None and spec.name else unique_name("input")
        block = state.main.global_block()
        if name in block.vars:
            name = unique_name(name)
        desc = block.create_var(name, shape, x.dtype.name, is_data=True, stop_gradient=stop)
        data.append(desc)
        return variable_of(desc)
    if isinstance(x, (list, tuple)):
        return type(x)(_to_data(v, data, specs) for v in x)
    if isinstance(x, dict):
        return {k: _to_data(v, data, specs) for k, v in x.items()}
    return x


def _map_eager(x):
    """A result with eager tensors (a parameter returned as it is) copied into the program."""
    if isinstance(x, Tensor) and not hasattr(x._data, "block"):
        return ops.assign(x)
    if isinstance(x, (list, tuple)):
        return type(x)(_map_eager(v) for v in x)
    if isinstance(x, dict):
        return {k: _map_eager(v) for k, v in x.items()}
    return x


def to_static(function=None, input_spec=None, build_strategy=None, backend=None,
              full_graph=False, **kwargs):
    """Convert a dygraph function, a Layer (its ``forward``) or a method into a static
    program run through the Executor, with the same outputs and gradients (the Layer's
    parameters are shared). Usable as ``@to_static`` or ``@to_static(input_spec=...)``."""
    def decorate(obj):
        from ..nn.layer import Layer
        if isinstance(obj, Layer):
            forward = obj.forward
            if isinstance(forward, StaticFunction):
                return obj
            obj.__dict__["forward"] = StaticFunction(
                type(obj).forward, input_spec, full_graph, obj, build_strategy)
            return obj
        if isinstance(obj, StaticFunction):
            return obj
        if inspect.ismethod(obj):
            return StaticFunction(obj.__func__, input_spec, full_graph, obj.__self__,
                                  build_strategy)
        if not callable(obj):
            raise TypeError(f"to_static: expected a function or a Layer, got "
                            f"{type(obj).__name__}")
        return StaticFunction(obj, input_spec, full_graph, None, build_strategy)
    return decorate if function is None else decorate(function)


def _static_function(obj):
    if isinstance(obj, StaticFunction):
        return obj
    forward = getattr(obj, "__dict__", {}).get("forward")
    if isinstance(forward, StaticFunction):
        return forward
    forward = getattr(type(obj), "forward", None)
    if isinstance(forward, StaticFunction):
        return forward.__get__(obj)
    raise TypeError(f"paddle.jit.report: {type(obj).__name__} is not a to_static function "
                    f"or Layer")


def report(function, file=None):
    """The graph breaks met so far by a ``to_static`` function or Layer (a list of
    ``Break``: file, line, source line, reason), also printed."""
    breaks = _static_function(function).breaks()
    for b in breaks:
        print(b, file=file)
    if not breaks:
        print("no graph breaks", file=file)
    return breaks
