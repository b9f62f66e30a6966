"""A captured program run from dygraph as one autograd node (Paddle's ``run_program``).

``build`` runs the converted function in static mode on data variables standing for the
tensor arguments; the eager tensors its ops read that stay shared with dygraph
(parameters, buffers) become persistable variables bound to them (``Capture``). When
outputs need gradients, the backward walk appends the gradient ops for the inputs and the
bound parameters, seeded by one data variable per output gradient.

``__call__`` runs the forward ops through the Executor's plans (passes, compiled plan)
on the tensors' current arrays and returns eager tensors; when a gradient is needed they
hang on one Node whose rule runs the gradient ops on the values the forward kept.
"""

from __future__ import annotations

from .._core.autograd import Node, _leaf_edge, grad_mode
from .._core.engine import current
from .._core.optable import OpDef
from .._core.program import Block, Program, Variable, public_shape, variable_of
from .._core.tensor import Tensor
from ..static.backward import _walk
from ..static.executor import _Compiled, _Run
from ..static.passes import passes_version, plan, reads, writes


def _view(program, ops, extra_vars=None):
    """A program whose global block runs ``ops`` (sub-blocks shared with ``program``)."""
    view = Program()
    block = Block(view, 0)
    block.vars = {**program.global_block().vars, **(extra_vars or {})}
    block.ops = ops
    view.blocks = [block, *program.blocks[1:]]
    return view


class Runner:
    """How ``program`` runs for one fetch list, the sizes fed for -1 dimensions and the
    current engine and pass settings: its compiled plan's function called directly (the
    feeds and persistables given are always all there), or the interpreter (a plan with
    control flow). ``fits()`` tells whether it still does."""

    __slots__ = ("program", "todo", "fetch", "sizes", "eng", "passes", "compiled")

    def __init__(self, program, fetch, sizes):
        self.program, self.fetch, self.sizes = program, fetch, sizes
        self.eng, self.passes = current(), passes_version()
        self.todo = todo = plan(program, fetch, sizes, self.eng)
        if todo.compiled is None:
            todo.compiled = _Compiled.of(program, todo, fetch, sizes, self.eng) or False
        self.compiled = todo.compiled

    def fits(self) -> bool:
        return self.eng is current() and self.passes == passes_version()

    def __call__(self, env, values):
        """The values of the fetch list after running on the fed arrays ``env`` and the
        persistables ``values``; and what the run kept (``env``; None for a compiled
        plan)."""
        if self.compiled:
            return self.compiled.run(env, values, self.eng, checked=False), None
        env.update(self.todo.consts)
        run = _Run(self.program, env, values, self.eng, self.sizes)
        run.run_ops(self.todo.ops, self.todo.free)
        block = self.program.global_block()  # a name of a branch that did not run has no value
        return [run.read(block.vars[n]) if n in block.vars else env.get(n)
                for n in self.fetch], env


def run_plan(program, env, values, fetch, sizes=frozenset()):
    """The values of ``fetch`` after running ``program`` on the fed arrays ``env`` and the
    persistables ``values`` (``sizes``: those fed for -1 dimensions); and what the run
    kept (``env``; None for a compiled plan)."""
    return Runner(program, fetch, sizes)(env, values)


