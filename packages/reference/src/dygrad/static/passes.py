"""Graph passes over a Program's global block, applied by the Executor before it runs.

- **dead-op elimination**: only the ops that the fetched variables need run, plus every op
  that writes a persistable variable (parameter updates, batch-norm statistics);
- **constant folding**: an op whose inputs are all constants, or that reads only the shape
  of its input (``full_like``, ``numel``, ``shape``; with the sizes fed for -1
  dimensions), runs once when the plan is made; its output becomes a constant (the
  gradient of a mean, say, is such a chain). Programs with control flow skip it;
- **reshape elimination**: a ``reshape`` to the shape its input already has is dropped
  (its readers read the input); ``sum(..., keepdim=True)`` whose only reader reshapes it
  to the kept shape without the summed axes becomes one ``sum`` without keepdim; a
  ``reshape`` that only adds leading 1s before a ``broadcast_to`` (its only reader) is
  dropped (the gradients of ``mean`` and of a Linear's bias are such chains);
- **broadcast elimination** (known shapes only): a ``broadcast_to`` whose result only an
  elementwise op reads moves past that op, which then computes on the smaller array, and
  is dropped where the op's other operand broadcasts to the same shape anyway (the
  gradient of a ``mean`` broadcasts its 0-D seed before scaling it);
- **linear gradient fusion**: a Linear+ReLU layer's gradient ops, ``relu_grad`` (z_grad),
  the bias gradient ``sum`` of z_grad over the rows and the weight gradient
  ``matmul(x, z_grad, transpose_x=True)`` (2-D), become one ``fused_linear_activation_grad``
  op (a row of the op table: one pass over z_grad for both, and the weight gradient's GEMM);
  so do a Linear's without an activation, the bias ``sum`` and the weight ``matmul`` of
  one output gradient (``activation='none'``, that gradient standing for the output);
- **bias+activation fusion**: ``matmul`` (x [..., K] by weight [K, N]), then ``add`` of a
  bias [N], then (optionally) ``relu``/``sigmoid``/``tanh``, whose intermediate results
  nothing else reads, become one ``fused_linear_activation`` op (a row of the op table);
- **outer products**: a 2-D ``matmul`` over an inner dimension of 1 (the input gradient
  of a Linear with one output: ``z_grad [B, 1] @ weight.T``) becomes a broadcasting
  ``multiply`` of a column by a row (a ``reshape`` makes the row of a transposed [N, 1]
  operand): the same products, rounded once, without BLAS's zero-filled output and packing
  (an engine whose matmul does that itself, ``Engine.matmul_outer``, keeps the matmul);
- **elementwise fusion**: a chain of consecutive elementwise ops, each reading the result
  of the one before, whose intermediate results nothing else reads, runs as one step
  (:class:`FusedChain`: the intermediates are handed from kernel to kernel, never stored);
- **buffer reuse**: a variable's array is released as soon as the last op that reads it
  has run (unless it is fetched), so the allocator reuses its storage for later ops.

All are on by default; :func:`set_passes` switches them. The result (a :class:`Plan`) is
cached per program version, fetch list, sizes fed for -1 dimensions and engine.
"""

from __future__ import annotations

import numpy as np

from .._core.optable import TABLE
from .._core.program import OpDesc, VarDesc, has_unknown, resolve_unknown

_PASSES = {"dead_op_elimination": True, "constant_folding": True, "reshape_elimination": True,
           "broadcast_elimination": True, "linear_grad_fusion": True,
           "bias_activation_fusion": True, "outer_products": True, "elementwise_fusion": True,
           "buffer_reuse": True}

# ops whose output at each position depends only on their inputs at that position
ELEMENTWISE = frozenset(
    ("add", "subtract", "multiply", "divide", "maximum", "minimum", "pow", "elementwise_pow",
     "scale", "clip", "neg", "abs", "square", "exp", "log", "sqrt", "rsqrt", "reciprocal",
     "sin", "cos", "tanh", "sigmoid", "relu", "relu_grad", "relu6", "leaky_relu", "elu",
     "gelu", "silu", "softplus", "hardswish", "hardsigmoid", "cast")) & set(TABLE)
