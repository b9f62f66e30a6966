"""Static mode's program IR: variables and ops that the table's ops append to a Program.

In static mode (``dygrad.enable_static()``) dispatch hands every op to :func:`static_apply`
instead of running a kernel. It checks the inputs with the row's ``infer_meta`` (errors
appear while the program is built, as in Paddle), creates the output :class:`Variable` s
and appends an :class:`OpDesc` to the current block. When grad mode is on it also records
the same autograd :class:`~dygrad._core.autograd.Node` as eager mode, so
``append_backward`` is the eager backward walk run in static mode: the gradient rules
append their ops to the program.

A static Variable is a Tensor whose ``_data`` is a :class:`VarDesc` (name, shape, dtype)
instead of an array, so Tensor operators and methods work on it unchanged. Unknown
dimensions (-1 or None) are stored as the stand-in size ``UNKNOWN`` (shapes stay plain
ints for ``infer_meta``) and shown as -1; attributes computed from them (a gradient's
``reshape`` to its input's shape) hold multiples of ``UNKNOWN``, which the Executor
replaces by the fed size. This module knows no user-facing package; the Executor,
``append_backward`` and the public API are in :mod:`dygrad.static`.
"""

from __future__ import annotations

import contextlib
import itertools
from collections import defaultdict

import numpy as np

from . import dispatch as _dispatch
from . import dtype as _dt
from . import engine as _engine
from .autograd import Node, grad_mode, no_grad
from .optable import TABLE, UNKNOWN, Meta, OpDef
from .tensor import Parameter, Tensor


def internal_shape(shape) -> tuple:
    """A user's shape (-1 or None for unknown) with unknown dimensions as ``UNKNOWN``."""
    return tuple(UNKNOWN if d is None or int(d) < 0 else int(d) for d in shape)


def public_shape(shape) -> tuple:
    """The shape Paddle shows: every dimension derived from an unknown one is -1."""
    return tuple(-1 if d and d % UNKNOWN == 0 else int(d) for d in shape)


def has_unknown(value) -> bool:
    """Whether an attribute holds an int derived from an unknown dimension."""
    if isinstance(value, (list, tuple)):
        return any(has_unknown(v) for v in value)
    return (isinstance(value, (int, np.integer)) and not isinstance(value, bool)
            and value != 0 and value % UNKNOWN == 0)


def resolve_unknown(value, size: int):
    """``value`` with every multiple k * UNKNOWN replaced by k * ``size``."""
    if isinstance(value, (list, tuple)):
        return type(value)(resolve_unknown(v, size) for v in value)
    if has_unknown(value):
        return int(value) // UNKNOWN * size
    return value


# ---------------------------------------------------------------------------
# Variables, ops, blocks, programs
# ---------------------------------------------------------------------------

class NoValueError(TypeError):
    """The value of a static Variable was asked for (``.numpy()``, ``float()``, ``bool()``)
    while its program is built."""


class VarDesc:
    """What a program knows of a variable: name, shape, dtype and its role. ``const``
    holds the value of a constant captured while building (an eager tensor used in an op)."""

    __slots__ = ("name", "shape", "dtype", "block", "persistable", "is_data", "is_parameter",
                 "stop_gradient", "const", "handle")

    def __init__(self, block, name, shape, dtype, persistable=False, is_data=False,
                 is_parameter=False, stop_gradient=True, const=None):
        self.block, self.name, self.shape, self.dtype = block, name, tuple(shape), np.dtype(dtype)
        self.persistable, self.is_data, self.is_parameter = persistable, is_data, is_parameter
        self.stop_gradient, self.const, self.handle = stop_gradient, const, None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def copy_to(self, block) -> VarDesc:
        d = VarDesc(block, self.name, self.shape, self.dtype, self.persistable, self.is_data,
                    self.is_parameter, self.stop_gradient, self.const)
        return d

    def __array__(self, dtype=None, copy=None):
        raise NoValueError(f"static Variable {self.name!r} has no value while the program is "
                           f"built; run the program with paddle.static.Executor and fetch it")

    def __repr__(self):
        return f"VarDesc({self.name!r}, {list(public_shape(self.shape))}, {self.dtype.name})"


