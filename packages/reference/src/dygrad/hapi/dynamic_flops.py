"""paddle.flops: count a network's floating-point operations in one forward pass.

Each leaf layer gets forward post hooks that add its operations to ``layer.total_ops``
(Paddle's counting rules: a multiply-add counts once), its parameter count and its shapes.
The rules are looked up by the layer type's name, so layer families that do not exist in
this build are simply never matched.
"""

from __future__ import annotations

import numpy as np

from .. import tensor as _api
from .._core.autograd import no_grad
from ..nn.layer import Layer

__all__ = ["flops"]


def _numel(x) -> int:
    return int(np.prod(x.shape))


def count_convNd(m, x, y):
    """Output elements x (input channels per group x kernel size + 1 for the bias)."""
    kernel_ops = int(np.prod(m.weight.shape[2:]))
    bias_ops = 1 if m.bias is not None else 0
    m.total_ops += abs(int(_numel(y) * (x[0].shape[1] / m._groups * kernel_ops + bias_ops)))


def count_leaky_relu(m, x, y):
    """One operation per element."""
    m.total_ops += _numel(x[0])


def count_bn(m, x, y):
    """Two operations per element (normalise, then scale and shift), in eval mode."""
    m.total_ops += 2 * _numel(x[0])


def count_linear(m, x, y):
    """in_features multiply-adds per output element."""
    m.total_ops += m.weight.shape[0] * _numel(y)


def count_avgpool(m, x, y):
    """One operation per output element."""
    m.total_ops += _numel(y)


def count_adap_avgpool(m, x, y):
    """(kernel size + 1) operations per output element, the kernel being in // out."""
    kernel = np.array(x[0].shape[2:]) // np.array(y.shape[2:])
    m.total_ops += abs(int((int(np.prod(kernel)) + 1) * _numel(y)))


def count_zero_ops(m, x, y):
    """No floating-point operations counted."""


_CONV = ("Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose")
REGISTER_HOOKS = {
    **{name: count_convNd for name in _CONV},
    "BatchNorm2D": count_bn, "BatchNorm": count_bn,
    "ReLU": count_zero_ops, "ReLU6": count_zero_ops, "Dropout": count_zero_ops,
    "LeakyReLU": count_leaky_relu,
    "Linear": count_linear,
    "AvgPool1D": count_avgpool, "AvgPool2D": count_avgpool, "AvgPool3D": count_avgpool,
    "AdaptiveAvgPool1D": count_adap_avgpool, "AdaptiveAvgPool2D": count_adap_avgpool,
    "AdaptiveAvgPool3D": count_adap_avgpool,
}


def _rule(layer_type):
    """The counting rule of a dygrad layer type, found by its class name."""
    if layer_type.__module__.split(".")[0] != "dygrad":
        return None
    return REGISTER_HOOKS.get(layer_type.__name__)


def _record_io(m, x, y):
    m.total_params = sum(_numel(p) for p in m.parameters())
    m.input_shape = list(x[0].shape)
    m.output_shape = list((y[0] if isinstance(y, (list, tuple)) else y).shape)


def _print_table(rows):
    heads = ["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"]
    widths = [max(len(str(c)) for c in column) for column in zip(heads, *rows)]
    shelf = "".join("+" + "-" * (w + 2) for w in widths) + "+"
    print(shelf)
    for i, row in enumerate([heads, *rows]):
        print("".join("|" + str(c).center(w + 2) for c, w in zip(row, widths)) + "|")
        if i == 0:
            print(shelf)
    print(shelf)


def flops(net, input_size, custom_ops=None, print_detail=False):
    """The FLOPs of one forward pass of ``net`` on a random input of ``input_size``.

    ``custom_ops`` maps a layer class to ``fn(layer, inputs, output)`` that adds the
    layer's count to ``layer.total_ops``; it takes precedence over the built-in rules
    (Conv*, BatchNorm, Linear, LeakyReLU, AvgPool*, AdaptiveAvgPool*; ReLU, ReLU6 and
    Dropout count zero; other layers count zero with a message). Prints the total (and
    with ``print_detail`` a table per leaf layer); returns the total as an int.
    """
    if not isinstance(net, Layer):
        raise TypeError(f"paddle.flops: net must be a paddle.nn.Layer, got "
                        f"{type(net).__name__} (static Programs are not supported)")
    custom_ops = custom_ops or {}
    leaves = [m for m in net.sublayers(include_self=True) if not list(m.children())]
    handles, seen = [], set()
    for m in leaves:
        m_type = type(m)
        fn = custom_ops.get(m_type) or _rule(m_type)
        if m_type not in seen:
            if m_type in custom_ops:
                print(f"Customize Function has been applied to {m_type}")
            elif fn is not None:
                print(f"{m_type}'s flops has been counted")
            else:
                print(f"Cannot find suitable count function for {m_type}. Treat it as zero "
                      f"FLOPs.")
            seen.add(m_type)
        m.total_ops = 0
        if fn is not None:
            handles.append(m.register_forward_post_hook(fn))
        handles.append(m.register_forward_post_hook(_record_io))
    training = net.training
    net.eval()
    try:
        with no_grad():
            net(_api.randn(list(input_size)))
    finally:
        if training:
            net.train()
        for h in handles:
            h.remove()
    rows = []
    for m in leaves:
        if hasattr(m, "input_shape"):
            rows.append([m.full_name(), m.input_shape, m.output_shape, m.total_params,
                         int(m.total_ops)])
            del m.input_shape, m.output_shape, m.total_params
        del m.total_ops
    total_ops = sum(r[4] for r in rows)
    total_params = sum(r[3] for r in rows)
    if print_detail:
        _print_table(rows)
    print(f"Total Flops: {total_ops}     Total Params: {total_params}")
    return total_ops
