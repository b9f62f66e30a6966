"""The catalogue of errors: how every engine words an error and points it at the user's code.

An error keeps the exception type Paddle raises (ValueError for shapes, TypeError for
dtypes, ...); what this module adds is *context*, appended to the message as it passes the
framework's boundaries, each at most once:

- ``op``: the Paddle API of the op that failed and its inputs' dtypes and shapes
  (``paddle.matmul(x: float32[4, 3], y: float32[5, 2])``), added by dispatch;
- ``layer``: the path from the outermost Layer called to the one that raised
  (``MyNet.block2.fc (Linear)``), added by ``Layer.__call__`` as the error leaves each Layer;
- ``at``: the user's file:line (and source line) that made the failing call;
- ``created at``: for an error raised in backward, the forward line that recorded the op;
- ``hint``: what usually fixes it.

Nothing here runs on the happy path: boundaries call it only from ``except`` blocks. The
framework frames are also cut from the traceback (``DYGRAD_FULL_TRACEBACK=1`` keeps them),
so the last frames shown are the user's.
"""

from __future__ import annotations

import functools
import linecache
import os
import sys
import types

import numpy as np

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_framework_files: dict = {}  # filename -> whether it is dygrad's (or an engine package's)

# Op names whose Paddle API is not ``paddle.<name>`` or ``paddle.nn.functional.<name>``.
_API_NAMES = {
    "elementwise_pow": "paddle.pow", "getitem": "Tensor.__getitem__",
    "setitem": "Tensor.__setitem__", "neg": "paddle.neg", "cast": "paddle.cast",
    "softmax_with_cross_entropy": "paddle.nn.functional.cross_entropy",
    "fused_conv2d_bias": "paddle.nn.functional.conv2d",
}
_NN_FAMILIES = ("nn", "conv", "loss", "norm")


def is_framework_file(filename: str) -> bool:
    """Whether ``filename`` is part of dygrad or of an installed engine package."""
    fw = _framework_files.get(filename)
    if fw is None:
        fw = (filename.startswith(_ROOT) or filename.startswith("dygrad_accelerated/")
              or f"{os.sep}dygrad_accelerated{os.sep}" in filename)
        _framework_files[filename] = fw
    return fw


def api_name(op) -> str:
    """The public Paddle API of an op of the table: 'paddle.matmul', 'paddle.nn.functional.conv2d'."""
    name = op.name
    if name in _API_NAMES:
        return _API_NAMES[name]
    family = getattr(op.infer_meta, "__module__", "").rpartition(".")[2]
    return f"paddle.nn.functional.{name}" if family in _NN_FAMILIES else f"paddle.{name}"


def describe(shape, dtype) -> str:
    """'float32[4, 3]'."""
    return f"{np.dtype(dtype).name}{list(shape)}"


def op_signature(op, metas) -> str:
    """'paddle.matmul(x: float32[4, 3], y: float32[5, 2])' from the inputs' (shape, dtype)."""
    parts = []
    for name, m in zip(op.inputs, metas):
        if isinstance(m, list):
            parts.append(f"{name}: [{', '.join(describe(*x) for x in m)}]")
        else:
            parts.append(f"{name}: {describe(*m)}")
    return f"{api_name(op)}({', '.join(parts)})"


# ---------------------------------------------------------------------------
# Where the user is
# ---------------------------------------------------------------------------

def _site(filename, lineno, name) -> str:
    line = linecache.getline(filename, lineno).strip()
    return f"{filename}:{lineno} in {name}" + (f": {line}" if line else "")


def caller_site(depth: int = 1):
    """file:line of the innermost user frame above the caller (None if there is none)."""
    f = sys._getframe(depth + 1)
    while f is not None:
        code = f.f_code
        if not is_framework_file(code.co_filename):
            return _site(code.co_filename, f.f_lineno, code.co_name)
        f = f.f_back
    return None


def user_stacklevel() -> int:
    """``stacklevel`` for ``warnings.warn`` called by the caller that points at the user's line."""
    f, level = sys._getframe(1), 1
    while f.f_back is not None and is_framework_file(f.f_code.co_filename):
        f, level = f.f_back, level + 1
    return level