class OpDesc:
    """One op of a block: the table's row, input and output VarDescs, attributes, and its
    role ('forward', 'backward' or 'optimize'; ``clone(for_test=True)`` keeps forward)."""

    __slots__ = ("op", "inputs", "outputs", "attrs", "role", "sized")

    def __init__(self, op: OpDef, inputs, outputs, attrs, role="forward"):
        self.op, self.inputs, self.outputs, self.attrs, self.role = op, inputs, outputs, attrs, role
        self.sized = has_unknown(list(attrs.values()))  # the Executor fills in -1 sizes

    @property
    def type(self) -> str:
        return self.op.name

    def copied(self, new_desc, for_test=False) -> OpDesc:
        """This op in a copy of its program (``new_desc`` maps a VarDesc to its copy);
        ``for_test`` turns training behaviour (dropout) off."""
        attrs = dict(self.attrs)
        if for_test and "training" in self.op.attrs:
            attrs["training"] = False
        ins = [[new_desc(d) for d in x] if isinstance(x, list) else new_desc(x)
               for x in self.inputs]
        return OpDesc(self.op, ins, [new_desc(d) for d in self.outputs], attrs, self.role)

    def input_descs(self):
        """The input VarDescs, flat (a variadic op's list first)."""
        for x in self.inputs:
            yield from (x if isinstance(x, list) else (x,))

    def __str__(self):
        def names(x):
            return [d.name for d in x] if isinstance(x, list) else [x.name]
        outs = ", ".join(f"{n}={names(d)}" for n, d in zip(self.op.outputs, self.outputs))
        ins = ", ".join(f"{n}={names(d)}" for n, d in zip(self.op.inputs, self.inputs))
        attrs = "".join(f", {k} = {_attr_str(v)}" for k, v in {**self.op.attrs, **self.attrs}.items())
        return f"{{{outs}}} = {self.type}(inputs={{{ins}}}{attrs})"


def _attr_str(v):
    if isinstance(v, np.dtype):
        return v.name
    v = public_shape(v) if isinstance(v, tuple) and all(
        isinstance(i, (int, np.integer)) for i in v) else v
    return repr(v)


_names: defaultdict = defaultdict(itertools.count)


def unique_name(prefix: str) -> str:
    """``prefix_0``, ``prefix_1``, ... (one counter per prefix, as Paddle's unique_name)."""
    return f"{prefix}_{next(_names[prefix])}"


class Block:
    """A list of ops and the variables they read and write (``program.global_block()``)."""

    def __init__(self, program, idx, parent_idx=-1):
        self.program, self.idx, self.parent_idx = program, idx, parent_idx
        self.vars: dict[str, VarDesc] = {}
        self.ops: list[OpDesc] = []

    def create_var(self, name=None, shape=(), dtype="float32", **role) -> VarDesc:
        name = name or unique_name("tmp")
        desc = VarDesc(self, name, internal_shape(shape), _dt.convert_dtype(dtype).np, **role)
        self.vars[name] = desc
        return desc

    def has_var(self, name) -> bool:
        return name in self.vars

    def var(self, name):
        """The Variable called ``name`` (ValueError if the block has none)."""
        if name not in self.vars:
            raise ValueError(f"var {name} is not in this block")
        return variable_of(self.vars[name])

    def all_parameters(self) -> list:
        return [variable_of(d) for d in self.vars.values() if d.is_parameter]

    def append_op(self, op: OpDesc) -> OpDesc:
        self.ops.append(op)
        self.program._version += 1
        return op

    def _find_var_recursive(self, name):
        block = self
        while block is not None:
            if name in block.vars:
                return block.vars[name]
            block = self.program.blocks[block.parent_idx] if block.parent_idx >= 0 else None
        return None

    def __str__(self):
        lines = [f"{{ // block {self.idx}"]
        lines += [f"    {_var_line(d)}" for d in self.vars.values()]
        lines.append("")
        lines += [f"    {op}" for op in self.ops]
        lines.append("}")
        return "\n".join(lines)


def _var_line(d: VarDesc) -> str:
    kind = ("persist trainable param " if d.is_parameter and not d.stop_gradient else
            "persist param " if d.is_parameter else "persist " if d.persistable else
            "const " if d.const is not None else "")
    return (f"{kind}var {d.name} : LOD_TENSOR.shape({', '.join(map(str, public_shape(d.shape)))})"
            f".dtype({_dt.from_numpy(d.dtype).name}).stop_gradient({d.stop_gradient})")


