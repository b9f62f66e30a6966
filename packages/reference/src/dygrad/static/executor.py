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
from .._core.program import (
    Program,
    Variable,
    default_main_program,
    global_scope,
    public_shape,
    resolve_unknown,
)
from .._core.tensor import Tensor
from .passes import plan


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
        run = _Run(program, env, scope._values, eng, sizes)
        todo = plan(program, fetch)
        try:
            run.run_ops(todo.ops, todo.free)
        finally:
            if seeded:
                eng.set_rng_state(rng_state)
        results = []
        for name in fetch:
            value = run.read(_fetch_desc(program, name))
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
                raise RuntimeError(
                    f"Executor.run: variable {name!r} (persistable, shape "
                    f"{list(public_shape(desc.shape))}, {_dt.from_numpy(desc.dtype).name}) has "
                    f"no value in the scope: run the startup program first "
                    f"(exe.run(paddle.static.default_startup_program()))")
            return v
        if desc.is_data:
            raise ValueError(
                f"Executor.run: data variable {name!r} (shape {list(public_shape(desc.shape))}, "
                f"{_dt.from_numpy(desc.dtype).name}) is needed but not fed; pass "
                f"feed={{{name!r}: array}}")
        raise RuntimeError(f"Executor.run: variable {name!r} is read before any op wrote it")

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


def _unknown_size(sizes, op):
    if len(sizes) != 1:
        raise ValueError(
            f"Executor.run: op {op.name!r} has a shape attribute derived from an unknown (-1) "
            f"dimension, and the feed gave {'no' if not sizes else 'several different'} sizes "
            f"{sorted(sizes)} for the unknown dimensions; feed every -1 dimension with one "
            f"size (the batch size)")
    return next(iter(sizes))