# elementwise ops whose kernels broadcast their operands as NumPy does, and those of one
# tensor input: a broadcast before them can as well come after them
BROADCASTING = frozenset(("add", "subtract", "multiply", "divide", "maximum", "minimum"))
UNARY = frozenset(n for n in ELEMENTWISE if len(TABLE[n].inputs) == 1)
# ops that read only their input's shape and dtype
SHAPE_ONLY = frozenset(("full_like", "numel", "shape"))
ACTIVATIONS = {"relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh"}
_VERSION = [0]  # counts the changes of the settings


def passes_version() -> int:
    """A number that changes whenever :func:`set_passes` changes a setting."""
    return _VERSION[0]


def set_passes(**flags) -> dict:
    """Switch passes on or off (``dead_op_elimination``, ``constant_folding``,
    ``reshape_elimination``, ``broadcast_elimination``, ``linear_grad_fusion``,
    ``bias_activation_fusion``, ``outer_products``, ``elementwise_fusion``,
    ``buffer_reuse``); returns the previous settings, so ``set_passes(**previous)``
    restores them."""
    unknown = sorted(set(flags) - set(_PASSES))
    if unknown:
        raise ValueError(f"set_passes: unknown passes {unknown}; the passes are "
                         f"{sorted(_PASSES)}")
    previous = dict(_PASSES)
    _PASSES.update({k: bool(v) for k, v in flags.items()})
    if _PASSES != previous:
        _VERSION[0] += 1
    return previous


def reads(program, op) -> set:
    """Names an op reads; for a control op, also those read inside its sub-blocks."""
    names = {d.name for d in op.input_descs()}
    if op.op is None and hasattr(op, "blocks"):
        for i in op.blocks:
            for inner in program.blocks[i].ops:
                names |= reads(program, inner)
    return names


def writes(program, op) -> set:
    """Names an op writes; for a control op, also those written inside its sub-blocks
    (a gradient block reads them) and a loop's variables."""
    names = {d.name for d in op.outputs}
    if op.op is None and hasattr(op, "blocks"):
        names |= {d.name for d in op.fields.get("carried", ())}
        for i in op.blocks:
            for inner in program.blocks[i].ops:
                names |= writes(program, inner)
    return names


class FusedChain:
    """Consecutive elementwise ops run as one step: each op's result goes straight into the
    next one. ``inputs``/``outputs`` are the chain's own (what others read and write)."""

    op = None
    role = "forward"

    def __init__(self, ops):
        self.ops = ops
        inner = {d.name for o in ops[:-1] for d in o.outputs}
        seen, self.inputs = set(), []
        for o in ops:
            for d in o.input_descs():
                if d.name not in inner and d.name not in seen:
                    seen.add(d.name)
                    self.inputs.append(d)
        self.outputs = list(ops[-1].outputs)

    @property
    def type(self) -> str:
        return "fused(" + ", ".join(o.type for o in self.ops) + ")"

    def input_descs(self):
        return iter(self.inputs)

    def run(self, r):
        r.run_ops(self.ops)


class Plan:
    """The ops to run (after the passes), after each op the names whose arrays to drop,
    and the constants that folding computed ({name: value})."""

    def __init__(self, ops, free, consts):
        self.ops, self.free, self.consts = ops, free, consts
        self.compiled = None  # the Executor's compiled form, made on first use


