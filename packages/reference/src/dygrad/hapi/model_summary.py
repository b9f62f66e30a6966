"""paddle.summary: a table of a network's layers with their shapes and parameter counts.

Forward post hooks on every layer (but containers) record each call's input and output
shapes while one forward pass runs on random inputs; the table and the size estimates
(input, activations times two for their gradients, parameters; 4 bytes a number) are
Paddle's.
"""

from __future__ import annotations

import numbers
from collections import OrderedDict

import numpy as np

from .. import tensor as _api
from .._core.autograd import no_grad
from .._core.tensor import Tensor
from ..nn.container import LayerList, Sequential

__all__ = ["summary"]


def _is_shape(shape) -> bool:
    return isinstance(shape, (list, tuple)) and all(isinstance(i, numbers.Number) or i is None
                                                     for i in shape)


def _check_shape(shape):
    """``shape`` with its one unknown (None or -1) dimension, the batch, set to 1."""
    if sum(1 for i in shape if i is None or i == -1) > 1:
        raise ValueError("Option input_size only the dim of batch_size can be None or -1.")
    for i in shape:
        if i is not None and i != -1 and i <= 0:
            raise ValueError(f"Expected element in input size greater than zero, but got {i}")
    return tuple(1 if i is None or i == -1 else int(i) for i in shape)


def _normalise_sizes(input_size, input):
    """input_size (a shape, an InputSpec, or a list of them) as a shape or list of shapes."""
    if input_size is None:
        if isinstance(input, Tensor):
            return tuple(input.shape)
        if isinstance(input, (list, tuple)):
            return [tuple(x.shape) for x in input]
        if isinstance(input, dict):
            return [tuple(x.shape) for x in input.values()]
        raise ValueError("Input is not tensor, list, tuple and dict, unable to determine "
                         "input_size, please input input_size.")
    if isinstance(input_size, int):
        return (input_size,)
    if hasattr(input_size, "shape") and not isinstance(input_size, (list, tuple)):
        return tuple(input_size.shape)
    if isinstance(input_size, list) and not _is_shape(input_size):
        sizes = []
        for item in input_size:
            if isinstance(item, int):
                item = (item,)
            elif hasattr(item, "shape") and not isinstance(item, (list, tuple)):
                item = tuple(item.shape)
            elif not isinstance(item, (list, tuple)):
                raise TypeError(f"paddle.summary: when input_size is a list, its items must "
                                f"be tuples or InputSpecs, got {type(item).__name__}")
            sizes.append(item)
        return sizes
    return input_size


def _check_input(input_size):
    if _is_shape(input_size):
        return _check_shape(input_size)
    return [_check_input(i) for i in input_size]


def summary(net, input_size=None, dtypes=None, input=None):
    """Print a table of ``net``'s layers (type and number, input and output shapes,
    parameters), the parameter totals and the memory estimates, from one forward pass on
    random inputs of ``input_size`` (a shape whose batch dimension may be None or -1, an
    InputSpec, or a list of them for several inputs; or give the inputs as ``input``).
    ``dtypes`` gives the inputs' dtypes (default float32).

    Returns {'total_params': n, 'trainable_params': m}.
    """
    if input_size is None and input is None:
        raise ValueError("input_size and input cannot be None at the same time")
    sizes = _check_input(_normalise_sizes(input_size, input))
    was_training = net.training
    if was_training:
        net.eval()
    try:
        text, params_info = summary_string(net, sizes, dtypes, input)
    finally:
        if was_training:
            net.train()
    print(text)
    return params_info


def _shape_of(x):
    if isinstance(x, (list, tuple)):
        return [_shape_of(i) for i in x]
    return list(x.shape) if hasattr(x, "shape") else []


def _layer_number(layer, fallback):
    try:
        return int(layer.full_name().split("_")[-1]) + 1
    except ValueError:
        return fallback + 1


def _build_dtypes(sizes, dtype):
    if _is_shape(sizes):
        return [dtype or "float32"]
    return [_build_dtypes(s, dtype) for s in sizes]


