"""cond, while_loop and switch_case: ops that run sub-blocks of the program.

Each branch (or the loop's condition and body) is built by calling the user's function
with ops appending to a new block of the program; a control op in the current block
chooses, at run time, which block runs and copies that block's results into its outputs.
In dynamic mode the functions simply run (as Paddle does).

Gradients through these ops are not implemented: building a program whose loss needs
them succeeds, and ``append_backward`` raises an error that says so.
"""

from __future__ import annotations

import numpy as np

from ..._core import dtype as _dt
from ..._core.autograd import Node, grad_mode, no_grad
from ..._core.optable import TABLE, UNKNOWN, OpDef
from ..._core.program import Block, OpDesc, Variable, _operand, state, unique_name, variable_of
from ..._core.tensor import Tensor


class ControlOp:
    """An op that runs sub-blocks (not a row of the op table); the Executor calls
    ``run``. ``fields`` holds its VarDescs (lists, possibly nested) by name."""

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
            if k not in ("outputs", "keys"):
                yield from _flat(v)

    def copied(self, new_desc, for_test=False):
        def remap(x):
            return [remap(v) for v in x] if isinstance(x, list) else new_desc(x)
        return type(self)(self.type, self.blocks, self.role,
                          **{k: remap(v) for k, v in self.fields.items()})

    def __str__(self):
        outs = [d.name for d in self.outputs]
        ins = [d.name for d in _flat(self.inputs)]
        return (f"{{out={outs}}} = {self.type}(inputs={{x={ins}}}, "
                f"sub_blocks = {self.blocks})")


class CondOp(ControlOp):
    def run(self, r):
        branch = 0 if bool(np.asarray(r.to_numpy(r.read(self.inputs[0]))).reshape(())) else 1
        r.run_block(self.blocks[branch])
        for out, src in zip(self.outputs, self.fields["branch_outputs"][branch]):
            r.write(out, r.read(src))


class SwitchOp(ControlOp):
    def run(self, r):
        index = int(np.asarray(r.to_numpy(r.read(self.inputs[0]))).reshape(()))
        keys = self.fields["keys"]
        branch = keys.index(index) if index in keys else len(keys)  # the default's block
        r.run_block(self.blocks[branch])
        for out, src in zip(self.outputs, self.fields["branch_outputs"][branch]):
            r.write(out, r.read(src))

    def copied(self, new_desc, for_test=False):
        keys = self.fields.pop("keys")
        try:
            op = super().copied(new_desc, for_test)
        finally:
            self.fields["keys"] = keys
        op.fields["keys"] = keys
        return op


class WhileOp(ControlOp):
    def run(self, r):
        cond_block, body_block = self.blocks
        carried, cond_out = self.outputs, self.fields["cond_output"][0]
        while True:
            r.run_block(cond_block)
            if not bool(np.asarray(r.to_numpy(r.read(cond_out))).reshape(())):
                break
            r.run_block(body_block)
            values = [r.read(d) for d in self.fields["body_outputs"]]
            for d, v in zip(carried, values):
                r.write(d, v)


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
    """Run ``fn(*args)`` with its ops appended to a new block; returns (block index,
    result). Built without recording gradients (see the module's doc)."""
    program = state.main
    parent = program.current_block()
    block = Block(program, len(program.blocks), parent.idx)
    program.blocks.append(block)
    prev = program._current
    program._current = block.idx
    try:
        with no_grad():
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


def _finish(op, first_blocks, outs, api, extra=()):
    """Append ``op``; when a value read inside its blocks needs a gradient, the outputs
    carry a node whose rule refuses (gradients through control flow are not done)."""
    program = state.main
    block = program.current_block()
    op.role = program._role
    block.append_op(op)
    inner = set(range(first_blocks, len(program.blocks)))
    needs = [variable_of(d) for d in extra if not d.stop_gradient] if grad_mode.enabled else []
    seen = {id(t._data) for t in needs}
    if grad_mode.enabled:
        for b in inner:
            for o in program.blocks[b].ops:
                for d in o.input_descs():
                    if d.block.idx not in inner and not d.stop_gradient and id(d) not in seen:
                        seen.add(id(d))
                        needs.append(variable_of(d))
    results = [variable_of(d) for d in outs]
    if needs:
        row = OpDef(api, tuple(f"x{i}" for i in range(len(needs))), None, api, grad=_refuse(api),
                    outputs=tuple(f"out{i}" for i in range(len(results))))
        for t in results:
            t.stop_gradient = t._data.stop_gradient = False
        node = Node(row, {}, needs, results)
        for i, t in enumerate(results):
            t._grad_fn, t._out_idx = node, i
    return results


def _refuse(api):
    def rule(ctx, *grads):
        raise NotImplementedError(
            f"gradients through paddle.static.nn.{api} are not implemented: the loss depends "
            f"on values that need a gradient inside its branches")
    return rule


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
    return _pack(t_out, _finish(op, start, outs, "cond"))


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
    return _pack(built[0][1], _finish(op, start, outs, "switch_case"))


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
    carried = [block.create_var(f"{prefix}.tmp_{i}", (), _dt.from_numpy(d.dtype).name)
               for i, d in enumerate(init)]
    for src, dst in zip(init, carried):  # the loop changes copies, not the given variables
        dst.shape = src.shape
        block.append_op(OpDesc(TABLE["assign"], [src], [dst], {}, state.main._role))
    args = _pack(list(loop_vars), [variable_of(d) for d in carried])
    c_idx, c_out, c_vars = _build(cond, args, "while_loop")
    if len(c_vars) != 1 or c_vars[0].dtype != np.bool_ or c_vars[0].size != 1:
        raise TypeError("while_loop: cond must return a one-element bool Variable")
    b_idx, b_out, b_vars = _build(body, args, "while_loop")
    b_out = list(b_out) if isinstance(b_out, (list, tuple)) else [b_out]
    if len(b_vars) != len(carried):
        raise ValueError(f"while_loop: body returned {len(b_vars)} values for "
                         f"{len(carried)} loop_vars")
    for i, (d, b) in enumerate(zip(carried, b_vars)):
        if b.dtype != d.dtype or len(b.shape) != len(d.shape):
            raise ValueError(f"while_loop: body's output {i} is {b.dtype.name} of shape "
                             f"{list(b.shape)}, but the loop var is {d.dtype.name} of shape "
                             f"{list(d.shape)}")
        d.shape = tuple(a if a == x else UNKNOWN for a, x in zip(d.shape, b.shape))
    op = WhileOp("while_loop", [c_idx, b_idx], "forward", inputs=init, outputs=carried,
                 cond_output=c_vars, body_outputs=b_vars)
    return _pack(list(loop_vars), _finish(op, start, carried, "while_loop", extra=init))

