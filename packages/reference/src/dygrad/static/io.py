"""Saving and loading static programs and their persistable variables.

``save``/``load`` write ``<path>.pdparams`` (parameters), ``<path>.pdopt`` (the other
persistables: optimizer state) and ``<path>.pdmodel`` (the program), each with
``paddle.save``; the parameter files are {name: ndarray} dicts, as Paddle's. A program is
stored as plain data (variables, op names, attributes), never as Python objects.
``save_inference_model`` keeps only the forward ops that the fetched variables need.
"""

from __future__ import annotations

import os

import numpy as np

from .._core import dtype as _dt
from .._core.optable import TABLE
from .._core.program import Block, OpDesc, Program, default_main_program, global_scope, variable_of
from ..framework import load as _load
from ..framework import save as _save
from .nn.control_flow import PLAIN_FIELDS, CondOp, SwitchOp, WhileGradOp, WhileOp
from .passes import reads

_CONTROL = {"cond": CondOp, "switch_case": SwitchOp, "while_loop": WhileOp,
            "while_loop_grad": WhileGradOp}


def _encode(v):
    if isinstance(v, np.dtype):
        return {"dtype": v.name}
    if isinstance(v, slice):
        return {"slice": (v.start, v.stop, v.step)}
    if v is Ellipsis:
        return {"ellipsis": True}
    if isinstance(v, (list, tuple)):
        return type(v)(_encode(x) for x in v)
    return v


def _decode(v):
    if isinstance(v, dict):
        if "dtype" in v:
            return np.dtype(v["dtype"])
        if "slice" in v:
            return slice(*v["slice"])
        return Ellipsis
    if isinstance(v, (list, tuple)):
        return type(v)(_decode(x) for x in v)
    return v


def _names(x):
    return [_names(v) for v in x] if isinstance(x, list) else f"{x.block.idx}:{x.name}"


def program_to_plain(program: Program) -> dict:
    """The program as plain data: lists, dicts, strings, numbers and arrays."""
    blocks = []
    for b in program.blocks:
        vs = [(d.name, tuple(d.shape), d.dtype.name, d.persistable, d.is_data, d.is_parameter,
               d.stop_gradient, None if d.const is None else np.asarray(d.const))
              for d in b.vars.values()]
        ops = []
        for o in b.ops:
            if o.op is None:
                fields = {k: (v if k in PLAIN_FIELDS else _names(v)) for k, v in o.fields.items()}
                ops.append(("control", o.type, list(o.blocks), o.role, fields))
            else:
                ops.append(("op", o.type, _names(list(o.inputs)), _names(list(o.outputs)),
                            {k: _encode(v) for k, v in o.attrs.items()}, o.role))
        blocks.append({"parent": b.parent_idx, "vars": vs, "ops": ops})
    return {"random_seed": program.random_seed, "blocks": blocks}


def program_from_plain(plain: dict) -> Program:
    """A Program rebuilt from :func:`program_to_plain`'s data."""
    p = Program()
    p.random_seed = plain["random_seed"]
    p.blocks = [Block(p, i, b["parent"]) for i, b in enumerate(plain["blocks"])]
    for block, b in zip(p.blocks, plain["blocks"]):
        for name, shape, dtype, persistable, is_data, is_param, stop, const in b["vars"]:
            d = block.create_var(name, (), dtype, persistable=persistable, is_data=is_data,
                                 is_parameter=is_param, stop_gradient=stop, const=const)
            d.shape = tuple(shape)

    def desc(x):
        if isinstance(x, list):
            return [desc(v) for v in x]
        idx, name = x.split(":", 1)
        return p.blocks[int(idx)].vars[name]
    for block, b in zip(p.blocks, plain["blocks"]):
        for entry in b["ops"]:
            if entry[0] == "control":
                _, type_, sub, role, fields = entry
                fields = {k: (v if k in PLAIN_FIELDS else desc(v)) for k, v in fields.items()}
                block.ops.append(_CONTROL[type_](type_, sub, role, **fields))
            else:
                _, type_, ins, outs, attrs, role = entry
                attrs = {k: _decode(v) for k, v in attrs.items()}
                block.ops.append(OpDesc(TABLE[type_], desc(ins), desc(outs), attrs, role))
    return p


def _persistables(program, parameters):
    return [d for b in program.blocks for d in b.vars.values()
            if d.persistable and d.is_parameter == parameters]


def _values(descs, scope, api):
    values = {}
    for d in descs:
        v = scope._values.get(d.name)
        if v is None:
            raise RuntimeError(f"{api}: variable {d.name!r} has no value in the scope: run the "
                               f"startup program before saving")
        values[d.name] = np.array(v)
    return values


