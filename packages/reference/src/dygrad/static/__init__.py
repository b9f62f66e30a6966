"""paddle.static: build a Program by running Paddle code in static mode, run it with an
Executor. See docs/architecture.md, "Static mode"."""

from __future__ import annotations

from .._core.program import (
    Program,
    Scope,
    Variable,
    default_main_program,
    default_startup_program,
    global_scope,
    guard_programs,
    in_static_mode,
    scope_guard,
    set_static_mode,
)
from . import nn
from .backward import append_backward, gradients
from .executor import Executor
from .input import InputSpec, data
from .io import load, load_inference_model, save, save_inference_model
from .passes import set_passes

program_guard = guard_programs

__all__ = ["Program", "Variable", "default_main_program", "default_startup_program",
           "program_guard", "append_backward", "gradients", "Executor", "Scope",
           "global_scope", "scope_guard", "InputSpec", "data", "create_global_var",
           "create_parameter", "cpu_places", "nn", "save", "load", "save_inference_model",
           "load_inference_model", "set_passes"]


def enable_static():
    """Static mode: ops append themselves to the current Program instead of running."""
    set_static_mode(True)


def disable_static(place=None):
    """Back to dynamic (eager) mode."""
    set_static_mode(False)


def in_dynamic_mode() -> bool:
    """Whether ops run at once (dynamic mode, the default)."""
    return not in_static_mode()


def create_global_var(shape, value, dtype, persistable=False, force_cpu=False, name=None):
    """A variable of the main program filled with ``value`` by the startup program. It is
    always kept in the scope between runs (``persistable`` is accepted for Paddle's API)."""
    from .._core import dtype as _dt
    from .._core.dispatch import ops
    from .._core.program import create_persistable, unique_name
    shape = [int(d) for d in shape]
    np_dtype = _dt.convert_dtype(dtype).np
    return create_persistable(name or unique_name("global_var"), shape, np_dtype,
                              lambda: ops.full(shape=tuple(shape), fill_value=value,
                                               dtype=np_dtype))


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    """A new Parameter, as a Layer's ``create_parameter`` makes it (in static mode a
    parameter of the main program, initialized by the startup program). Unnamed, it is
    called 'create_parameter_<n>.w_0' ('b_0' for a bias), as in Paddle."""
    from ..nn.layer import Layer
    holder = Layer(name_scope="create_parameter")
    p = holder.create_parameter(shape, attr if attr is not None else name, dtype, is_bias,
                                default_initializer)
    return p


def cpu_places(device_count=None):
    """[CPUPlace()] * device_count (1 by default)."""
    from .._core.place import CPUPlace
    return [CPUPlace() for _ in range(device_count or 1)]
