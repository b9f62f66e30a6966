"""paddle.save / paddle.load: checkpoints as pickles of NumPy arrays, in PaddlePaddle's layout.

The layout is the one PaddlePaddle 2.x and 3.x write, so Paddle loads dygrad's files and
dygrad loads Paddle's:

- a *state dict* (a dict whose values are all Tensors, or dicts holding no Tensor: what
  ``Layer.state_dict()`` and ``Optimizer.state_dict()`` return) is pickled as a plain dict
  of NumPy arrays, plus the key ``"StructuredToParameterName@@"`` mapping each Tensor's key
  to its name (``.pdparams`` / ``.pdopt`` files);
- anything else (a Tensor; nested dicts, lists and tuples of Tensors, NumPy arrays and
  Python scalars) is pickled as it is, every Tensor written as the tuple ``(name, ndarray)``.

:func:`load` turns those arrays back into Tensors (NumPy arrays with ``return_numpy=True``).

Safety: loading never runs code from the file. Pickle rebuilds objects by calling functions
the file names; the unpickler here resolves only the few that NumPy arrays and plain
containers need and refuses every other with :class:`pickle.UnpicklingError`. :func:`save`
refuses the same objects, so what it writes always loads.

Durability: :func:`save` writes a temporary file beside the target, flushes and fsyncs it,
then renames it over the target: a failure mid-save leaves the previous checkpoint whole.
"""

from __future__ import annotations

import _codecs
import collections
import os
import pickle
import uuid
import warnings

import numpy as np

from .._core.creation import to_tensor
from .._core.tensor import Tensor

__all__ = ["save", "load", "UnsafeCheckpointError"]

NAME_TABLE = "StructuredToParameterName@@"
BIG_ARRAYS = "UnpackBigParamInfor@@"  # Paddle's spelling: big arrays split for protocol 2/3
_MAX_CHUNK_BYTES = 2 ** 30 - 1          # pickle protocols 2 and 3 cannot hold 4 GiB objects


class UnsafeCheckpointError(pickle.UnpicklingError):
    """The file asks to run something that is not part of an array or a plain container."""


def _latin1_encode(text, encoding="latin1"):
    """How protocol-2 pickles spell bytes: ``_codecs.encode(str, 'latin1')``; nothing else."""
    if encoding not in ("latin1", "latin-1") or not isinstance(text, str):
        raise UnsafeCheckpointError(f"it calls _codecs.encode with {encoding!r}; checkpoints "
                                    f"only use it with 'latin1'")
    return text.encode("latin1")


# Everything a checkpoint may name, as (module, name) -> the object to use. NumPy's own
# rebuild functions are taken from NumPy itself, so any NumPy version's spelling works.
_reconstruct = np.ndarray((0,)).__reduce__()[0]
_scalar = np.float32(0).__reduce__()[0]
_LOADABLE = {
    **{(m, "_reconstruct"): _reconstruct for m in ("numpy.core.multiarray", "numpy._core.multiarray")},
    **{(m, "scalar"): _scalar for m in ("numpy.core.multiarray", "numpy._core.multiarray")},
    ("numpy", "ndarray"): np.ndarray,
    ("numpy", "dtype"): np.dtype,
    **{(m, t.__name__): t for t in (tuple, list, dict, set, frozenset, complex, bytearray)
       for m in ("builtins", "__builtin__")},  # protocol 2 uses Python 2's module name
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("_codecs", "encode"): _latin1_encode,
}
_SAVABLE_GLOBALS = {id(obj) for obj in (_reconstruct, _scalar, np.ndarray, np.dtype, tuple, list,
                                        dict, set, frozenset, complex, bytearray,
                                        collections.OrderedDict, _codecs.encode)}
_SAVABLE_VALUES = (np.ndarray, np.generic, np.dtype, complex, bytearray, collections.OrderedDict)


