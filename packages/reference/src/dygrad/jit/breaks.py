"""Graph breaks: what ``to_static`` cannot put into a program, where in the user's code,
and why."""

from __future__ import annotations

import linecache
import os
from dataclasses import dataclass

_FRAMEWORK = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # dygrad/


class GraphBreak(Exception):
    """Raised while a program is built when a statement cannot be converted."""


class GraphBreakError(RuntimeError):
    """``to_static(..., full_graph=True)`` met code it cannot convert."""


@dataclass(frozen=True)
class Break:
    """One graph break: the user's file and line, the source line, and the reason."""

    filename: str
    lineno: int
    source: str
    reason: str

    def __str__(self):
        return f'File "{self.filename}", line {self.lineno}: {self.reason}\n    {self.source}'


def locate(exc: BaseException, reason: str) -> Break:
    """The break that ``exc`` (raised while building) stands for: the innermost frame of
    its traceback that is the user's code (converted code keeps the user's file:line)."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if not filename.startswith(_FRAMEWORK) and not filename.startswith("<"):
            found = (filename, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return Break("<unknown>", 0, "", reason)
    filename, lineno = found
    return Break(filename, lineno, linecache.getline(filename, lineno).strip(), reason)


def reason_of(exc: BaseException) -> str:
    if isinstance(exc, GraphBreak):
        return str(exc)
    return (f"the value of a tensor is needed while the program is built (.numpy(), "
            f"float(), int(), bool() or NumPy on a tensor): {exc}")