def creation_site(depth: int = 2):
    """What a Node records of the user frame that created it: (code, lasti), turned into a
    file:line only when an error needs it (:func:`origin_site`)."""
    f = sys._getframe(depth)
    while f is not None:
        code = f.f_code
        fw = _framework_files.get(code.co_filename)
        if fw is None:
            fw = is_framework_file(code.co_filename)
        if not fw:
            return code, f.f_lasti
        f = f.f_back
    return None


def origin_site(origin):
    """file:line of a recorded ``creation_site``."""
    if origin is None:
        return None
    code, lasti = origin
    lineno = code.co_firstlineno
    for start, end, line in code.co_lines():
        if start <= lasti < end and line is not None:
            lineno = line
            break
    return _site(code.co_filename, lineno, code.co_name)


def user_site_in_tb(tb):
    """file:line of the innermost user frame in a traceback."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if not is_framework_file(code.co_filename):
            found = _site(code.co_filename, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    return found


# ---------------------------------------------------------------------------
# Adding context to an exception
# ---------------------------------------------------------------------------

_ORDER = ("op", "backward of", "layer", "created at", "at", "hint")


def _editable(exc) -> bool:
    """Only exceptions whose message is one string of a builtin (or dygrad) type are
    re-worded; others are left exactly as raised."""
    cls = type(exc)
    return (len(exc.args) == 1 and isinstance(exc.args[0], str) and cls is not KeyError
            and (cls.__module__ == "builtins" or cls.__module__.startswith("dygrad")))


def annotate(exc, **context):
    """Add ``context`` entries (op=, layer=, at=, created_at=, hint=) to ``exc``'s message;
    an entry already present is kept (the innermost boundary knows best). Returns exc."""
    if not _editable(exc):
        return exc
    d = exc.__dict__
    ctx = d.get("_dygrad_context")
    if ctx is None:  # the message as raised, kept to rebuild from
        ctx = d["_dygrad_context"] = {}
        d["_dygrad_message"] = exc.args[0]
    changed = False
    for key, value in context.items():
        key = key.replace("_", " ")
        if value is not None and key not in ctx:
            ctx[key] = value
            changed = True
    if changed:
        _rebuild(exc)
    return exc


def context(exc) -> dict:
    """The context entries added to ``exc`` so far ({} for none)."""
    return dict(exc.__dict__.get("_dygrad_context", {})) if hasattr(exc, "__dict__") else {}


# After a handler trimmed ``exc.__traceback__``, a bare ``raise`` re-raises the trimmed one from
# Python 3.11 on, but the traceback ``exc`` was caught with on 3.10: there the handler re-raises
# ``exc`` itself (adding its own frame, which the next trim drops).
BARE_RAISE_KEEPS_TRIM = sys.version_info >= (3, 11)


def trim_traceback(tb):
    """``tb`` without dygrad's frames (None when only those are left; unchanged with
    DYGRAD_FULL_TRACEBACK=1)."""
    if os.environ.get("DYGRAD_FULL_TRACEBACK") == "1":
        return tb
    frames = []
    while tb is not None:
        if not is_framework_file(tb.tb_frame.f_code.co_filename):
            frames.append(tb)
        tb = tb.tb_next
    if not frames:
        return None
    out = None
    for t in reversed(frames):
        out = types.TracebackType(out, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return out


def _trim(exc):
    if os.environ.get("DYGRAD_FULL_TRACEBACK") != "1":
        exc.__traceback__ = trim_traceback(exc.__traceback__)


# ---------------------------------------------------------------------------
# The boundaries
# ---------------------------------------------------------------------------

def op_failed(exc, op, arrays):
    """Dispatch: op ``op`` on ``arrays`` raised ``exc``: name the API, inputs and user line."""
    metas = [[(a.shape, a.dtype) for a in x] if isinstance(x, list) else (x.shape, x.dtype)
             for x in arrays]
    annotate(exc, op=op_signature(op, metas), at=caller_site(2))
    _trim(exc)
    return exc


def _child_name(parent, child):
    for name, layer in parent.named_sublayers():
        if layer is child:
            return name
    return None


def layer_failed(exc, layer):
    """``Layer.__call__``: ``exc`` is leaving ``layer``; extend the layer path outwards."""
    if not _editable(exc):
        return
    d = exc.__dict__
    chain = d.setdefault("_dygrad_layers", [])
    chain.append(layer)
    if len(chain) == 1:  # the innermost layer: where in the user's code
        annotate(exc, at=user_site_in_tb(exc.__traceback__) or caller_site(2))
    names = [type(chain[-1]).__name__]
    for parent, child in zip(chain[:0:-1], chain[-2::-1]):
        name = _child_name(parent, child)
        names.append(name if name is not None else f"<unregistered {type(child).__name__}>")
    path = ".".join(names)
    if len(chain) > 1:
        path += f" ({type(chain[0]).__name__})"
    annotate(exc)
    d["_dygrad_context"]["layer"] = path
    _rebuild(exc)
    _trim(exc)


def _rebuild(exc):
    d = exc.__dict__
    ctx = d["_dygrad_context"]
    lines = [d["_dygrad_message"]] + [f"  [{k}] {ctx[k]}" for k in _ORDER if k in ctx]
    exc.args = ("\n".join(lines),)


def backward_failed(exc, node):
    """The backward walk: ``exc`` was raised while running ``node`` (None: before the walk)."""
    at = caller_site(2)
    if node is not None and hasattr(node, "op"):
        origin = getattr(node, "origin", None)
        created = origin_site(origin) if origin is not None else (
            "not recorded (no user code above the op, or recording was off: "
            "errors.set_record_origin(False) / DYGRAD_RECORD_ORIGIN=0)")
        annotate(exc, backward_of=api_name(node.op), created_at=created, at=at)
    else:
        annotate(exc, at=at)
    _trim(exc)
    return exc


def user_error(exc, hint=None):
    """A check in a public API refused its arguments: point ``exc`` at the user's line."""
    annotate(exc, at=caller_site(2), hint=hint)
    return exc