class _SafeUnpickler(pickle.Unpickler):
    """An unpickler that only rebuilds NumPy arrays, NumPy scalars and plain containers."""

    def __init__(self, file):
        super().__init__(file, encoding="latin1")

    def find_class(self, module, name):
        try:
            return _LOADABLE[(module, name)]
        except KeyError:
            raise UnsafeCheckpointError(
                f"it asks to call {module}.{name}, which is not part of an array or a plain "
                f"container (a checkpoint holds only arrays, numbers, strings and "
                f"dicts/lists/tuples of them)") from None


def _is_layer(obj) -> bool:
    from ..nn import Layer  # imported on use: dygrad.nn is a layer above this module
    return isinstance(obj, Layer)


class _Pickler(pickle.Pickler):
    """Writes Tensors as ``(name, ndarray)`` tuples and refuses anything load would refuse."""

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return tuple, ((obj.name, np.asarray(obj.numpy())),)
        if isinstance(obj, _SAVABLE_VALUES) or id(obj) in _SAVABLE_GLOBALS:
            return NotImplemented
        if _is_layer(obj):
            raise ValueError("paddle.save: a Layer object cannot be saved; save its "
                             "state_dict() and load it with set_state_dict()")
        raise TypeError(f"paddle.save: cannot save an object of type {type(obj).__name__}; a "
                        f"checkpoint holds Tensors, NumPy arrays, numbers, strings, None and "
                        f"dicts/lists/tuples/sets of them")


def _contains(obj, test) -> bool:
    """Whether ``obj`` or anything in its (nested) dicts/lists/tuples/sets passes ``test``."""
    if test(obj):
        return True
    if isinstance(obj, dict):
        return any(_contains(v, test) for v in obj.values())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return any(_contains(v, test) for v in obj)
    return False


def _is_state_dict(obj) -> bool:
    """Paddle's rule: a dict whose values are Tensors, or dicts holding no Tensor/Layer."""
    if not isinstance(obj, dict):
        return False
    tensor_or_layer = lambda v: isinstance(v, Tensor) or _is_layer(v)
    return all(not _contains(v, tensor_or_layer) if isinstance(v, dict) else isinstance(v, Tensor)
               for v in obj.values())


def _state_dict_payload(state_dict, protocol):
    """The dict Paddle writes for a state dict: arrays, their names, big arrays in chunks."""
    if not state_dict:
        warnings.warn("paddle.save: the state dict is empty, there is nothing to save",
                      stacklevel=3)
    payload, names = {}, {}
    for key, value in state_dict.items():
        if isinstance(value, Tensor):
            payload[key], names[key] = np.asarray(value.numpy()), value.name
        else:
            payload[key] = value
    payload[NAME_TABLE] = names
    return _split_big_arrays(payload) if protocol < 4 else payload


