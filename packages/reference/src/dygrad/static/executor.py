"""The Executor: runs a Program's ops with the current engine's kernels.

Persistable variables (parameters, optimizer state) live in a :class:`Scope` (by default
``global_scope()``) and keep their values between runs; every other variable lives only
during one run. ``run`` checks the fed values against the program's ``data`` variables,
runs the ops of the global block in order and returns the fetched values.
"""

from __future__ import annotations

import numpy as np

from .._core import dispatch
from .._core import dtype as _dt
from .._core.engine import current
from .._core.ops.manipulation import reshape_target
from .._core.optable import UNKNOWN
from .._core.program import (
    Program,
    Variable,
    default_main_program,
    global_scope,
    has_unknown,
    public_shape,
    resolve_unknown,
)
from .._core.tensor import Tensor
from .passes import FusedChain, plan


def _names(fetch_list) -> list:
    if fetch_list is None:
        return []
    if isinstance(fetch_list, (str, Tensor)):
        fetch_list = [fetch_list]
    out = []
    for f in fetch_list:
        if isinstance(f, Variable):
            out.append(f.name)
        elif isinstance(f, str):
            out.append(f)
        else:
            raise TypeError(f"Executor.run: fetch_list holds a {type(f).__name__}; expected "
                            f"Variables or variable names (str)")
    return out


def _fetch_desc(program, name):
    """The VarDesc called ``name`` in any block of ``program`` (the global block first)."""
    for b in program.blocks:
        if name in b.vars:
            return b.vars[name]
    return None


class Executor:
    """Runs Programs. ``place`` is accepted for Paddle's API; the current engine's kernels
    run every op."""

    def __init__(self, place=None):
        self.place = place

    def close(self):
        """Nothing to release (Paddle frees its device resources here)."""

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed",
            fetch_var_name="fetch", scope=None, return_numpy=True, use_program_cache=False,
            use_prune=False):
        """Run ``program`` (default: the default main program) with ``feed`` ({name:
        value}); return the values of ``fetch_list`` (Variables or names) as NumPy arrays
        (Tensors with ``return_numpy=False``)."""
        program = default_main_program() if program is None else program
        if not isinstance(program, Program):
            raise TypeError(f"Executor.run: program must be a paddle.static.Program, got "
                            f"{type(program).__name__}")
        scope = global_scope() if scope is None else scope
        block = program.global_block()
        fetch = _names(fetch_list)
        for name in fetch:
            if _fetch_desc(program, name) is None:
                raise ValueError(f"Executor.run: cannot fetch {name!r}: the program has no "
                                 f"variable of that name")
        env, sizes = self._feed(block, feed or {})
        eng = current()
        seeded = program.random_seed != 0
        if seeded:
            rng_state = eng.get_rng_state()
            eng.seed(program.random_seed)
        for desc, value in program._refresh:  # e.g. a learning-rate scheduler's rate
            scope._values[desc.name] = eng.asarray(value(), desc.dtype)
        todo = plan(program, fetch, sizes, eng)
        try:
            if todo.compiled is None:
                todo.compiled = _Compiled.of(program, todo, fetch, sizes, eng) or False
            if todo.compiled:
                values = todo.compiled.run(env, scope._values, eng)
            else:
                env.update(todo.consts)
                run = _Run(program, env, scope._values, eng, sizes)
                run.run_ops(todo.ops, todo.free)
                values = [run.read(_fetch_desc(program, name)) for name in fetch]
        finally:
            if seeded:
                eng.set_rng_state(rng_state)
        results = []
        for value in values:
            a = np.array(eng.to_numpy(value))  # a copy: later runs change persistables
            results.append(a if return_numpy else Tensor._wrap(eng.asarray(a, a.dtype)))
        return results

    @staticmethod
    def _feed(block, feed):
        """Fed values as engine arrays, checked against the variables' shapes and dtypes;
        and the sizes fed for unknown (-1) dimensions."""
        if not isinstance(feed, dict):
            raise TypeError(f"Executor.run: feed must be a dict {{name: value}}, got "
                            f"{type(feed).__name__}")
        env, sizes = {}, set()
        eng = current()
        for name, value in feed.items():
            name = name.name if isinstance(name, Variable) else name
            desc = block.vars.get(name)
            if desc is None:
                data = [d.name for d in block.vars.values() if d.is_data]
                raise ValueError(f"Executor.run: the program has no variable {name!r} to feed "
                                 f"(its data variables: {data})")
            if isinstance(value, Tensor):
                value = value.numpy()
            if isinstance(value, np.ndarray) or np.isscalar(value):
                arr = np.asarray(value)
                if arr.dtype != desc.dtype:
                    raise ValueError(
                        f"The data type of fed Variable {name!r} must be "
                        f"'{_dt.from_numpy(desc.dtype).name}', but received "
                        f"'{_dt.from_numpy(arr.dtype).name}'")
            else:
                arr = np.asarray(value, dtype=desc.dtype)
            want = public_shape(desc.shape)
            if arr.ndim != len(want) or any(w not in (-1, a) for w, a in zip(want, arr.shape)):
                raise ValueError(
                    f"The fed Variable {name!r} should have dimensions = {len(want)}, shape = "
                    f"{list(want)}, but received fed shape {list(arr.shape)}")
            sizes.update(a for w, a in zip(want, arr.shape) if w == -1)
            env[name] = eng.asarray(arr, desc.dtype)
        return env, sizes