class Program:
    """A static program: blocks of ops (block 0 is the global block), built by running
    Paddle code in static mode and run by ``paddle.static.Executor``."""

    def __init__(self):
        self.blocks = [Block(self, 0)]
        self.random_seed = 0
        self._version = 0          # bumped by every appended op
        self._role = "forward"     # the role of the ops appended now
        self._current = 0          # index of the block ops are appended to
        self._is_test = False
        # persistable variables the Executor sets before every run: [(VarDesc, value_fn)]
        # (a learning-rate scheduler's rate); _refresh_vars finds them again by key
        self._refresh: list = []
        self._refresh_vars: dict = {}
        self._plans = (0, {})  # the Executor's cached pass results, for one _version

    def global_block(self) -> Block:
        return self.blocks[0]

    def block(self, index) -> Block:
        return self.blocks[index]

    def current_block(self) -> Block:
        return self.blocks[self._current]

    @property
    def num_blocks(self) -> int:
        return len(self.blocks)

    def list_vars(self):
        """Every Variable of every block."""
        for b in self.blocks:
            for d in b.vars.values():
                yield variable_of(d)

    def all_parameters(self) -> list:
        return [p for b in self.blocks for p in b.all_parameters()]

    @contextlib.contextmanager
    def _op_role(self, role):
        prev, self._role = self._role, role
        try:
            yield
        finally:
            self._role = prev

    def clone(self, for_test=False) -> Program:
        """A copy of the program. ``for_test=True`` keeps only the forward ops (no backward
        or update ops) and runs them in inference mode (dropout off, batch norm with its
        running statistics)."""
        p = Program()
        p.random_seed, p._is_test = self.random_seed, for_test
        p._refresh = self._refresh  # the VarDescs are looked up by name when run
        kept = [[o for o in b.ops if o.role == "forward"] if for_test else b.ops
                for b in self.blocks]
        used = {d.name for ops in kept for o in ops
                for d in (*o.input_descs(), *_flat(o.outputs))}
        p.blocks = []
        for b in self.blocks:
            nb = Block(p, b.idx, b.parent_idx)
            for name, d in b.vars.items():
                if not for_test or name in used or d.persistable or d.is_data:
                    nb.vars[name] = d.copy_to(nb)
            p.blocks.append(nb)
        for nb, ops in zip(p.blocks, kept):
            nb.ops = [o.copied(lambda d: p.blocks[d.block.idx].vars[d.name], for_test)
                      for o in ops]
        return p

    def to_string(self, throw_on_error=False, with_details=False) -> str:
        return "\n".join(str(b) for b in self.blocks)

    __str__ = to_string

    def __repr__(self):
        return self.to_string()


def _flat(x):
    for d in x:
        yield from (d if isinstance(d, list) else (d,))


class Variable(Tensor):
    """A variable of a static program: a Tensor whose ``_data`` is a :class:`VarDesc`.
    Operators and Tensor methods append ops; values come from ``Executor.run``."""

    __slots__ = ()

    @property
    def shape(self) -> list:
        return list(public_shape(self._data.shape))

    @property
    def name(self) -> str:
        return self._data.name

    @name.setter
    def name(self, value):
        block = self._data.block
        block.vars.pop(self._data.name, None)
        self._data.name = str(value)
        block.vars[self._data.name] = self._data

    @property
    def persistable(self) -> bool:
        return self._data.persistable

    @persistable.setter
    def persistable(self, value):
        self._data.persistable = bool(value)

    @property
    def block(self) -> Block:
        return self._data.block

    @property
    def desc(self) -> VarDesc:
        return self._data

    def set_value(self, value, scope=None):
        """A Variable ``value``: append an op that writes it into this variable when the
        program runs (batch norm's running statistics). Else (an array, a number, an eager
        Tensor): write it into the scope's value of this persistable variable now, as
        Paddle does (``scope``: default the global scope)."""
        if isinstance(value, Variable):
            block = state.main.current_block()
            block.append_op(OpDesc(TABLE["assign"], [value._data], [self._data], {},
                                   state.main._role))
            return self
        if not self._data.persistable:
            raise ValueError(f"set_value: {self.name!r} is not persistable; only persistable "
                             f"variables (parameters) have a value outside a run")
        if scope is None:
            scope = global_scope()
        from .creation import to_array
        arr = to_array(value._data if isinstance(value, Tensor) else value, self._data.dtype)
        if tuple(arr.shape) != self._data.shape:
            raise ValueError(f"set_value: value of shape {list(arr.shape)} does not match "
                             f"{self.name!r}'s shape {list(self._data.shape)}")
        scope._values[self.name] = arr
        return self

    def numpy(self):
        self._data.__array__()

    def __array__(self, dtype=None, copy=None):
        self._data.__array__()

    def __repr__(self):
        return _var_line(self._data)

    __str__ = __repr__

    def __deepcopy__(self, memo):
        return self


