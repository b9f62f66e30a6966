"""cond, while_loop and switch_case: ops that run sub-blocks of the program.

Each branch (or the loop's condition and body) is built by calling the user's function
with ops appending to a new block of the program; a control op in the current block
chooses, at run time, which block runs and copies that block's results into its outputs.
In dynamic mode the functions simply run (as Paddle does).

Gradients, as Paddle builds them:

- The ops of a block record autograd Nodes like any op. When the control op is appended,
  the graph recorded inside its blocks is *sealed*: every edge to an outer variable that
  needs a gradient (a parameter, a value computed before the op) is redirected to a
  stand-in leaf, so a walk from the block's results stops at the block's border. The
  control op gets one Node whose inputs are those outer variables.
- The gradient of ``cond``/``switch_case`` is another ``cond``/``switch_case`` on the same
  selector whose blocks hold the gradient ops of each branch (the eager backward walk run
  inside a new block); an outer variable a branch does not use gets zeros there.
- ``while_loop`` keeps, when its gradient is needed, the values of each iteration (its
  loop variables and the body's variables, as Paddle's step scopes); its gradient op
  replays the iterations in reverse, running the body's gradient block once per
  iteration and accumulating the gradients of the outer variables.
"""

from __future__ import annotations

import numpy as np

from ..._core import autograd
from ..._core import dtype as _dt
from ..._core.autograd import Node, edge_of, grad_mode
from ..._core.optable import UNKNOWN, OpDef
from ..._core.program import Block, Variable, _operand, state, unique_name, variable_of
from ..._core.tensor import Tensor

# fields of a control op that hold plain values, not VarDescs
PLAIN_FIELDS = ("keys", "saved", "steps")


class ControlOp:
    """An op that runs sub-blocks (not a row of the op table); the Executor calls
    ``run``. ``fields`` holds its VarDescs (lists, possibly nested) by name, and the
    plain values named in ``PLAIN_FIELDS``."""

    op = None
    attrs: dict = {}
    sized = False

    def __init__(self, type_, blocks, role, **fields):
        self.type, self.blocks, self.role, self.fields = type_, list(blocks), role, fields

    @property
    def outputs(self):
        return self.fields["outputs"]

    @property
    def inputs(self):
        return self.fields["inputs"]

    def input_descs(self):
        """Every VarDesc it reads itself (a branch may return an outer variable)."""
        for k, v in self.fields.items():
            if k != "outputs" and k not in PLAIN_FIELDS:
                yield from _flat(v)

    def copied(self, new_desc, for_test=False):
        def remap(x):
            return [remap(v) for v in x] if isinstance(x, list) else new_desc(x)
        return type(self)(self.type, self.blocks, self.role,
                          **{k: v if k in PLAIN_FIELDS else remap(v)
                             for k, v in self.fields.items()
                             if not (for_test and k == "saved")})  # no gradient to keep for

    def __str__(self):
        outs = [d.name for d in self.outputs]
        ins = [d.name for d in _flat(self.inputs)]
        return (f"{{out={outs}}} = {self.type}(inputs={{x={ins}}}, "
                f"sub_blocks = {self.blocks})")


class _ChoiceOp(ControlOp):
    """Runs one of its blocks (chosen by ``branch``) and copies that block's results."""

    def run(self, r):
        branch = self.branch(np.asarray(r.to_numpy(r.read(self.inputs[0]))).reshape(()))
        r.run_block(self.blocks[branch])
        for out, src in zip(self.outputs, self.fields["branch_outputs"][branch]):
            r.write(out, r.read(src))


class CondOp(_ChoiceOp):
    def branch(self, pred):
        return 0 if bool(pred) else 1


class SwitchOp(_ChoiceOp):
    def branch(self, index):
        keys = self.fields["keys"]
        index = int(index)
        return keys.index(index) if index in keys else len(keys)  # the default's block