def plan(program, fetch_names, sizes=(), eng=None) -> Plan:
    """The ops of ``program``'s global block to run for ``fetch_names`` (``sizes``: those
    fed for -1 dimensions), after the passes."""
    if eng is None:
        from .._core.engine import current
        eng = current()
    key = (tuple(fetch_names), tuple(sorted(_PASSES.items())), tuple(sorted(sizes)), eng.name)
    version, cache = program._plans
    if version != program._version:
        cache = {}
        program._plans = (program._version, cache)
    if key in cache:
        return cache[key]
    ops = list(program.global_block().ops)
    fetched = set(fetch_names)
    if _PASSES["dead_op_elimination"]:
        ops = _live_ops(program, ops, fetched)
    control = any(op.op is None for op in ops)
    consts = {}
    if _PASSES["constant_folding"] and not control:
        ops, consts = _fold(ops, sizes, eng)
    if _PASSES["reshape_elimination"] and not control:
        ops = _drop_reshapes(ops, _readers(program, ops, fetched), fetched)
    if _PASSES["broadcast_elimination"] and not control:
        ops = _sink_broadcasts(ops, _readers(program, ops, fetched))
    if _PASSES["linear_grad_fusion"] and not control:
        ops = _fuse_linear_grads(ops)
    readers = _readers(program, ops, fetched)
    if _PASSES["bias_activation_fusion"]:
        ops = _fuse_bias_activation(ops, readers)
    if _PASSES["outer_products"] and not control and not eng.matmul_outer:
        ops = _outer_products(ops, readers)
    if _PASSES["elementwise_fusion"]:
        ops = _fuse_elementwise(ops, readers)
    free = _free_lists(program, ops, fetched) if _PASSES["buffer_reuse"] else [()] * len(ops)
    cache[key] = result = Plan(ops, free, consts)
    return result


def _live_ops(program, ops, fetched):
    needed, kept = set(fetched), []
    for op in reversed(ops):
        if any(d.persistable for d in op.outputs) or not needed.isdisjoint(writes(program, op)):
            kept.append(op)
            needed |= reads(program, op)
    return kept[::-1]


def _readers(program, ops, fetched):
    """How many ops read each name (a fetched or persistable name counts as read once
    more, so that it is never fused away)."""
    count = {name: 1 for name in fetched}
    for op in ops:
        for name in reads(program, op):
            count[name] = count.get(name, 0) + 1
    return count


def _private(desc, readers):
    """Whether only one op reads ``desc`` (its value can stay inside a fused step)."""
    return readers.get(desc.name, 0) == 1 and not desc.persistable and desc.const is None


def _fold(ops, sizes, eng):
    """Run the ops that need no fed or persistable value now; their outputs become
    constants. Shape-only ops fold when their input's shape is known (one size was fed
    for the -1 dimensions)."""
    known, kept = {}, []
    size = next(iter(sizes)) if len(sizes) == 1 else None
    for op in ops:
        row, ins = op.op, list(op.input_descs())
        if row is None or row.random or any(d.persistable for d in op.outputs) or (
                op.sized and size is None):
            kept.append(op)
            continue
        if all(d.const is not None or d.name in known for d in ins):
            args = [d.const if d.const is not None else known[d.name] for d in ins]
        elif row.name in SHAPE_ONLY and (size is not None or not has_unknown(
                [d.shape for d in ins])):
            args = [eng.asarray(np.zeros(resolve_unknown(d.shape, size), d.dtype), d.dtype)
                    for d in ins]
        else:
            kept.append(op)
            continue
        attrs = {k: resolve_unknown(v, size) for k, v in op.attrs.items()} if op.sized else op.attrs
        out = eng.kernels[row.name](*_regroup(op, args), **attrs)
        for d, value in zip(op.outputs, out if type(out) is tuple else (out,)):
            known[d.name] = value if type(value) is eng.array_type else eng.ensure(value)
    return kept, known


def _regroup(op, flat):
    """Flat input values in the op's grouping (a variadic op's list first)."""
    it = iter(flat)
    return [[next(it) for _ in x] if isinstance(x, list) else next(it) for x in op.inputs]