class StaticParameter(Variable, Parameter):
    """A parameter of a static program: created in the main program's global block,
    initialized by ops of the startup program, its value kept in the scope."""

    __slots__ = ()

    @property
    def trainable(self) -> bool:
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value):
        self.stop_gradient = not value
        self._data.stop_gradient = not value


def variable_of(desc: VarDesc) -> Variable:
    """The Variable (or StaticParameter) of a VarDesc (one per desc)."""
    if desc.handle is None:
        t = _new(Variable)
        Tensor._init(t, desc, desc.stop_gradient)
        desc.handle = t
    return desc.handle


_new = object.__new__


# ---------------------------------------------------------------------------
# Mode and the current programs
# ---------------------------------------------------------------------------

class _State:
    def __init__(self):
        self.static = False
        self.main = Program()
        self.startup = Program()
        self.capture = None  # a Capture while paddle.jit.to_static builds a program


state = _State()


def in_static_mode() -> bool:
    return state.static


def set_static_mode(on: bool) -> None:
    """Switch dispatch between running ops (eager) and appending them (static)."""
    state.static = bool(on)
    _dispatch.set_static_hooks(_HOOKS if on else None)


def default_main_program() -> Program:
    return state.main


def default_startup_program() -> Program:
    return state.startup


@contextlib.contextmanager
def guard_programs(main: Program, startup: Program | None = None):
    """Append ops to ``main`` (and parameters' initializers to ``startup``) inside."""
    if not isinstance(main, Program):
        raise TypeError(f"program_guard: main_program must be a paddle.static.Program, got "
                        f"{type(main).__name__}")
    if startup is not None and not isinstance(startup, Program):
        raise TypeError(f"program_guard: startup_program must be a paddle.static.Program, got "
                        f"{type(startup).__name__}")
    prev = state.main, state.startup
    state.main = main
    if startup is not None:
        state.startup = startup
    try:
        yield
    finally:
        state.main, state.startup = prev


# ---------------------------------------------------------------------------
# The scope: values of persistable variables
# ---------------------------------------------------------------------------

class _ScopeTensor:
    """What ``scope.find_var(name).get_tensor()`` returns: the value of a variable."""

    def __init__(self, scope, name):
        self._scope, self._name = scope, name

    def __array__(self, dtype=None, copy=None):
        a = _engine.current().to_numpy(self._scope._values[self._name])
        if dtype is not None:
            return a.astype(dtype)
        return a.copy() if copy else a

    def shape(self) -> list:
        return list(self._scope._values[self._name].shape)

    def set(self, value, place=None):
        """Replace the value (an array of the same shape and dtype is written in place)."""
        old = self._scope._values.get(self._name)
        arr = np.asarray(value)
        if old is not None and old.shape == arr.shape and old.dtype == arr.dtype:
            old[...] = _engine.current().asarray(arr, arr.dtype)
        else:
            self._scope._values[self._name] = _engine.current().asarray(arr, arr.dtype)


class _ScopeVar:
    def __init__(self, scope, name):
        self._scope, self._name = scope, name

    def get_tensor(self) -> _ScopeTensor:
        return _ScopeTensor(self._scope, self._name)


