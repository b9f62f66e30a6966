"""paddle.jit: run dygraph code as static programs (``to_static``), save and load them.
See docs/architecture.md, "to_static"."""

from __future__ import annotations

from .api import StaticFunction, enable_to_static, not_to_static, report, to_static
from .breaks import Break, GraphBreakError
from .io import TranslatedLayer, load, save
from .transform import ignore_module

__all__ = ["to_static", "not_to_static", "enable_to_static", "ignore_module", "report",
           "save", "load", "TranslatedLayer", "StaticFunction", "Break", "GraphBreakError"]