def save(program, model_path, protocol=4, **configs):
    """Save the parameters (``model_path.pdparams``), the other persistable variables
    (``.pdopt``) and the program (``.pdmodel``) of ``program``."""
    if not isinstance(program, Program):
        raise TypeError(f"paddle.static.save: program must be a Program, got "
                        f"{type(program).__name__}")
    scope = global_scope()
    base = os.fspath(model_path)
    if os.path.dirname(base):
        os.makedirs(os.path.dirname(base), exist_ok=True)
    _save(_values(_persistables(program, True), scope, "paddle.static.save"),
          base + ".pdparams", protocol)
    others = _values(_persistables(program, False), scope, "paddle.static.save")
    if others:  # optimizer state
        _save(others, base + ".pdopt", protocol)
    _save(program_to_plain(program), base + ".pdmodel", protocol)


def _set(scope, descs, values, source, var_list=None):
    wanted = None if var_list is None else {v if isinstance(v, str) else v.name for v in var_list}
    for d in descs:
        if wanted is not None and d.name not in wanted:
            continue
        if d.name not in values:
            raise ValueError(f"{source} has no value for variable {d.name!r}")
        a = np.asarray(values[d.name])
        if tuple(a.shape) != tuple(d.shape) or a.dtype != d.dtype:
            raise ValueError(f"{source}: variable {d.name!r} is {a.dtype.name} of shape "
                             f"{list(a.shape)}, but the program expects "
                             f"{_dt.from_numpy(d.dtype).name} of shape {list(d.shape)}")
        from .._core.engine import current
        scope._values[d.name] = current().asarray(a, a.dtype)


def load(program, model_path, executor=None, var_list=None):
    """Load what :func:`save` wrote into the scope: the values of ``program``'s
    persistable variables (or those of ``var_list``)."""
    base = os.fspath(model_path)
    scope = global_scope()
    params = _load(base + ".pdparams", return_numpy=True)
    _set(scope, _persistables(program, True), params, base + ".pdparams", var_list)
    others = _persistables(program, False)
    if others and os.path.isfile(base + ".pdopt"):
        _set(scope, others, _load(base + ".pdopt", return_numpy=True), base + ".pdopt",
             var_list)


def _pruned(program, feed_names, fetch_names):
    """A test copy of ``program`` with only the global block's ops that the fetched
    variables need, and the variables those ops use."""
    p = program.clone(for_test=True)
    block = p.global_block()
    needed, kept = set(fetch_names), []
    for op in reversed(block.ops):
        if any(d.name in needed for d in op.outputs):
            kept.append(op)
            needed |= reads(p, op)
    block.ops = kept[::-1]
    for name in list(block.vars):
        d = block.vars[name]
        if name not in needed and name not in feed_names:
            del block.vars[name]
        elif d.is_data and name not in feed_names and name not in fetch_names:
            raise ValueError(f"save_inference_model: the fetched variables need data variable "
                             f"{name!r}, which is not among feed_vars")
    return p


def _vars(x, api, arg):
    from .._core.program import Variable
    x = [x] if isinstance(x, Variable) else list(x)
    for v in x:
        if not isinstance(v, Variable):
            raise TypeError(f"{api}: {arg} must be Variables, got {type(v).__name__}")
    return x


def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, **kwargs):
    """Save the forward program that computes ``fetch_vars`` from ``feed_vars``
    (``path_prefix.pdmodel``) and the persistable values it uses (``.pdiparams``)."""
    api = "save_inference_model"
    feed_vars, fetch_vars = _vars(feed_vars, api, "feed_vars"), _vars(fetch_vars, api, "fetch_vars")
    program = kwargs.get("program") or default_main_program()
    feed_names = [v.name for v in feed_vars]
    fetch_names = [v.name for v in fetch_vars]
    pruned = _pruned(program, feed_names, fetch_names)
    base = os.fspath(path_prefix)
    if os.path.dirname(base):
        os.makedirs(os.path.dirname(base), exist_ok=True)
    persist = [d for d in pruned.global_block().vars.values() if d.persistable]
    _save(_values(persist, global_scope(), api), base + ".pdiparams")
    plain = program_to_plain(pruned)
    plain["feed"], plain["fetch"] = feed_names, fetch_names
    _save(plain, base + ".pdmodel")


def load_inference_model(path_prefix, executor, **kwargs):
    """Load what :func:`save_inference_model` wrote: returns ``[program, feed names,
    fetch Variables]``; the parameters go into the global scope."""
    base = os.fspath(path_prefix)
    plain = _load(base + ".pdmodel", return_numpy=True)
    program = program_from_plain(plain)
    persist = [d for d in program.global_block().vars.values() if d.persistable]
    _set(global_scope(), persist, _load(base + ".pdiparams", return_numpy=True),
         base + ".pdiparams")
    fetch = [variable_of(program.global_block().vars[n]) for n in plain["fetch"]]
    return [program, list(plain["feed"]), fetch]
