"""paddle.static.nn: control flow of static programs."""

from .control_flow import cond, switch_case, while_loop

__all__ = ["cond", "while_loop", "switch_case"]