class WhileOp(ControlOp):
    """The loop. ``saved`` (set when its gradient is built) names the variables whose
    values each iteration keeps, in the run's ``steps`` list, for the gradient."""

    @property
    def steps_key(self):
        return f"{self.outputs[0].name}@STEPS"

    def run(self, r):
        cond_block, body_block = self.blocks
        carried, cond_out = self.fields["carried"], self.fields["cond_output"][0]
        for d, src in zip(carried, self.inputs):
            r.write(d, r.read(src))
        saved = self.fields.get("saved")
        steps = [] if saved else None
        env = r.env
        while True:
            r.run_block(cond_block)
            if not bool(np.asarray(r.to_numpy(r.read(cond_out))).reshape(())):
                break
            r.run_block(body_block)
            values = [r.read(d) for d in self.fields["body_outputs"]]
            if steps is not None:
                steps.append({n: env[n] for n in saved if n in env})
            for d, v in zip(carried, values):
                r.write(d, v)
        for out, d in zip(self.outputs, carried):
            r.write(out, r.read(d))
        if steps is not None:
            env[self.steps_key] = steps


class WhileGradOp(ControlOp):
    """The gradient of a while_loop: for each kept iteration, last first, restore its
    values, run the body's gradient block on the current gradients of the loop
    variables (``seeds``), and take its results as the gradients for the iteration
    before; the gradients of outer variables accumulate in ``accs``."""

    def run(self, r):
        f = self.fields
        steps = r.env.get(f["steps"])
        if steps is None:
            raise RuntimeError("Executor.run: the gradient of a while_loop runs without the "
                               "values of its iterations: run the loop in the same program run")
        for d, src in zip(f["seeds"], f["inputs"]):
            r.write(d, r.read(src))
        for d, src in zip(f["accs"], f["acc_init"]):
            r.write(d, r.read(src))
        state_vars = [*f["seeds"], *f["accs"]]
        for snapshot in reversed(steps):
            r.env.update(snapshot)
            r.run_block(self.blocks[0])
            values = [r.read(d) for d in f["block_outputs"]]
            for d, v in zip(state_vars, values):
                r.write(d, v)
        for out, d in zip(self.outputs, state_vars):
            r.write(out, r.read(d))


def _flat(x):
    if isinstance(x, (list, tuple)):
        for v in x:
            yield from _flat(v)
    elif x is not None:
        yield x


def _pack(structure, values):
    """``values`` (flat) in the nesting of ``structure``."""
    it = iter(values)

    def build(s):
        if isinstance(s, (list, tuple)):
            return type(s)(build(v) for v in s)
        return None if s is None else next(it)
    return build(structure)


def _structure(x):
    if isinstance(x, (list, tuple)):
        return [_structure(v) for v in x]
    return None if x is None else 0


def _build(fn, args, api):
    """Run ``fn(*args)`` with its ops appended to a new block (recording gradients when
    grad mode is on); returns (block index, result, the result's VarDescs)."""
    program = state.main
    parent = program.current_block()
    block = Block(program, len(program.blocks), parent.idx)
    program.blocks.append(block)
    prev = program._current
    program._current = block.idx
    try:
        out = fn(*args)
        outs = [_as_var(block, v, api) for v in _flat(out)]
    finally:
        program._current = prev
    return block.idx, out, outs


def _as_var(block, v, api):
    if isinstance(v, Tensor):
        return _operand(block, v)
    if isinstance(v, (bool, int, float, np.number)):
        from ..._core.creation import to_array
        return _operand(block, Tensor._wrap(to_array(v)))
    raise TypeError(f"{api}: a branch returned a {type(v).__name__}; expected Tensors "
                    f"(Variables), numbers, or lists/tuples of them")