class _Run:
    """One run of a program: this run's variables (``env``), the scope's persistables
    (``values``), the engine, and the sizes fed for -1 dimensions."""

    def __init__(self, program, env, values, eng, sizes):
        self.program, self.env, self.values, self.eng, self.sizes = (
            program, env, values, eng, sizes)
        self.to_numpy = eng.to_numpy

    def read(self, desc):
        """The value of a variable."""
        if desc.const is not None:
            return desc.const
        name = desc.name
        v = self.env.get(name)
        if v is not None:
            return v
        if desc.persistable:
            v = self.values.get(name)
            if v is None:
                raise _no_value(desc)
            return v
        raise _no_value(desc)

    def write(self, desc, value):
        (self.values if desc.persistable else self.env)[desc.name] = value

    def run_block(self, index):
        """Run the ops of block ``index`` in order (a control op runs its sub-blocks)."""
        self.run_ops(self.program.blocks[index].ops)

    def run_ops(self, ops, free=None):
        """Run ``ops`` in order; after op i, drop the arrays named in ``free[i]``."""
        eng, env = self.eng, self.env
        kernels, array_type, ensure, read, write = (
            eng.kernels, eng.array_type, eng.ensure, self.read, self.write)
        for i, od in enumerate(ops):
            op = od.op
            if op is None:  # cond, while_loop, switch_case
                od.run(self)
                if free:
                    for name in free[i]:
                        env.pop(name, None)
                continue
            args = [[read(d) for d in x] if isinstance(x, list) else read(x) for x in od.inputs]
            attrs = od.attrs
            if od.sized:
                size = _unknown_size(self.sizes, op)
                attrs = {k: resolve_unknown(v, size) for k, v in attrs.items()}
            if op.random:
                attrs = {**attrs, "rng": eng.generator}
            try:
                out = kernels[op.name](*args, **attrs)
            except Exception as exc:
                dispatch._explain(op, exc, args, attrs)
                raise
            outs = out if type(out) is tuple else (out,)
            for d, a in zip(od.outputs, outs):
                write(d, a if type(a) is array_type else ensure(a))
            if free:
                for name in free[i]:
                    env.pop(name, None)


def _no_value(desc):
    """The error for a variable that a run needs and has no value of."""
    name, shape = desc.name, list(public_shape(desc.shape))
    dtype = _dt.from_numpy(desc.dtype).name
    if desc.persistable:
        return RuntimeError(
            f"Executor.run: variable {name!r} (persistable, shape {shape}, {dtype}) has no "
            f"value in the scope: run the startup program first "
            f"(exe.run(paddle.static.default_startup_program()))")
    if desc.is_data:
        return ValueError(
            f"Executor.run: data variable {name!r} (shape {shape}, {dtype}) is needed but not "
            f"fed; pass feed={{{name!r}: array}}")
    return RuntimeError(f"Executor.run: variable {name!r} is read before any op wrote it")


def _unknown_size(sizes, op):
    if len(sizes) != 1:
        raise ValueError(
            f"Executor.run: op {op.name!r} has a shape attribute derived from an unknown (-1) "
            f"dimension, and the feed gave {'no' if not sizes else 'several different'} sizes "
            f"{sorted(sizes)} for the unknown dimensions; feed every -1 dimension with one "
            f"size (the batch size)")
    return next(iter(sizes))


