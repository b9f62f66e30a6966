"""Tensor: an engine array plus what autograd needs to know about it.

A Tensor holds its array in ``_data`` (a NumPy array on the reference engine), whether it
needs no gradient (``stop_gradient``, Paddle's spelling: True by default), and, when an op
with a differentiable input produced it, the graph node of that op (``_grad_fn``) and which
of the op's outputs it is. Leaves that need a gradient receive ``.grad`` from backward.

Methods that are ops (``reshape``, ``sum``, ...) are attached by :mod:`dygrad.tensor`, as
Paddle attaches its tensor functions; the operators (``+``, ``<``, ``[]``, ...) are here.
"""

from __future__ import annotations

import itertools

import numpy as np

from . import autograd as _autograd
from . import dtype as _dt
from . import errors as _errors
from .autograd import grad_mode

_names = itertools.count()
_new = object.__new__


class Tensor:
    # Hot attributes are slots, set for every tensor; the rest live in the instance dict
    # only once set, and read as the class defaults below until then (cheap creation).
    __slots__ = ("_data", "stop_gradient", "_grad_fn", "_version", "__dict__", "__weakref__")
    _grad = None          # the accumulated gradient (a Tensor) of a leaf
    _out_idx = 0          # which output of _grad_fn this tensor is
    _accum = None         # weak reference to the AccumulateGrad node of a leaf
    _hooks = None         # {key: hook} for a leaf's gradient hooks
    _name = None
    _cut = None           # where the tape was first cut for it (dispatch.Cut, see explain)
    persistable = False

    # Keep NumPy from treating a Tensor as an array in mixed expressions (np_array + t)
    __array_priority__ = 100

    def __init__(self, data=None, dtype=None, place=None, stop_gradient=True):
        from .creation import to_array
        Tensor._init(self, to_array(data if data is not None else [], dtype, place), stop_gradient)

    @staticmethod
    def _init(t, data, stop_gradient=True):
        t._data = data
        t.stop_gradient = stop_gradient
        t._grad_fn = None
        t._version = [0]

    @staticmethod
    def _wrap(data, stop_gradient=True):
        """A new Tensor around an engine array (no copy)."""
        t = _new(Tensor)
        t._data = data
        t.stop_gradient = stop_gradient
        t._grad_fn = None
        t._version = [0]
        return t

    # -- metadata ----------------------------------------------------------------------
    @property
    def shape(self) -> list:
        return list(self._data.shape)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    @property
    def size(self) -> int:
        return int(self._data.size)

    def numel(self):
        return int(self._data.size)

    @property
    def dtype(self) -> _dt.DType:
        return _dt.from_numpy(self._data.dtype)

    @property
    def place(self):
        from .engine import current
        return current().place_of(self._data)

    @property
    def name(self) -> str:
        if self._name is None:
            self._name = f"generated_tensor_{next(_names)}"
        return self._name

    @name.setter
    def name(self, value):
        self._name = str(value)

    @property
    def is_leaf(self) -> bool:
        return self._grad_fn is None

    @property
    def grad_fn(self):
        return self._grad_fn

    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"Tensor.grad: expected a Tensor or None, got {type(value).__name__}")
        if value is not None and value._data.shape != self._data.shape:
            raise ValueError(f"Tensor.grad: gradient of shape {value.shape} assigned to a tensor "
                             f"of shape {self.shape}")
        self._grad = value

    @property
    def inplace_version(self) -> int:
        return self._version[0]

    # -- conversion --------------------------------------------------------------------
    def numpy(self) -> np.ndarray:
        """A NumPy copy of the values (as Paddle: later changes of the tensor do not show)."""
        from .engine import current
        a = current().to_numpy(self._data)
        return a.copy() if a is self._data else a

    # -- places ------------------------------------------------------------------------
    def cpu(self):
        """This tensor on the CPU: itself when it is there, else a copy (see :meth:`to`)."""
        from .place import CPU
        return self._to_place(CPU)

    def cuda(self, device_id=None, blocking=True):
        """This tensor on CUDA device ``device_id`` (default: the current device when it is
        a GPU, else gpu:0): itself when it is there, else a copy (see :meth:`to`).
        ``blocking`` is Paddle's; copies here always finish before this returns."""
        from . import device
        from .place import CUDAPlace
        if device_id is None:
            place = device.current_place()
            place = place if place.kind == "gpu" else CUDAPlace(0)
        else:
            place = CUDAPlace(int(device_id))
        return self._to_place(place)

    def to(self, *args, **kwargs):
        """``to(device=None, dtype=None, blocking=None)``, ``to(dtype, blocking=None)`` or
        ``to(other, blocking=None)`` (other's place and dtype). Itself when nothing changes.
        As Paddle: a copy to another place is a new leaf with the same ``stop_gradient``
        (no gradient flows back across it); a dtype change is a cast, which records one."""
        from .place import parse_device
        device, dtype = _to_arguments(args, kwargs)
        out = self
        if dtype is not None and _dt.convert_dtype(dtype) != self.dtype:
            from .dispatch import ops
            out = ops.cast(out, dtype=_dt.convert_dtype(dtype).np)
        return out if device is None else out._to_place(parse_device(device))

    def _to_place(self, place):
        from .engine import current
        eng = current()
        eng.check_place(place)
        if eng.place_of(self._data) == place:
            return self
        return Tensor._wrap(eng.move(self._data, place), self.stop_gradient)

    def __array__(self, dtype=None, copy=None):
        from .engine import current
        a = current().to_numpy(self._data)
        if dtype is not None:
            return a.astype(dtype)
        return a.copy() if copy else a

    def item(self, *args):
        a = self.numpy()
        if args:
            return a.item(*args)
        if a.size != 1:
            raise ValueError(f"Tensor.item: only a tensor with one element can be converted to a "
                             f"Python scalar, got shape {self.shape}")
        return a.item()

    def tolist(self):
        return self.numpy().tolist()

    def _one(self, what):
        if self._data.size != 1:
            raise ValueError(f"{what}: only a tensor with one element has a truth/scalar value, "
                             f"got shape {self.shape}; use .any() or .all()")
        return self.numpy().reshape(()).item()

    def __bool__(self):
        return bool(self._one("bool(Tensor)"))

    def __float__(self):
        return float(self._one("float(Tensor)"))

    def __int__(self):
        return int(self._one("int(Tensor)"))

    def __index__(self):
        if self._data.dtype.kind not in "iu":
            raise TypeError(f"only integer tensors can be used as an index, got {self.dtype}")
        return int(self._one("Tensor.__index__"))

    def __complex__(self):
        return complex(self._one("complex(Tensor)"))

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-D tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-D tensor")
        for i in range(self._data.shape[0]):
            yield self[i]

    def __hash__(self):
        return id(self)

    def __repr__(self):
        from .printing import tensor_to_string
        return tensor_to_string(self)

    __str__ = __repr__

    def __format__(self, spec):
        if self._data.size == 1 and spec:
            return format(self.item(), spec)
        return format(repr(self), spec) if spec else repr(self)

    def __deepcopy__(self, memo):
        t = Tensor._wrap(self._data.copy(), self.stop_gradient)
        t.persistable = self.persistable
        t._name = self._name
        if self._grad is not None:
            t._grad = Tensor._wrap(self._grad._data.copy())
        memo[id(self)] = t
        return t

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self.numpy(), self.stop_gradient, self._name))

    # -- autograd ----------------------------------------------------------------------
    def backward(self, grad_tensor=None, retain_graph=False):
        """Accumulate the gradient of this tensor into ``.grad`` of the leaves."""
        if grad_tensor is None:  # ones: the op full_like, as its kernel runs it in eager mode
            if _dispatch._static is None and _dispatch._debug is None:
                grad_tensor = Tensor._wrap(_dispatch._kernels["full_like"](self._data, 1))
            else:
                grad_tensor = _dispatch.ops.full_like(self, fill_value=1)
        elif not isinstance(grad_tensor, Tensor):
            from .creation import to_tensor
            grad_tensor = to_tensor(grad_tensor, dtype=self.dtype)
        _autograd.run_backward([self], [grad_tensor], retain_graph=retain_graph)

    def gradient(self):
        """The gradient as a NumPy array (Paddle 1.x spelling), or None."""
        return None if self._grad is None else self._grad.numpy()

    def clear_grad(self, set_to_zero=True):
        """Zero the gradient (a NaN or Inf in it too), or drop it with ``set_to_zero=False``."""
        if set_to_zero and self._grad is not None:
            self._grad = Tensor._wrap(np.zeros_like(self._grad._data))  # CuPy's too (NEP 18)
        else:
            self._grad = None

    clear_gradient = clear_grad

    def detach(self):
        """A new tensor sharing the data, cut from the graph (stop_gradient=True)."""
        t = Tensor._wrap(self._data, True)
        t._version = self._version
        if not self.stop_gradient and self._cut is None and _dispatch._mark_cuts:
            _dispatch.note_cut(self, "detach", "detach", _errors.creation_site())
        return t

    def detach_(self):
        if not self.stop_gradient and self._cut is None and _dispatch._mark_cuts:
            _dispatch.note_cut(self, "detach_", "detach", _errors.creation_site())
        self._grad_fn = None
        self.stop_gradient = True
        return self

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned Tensor
        replaces the gradient. Returns a handle with ``remove()``."""
        if self.stop_gradient:
            raise RuntimeError("register_hook: cannot register a hook on a tensor with "
                               "stop_gradient=True (it will never receive a gradient)")
        return _add_hook(self, hook)

    def retain_grads(self):
        """Keep ``.grad`` for this non-leaf tensor after backward."""
        if self._grad_fn is None or getattr(self, "_retaining", False):
            return
        import weakref
        ref = weakref.ref(self)

        def keep(g):
            t = ref()
            if t is not None:
                t._grad = g.detach() if t._grad is None else t._grad + g.detach()
        _add_hook(self, keep)

    # -- in-place data access ----------------------------------------------------------
    def set_value(self, value):
        """Replace the data in place (shape must match); no gradient is recorded."""
        from .creation import to_array
        if isinstance(value, Tensor) and hasattr(value._data, "block"):  # a static Variable
            from .program import assign_to_eager
            return assign_to_eager(self, value)
        arr = value._data if isinstance(value, Tensor) else to_array(value, self.dtype)
        if tuple(arr.shape) != self._data.shape:
            raise ValueError(f"set_value: value of shape {list(arr.shape)} does not match the "
                             f"tensor's shape {self.shape}")
        self._data[...] = arr
        self._version[0] += 1
        return self

    def _bump(self):
        self._version[0] += 1


def _to_arguments(args, kwargs):
    """(device, dtype) from the arguments of ``Tensor.to``'s three forms (see there)."""
    from .place import Place
    if len(args) + len(kwargs) > 3 or set(kwargs) - {"device", "dtype", "blocking", "other"}:
        raise TypeError(f"Tensor.to: expected to(device, dtype, blocking), to(dtype, blocking) "
                        f"or to(other, blocking), got {len(args)} positional arguments and "
                        f"keywords {sorted(kwargs)}")
    args = list(args)
    device = dtype = None
    other = args.pop(0) if args and isinstance(args[0], Tensor) else kwargs.pop("other", None)
    if other is not None:
        device, dtype = other.place, other.dtype
    elif args and (isinstance(args[0], Place) or _is_device_name(args[0])):
        device = args.pop(0)
    if args and dtype is None and not isinstance(args[0], bool):
        dtype = args.pop(0)
    device, dtype = kwargs.pop("device", device), kwargs.pop("dtype", dtype)
    blocking = kwargs.pop("blocking", args.pop(0) if args else None)
    if args or not (blocking is None or isinstance(blocking, bool)):
        raise TypeError("Tensor.to: blocking must be True, False or None")
    return device, dtype