def _merged(api, results):
    """Output VarDescs for branches returning ``results`` (lists of VarDescs): one dtype
    per position; dimensions that differ become -1."""
    first = results[0]
    for other in results[1:]:
        if len(other) != len(first):
            raise ValueError(f"{api}: the branches return different numbers of values "
                             f"({len(first)} and {len(other)})")
    block = state.main.current_block()
    prefix = unique_name(api)
    outs = []
    for i, descs in enumerate(zip(*results)):
        d0 = descs[0]
        for d in descs[1:]:
            if d.dtype != d0.dtype or len(d.shape) != len(d0.shape):
                raise ValueError(
                    f"{api}: output {i} of the branches differs: "
                    f"{_dt.from_numpy(d0.dtype).name} of shape {list(d0.shape)} and "
                    f"{_dt.from_numpy(d.dtype).name} of shape {list(d.shape)}; every branch "
                    f"must return the same dtypes and ranks")
        shape = tuple(dims[0] if len(set(dims)) == 1 else UNKNOWN
                      for dims in zip(*(d.shape for d in descs)))
        outs.append(block.create_var(f"{prefix}.tmp_{i}", (), _dt.from_numpy(d0.dtype).name))
        outs[-1].shape = shape
    return outs


# ---------------------------------------------------------------------------
# Gradients
# ---------------------------------------------------------------------------

def _outer_needs(first_block, returned, skip=()):
    """The outer Variables that need a gradient and that the blocks from ``first_block``
    on read (or return: ``returned``), in order of first use."""
    program = state.main
    inner = set(range(first_block, len(program.blocks)))
    skip = {id(d) for d in skip}
    needs, seen = [], set()

    def visit(d):
        if d.block.idx not in inner and id(d) not in skip and id(d) not in seen:
            seen.add(id(d))
            t = variable_of(d)
            if not t.stop_gradient:
                needs.append(t)
    for b in sorted(inner):
        for o in program.blocks[b].ops:
            for d in o.input_descs():
                visit(d)
    for d in returned:
        visit(d)
    return needs


def _stand_in(t):
    """A leaf Variable sharing ``t``'s VarDesc: what the sealed blocks see of ``t``."""
    p = object.__new__(Variable)
    Tensor._init(p, t._data, False)
    return p


def _seal(roots, needs):
    """Redirect the edges that the graph recorded from ``roots`` has into ``needs`` to
    stand-in leaves (returned, one per need): a walk from the roots then stops at them,
    and the outer graph gets the gradients through the control op's own Node."""
    proxies = [_stand_in(t) for t in needs]
    redirect = {edge_of(t): edge_of(p) for t, p in zip(needs, proxies)}
    outer = {id(t._data) for t in needs}  # a root may be an outer value: not walked
    stack = [t._grad_fn for t in roots if t._grad_fn is not None and id(t._data) not in outer]
    seen = set()
    while stack:
        node = stack.pop()
        if node in seen or not isinstance(node, Node):
            continue
        seen.add(node)
        edges = node.next_edges
        for i, e in enumerate(edges):
            if e is None:
                continue
            if e in redirect:
                edges[i] = redirect[e]
            else:
                stack.append(e[0])
    return proxies


def _inner_grads(roots, seeds, sources, proxies):
    """Inside the current (gradient) block: the gradients of ``roots`` (seeded with
    ``seeds``) w.r.t. the stand-ins ``proxies`` of ``sources``; zeros where none flows."""
    ops = autograd._dispatch.ops
    by_desc = {id(s._data): p for s, p in zip(sources, proxies)}
    rs, gs = [], []
    for t, g in zip(roots, seeds):
        t = by_desc.get(id(t._data), t)
        if t.stop_gradient:
            continue
        if g._data.shape != t._data.shape:  # a merged output with -1 where branches differ
            g = ops.reshape(g, shape=t._data.shape)
        rs.append(t)
        gs.append(g)
    grads = [None] * len(proxies)
    if rs:
        walk = autograd.REFERENCE_PATHS["run_backward"]
        grads = walk(rs, gs, retain_graph=True, create_graph=grad_mode.enabled,
                     inputs=proxies, allow_unused=True)
    return [ops.full_like(s, fill_value=0.0) if g is None else g
            for g, s in zip(grads, sources)]