def _split_big_arrays(payload):
    """Protocols 2 and 3 cannot pickle an object over 4 GiB: cut big arrays into flat chunks
    ``key@@.0``, ``key@@.1``, ... and record how to join them (Paddle's layout)."""
    info = {}
    for key, value in list(payload.items()):
        if not isinstance(value, np.ndarray) or value.nbytes <= _MAX_CHUNK_BYTES:
            continue
        step = _MAX_CHUNK_BYTES // value.dtype.itemsize
        flat = value.reshape(-1)
        parts = [f"{key}@@.{i}" for i in range(-(-flat.size // step))]
        for i, part in enumerate(parts):
            payload[part] = flat[i * step:(i + 1) * step]
        info[key] = {"OriginShape": value.shape, "slices": parts}
        del payload[key]
    if info:
        payload[BIG_ARRAYS] = info
    return payload


def _join_big_arrays(loaded):
    """Undo :func:`_split_big_arrays`."""
    for key, how in loaded.pop(BIG_ARRAYS, {}).items():
        loaded[key] = np.concatenate([loaded.pop(part) for part in how["slices"]]).reshape(
            how["OriginShape"])
    return loaded


def _check_protocol(protocol):
    if not isinstance(protocol, int) or isinstance(protocol, bool):
        raise ValueError(f"paddle.save: protocol must be an int, got {type(protocol).__name__}")
    if not 2 <= protocol <= 4:
        raise ValueError(f"paddle.save: expected 1 < protocol < 5, got protocol={protocol}")


def _is_buffer(path) -> bool:
    """A binary file object (io.BytesIO, open(..., 'rb'/'wb')) rather than a path."""
    return not isinstance(path, (str, bytes, os.PathLike))


def save(obj, path, protocol=4):
    """Save ``obj`` (a state dict, a Tensor, or nested dicts/lists/tuples of Tensors, NumPy
    arrays and Python scalars) to the file ``path`` (or a binary buffer), as Paddle does.

    The file is replaced atomically: until the new one is complete the old one stays.
    """
    _check_protocol(protocol)
    payload = _state_dict_payload(obj, protocol) if _is_state_dict(obj) else obj
    if _is_buffer(path):
        _Pickler(path, protocol).dump(payload)
        return
    path = os.fspath(path)
    if not os.path.basename(path):
        raise ValueError(f"paddle.save: path must be dirname/filename, got {path!r} (the file "
                         f"name is empty)")
    _write_atomically(path, lambda f: _Pickler(f, protocol).dump(payload))


def _write_atomically(path, write):
    """Run ``write(file)`` on a temporary file beside ``path``, make it durable, rename it."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{uuid.uuid4().hex[:12]}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    if os.name == "posix":  # make the rename itself durable
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _named_tensor(array, name):
    t = to_tensor(array)
    t.name = name
    return t


def _convert(obj, test, convert):
    """``obj`` with every part that passes ``test`` replaced by ``convert(part)``."""
    if test(obj):
        return convert(obj)
    if isinstance(obj, dict):
        return type(obj)((k, _convert(v, test, convert)) for k, v in obj.items())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return type(obj)(_convert(v, test, convert) for v in obj)
    return obj


def _is_saved_tensor(obj) -> bool:
    return (type(obj) is tuple and len(obj) == 2 and isinstance(obj[0], str)
            and isinstance(obj[1], np.ndarray))


def _restore(obj, return_numpy, keep_name_table):
    """Paddle's reading of a loaded pickle: state dicts by their name table; otherwise
    ``(name, ndarray)`` tuples are Tensors, and when there are none, every array is."""
    if isinstance(obj, dict):
        obj = _join_big_arrays(obj)
        if NAME_TABLE in obj:
            names = obj[NAME_TABLE] if keep_name_table else obj.pop(NAME_TABLE)
            for key, name in names.items():
                if isinstance(obj.get(key), np.ndarray) and not return_numpy:
                    obj[key] = _named_tensor(obj[key], name)
            return obj
    if _contains(obj, _is_saved_tensor):
        to_value = (lambda t: t[1]) if return_numpy else (lambda t: _named_tensor(t[1], t[0]))
        return _convert(obj, _is_saved_tensor, to_value)
    if return_numpy:
        return obj
    return _convert(obj, lambda v: isinstance(v, np.ndarray), to_tensor)


_CORRUPT = (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError, KeyError,
            AttributeError, OverflowError, MemoryError, UnicodeDecodeError)


def load(path, *, return_numpy=False, keep_name_table=False):
    """Load what :func:`save` (or PaddlePaddle's ``paddle.save``) wrote to ``path`` (a file
    or a binary buffer). Tensors come back as Tensors with their names, or as NumPy arrays
    with ``return_numpy=True``; ``keep_name_table`` keeps a state dict's name table."""
    if _is_buffer(path):
        source, f = "the buffer", path
    else:
        source = os.fspath(path)
        if not os.path.isfile(source):
            raise ValueError(f"paddle.load: the path {source} does not exist (or is not a file)")
        f = open(source, "rb")
    try:
        obj = _SafeUnpickler(f).load()
    except UnsafeCheckpointError as exc:
        raise UnsafeCheckpointError(f"paddle.load: refusing to load {source}: {exc}") from None
    except _CORRUPT as exc:
        raise ValueError(f"paddle.load: cannot parse {source}: the file is truncated or not a "
                         f"checkpoint ({type(exc).__name__}: {exc})") from None
    finally:
        if f is not path:
            f.close()
    return _restore(obj, return_numpy, keep_name_table)
