"""Saving and loading in Paddle 1.x's dygraph forms.

- ``save_dygraph(state_dict, model_path)`` / ``load_dygraph(model_path)``: one file
  ``model_path + '.pdparams'`` (a Layer's state dict) or ``'.pdopt'`` (an optimizer's), in
  the layout :func:`dygrad.save` writes; ``load_dygraph`` returns (parameters, optimizer
  state or None) as dicts of NumPy arrays.
- ``save_persistables(vardict, dirname)`` / ``load_persistables(vardict, dirname)`` (Paddle
  1.4): one file per variable, named after the variable (``var.name``), in ``dirname``;
  ``load_persistables`` returns {key: Variable} for the keys of ``vardict``, which
  ``Layer.load_dict`` takes. With ``filename`` every variable goes into that one file.
"""

from __future__ import annotations

import os
from collections import OrderedDict

from ..._core.tensor import Parameter, Tensor
from ...framework import load, save

__all__ = ["save_dygraph", "load_dygraph", "save_persistables", "load_persistables"]


def save_dygraph(state_dict, model_path):
    """Write ``state_dict`` to ``model_path + '.pdparams'`` (all values Parameters) or
    ``'.pdopt'`` (an optimizer's state)."""
    if not os.path.basename(model_path):
        raise ValueError(f"save_dygraph: model_path must be 'dirname/file_prefix', got "
                         f"{model_path!r} (the file prefix is empty)")
    if not state_dict:
        raise ValueError("save_dygraph: state_dict is empty, nothing to save")
    params = all(isinstance(v, Parameter) for v in state_dict.values())
    save(state_dict, model_path + (".pdparams" if params else ".pdopt"))


def load_dygraph(model_path, keep_name_table=False):
    """(parameters, optimizer state) read from ``model_path + '.pdparams'`` and
    ``'.pdopt'`` (None when that file does not exist), as dicts of NumPy arrays."""
    params_path, opt_path = model_path + ".pdparams", model_path + ".pdopt"
    if not os.path.exists(params_path):
        raise RuntimeError(f"load_dygraph: parameter file [ {params_path} ] does not exist")
    params = load(params_path, return_numpy=True, keep_name_table=keep_name_table)
    opt = (load(opt_path, return_numpy=True, keep_name_table=keep_name_table)
           if os.path.exists(opt_path) else None)
    return params, opt


def _check_vardict(vardict, api):
    if not isinstance(vardict, dict):
        raise TypeError(f"{api}: vardict must be a dict of Variables (e.g. "
                        f"layer.state_dict()), got {type(vardict).__name__}")
    for key, var in vardict.items():
        if not isinstance(var, Tensor):
            raise TypeError(f"{api}: vardict[{key!r}] must be a Variable, got "
                            f"{type(var).__name__}")


def save_persistables(vardict, dirname="save_dir", filename=None):
    """Write each Variable of ``vardict`` to ``dirname/<its name>`` (or all of them, by
    name, to ``dirname/filename``)."""
    _check_vardict(vardict, "save_persistables")
    if filename is not None:
        save({var.name: var.numpy() for var in vardict.values()},
             os.path.join(dirname, filename))
        return
    for var in vardict.values():
        save(var, os.path.join(dirname, var.name))


def load_persistables(vardict, dirname="save_dir", filename=None):
    """{key: Variable} for every key of ``vardict``, read from the file that
    :func:`save_persistables` wrote for a variable of that name."""
    _check_vardict(vardict, "load_persistables")
    path = dirname if filename is None else os.path.join(dirname, filename)
    if not os.path.exists(path):
        raise RuntimeError(f"load_persistables: {path} does not exist")
    if filename is not None:
        arrays = load(path, return_numpy=True)
        missing = [v.name for v in vardict.values() if v.name not in arrays]
        if missing:
            raise RuntimeError(f"load_persistables: {path} holds no variable named {missing}")
        return OrderedDict((k, Tensor(arrays[v.name])) for k, v in vardict.items())
    out = OrderedDict()
    for key, var in vardict.items():
        file = os.path.join(dirname, var.name)
        if not os.path.exists(file):
            raise RuntimeError(f"load_persistables: no file {file} for variable {var.name!r}")
        out[key] = load(file)
    return out