def _attach(api, needs, results, rule):
    """Give ``results`` one Node whose inputs are ``needs`` and whose gradient is
    ``rule``."""
    row = OpDef(api, tuple(f"x{i}" for i in range(len(needs))), None, api, grad=rule,
                outputs=tuple(f"out{i}" for i in range(len(results))))
    for t in results:
        t.stop_gradient = t._data.stop_gradient = False
    node = Node(row, {}, needs, results)
    for i, t in enumerate(results):
        t._grad_fn, t._out_idx = node, i


def _finish_choice(op, start, outs, api):
    """Append a cond/switch_case op; when its branches read (or return) outer values
    that need a gradient, its results get a Node whose gradient is the same choice over
    the branches' gradient blocks."""
    program = state.main
    op.role = program._role
    program.current_block().append_op(op)
    results = [variable_of(d) for d in outs]
    if not grad_mode.enabled:
        return results
    branches = [[variable_of(d) for d in b] for b in op.fields["branch_outputs"]]
    needs = _outer_needs(start, [d for b in op.fields["branch_outputs"] for d in b])
    if not needs:
        return results
    proxies = _seal([t for b in branches for t in b], needs)

    def rule(ctx, *out_grads):
        built = [_build(lambda roots=roots: _inner_grads(roots, out_grads, needs, proxies),
                        (), f"{api}_grad") for roots in branches]
        grad_outs = _merged(f"{api}_grad", [b[2] for b in built])
        fields = {k: v for k, v in op.fields.items() if k in PLAIN_FIELDS}
        gop = type(op)(op.type, [b[0] for b in built], "backward", inputs=op.inputs,
                       outputs=grad_outs, branch_outputs=[b[2] for b in built], **fields)
        gop.role = state.main._role
        state.main.current_block().append_op(gop)
        grads = [variable_of(d) for d in grad_outs]
        _no_second_order(api, [*out_grads, *needs], grads)
        return tuple(grads)
    _attach(api, needs, results, rule)
    return results


def _finish_while(op, start, carried, init):
    """Append a while_loop op; when its blocks read outer values that need a gradient (or
    a loop variable's initial value needs one), its results get a Node whose gradient is
    a :class:`WhileGradOp`."""
    program = state.main
    op.role = program._role
    program.current_block().append_op(op)
    results = [variable_of(d) for d in op.outputs]
    if not grad_mode.enabled:
        return results
    body_outs = [variable_of(d) for d in op.fields["body_outputs"]]
    needs = _outer_needs(start, op.fields["body_outputs"], skip=carried)
    starts = [variable_of(d) for d in init]
    if not needs and all(t.stop_gradient for t in starts):
        return results
    proxies = _seal(body_outs, needs)
    loop_vars = [variable_of(d) for d in carried]
    inner = range(start, len(program.blocks))
    saved = [d.name for d in carried]
    saved += [n for b in inner for n in program.blocks[b].vars]
    saved += [o.steps_key for b in inner for o in program.blocks[b].ops if isinstance(o, WhileOp)]

    def rule(ctx, *out_grads):
        op.fields["saved"] = saved
        ops = autograd._dispatch.ops
        block = state.main.current_block()
        prefix = unique_name("while_loop_grad")
        acc_init = [ops.full_like(t, fill_value=0.0)._data for t in needs]

        def new(d, i):
            v = block.create_var(f"{prefix}.tmp_{i}", (), _dt.from_numpy(d.dtype).name)
            v.shape = d.shape
            return v
        state_descs = [d._data for d in (*loop_vars, *needs)]
        seeds = [new(d, i) for i, d in enumerate(state_descs[:len(loop_vars)])]
        accs = [new(d, i) for i, d in enumerate(state_descs[len(loop_vars):], len(seeds))]
        outs = [new(d, i) for i, d in enumerate(state_descs, len(state_descs))]

        def body_grad():
            grads = _inner_grads(body_outs, [variable_of(s) for s in seeds],
                                 [*loop_vars, *needs], [*loop_vars, *proxies])
            carried_grads = grads[:len(loop_vars)]
            summed = [ops.add(variable_of(a), g) for a, g in zip(accs, grads[len(loop_vars):])]
            return [*carried_grads, *summed]
        idx, _, block_outputs = _build(body_grad, (), "while_loop_grad")
        gop = WhileGradOp("while_loop_grad", [idx], "backward",
                          inputs=[g._data for g in out_grads], outputs=outs, seeds=seeds,
                          accs=accs, acc_init=acc_init, block_outputs=block_outputs,
                          steps=op.steps_key)
        block.append_op(gop)
        grads = [variable_of(d) for d in outs]
        _no_second_order("while_loop", [*out_grads, *needs], grads)
        return tuple(grads)
    _attach("while_loop", [*starts, *needs], results, rule)
    return results