class Scope:
    """Name -> value of the persistable variables (parameters and optimizer state)."""

    def __init__(self):
        self._values: dict = {}

    def var(self, name) -> _ScopeVar:
        return _ScopeVar(self, name)

    def find_var(self, name):
        """The variable ``name``, or None when it has no value here."""
        return _ScopeVar(self, name) if name in self._values else None

    def local_var_names(self) -> list:
        return list(self._values)


_scopes = [Scope()]


def global_scope() -> Scope:
    """The scope that ``Executor.run`` uses unless given another."""
    return _scopes[-1]


@contextlib.contextmanager
def scope_guard(scope):
    """Make ``scope`` the global scope inside the ``with`` block."""
    if not isinstance(scope, Scope):
        raise TypeError(f"scope_guard: scope must be a paddle.static.Scope, got "
                        f"{type(scope).__name__}")
    _scopes.append(scope)
    try:
        yield
    finally:
        _scopes.pop()


# ---------------------------------------------------------------------------
# Appending ops (dispatch's apply in static mode)
# ---------------------------------------------------------------------------

class Capture:
    """While ``paddle.jit.to_static`` builds a program: the eager tensors its ops read that
    stay shared with dygraph (Parameters, tensors that need a gradient, the Layer's
    ``buffers``) become persistable variables of the program, bound to those tensors: each
    run reads the tensor's current array, and a run that writes the variable (batch
    norm's running statistics) writes the tensor back."""

    def __init__(self, buffers=()):
        self.bound: dict = {}  # id(tensor) -> (tensor, VarDesc), in the order first read
        self.buffers = {id(b) for b in buffers}

    def wants(self, t) -> bool:
        return isinstance(t, Parameter) or not t.stop_gradient or id(t) in self.buffers

    def bind(self, t) -> VarDesc:
        """The persistable variable standing for eager tensor ``t`` (made at first use,
        in the global block, named as the tensor when that name is free)."""
        entry = self.bound.get(id(t))
        if entry is not None:
            return entry[1]
        block = state.main.global_block()
        name = getattr(t, "name", None) or unique_name("captured")
        if name in block.vars:
            name = unique_name(name)
        d = t._data
        desc = block.create_var(name, d.shape, _dt.from_numpy(d.dtype).name, persistable=True,
                                is_parameter=isinstance(t, Parameter),
                                stop_gradient=t.stop_gradient)
        self.bound[id(t)] = (t, desc)
        return desc


def assign_to_eager(t, value):
    """``t.set_value(value)`` for an eager tensor ``t`` and a Variable ``value``: inside
    ``to_static``'s capture, an op writes ``value`` into ``t``'s bound variable."""
    cap = state.capture
    if cap is None:
        raise TypeError(f"set_value: an eager Tensor cannot take the value of static Variable "
                        f"{value.name!r} (outside paddle.jit.to_static)")
    desc = cap.bind(t)
    if desc.shape != value._data.shape:
        raise ValueError(f"set_value: value of shape {value.shape} does not match the "
                         f"tensor's shape {list(desc.shape)}")
    state.main.current_block().append_op(
        OpDesc(TABLE["assign"], [value._data], [desc], {}, state.main._role))
    return t


def _operand(block, t) -> VarDesc:
    """The VarDesc of op input ``t``: its own, the variable bound to a shared eager tensor
    (inside ``to_static``'s capture), or a constant holding an eager tensor."""
    d = t._data
    if type(d) is VarDesc:
        return d
    cap = state.capture
    if cap is not None and cap.wants(t):
        return cap.bind(t)
    if not t.stop_gradient:
        raise TypeError(
            "static mode: an eager Tensor that needs a gradient (a Parameter of a Layer "
            "created in dynamic mode?) is used in an op of a static program; create Layers "
            "after paddle.enable_static() so their parameters belong to the program")
    desc = block.create_var(unique_name("const"), d.shape, _dt.from_numpy(d.dtype).name)
    desc.const = d
    return desc


