"""Graph passes over a Program's global block, applied by the Executor before it runs.

- **dead-op elimination**: only the ops that the fetched variables need run, plus every op
  that writes a persistable variable (parameter updates, batch-norm statistics);
- **buffer reuse**: a variable's array is released as soon as the last op that reads it
  has run (unless it is fetched), so the allocator reuses its storage for later ops.

Both are on by default; :func:`set_passes` switches them. The result of the passes (a
:class:`Plan`) is cached per program version and fetch list.
"""

from __future__ import annotations

_PASSES = {"dead_op_elimination": True, "buffer_reuse": True}


def set_passes(**flags) -> dict:
    """Switch passes on or off (``dead_op_elimination``, ``buffer_reuse``); returns the
    previous settings, so ``set_passes(**previous)`` restores them."""
    unknown = sorted(set(flags) - set(_PASSES))
    if unknown:
        raise ValueError(f"set_passes: unknown passes {unknown}; the passes are "
                         f"{sorted(_PASSES)}")
    previous = dict(_PASSES)
    _PASSES.update({k: bool(v) for k, v in flags.items()})
    return previous


def reads(program, op) -> set:
    """Names an op reads; for a control op, also those read inside its sub-blocks."""
    names = {d.name for d in op.input_descs()}
    if op.op is None:
        for i in op.blocks:
            for inner in program.blocks[i].ops:
                names |= reads(program, inner)
    return names


def writes(program, op) -> set:
    """Names an op writes; for a control op, also those written inside its sub-blocks
    (a gradient block reads them) and a loop's variables."""
    names = {d.name for d in op.outputs}
    if op.op is None:
        names |= {d.name for d in op.fields.get("carried", ())}
        for i in op.blocks:
            for inner in program.blocks[i].ops:
                names |= writes(program, inner)
    return names


class Plan:
    """The global block's ops to run, and after each op the names whose arrays to drop."""

    def __init__(self, ops, free):
        self.ops, self.free = ops, free


def plan(program, fetch_names) -> Plan:
    """The ops of ``program``'s global block to run for ``fetch_names``, after the passes."""
    key = (tuple(fetch_names), tuple(sorted(_PASSES.items())))
    version, cache = program._plans
    if version != program._version:
        cache = {}
        program._plans = (program._version, cache)
    if key in cache:
        return cache[key]
    ops = list(program.global_block().ops)
    fetched = set(fetch_names)
    if _PASSES["dead_op_elimination"]:
        needed, kept = set(fetched), []
        for op in reversed(ops):
            if any(d.persistable for d in op.outputs) or not needed.isdisjoint(
                    writes(program, op)):
                kept.append(op)
                needed |= reads(program, op)
        ops = kept[::-1]
    free = [() for _ in ops]
    if _PASSES["buffer_reuse"]:
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
        free = [tuple(d) for d in drops]
    cache[key] = result = Plan(ops, free)
    return result