def _no_second_order(api, inputs, grads):
    """While ``gradients`` records its ops (for gradients of gradients): the gradients
    of a control op refuse to be differentiated again (not implemented)."""
    inputs = [t for t in inputs if not t.stop_gradient]
    if not grad_mode.enabled or not inputs:
        return

    def refuse(ctx, *g):
        raise NotImplementedError(f"second derivatives through paddle.static.nn.{api} are "
                                  f"not implemented")
    _attach(f"{api}_grad", inputs, grads, refuse)


# ---------------------------------------------------------------------------
# The APIs
# ---------------------------------------------------------------------------

def _check_pred(pred, api, arg):
    if not isinstance(pred, Variable):
        raise TypeError(f"{api}: {arg} must be a Variable, got {type(pred).__name__}")
    if pred._data.size != 1:
        raise ValueError(f"{api}: {arg} must hold one element, got shape {pred.shape}")


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """``true_fn()`` if the one-element boolean ``pred`` is true, else ``false_fn()``; in
    a static program the choice is made when the program runs."""
    if not isinstance(pred, Variable):
        if isinstance(pred, Tensor) and pred.size != 1:
            raise ValueError(f"cond: pred must hold one element, got shape {pred.shape}")
        fn = true_fn if bool(pred) else false_fn
        return None if fn is None else fn()
    _check_pred(pred, "cond", "pred")
    if pred._data.dtype != np.bool_:
        raise TypeError(f"cond: pred must be a bool Variable, got {pred.dtype}")
    start = len(state.main.blocks)
    t_idx, t_out, t_vars = _build(true_fn or (lambda: None), (), "cond")
    f_idx, f_out, f_vars = _build(false_fn or (lambda: None), (), "cond")
    if _structure(t_out) != _structure(f_out):
        raise ValueError("cond: true_fn and false_fn return values of different structures")
    outs = _merged("cond", [t_vars, f_vars])
    op = CondOp("cond", [t_idx, f_idx], "forward", inputs=[pred._data], outputs=outs,
                branch_outputs=[t_vars, f_vars])
    return _pack(t_out, _finish_choice(op, start, outs, "cond"))