def _build_input(size, dtypes):
    if _is_shape(size):
        dtype = dtypes[0] if isinstance(dtypes, (list, tuple)) else dtypes
        return _api.cast(_api.rand(list(size)), dtype)
    return [_build_input(s, d) for s, d in zip(size, dtypes)]


def _record(table, layer, inputs, outputs):
    """The hook: one table row for this call of ``layer``."""
    key = f"{type(layer).__name__}-{_layer_number(layer, len(table))}"
    row = table[key] = {"input_shape": _shape_of(list(inputs)),
                        "output_shape": _shape_of(outputs)}
    params = list(layer._parameters.values())
    row["nb_params"] = int(sum(int(np.prod(p.shape)) for p in params if p is not None))
    row["trainable_params"] = int(sum(int(np.prod(p.shape)) for p in params
                                      if p is not None and p.trainable and not p.stop_gradient))


def _count_elements(shape):
    if _is_shape(shape):
        return int(np.prod(shape)) if shape else 0
    return sum(_count_elements(s) for s in shape)


@no_grad()
def summary_string(model, input_size=None, dtypes=None, input=None):
    """The text of the summary table and {'total_params', 'trainable_params'}."""
    if not isinstance(dtypes, (list, tuple)):
        dtypes = _build_dtypes(input_size, dtypes)
    if isinstance(input_size, tuple):
        input_size = [input_size]
    table = OrderedDict()
    depth = len(model.sublayers())
    hooks = []
    for layer in model.sublayers(include_self=True):
        if isinstance(layer, (Sequential, LayerList)) or (layer is model and depth >= 1):
            continue
        hooks.append(layer.register_forward_post_hook(
            lambda lyr, inputs, outputs: _record(table, lyr, inputs, outputs)))
    try:
        if input is not None:
            model(input)
        else:
            model(*_build_input(input_size, dtypes))
    finally:
        for h in hooks:
            h.remove()
    return _format_table(table, input_size)


def _format_table(table, input_size):
    widths = {"layer": 15, "input": 20, "output": 20, "params": 15}
    for key, row in table.items():
        widths["layer"] = max(widths["layer"], len(key))
        widths["input"] = max(widths["input"], len(str(row["input_shape"])))
        widths["output"] = max(widths["output"], len(str(row["output_shape"])))
        widths["params"] = max(widths["params"], len(str(row["nb_params"])))
    table_width = max(75, sum(widths.values()) + 5)

    def line(cells):
        return " ".join(f"{c:^{w}}" for c, w in zip(cells, widths.values())) + "\n"

    text = "-" * table_width + "\n"
    text += line(["Layer (type)", "Input Shape", "Output Shape", "Param #"])
    text += "=" * table_width + "\n"
    total_params = trainable_params = total_output = 0
    for key, row in table.items():
        text += line([key, str(row["input_shape"]), str(row["output_shape"]),
                      f"{row['nb_params']:,}"])
        total_params += row["nb_params"]
        trainable_params += row["trainable_params"]
        total_output += _count_elements(row["output_shape"])
    input_mb = _count_elements(input_size) * 4.0 / 1024 ** 2
    output_mb = 2.0 * total_output * 4.0 / 1024 ** 2  # x2 for the gradients
    params_mb = total_params * 4.0 / 1024 ** 2
    text += "=" * table_width + "\n"
    text += f"Total params: {total_params:,}\n"
    text += f"Trainable params: {trainable_params:,}\n"
    text += f"Non-trainable params: {total_params - trainable_params:,}\n"
    text += "-" * table_width + "\n"
    text += f"Input size (MB): {input_mb:0.2f}\n"
    text += f"Forward/backward pass size (MB): {output_mb:0.2f}\n"
    text += f"Params size (MB): {params_mb:0.2f}\n"
    text += f"Estimated Total Size (MB): {input_mb + output_mb + params_mb:0.2f}\n"
    text += "-" * table_width + "\n"
    return text, {"total_params": total_params, "trainable_params": trainable_params}