class _Compiled:
    """A plan without control flow as one generated Python function: every op a call of
    its engine kernel, bound once with its attributes (sizes of -1 dimensions filled in),
    on local variables; a fused chain one nested call; temporaries dropped after their last
    reader; persistables read from the scope first and written back last. Per run nothing
    is looked up by name but the feeds and the scope's persistables."""

    def __init__(self):
        self.bound, self.lines, self.line_ops = {}, [], {}
        self.slots, self.data, self.persist_in, self.persist_out = {}, [], [], {}

    @classmethod
    def of(cls, program, todo, fetch, sizes, eng):
        """The compiled plan, or None when it has control flow (the Executor interprets
        it then)."""
        if any(op.op is None and not isinstance(op, FusedChain) for op in todo.ops):
            return None
        self = cls()
        self.eng, self.consts = eng, todo.consts
        self.size = next(iter(sizes)) if len(sizes) == 1 else None
        self.sizes = sizes
        for op, free in zip(todo.ops, todo.free):
            self._emit(op)
            dropped = [self.slots[n] for n in free if n in self.slots]
            if dropped:
                self.lines.append(" = ".join(dropped) + " = None")
        for desc in self.persist_out.values():
            self.lines.append(f"S[{desc.name!r}] = {self.slots[desc.name]}")
        outs = [self._operand(_fetch_desc(program, n)) for n in fetch]
        self.lines.append(f"return [{', '.join(outs)}]")
        self.fn = self._function()
        return self

    # -- building ------------------------------------------------------------------
    def _bind(self, value, prefix="c"):
        """A default argument of the generated function holding ``value``."""
        name = f"{prefix}{len(self.bound)}"
        self.bound[name] = value
        return name

    def _slot(self, name):
        return self.slots.setdefault(name, f"v{len(self.slots)}")

    def _operand(self, d):
        """The expression of input ``d``: a constant, a local, or a first read of a feed or
        a persistable (loaded at the top)."""
        if d.const is not None:
            return self._bind(d.const)
        name = d.name
        if name in self.slots:
            return self.slots[name]
        if name in self.consts:
            return self._bind(self.consts[name])
        if d.persistable:
            self.persist_in.append(d)
        elif d.is_data:
            self.data.append(d)
        else:
            raise _no_value(d)
        return self._slot(name)

    def _call(self, od, args):
        """``kernel(args, attr=value, ...)`` for op ``od``; a ``reshape`` of an input whose
        shape is known now is the array's own ``reshape`` to the shape the kernel would
        infer (what NumPy's and CuPy's kernels do, without their checks per run)."""
        op, attrs = od.op, od.attrs
        if od.sized:
            attrs = {k: resolve_unknown(v, _unknown_size(self.sizes, op)) for k, v in attrs.items()}
        if op.name == "reshape":
            shape = self._input_shape(od.inputs[0])
            try:
                target = None if shape is None else reshape_target(shape, attrs["shape"])
            except ValueError:  # the kernel's call raises it, named, at run time
                target = None
            if target is not None:
                return f"{args[0]}.reshape({target!r})"
        kw = [f"{k}={self._bind(v)}" for k, v in attrs.items()]
        if op.random:
            kw.append("rng=E.generator")
        it = iter(args)
        groups = [f"[{', '.join(next(it) for _ in x)}]" if isinstance(x, list) else next(it)
                  for x in od.inputs]
        return f"{self._bind(self.eng.kernels[op.name], 'k')}({', '.join(groups + kw)})"

    def _input_shape(self, d):
        """The shape variable ``d`` has in every run of this plan, or None (a dimension
        derived from an unknown one other than by a multiple, or no single fed size)."""
        shape = tuple(d.shape)
        if any(n >= UNKNOWN and n % UNKNOWN for n in shape) or (
                has_unknown(shape) and self.size is None):
            return None
        return resolve_unknown(shape, self.size)

    def _emit(self, op):
        if isinstance(op, FusedChain):
            expr, inner = None, None
            for o in op.ops:
                args = [expr if d is inner else self._operand(d) for d in o.input_descs()]
                expr = self._call(o, args)
                inner = o.outputs[0]
                if not inner.shape:  # a 0-D result may come back as a NumPy scalar
                    expr = f"N({expr})"
            outputs = op.outputs
        else:
            expr = self._call(op, [self._operand(d) for d in op.input_descs()])
            outputs = op.outputs
        names = [self._slot(d.name) for d in outputs]
        self.line_ops[len(self.lines)] = op
        self.lines.append(f"{', '.join(names)} = {expr}")
        for n, d in zip(names, outputs):
            self.lines.append(f"if type({n}) is not A: {n} = N({n})")
            if d.persistable:
                self.persist_out[d.name] = d

    def _function(self):
        loads = [f"{self._slot(d.name)} = F[{d.name!r}]" for d in self.data]
        loads += [f"{self._slot(d.name)} = S[{d.name!r}]" for d in self.persist_in]
        self.first_line = 2 + len(loads)  # line numbers of the body, for errors
        params = "".join(f", {k}={k}" for k in self.bound)
        body = "\n    ".join(loads + self.lines)
        source = f"def plan(F, S, E, A=A, N=N{params}):\n    {body}\n"
        namespace = {**self.bound, "A": self.eng.array_type, "N": self.eng.ensure}
        exec(compile(source, "<static plan>", "exec"), namespace)
        return namespace["plan"]

    # -- running -------------------------------------------------------------------
    def run(self, env, values, eng, checked=True):
        """The fetched values, after running the plan on the fed arrays ``env`` and the
        scope's ``values`` (``checked=False``: the caller knows they are all there)."""
        if checked:
            for d in self.data:
                if d.name not in env:
                    raise _no_value(d)
            for d in self.persist_in:
                if d.name not in values:
                    raise _no_value(d)
        try:
            return self.fn(env, values, eng)
        except Exception as exc:
            self._explain(exc)
            raise

    def _explain(self, exc):
        """Raise the table's own error for the op whose kernel failed, when its
        ``infer_meta`` rejects the inputs it got."""
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code is not self.fn.__code__:
            tb = tb.tb_next
        op = None if tb is None else self.line_ops.get(tb.tb_lineno - self.first_line)
        if op is None or isinstance(op, FusedChain):
            return
        local = tb.tb_frame.f_locals
        args = [local.get(self.slots.get(d.name)) if d.const is None else d.const
                for d in op.input_descs()]
        if any(a is None for a in args):
            return
        it = iter(args)
        grouped = [[next(it) for _ in x] if isinstance(x, list) else next(it) for x in op.inputs]
        dispatch._explain(op.op, exc, grouped, op.attrs)