def static_apply(op: OpDef, *inputs, **attrs):
    """Append ``op`` on Variables ``inputs`` to the current block; return its outputs."""
    block = state.main.current_block()
    if op.variadic:
        groups = [list(inputs[0]), *inputs[1:]]
    else:
        groups = list(inputs)
    descs = [[_operand(block, t) for t in g] if isinstance(g, list) else _operand(block, g)
             for g in groups]
    metas = [[Meta(d.shape, d.dtype) for d in x] if isinstance(x, list) else Meta(x.shape, x.dtype)
             for x in descs]
    out_meta = op.infer_meta(*metas, **attrs)
    out_meta = (out_meta,) if isinstance(out_meta, Meta) else tuple(out_meta)
    flat = [variable_of(d) for d in _flat(descs)]
    need = grad_mode.enabled and op.grad is not None and any(not t.stop_gradient for t in flat)
    outs = []
    for i, (name, m) in enumerate(zip(op.outputs, out_meta)):
        d = block.create_var(unique_name(f"{op.name}") + f".tmp_{i}", public_shape(m.shape),
                             _dt.from_numpy(np.dtype(m.dtype)).name)
        d.stop_gradient = not need or name in op.nondiff_outputs
        outs.append(variable_of(d))
    block.append_op(OpDesc(op, descs, [t._data for t in outs], attrs, state.main._role))
    if need:
        node = Node(op, attrs, flat, outs)
        for i, t in enumerate(outs):
            if not t.stop_gradient:
                t._grad_fn, t._out_idx = node, i
    return outs[0] if len(outs) == 1 else tuple(outs)


def static_apply_inplace(op: OpDef, x, *others, **attrs):
    """An in-place op in static mode: a new variable, which ``x`` then stands for (the old
    value stays readable by the gradient rules that saved it)."""
    out = static_apply(op, x, *others, **attrs)
    if public_shape(out._data.shape) != public_shape(x._data.shape):
        raise ValueError(f"{op.name}_: the in-place result has shape {out.shape} but the "
                         f"tensor has shape {list(public_shape(x._data.shape))}")
    x._data, x._grad_fn, x._out_idx = out._data, out._grad_fn, out._out_idx
    x.stop_gradient = out.stop_gradient
    out._data.handle = x
    return x


def append_update(op_name: str, param, grad, lr, accumulators, attrs: dict):
    """Append an optimizer update op (``sgd_``, ``adam_``, ...) whose outputs are the
    parameter and the accumulators again (they change in place)."""
    block = state.main.current_block()
    descs = [_operand(block, t) for t in (param, grad, lr, *accumulators)]
    op = TABLE[op_name]
    op.infer_meta(*[Meta(d.shape, d.dtype) for d in descs], **attrs)
    block.append_op(OpDesc(op, descs, [descs[0], *descs[3:]], attrs, "optimize"))


@contextlib.contextmanager
def _appending_to(program: Program):
    prev = state.main
    state.main = program
    try:
        yield
    finally:
        state.main = prev


def _write_into(block, value, target: VarDesc):
    """Make the startup block compute ``value`` into ``target``: the last op's output is
    renamed when it made ``value``, else an ``assign`` op copies it."""
    d = value._data
    last = block.ops[-1] if block.ops else None
    if type(d) is VarDesc and last is not None and len(last.outputs) == 1 and last.outputs[0] is d:
        del block.vars[d.name]
        last.outputs[0] = target
        return
    src = _operand(block, value)
    block.append_op(OpDesc(TABLE["assign"], [src], [target], {}))


def create_persistable(name, shape, dtype, draw, parameter=False, **param_kwargs):
    """A persistable variable of the current main program whose value ``draw()`` (ops run
    in static mode) computes in the startup program: a parameter or an optimizer state."""
    main_block = state.main.global_block()
    if name in main_block.vars:
        raise ValueError(f"static mode: the program already has a variable named {name!r}")
    startup = state.startup
    target = startup.global_block().create_var(name, shape, dtype, persistable=True)
    with _appending_to(startup), no_grad():
        _write_into(startup.global_block(), draw(), target)
    desc = main_block.create_var(name, shape, dtype, persistable=True, is_parameter=parameter)
    if not parameter:
        return variable_of(desc)
    p = _new(StaticParameter)
    Parameter.__init__(p, desc, name=name, **param_kwargs)
    desc.stop_gradient = p.stop_gradient
    desc.handle = p
    return p


class _Hooks:
    """What dispatch calls in static mode."""

    apply = staticmethod(static_apply)
    apply_inplace = staticmethod(static_apply_inplace)


_HOOKS = _Hooks()
