"""Write a PyTorch model's per-layer outputs and gradients in dygrad's recording format, so
``dygrad.debug.compare(model, inputs, recorded=path)`` can name the first layer where a
dygrad port of the model parts from the PyTorch original.

The format (see ``dygrad/debug/compare.py``): ``<path>.npz`` with ``out:<module path>:<i>``,
``grad:<module path>:<i>`` (the gradient of output i after a backward of ``loss(output)``,
default the sum of the outputs) and ``param_grad:<parameter name>``; ``<path>.json`` the
index. Module paths and parameter names are ``named_modules``/``named_parameters``' (``''``
for the model itself), which match a Paddle/dygrad model of the same structure. Note that
PyTorch's Linear stores its weight as [out, in] and Paddle's as [in, out]: copy weights with
a transpose when porting, and compare parameter gradients with that in mind.

Usage (in an environment with PyTorch; dygrad is not needed)::

    from record_torch import record
    record(torch_model, [x_numpy], "run")          # writes run.npz and run.json

A Paddle 2.x script records the same way with ``register_forward_post_hook`` and
``named_sublayers(include_self=True)`` (or runs dygrad.debug.record under dygrad itself).
"""

from __future__ import annotations

import json

import numpy as np


def record(model, inputs, path, loss=None):
    """Run ``model`` (a torch.nn.Module) on ``inputs`` (NumPy arrays) and write the recording."""
    import torch

    arrays, forward, backward, layers, calls = {}, [], [], {}, {}

    def tensors(out):
        if isinstance(out, torch.Tensor):
            return [out]
        if isinstance(out, (list, tuple)):
            return [t for x in out for t in tensors(x)]
        if isinstance(out, dict):
            return [t for x in out.values() for t in tensors(x)]
        return []

    def hook_for(name):
        def hook(module, _inputs, output):
            k = calls.get(name, 0)
            calls[name] = k + 1
            key = name if k == 0 else f"{name}#{k}"
            forward.append(key)
            layers[key] = type(module).__name__
            for i, t in enumerate(tensors(output)):
                arrays[f"out:{key}:{i}"] = t.detach().cpu().numpy().copy()
                if t.requires_grad:
                    t.register_hook(grad_hook(key, i))
        return hook

    def grad_hook(key, i):
        def hook(g):
            if key not in backward:
                backward.append(key)
            arrays[f"grad:{key}:{i}"] = g.detach().cpu().numpy().copy()
        return hook

    handles = [m.register_forward_hook(hook_for(name)) for name, m in model.named_modules()]
    try:
        model.zero_grad(set_to_none=True)
        outputs = model(*[torch.from_numpy(np.asarray(a)) for a in inputs])
        total = loss(outputs) if loss is not None else sum(t.sum() for t in tensors(outputs))
        total.backward()
    finally:
        for h in handles:
            h.remove()
    params = []
    for name, p in model.named_parameters():
        params.append(name)
        if p.grad is not None:
            arrays[f"param_grad:{name}"] = p.grad.cpu().numpy().copy()
    base = path[:-4] if path.endswith(".npz") else path
    np.savez(base + ".npz", **arrays)
    index = {"format": "dygrad-layer-recording", "version": 1, "framework": f"torch {torch.__version__}",
             "forward": forward, "backward": backward, "layers": layers, "params": params}
    with open(base + ".json", "w") as f:
        json.dump(index, f, indent=1)
    return base + ".npz"


if __name__ == "__main__":  # an example: a small MLP recorded to mlp_torch.npz / .json
    import torch
    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
    print(record(mlp, [np.random.default_rng(0).standard_normal((3, 4)).astype("float32")], "mlp_torch"))