def switch_case(branch_index, branch_fns, default=None, name=None):
    """The result of the branch whose key equals the int ``branch_index`` (else of
    ``default``, or of the branch with the largest key when there is no default).
    ``branch_fns``: a dict {int: fn}, a list of fns (keys 0, 1, ...) or of (int, fn)."""
    if isinstance(branch_fns, dict):
        pairs = list(branch_fns.items())
    else:
        pairs = [p if isinstance(p, (tuple, list)) else (i, p) for i, p in enumerate(branch_fns)]
    for key, fn in pairs:
        if not isinstance(key, int) or not callable(fn):
            raise TypeError("switch_case: branch_fns must map ints to callables")
    pairs.sort(key=lambda p: p[0])
    if default is None:
        *pairs, (_, default) = pairs
    if not isinstance(branch_index, Variable):
        chosen = dict(pairs).get(int(branch_index), default)
        return chosen()
    _check_pred(branch_index, "switch_case", "branch_index")
    if branch_index._data.dtype.kind not in "iu":
        raise TypeError(f"switch_case: branch_index must be an int Variable, got "
                        f"{branch_index.dtype}")
    start = len(state.main.blocks)
    built = [_build(fn, (), "switch_case") for _, fn in (*pairs, (None, default))]
    first = _structure(built[0][1])
    if any(_structure(b[1]) != first for b in built):
        raise ValueError("switch_case: the branches return values of different structures")
    outs = _merged("switch_case", [b[2] for b in built])
    op = SwitchOp("switch_case", [b[0] for b in built], "forward", inputs=[branch_index._data],
                  outputs=outs, branch_outputs=[b[2] for b in built],
                  keys=[k for k, _ in pairs])
    return _pack(built[0][1], _finish_choice(op, start, outs, "switch_case"))


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` is true;
    returns the final loop_vars (a list)."""
    if not callable(cond) or not callable(body):
        raise TypeError("while_loop: cond and body must be callable")
    if not isinstance(loop_vars, (list, tuple)) or not loop_vars:
        raise ValueError("while_loop: loop_vars must be a non-empty list or tuple")
    if not any(isinstance(v, Variable) for v in _flat(loop_vars)):
        loop_vars = list(loop_vars)
        while bool(cond(*loop_vars)):
            out = body(*loop_vars)
            loop_vars = list(out) if isinstance(out, (list, tuple)) else [out]
        return loop_vars
    block = state.main.current_block()
    start = len(state.main.blocks)
    init = [_as_var(block, v, "while_loop") for v in _flat(loop_vars)]
    prefix = unique_name("while_loop")
    # the loop variables inside the loop (leaves for the body's gradient: float ones need
    # one) and the loop's results; the given variables stay unchanged
    carried, outs = [], []
    for i, d in enumerate(init):
        for names, j in ((carried, i), (outs, i + len(init))):
            v = block.create_var(f"{prefix}.tmp_{j}", (), _dt.from_numpy(d.dtype).name)
            v.shape = d.shape
            names.append(v)
        carried[-1].stop_gradient = not (grad_mode.enabled and d.dtype.kind == "f")
    args = _pack(list(loop_vars), [variable_of(d) for d in carried])
    c_idx, c_out, c_vars = _build(cond, args, "while_loop")
    if len(c_vars) != 1 or c_vars[0].dtype != np.bool_ or c_vars[0].size != 1:
        raise TypeError("while_loop: cond must return a one-element bool Variable")
    b_idx, b_out, b_vars = _build(body, args, "while_loop")
    b_out = list(b_out) if isinstance(b_out, (list, tuple)) else [b_out]
    if len(b_vars) != len(carried):
        raise ValueError(f"while_loop: body returned {len(b_vars)} values for "
                         f"{len(carried)} loop_vars")
    for i, (d, b, o) in enumerate(zip(carried, b_vars, outs)):
        if b.dtype != d.dtype or len(b.shape) != len(d.shape):
            raise ValueError(f"while_loop: body's output {i} is {b.dtype.name} of shape "
                             f"{list(b.shape)}, but the loop var is {d.dtype.name} of shape "
                             f"{list(d.shape)}")
        d.shape = o.shape = tuple(a if a == x else UNKNOWN for a, x in zip(d.shape, b.shape))
    op = WhileOp("while_loop", [c_idx, b_idx], "forward", inputs=init, outputs=outs,
                 carried=carried, cond_output=c_vars, body_outputs=b_vars)
    return _pack(list(loop_vars), _finish_while(op, start, carried, init))