def _is_device_name(value) -> bool:
    """Whether an argument of ``Tensor.to`` is a device name ('cpu', 'gpu:0') rather than a
    dtype name ('float32')."""
    if not isinstance(value, str):
        return False
    try:
        _dt.convert_dtype(value)
    except TypeError:
        return True
    return False


class _HookHandle:
    def __init__(self, registry, key):
        self._registry, self._key = registry, key

    def remove(self):
        self._registry.pop(self._key, None)


_hook_ids = itertools.count()


def _add_hook(t, hook):
    key = next(_hook_ids)
    if t._grad_fn is None:
        if t._hooks is None:
            t._hooks = {}
        t._hooks[key] = hook
        return _HookHandle(t._hooks, key)
    node = t._grad_fn
    if node.pre_hooks is None:
        node.pre_hooks = {}
    reg = node.pre_hooks.setdefault(t._out_idx, {})
    reg[key] = hook
    return _HookHandle(reg, key)


def _rebuild(array, stop_gradient, name):
    from .creation import to_tensor
    t = to_tensor(array, stop_gradient=stop_gradient)
    t._name = name
    return t


class Parameter(Tensor):
    """A trainable tensor owned by a Layer (``stop_gradient=False``, persistable)."""

    __slots__ = ("optimize_attr", "regularizer", "need_clip", "do_model_average", "is_distributed")

    def __init__(self, data, name=None, trainable=True, optimize_attr=None, regularizer=None,
                 need_clip=True):
        Tensor._init(self, data, stop_gradient=not trainable)
        self._name = name
        self.persistable = True
        self.optimize_attr = optimize_attr or {"learning_rate": 1.0}
        self.regularizer = regularizer
        self.need_clip = need_clip
        self.do_model_average = None
        self.is_distributed = False

    @property
    def trainable(self) -> bool:
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value):
        self.stop_gradient = not value

    def __repr__(self):
        from .printing import tensor_to_string
        return "Parameter containing:\n" + tensor_to_string(self)

    __str__ = __repr__

    def __deepcopy__(self, memo):
        p = Parameter(self._data.copy(), name=self._name, trainable=self.trainable,
                      optimize_attr=dict(self.optimize_attr), regularizer=self.regularizer,
                      need_clip=self.need_clip)
        memo[id(self)] = p
        return p

    def __reduce_ex__(self, protocol):
        return (_rebuild_param, (self.numpy(), self._name, self.trainable))


def _rebuild_param(array, name, trainable):
    from .creation import to_array
    return Parameter(to_array(array), name=name, trainable=trainable)


def is_tensor(x) -> bool:
    return isinstance(x, Tensor)


# the operators live with the dispatcher; bind them here so ``tensor.py`` reads whole
from . import dispatch as _dispatch  # noqa: E402
from .dispatch import install_operators  # noqa: E402

install_operators(Tensor)
del grad_mode