def checks_arguments(fn):
    """Decorate a public API (a constructor, ...) whose own checks refuse arguments before any
    op runs: what they raise gets the user's line, as dispatch's errors do (free until then)."""
    @functools.wraps(fn)
    def checked(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            annotate(exc, at=user_site_in_tb(exc.__traceback__) or caller_site(1))
            _trim(exc)
            if BARE_RAISE_KEEPS_TRIM:
                raise
            raise exc
    return checked


# ---------------------------------------------------------------------------
# Recording the forward line (on by default; a switch for engines that can skip it)
# ---------------------------------------------------------------------------

class _Flags:
    __slots__ = ("record_origin",)

    def __init__(self):
        self.record_origin = os.environ.get("DYGRAD_RECORD_ORIGIN") != "0"


flags = _Flags()
_listeners: list = []


def on_record_origin(fn):
    """Call ``fn(flag)`` whenever origin recording is switched (an engine's fast path)."""
    _listeners.append(fn)
    fn(flags.record_origin)


def set_record_origin(flag: bool):
    """Whether each new node records its forward line (on unless DYGRAD_RECORD_ORIGIN=0).
    The accelerated engine skips it when off; the reference engine always records it."""
    flags.record_origin = bool(flag)
    for fn in _listeners:
        fn(flags.record_origin)


# ---------------------------------------------------------------------------
# Uncaught errors
# ---------------------------------------------------------------------------

def _raised_by_dygrad(tb) -> bool:
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and is_framework_file(tb.tb_frame.f_code.co_filename)


def _excepthook(cls, exc, tb, _previous=sys.excepthook):
    if isinstance(exc, BaseException) and "at" not in context(exc) and _raised_by_dygrad(tb):
        annotate(exc, at=user_site_in_tb(tb))  # a check that no boundary saw
    tb = trim_traceback(tb) or tb
    if isinstance(exc, BaseException):
        exc.__traceback__ = tb  # the default hook prints the exception's own traceback
    _previous(cls, exc, tb)


def install_excepthook():
    """Print uncaught errors without dygrad's frames (once; chains to the previous hook)."""
    if sys.excepthook is not _excepthook and sys.excepthook is sys.__excepthook__:
        sys.excepthook = _excepthook


install_excepthook()