def _drop_reshapes(ops, readers, fetched):
    """The ops without the reshapes that change nothing or that the op before or after can
    do (see the module's docstring); later ops read the surviving variables."""
    alias, out, i = {}, [], 0
    while i < len(ops):
        op = ops[i]
        if any(d.name in alias for d in op.input_descs()):
            op = op.copied(lambda d: alias.get(d.name, d))
        nxt = ops[i + 1] if i + 1 < len(ops) else None
        i += 1
        if op.type == "reshape" and not op.sized:
            (x,), (y,) = op.inputs, op.outputs
            if _static(x, y) and y.name not in fetched and not y.persistable and (
                    tuple(x.shape) == tuple(y.shape)
                    or _leading_ones_into_broadcast(x, y, nxt, readers)):
                alias[y.name] = x
                continue
        if op.type == "sum" and nxt is not None and nxt.type == "reshape" and not op.sized:
            summed = _sum_then_reshape(op, nxt, readers)
            if summed is not None:
                out.append(summed)
                i += 1  # the reshape: the sum does it
                continue
        out.append(op)
    return out


def _static(*descs):
    """Whether the variables' shapes have no unknown (-1) dimension."""
    return not any(has_unknown(list(d.shape)) for d in descs)


def _leading_ones_into_broadcast(x, y, nxt, readers):
    """Whether reshape ``x`` -> ``y`` only prepends 1s and ``y``'s one reader is
    ``broadcast_to`` (which broadcasts ``x`` the same way)."""
    k = len(y.shape) - len(x.shape)
    return (k >= 0 and tuple(y.shape[k:]) == tuple(x.shape) and all(n == 1 for n in y.shape[:k])
            and nxt is not None and nxt.type == "broadcast_to" and nxt.inputs[0] is y
            and -1 not in (nxt.attrs.get("shape") or (-1,)) and _private(y, readers))


def _sum_then_reshape(op, reshape, readers):
    """One ``sum`` without keepdim for ``sum(x, axis, keepdim=True)`` whose only reader
    reshapes it to the shape without the summed axes; else None."""
    attrs = {**op.op.attrs, **op.attrs}
    (x,), (kept,), (y,) = op.inputs, op.outputs, reshape.outputs
    axis = attrs["axis"]
    axis = [axis] if type(axis) is int else axis
    if not attrs["keepdim"] or type(axis) not in (list, tuple) or not axis or not x.shape \
            or reshape.sized or reshape.inputs[0] is not kept or not _private(kept, readers) \
            or not _static(x, y):
        return None
    axes = {a % len(x.shape) for a in axis}
    if tuple(y.shape) != tuple(n for i, n in enumerate(x.shape) if i not in axes):
        return None
    return OpDesc(op.op, [x], [y], {**op.attrs, "keepdim": False}, op.role)


def _sink_broadcasts(ops, readers):
    """The ops with each ``broadcast_to`` moved past the elementwise ops that alone read its
    result, and dropped where they broadcast the same way (see the module's docstring)."""
    ops, i = list(ops), 0
    while i < len(ops):
        if not (ops[i].type == "broadcast_to" and _sink_one(ops, i, readers)):
            i += 1
    return ops


def _sink_one(ops, i, readers):
    """Move or drop the ``broadcast_to`` ops[i] past its only reader (in place); whether it
    did."""
    b = ops[i]
    (x,), (y,) = b.inputs, b.outputs
    if b.sized or not _private(y, readers) or not _static(x, y):
        return False
    j = next((k for k in range(i + 1, len(ops)) if y in list(ops[k].input_descs())), None)
    r = ops[j] if j is not None else None
    if r is None or r.op is None or r.op.random or len(r.outputs) != 1 or not (
            r.type in UNARY or r.type in BROADCASTING):
        return False
    (out,) = r.outputs
    if out.persistable or not _static(out, *r.input_descs()):
        return False
    shape = np.broadcast_shapes(*(x.shape if d is y else d.shape for d in r.input_descs()))
    if shape == tuple(out.shape):  # the reader broadcasts x as far itself
        ops[j] = r.copied(lambda d: x if d is y else d)
        del ops[i]
        return True
    small = VarDesc(out.block, f"{out.name}@unbroadcast", shape, out.dtype)
    readers[small.name] = 1
    ops[j:j + 1] = [r.copied(lambda d: x if d is y else small if d is out else d),
                    OpDesc(b.op, [small], [out], {"shape": tuple(out.shape)}, b.role)]
    del ops[i]
    return True


