"""Engine-diff: run a model layer by layer and name the first layer where two runs part.

A run records, through forward post-hooks on every sublayer, each Layer's outputs (in
the order the Layers finish), then after a backward of ``loss(outputs)`` (default: the sum
of every output) the gradient of each Layer's outputs (in the order backward reaches
them) and each parameter's gradient. Two runs are compared in that order.

The recording format (``record``): ``<path>.npz`` holds NumPy arrays under the keys
``out:<layer path>:<i>`` (output ``i`` of the Layer), ``grad:<layer path>:<i>`` (the
gradient of that output) and ``param_grad:<parameter name>``; ``<path>.json`` is the index
``{"format": "dygrad-layer-recording", "version": 1, "framework": ..., "forward": [layer
paths in the order they finished], "backward": [layer paths in the order their gradients
arrived], "layers": {layer path: type name}, "params": [parameter names]}``. Layer paths
are the structured names of ``named_sublayers`` (``''`` for the model itself, ``'0'``,
``'block.fc'``), parameter names those of ``named_parameters`` (``'block.fc.weight'``):
PyTorch's ``named_modules``/``named_parameters`` give the same for the same structure, so
a PyTorch or Paddle script can write a recording to compare against (tools/record_torch.py).
A Layer called several times is recorded as ``path``, ``path#1``, ...
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

import numpy as np

from .._core import engine as _engine
from .._core.creation import to_tensor
from .._core.tensor import Tensor

FORMAT = "dygrad-layer-recording"


@dataclass
class Run:
    """What one run of a model recorded (see the module docstring)."""

    arrays: dict = field(default_factory=dict)
    forward: list = field(default_factory=list)
    backward: list = field(default_factory=list)
    layers: dict = field(default_factory=dict)
    params: list = field(default_factory=list)


def _tensors(out):
    if isinstance(out, Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for x in out for t in _tensors(x)]
    if isinstance(out, dict):
        return [t for x in out.values() for t in _tensors(x)]
    return []


def _run(model, inputs, loss=None) -> Run:
    run = Run()
    calls = {}

    def hook_for(path):
        def hook(layer, _inputs, outputs):
            k = calls.get(path, 0)
            calls[path] = k + 1
            key = path if k == 0 else f"{path}#{k}"
            run.forward.append(key)
            run.layers[key] = type(layer).__name__
            for i, t in enumerate(_tensors(outputs)):
                run.arrays[f"out:{key}:{i}"] = t.numpy().copy()
                if not t.stop_gradient:
                    t.register_hook(grad_hook(key, i))
        return hook

    def grad_hook(key, i):
        def hook(g):
            if key not in run.backward:
                run.backward.append(key)
            run.arrays[f"grad:{key}:{i}"] = g.numpy().copy()
        return hook

    handles = [layer.register_forward_post_hook(hook_for(path))
               for path, layer in model.named_sublayers(include_self=True)]
    try:
        params = list(model.named_parameters())
        for _, p in params:
            p.clear_gradient(False)
        outputs = model(*[to_tensor(a) for a in inputs])
        if loss is not None:
            total = loss(outputs)
        else:
            total = None
            for t in _tensors(outputs):
                total = t.sum() if total is None else total + t.sum()
        if total is not None and not total.stop_gradient:
            total.backward()
        for name, p in params:
            run.params.append(name)
            if p.grad is not None:
                run.arrays[f"param_grad:{name}"] = p.grad.numpy().copy()
                p.clear_gradient(False)
    finally:
        for h in handles:
            h.remove()
    return run


def _arrays(inputs):
    if isinstance(inputs, (Tensor, np.ndarray)):
        inputs = [inputs]
    return [t.numpy() if isinstance(t, Tensor) else np.asarray(t) for t in inputs]


def record(model, inputs, path, loss=None) -> str:
    """Run ``model`` on ``inputs`` (on the current engine) and write the recording to
    ``path`` (``.npz`` added) with its JSON index beside it; returns the ``.npz`` path."""
    run = _run(model, _arrays(inputs), loss)
    base = path[:-4] if path.endswith(".npz") else path
    np.savez(base + ".npz", **run.arrays)
    index = {"format": FORMAT, "version": 1, "framework": f"dygrad ({_engine.get_engine()} engine)",
             "forward": run.forward, "backward": run.backward, "layers": run.layers,
             "params": run.params}
    with open(base + ".json", "w") as f:
        json.dump(index, f, indent=1)
    return base + ".npz"


def load_recording(path) -> Run:
    """A recording written by :func:`record` (or by another framework in its format)."""
    base = path[:-4] if path.endswith(".npz") else path
    with open(base + ".json") as f:
        index = json.load(f)
    if index.get("format") != FORMAT:
        raise ValueError(f"load_recording: {base}.json is not a {FORMAT} index "
                         f"(format {index.get('format')!r})")
    with np.load(base + ".npz") as z:
        arrays = {k: z[k] for k in z.files}
    return Run(arrays, index["forward"], index["backward"], index.get("layers", {}),
               index.get("params", []))


@dataclass
class Difference:
    """Where two runs disagree: ``kind`` is 'output', 'grad' (of the Layer's output) or
    'param_grad'; ``layer`` the layer path (or the parameter name)."""

    kind: str
    layer: str
    index: int | None
    max_abs: float
    shapes: tuple
    layer_type: str | None = None

    def __str__(self):
        what = {"output": "output", "grad": "gradient of output", "param_grad": "gradient"}[self.kind]
        where = f"parameter {self.layer}" if self.kind == "param_grad" else (
            f"layer {self.layer or '<model>'}" + (f" ({self.layer_type})" if self.layer_type else ""))
        idx = f" {self.index}" if self.index is not None else ""
        a, b = (list(x) for x in self.shapes)
        if a != b:
            hint = " (transposed: a weight stored [out, in], as PyTorch's Linear?)" if a == b[::-1] else ""
            return f"{where}: {what}{idx} has shapes {a} and {b}{hint}"
        return f"{where}: {what}{idx} differs by up to {self.max_abs:.3g}"


@dataclass
class Comparison:
    """The result of :func:`compare`: every difference in run order (forward outputs,
    then gradients in backward order, then parameter gradients); ``first`` names the
    first; ``missing`` lists what only one run recorded."""

    names: tuple
    differences: list
    missing: list
    checked: int

    @property
    def first(self):
        return self.differences[0] if self.differences else None

    @property
    def ok(self) -> bool:
        return not self.differences

    def __str__(self):
        a, b = self.names
        if self.ok:
            head = f"{a} and {b} agree on all {self.checked} recorded arrays"
        else:
            head = (f"{a} and {b} first differ at {self.first}; "
                    f"{len(self.differences)} of {self.checked} arrays differ")
        return "\n".join([head, *(f"  {d}" for d in self.differences[1:10])]
                         + ([f"  only in one run: {', '.join(self.missing[:10])}"] if self.missing else []))


def _keys(run: Run):
    for layer in run.forward:
        i = 0
        while f"out:{layer}:{i}" in run.arrays:
            yield "output", layer, i, f"out:{layer}:{i}"
            i += 1
    for layer in run.backward:
        keys = [k for k in run.arrays if k.startswith(f"grad:{layer}:")]
        for k in sorted(keys, key=lambda k: int(k.rsplit(":", 1)[1])):
            yield "grad", layer, int(k.rsplit(":", 1)[1]), k
    for name in run.params:
        if f"param_grad:{name}" in run.arrays:
            yield "param_grad", name, None, f"param_grad:{name}"


def _diff(a: Run, b: Run, names, rtol, atol) -> Comparison:
    diffs, missing, checked = [], [], 0
    for kind, layer, i, key in _keys(a):
        if key not in b.arrays:
            missing.append(key)
            continue
        x, y = a.arrays[key], b.arrays[key]
        checked += 1
        if x.shape != y.shape:
            diffs.append(Difference(kind, layer, i, float("inf"), (x.shape, y.shape), a.layers.get(layer)))
        elif not np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True):
            err = float(np.max(np.abs(x.astype(np.float64) - y.astype(np.float64))))
            diffs.append(Difference(kind, layer, i, err, (x.shape, y.shape), a.layers.get(layer)))
    missing += [k for k in b.arrays if k not in a.arrays]
    return Comparison(names, diffs, missing, checked)


def compare(model, inputs, engines=("reference", "accelerated"), rtol=1e-5, atol=1e-6,
            loss=None, recorded=None) -> Comparison:
    """Run ``model`` on ``inputs`` on each of two engines from the same parameters (or
    on the current engine against the recording at ``recorded``) and compare, layer by
    layer, the outputs and then the gradients after a backward of ``loss(outputs)``
    (default: the sum of the outputs). ``result.first`` names the first difference."""
    arrays = _arrays(inputs)
    state = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    before = _engine.get_engine()
    try:
        if recorded is not None:
            return _diff(_run(model, arrays, loss), load_recording(recorded),
                         (f"dygrad ({before})", f"recording {os.path.basename(str(recorded))}"),
                         rtol, atol)
        if len(engines) != 2:
            raise ValueError(f"compare: engines must name two engines, got {engines!r}")
        runs = []
        for name in engines:
            _engine.set_engine(name)
            model.set_state_dict(state)
            runs.append(_run(model, arrays, loss))
        return _diff(runs[0], runs[1], tuple(engines), rtol, atol)
    finally:
        _engine.set_engine(before)
        model.set_state_dict(state)