class PartialProgram:
    """A program captured from one call signature, runnable on eager tensors."""

    def __init__(self, main, data, outputs, structure, capture):
        self.main, self.data, self.structure = main, data, structure
        self.bound = list(capture.bound.values())  # [(tensor, VarDesc)]
        self.bound_names = [(d.name, t) for t, d in self.bound]
        self.bound_tensors = [t for t, _ in self.bound]
        # whether a bound tensor needs a gradient (when that changes, the program is stale)
        self.bound_stops = [d.stop_gradient for _, d in self.bound]
        self.bound_need = not all(self.bound_stops)
        # the bound leaves' AccumulateGrad nodes, kept for every call's Node (a tensor holds
        # its own weakly: each call would make them anew)
        self.accumulators = [_leaf_edge(t) for t in self.bound_tensors
                             if not t.stop_gradient and t._grad_fn is None]
        self._runners = {}  # (needs a gradient, sizes of -1 dims) -> (forward, backward)
        self.outputs = outputs  # output Variables, flat
        # (input, axis) of the -1 dimensions of InputSpecs: their sizes are fed per run
        self.unknown = [(i, j) for i, d in enumerate(data)
                        for j, n in enumerate(public_shape(d.shape)) if n == -1]
        block = main.global_block()
        self.forward = _view(main, list(block.ops))
        self.out_names = [v.name for v in outputs]
        self.written = [(t, d) for t, d in self.bound
                        if any(d.name in writes(main, op) for op in block.ops)]
        self.backward = None

    def append_backward(self):
        """Append the gradient ops (when an output can have a gradient)."""
        needs = [v for v in self.outputs if not v.stop_gradient]
        self.inputs = [variable_of(d) for d in self.data] + [variable_of(d) for _, d in self.bound]
        wrt = [i for i, v in enumerate(self.inputs) if not v.stop_gradient]
        if not needs or not wrt:
            return
        block = self.main.global_block()
        start = len(block.ops)
        seeds = [variable_of(block.create_var(f"{v.name}@GRAD_OUT", v.shape, v.dtype,
                                              is_data=True)) for v in needs]
        grads = _walk(needs, seeds, [self.inputs[i] for i in wrt], None)
        ops = block.ops[start:]
        self.seed_index = [i for i, v in enumerate(self.outputs) if not v.stop_gradient]
        self.seed_names = [s.name for s in seeds]
        self.grad_slots = [(i, g.name) for i, g in zip(wrt, grads) if g is not None]
        produced = set().union(*(writes(self.main, op) for op in self.forward.global_block().ops))
        read = set().union(*(reads(self.main, op) for op in ops))
        written = set().union(*(writes(self.main, op) for op in ops))
        self.saved = sorted((read - written) & (produced | {d.name for d in self.data}))
        # what the gradient ops read from the forward run is fed to them
        copies = {}
        for name in self.saved:
            d = block.vars.get(name)
            if d is not None and not d.persistable:
                c = d.copy_to(block)
                c.is_data = True
                copies[name] = c
        remapped = [op.copied(lambda d: copies.get(d.name, d) if d.block is block else d)
                    for op in ops]
        self.backward = _view(self.main, remapped, copies)
        self.row = OpDef("run_program", tuple(f"x{i}" for i in range(len(self.inputs))), None,
                         "paddle.jit.to_static's program", grad=self._grad,
                         outputs=tuple(f"out{i}" for i in range(len(self.outputs))))

    def stale(self) -> bool:
        """Whether a bound tensor's stop_gradient changed since the program was built."""
        return [t.stop_gradient for t in self.bound_tensors] != self.bound_stops

    def _runner(self, need, sizes) -> Runner:
        """The cached Runners of the forward (outputs, and the values the gradient ops read
        when ``need``) and of the gradient ops, for these sizes of the -1 dimensions."""
        key = (need, sizes)
        runners = self._runners.get(key)
        if runners is None or not runners[0].fits():
            fetch = self.out_names + self.saved if need else self.out_names
            runners = self._runners[key] = (
                Runner(self.forward, fetch, sizes),
                Runner(self.backward, [n for _, n in self.grad_slots], sizes) if need else None)
        return runners

    def __call__(self, tensors):
        env = {d.name: t._data for d, t in zip(self.data, tensors)}
        values = {name: t._data for name, t in self.bound_names}
        need = (self.backward is not None and grad_mode.enabled
                and (self.bound_need or any(not t.stop_gradient for t in tensors)))
        sizes = frozenset(tensors[i]._data.shape[j] for i, j in self.unknown) \
            if self.unknown else frozenset()
        forward, backward = self._runner(need, sizes)
        results, kept = forward(env, values)
        for t, d in self.written:  # running statistics written by the program
            t._data[...] = values[d.name]
            t._bump()
        n = len(self.out_names)
        outs = [Tensor._wrap(a) for a in results[:n]]
        if need:
            saved = env if kept is None else kept
            saved.update(zip(self.saved, results[n:]))
            node = Node(self.row, {"state": (saved, values, backward)},
                        [*tensors, *self.bound_tensors], outs)
            for i in self.seed_index:
                outs[i].stop_gradient = False
                outs[i]._grad_fn, outs[i]._out_idx = node, i
        return outs

    def _grad(self, ctx, *grads):
        env, values, backward = ctx.attrs["state"]
        if not backward.compiled:  # the interpreter adds to and drops from its env
            env = dict(env)
        for name, i in zip(self.seed_names, self.seed_index):
            env[name] = grads[i]._data
        results, _ = backward(env, values)
        out = [None] * len(self.inputs)
        edges = ctx.next_edges
        for (i, _), a in zip(self.grad_slots, results):
            if edges[i] is not None:  # ctx.needs(i)
                out[i] = Tensor._wrap(a)
        return out


def flat_outputs(out):
    """The Variables of a function's result (flat) and its structure."""
    flat = []

    def walk(x):
        if isinstance(x, Variable):
            flat.append(x)
            return ("T", len(flat) - 1)
        if isinstance(x, (list, tuple)):
            return (type(x), [walk(v) for v in x])
        if isinstance(x, dict):
            return (dict, [(k, walk(v)) for k, v in x.items()])
        if isinstance(x, Tensor):
            raise TypeError("to_static: the function returns an eager tensor")
        return ("V", x)
    return flat, walk(out)


def rebuild(structure, tensors):
    kind, body = structure
    if kind == "T":
        return tensors[body]
    if kind == "V":
        return body
    if kind is dict:
        return {k: rebuild(v, tensors) for k, v in body}
    return kind(rebuild(v, tensors) for v in body)