def _fuse_linear_grads(ops):
    """relu_grad + the bias gradient's sum + the weight gradient's matmul, or (no
    activation) the sum + the matmul -> fused_linear_activation_grad (see the module's
    docstring)."""
    ops, i = list(ops), 0
    while i < len(ops):
        op = ops[i]
        found = None
        if op.type == "relu_grad":
            found = _linear_grad_at(ops, i, op.outputs[0], i + 1)
        elif op.type == "sum" and _sums_rows(op, op.inputs[0]):
            found = _linear_grad_at(ops, i, op.inputs[0], i)
        if found is not None:
            fused, taken = found
            ops[i] = fused
            for n in sorted(taken, reverse=True):
                del ops[n]
        i += 1
    return ops


def _linear_grad_at(ops, i, dz, start):
    """The fused op standing at ops[i] (a relu_grad whose output is ``dz``, or the bias
    gradient's sum of ``dz``, the output gradient of a Linear without an activation) for
    the sum and the matmul of ``dz`` from ops[start] on; and the indices of the ops it
    takes in other than i. None when there is no such pair."""
    relu = ops[i].type == "relu_grad"
    j = None if relu else i
    k = None
    for n in range(start, len(ops)):
        op = ops[n]
        if op.type == "sum" and j is None and op.inputs[0] is dz and _sums_rows(op, dz):
            j = n
        elif (op.type == "matmul" and k is None and op.inputs[1] is dz
              and op.attrs.get("transpose_x") and not op.attrs.get("transpose_y")):
            k = n
    if j is None or k is None:
        return None
    x = ops[k].inputs[0]
    out, g = ops[i].inputs if relu else (dz, dz)  # 'none' reads no output: g stands in
    if len(x.shape) != 2 or x.dtype.kind != "f" or not x.dtype == out.dtype == g.dtype \
            == dz.dtype or not _static(x, dz):
        return None
    # the sum and the matmul move up to i: x is there already, and no op in between reads
    # or writes their outputs
    moved = {ops[j].outputs[0].name, ops[k].outputs[0].name}
    for n in range(i + 1, max(j, k)):
        written = {d.name for d in ops[n].outputs}
        if n not in (j, k) and (x.name in written or not moved.isdisjoint(
                written | {d.name for d in ops[n].input_descs()})):
            return None
    if relu:
        z_grad = dz
    else:  # the row's third output, which nothing reads (the kernel hands back g itself)
        z_grad = VarDesc(dz.block, f"{dz.name}@Z", dz.shape, dz.dtype)
    op = OpDesc(TABLE["fused_linear_activation_grad"], [x, out, g],
                [ops[k].outputs[0], ops[j].outputs[0], z_grad],
                {"activation": "relu" if relu else "none"}, ops[i].role)
    return op, [n for n in (j, k) if n != i]


def _sums_rows(op, dz):
    """Whether ``sum`` op sums the 2-D ``dz`` over its rows (a bias gradient)."""
    attrs = {**op.op.attrs, **op.attrs}
    axis = attrs["axis"]
    axes = [axis] if type(axis) is int else axis
    return (len(dz.shape) == 2 and not attrs["keepdim"] and attrs["dtype"] is None
            and type(axes) in (list, tuple) and {a % 2 for a in axes} == {0} and len(axes) == 1)


def _fuse_bias_activation(ops, readers):
    """matmul + add(bias) [+ activation] -> fused_linear_activation."""
    out, i = [], 0
    while i < len(ops):
        fused = _linear_at(ops, i, readers)
        if fused is None:
            out.append(ops[i])
            i += 1
        else:
            op, used = fused
            out.append(op)
            i += used
    return out


