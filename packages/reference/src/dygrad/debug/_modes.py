"""Debugging modes share dispatch's one mode hook (``dispatch.set_debug_hook``).

Each mode that is on contributes a wrapper ``wrap(name, fn) -> fn`` of ``apply`` and
``apply_inplace``; they are composed in the order the modes were turned on and installed
while at least one mode is on. Modes that need to know which Layer is running turn on the
layer stack: ``Layer.__call__`` is swapped for a version that pushes and pops the Layer,
only while such a mode is on. With every mode off, nothing of this runs.
"""

from __future__ import annotations

import os
import sys

from .._core import dispatch

_wrappers: list = []      # the wrappers of the modes that are on, oldest first
_layer_users = 0          # how many modes that are on read the layer stack
_layer_stack: list = []   # the Layers being called, outermost first
_plain_call = None        # Layer.__call__ while the stack is off

_DYGRAD_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def push(wrap, layers: bool = False) -> None:
    """Turn a mode on: ``wrap`` wraps the apply functions (and the layer stack is kept)."""
    global _layer_users
    _wrappers.append(wrap)
    if layers:
        _layer_users += 1
        if _layer_users == 1:
            _track_layers(True)
    _install()


def pop(wrap, layers: bool = False) -> None:
    """Turn the mode that pushed ``wrap`` off."""
    global _layer_users
    _wrappers.remove(wrap)
    if layers:
        _layer_users -= 1
        if _layer_users == 0:
            _track_layers(False)
    _install()


def _install():
    dispatch.set_debug_hook(_compose if _wrappers else None)


def _compose(name, fn):
    for wrap in _wrappers:
        fn = wrap(name, fn)
    return fn


def _track_layers(on: bool) -> None:
    global _plain_call
    from ..nn.layer import Layer
    if on:
        _plain_call = Layer.__call__

        def __call__(self, *inputs, **kwargs):
            _layer_stack.append(self)
            try:
                return _plain_call(self, *inputs, **kwargs)
            finally:
                _layer_stack.pop()
        Layer.__call__ = __call__
    else:
        Layer.__call__ = _plain_call
        _plain_call = None
        _layer_stack.clear()


def layer_path() -> str | None:
    """The path of the innermost Layer being called, from the outermost one
    (``MyNet.block2.fc (Linear)``); None outside Layers or with the stack off."""
    if not _layer_stack:
        return None
    parts = [type(_layer_stack[0]).__name__]
    for parent, child in zip(_layer_stack, _layer_stack[1:]):
        name = next((n for n, sub in parent._sub_layers.items() if sub is child), None)
        parts.append(name if name is not None else f"<{type(child).__name__}>")
    if len(parts) == 1:
        return parts[0]
    return ".".join(parts) + f" ({type(_layer_stack[-1]).__name__})"


def is_framework_file(filename: str) -> bool:
    """Whether ``filename`` belongs to dygrad or an engine package (not the user's code)."""
    return filename.startswith(_DYGRAD_DIR) or f"{os.sep}dygrad_accelerated{os.sep}" in filename


def user_frame(depth: int = 1):
    """``(filename, lineno, source line)`` of the innermost frame outside dygrad, or None."""
    f = sys._getframe(depth)
    while f is not None and is_framework_file(f.f_code.co_filename):
        f = f.f_back
    if f is None:
        return None
    import linecache
    return f.f_code.co_filename, f.f_lineno, linecache.getline(f.f_code.co_filename, f.f_lineno).strip()


def where(frame) -> str:
    """``file:line: source`` for a ``user_frame`` result."""
    if frame is None:
        return "unknown location"
    filename, lineno, line = frame
    return f"{filename}:{lineno}" + (f": {line}" if line else "")