def _linear_at(ops, i, readers):
    """The fused op for the pattern starting at ops[i] and how many ops it replaces."""
    mm = ops[i]
    if mm.type != "matmul" or i + 1 >= len(ops) or any(mm.attrs.get(k) for k in (
            "transpose_x", "transpose_y")):
        return None
    x, w = mm.inputs
    product = mm.outputs[0]
    add = ops[i + 1]
    if add.type != "add" or not _private(product, readers) or len(w.shape) != 2 or not x.shape:
        return None
    a, b = add.inputs
    bias = b if a is product else a if b is product else None
    if bias is None or tuple(bias.shape) != (w.shape[1],) or x.dtype.kind != "f" or \
            not x.dtype == w.dtype == bias.dtype:
        return None
    result, used, act = add.outputs[0], 2, "none"
    if i + 2 < len(ops) and ops[i + 2].type in ACTIVATIONS and _private(result, readers) \
            and ops[i + 2].inputs[0] is result:
        act, result, used = ACTIVATIONS[ops[i + 2].type], ops[i + 2].outputs[0], 3
    op = OpDesc(TABLE["fused_linear_activation"], [x, w, bias], [result],
                {"activation": act}, mm.role)
    return op, used


def _outer_products(ops, readers):
    """The ops with each 2-D ``matmul`` over an inner dimension of 1 as a ``multiply``
    (see the module's docstring)."""
    out = []
    for op in ops:
        out.extend(_outer_product(op, readers) if op.type == "matmul" else (op,))
    return out


def _outer_product(op, readers):
    """``[op]``, or the ops computing the outer product ``op`` is: a column [M, 1] times a
    row [1, N], each operand reshaped to that when it is transposed."""
    x, y = op.inputs
    (out,) = op.outputs
    tx, ty = op.attrs.get("transpose_x", False), op.attrs.get("transpose_y", False)
    if len(x.shape) != 2 or len(y.shape) != 2 or x.shape[0 if tx else 1] != 1 or \
            x.dtype.kind != "f" or x.dtype != y.dtype or not _static(x, y, out):
        return [op]
    ops = []

    def shaped(d, transposed, shape):
        if not transposed or tuple(d.shape) == shape:
            return d
        v = VarDesc(out.block, f"{d.name}@{out.name}", shape, d.dtype)
        readers[v.name] = 1
        ops.append(OpDesc(TABLE["reshape"], [d], [v], {"shape": list(shape)}, op.role))
        return v
    column = shaped(x, tx, (x.shape[1 if tx else 0], 1))
    row = shaped(y, ty, (1, y.shape[0 if ty else 1]))
    ops.append(OpDesc(TABLE["multiply"], [column, row], [out], {}, op.role))
    return ops


def _fuse_elementwise(ops, readers):
    """Group consecutive elementwise ops that hand their only reader their result."""
    out, chain = [], []

    def close():
        if len(chain) > 1:
            out.append(FusedChain(list(chain)))
        else:
            out.extend(chain)
        chain.clear()
    for op in ops:
        if op.op is None or op.type not in ELEMENTWISE or len(op.outputs) != 1:
            close()
            out.append(op)
            continue
        if chain:
            prev = chain[-1].outputs[0]
            if not (_private(prev, readers) and prev in list(op.input_descs())):
                close()
        chain.append(op)
    close()
    return out


def _free_lists(program, ops, fetched):
    """After each op, the names of temporaries that no later op reads."""
    last, temporary = {}, {}
    for i, op in enumerate(ops):
        for name in reads(program, op):
            last[name] = i
        for d in op.outputs:
            temporary[d.name] = not d.persistable and d.const is None
            last.setdefault(d.name, i)  # written but never read: drop at once
    for op in ops:  # data variables, read but not written by any op
        for d in op.input_descs():
            temporary.setdefault(d.name, d.is_data)
    drops = [[] for _ in ops]
    for name, i in last.items():
        if temporary.get(name) and name not in fetched:
            drops[i].append(name)
    return [tuple(d) for d in drops]
