"""CPU kernels that fuse passes, NumPy-level glue around the loops of ``_fused.pyx``:

- ``fused_linear_activation``: BLAS's GEMM through np.matmul (fewer instructions than np.dot
  for the seed's products, and the reference's rounding), then the bias and the activation
  in one pass (relu and sigmoid; 'none' adds the bias as the reference kernel does, and tanh
  is the reference kernel's);
- ``dropout``: the reference's uniform draws, then compare, mask and scale in one pass;
- ``sum`` down to a bias row or to channels, the reductions of the gradient rules' ``sum_to``.

Each function keeps the signature of the reference kernel it replaces and hands other cases
(float16, integers, mixed dtypes, shapes that fit no loop) to the kernel the engine used
before.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from dygrad._core.ops.nn import dropout_scale
from dygrad.kernels import KERNELS as _REF

from . import numpy_kernels
from ._fused import Activation, bias_activation_rows, dropout_flat, sum_outer_inner
from ._nn import relu_grad_flat
from .cpu_linalg import product

# the activations with a compiled pass; 'none' and 'tanh' are the reference kernel's NumPy
# passes (an in-place SIMD add, then SIMD tanh), which a compiled pass does not beat
_COMPILED = {"relu": Activation.RELU, "sigmoid": Activation.SIGMOID}


def fused_linear_activation(x, weight, bias, activation="none"):
    """activation(x @ weight + bias); the bias and the activation in one pass"""
    act = _COMPILED.get(activation)
    dt = x.dtype
    if ((act is None and activation != "none") or dt.char not in "fd" or weight.dtype != dt
            or bias.dtype != dt
            or x.ndim == 0 or weight.ndim != 2 or bias.ndim != 1
            or x.shape[-1] != weight.shape[0] or bias.shape[0] != weight.shape[1]):
        return _REF["fused_linear_activation"](x, weight, bias, activation)
    k, n = weight.shape
    x2 = x if x.ndim == 2 else x.reshape(math.prod(x.shape[:-1]), k)
    out = product(x2, weight)  # as the reference: the same GEMM (on one thread, the same rounding)
    if act is None:
        out += bias  # 'none': the reference's pass
    else:
        bias_activation_rows(out, bias, act)
    return out if x.ndim == 2 else out.reshape(x.shape[:-1] + (n,))


def dropout(x, p=0.5, training=True, mode="upscale_in_train", axis=None, *, rng):
    """(x * mask * scale, mask) with mask keeping each element with probability 1 - p"""
    if not (training and p > 0 and axis is None and x.dtype.char in "fd" and x.size):
        return _REF["dropout"](x, p, training, mode, axis, rng=rng)
    u = rng.random(x.size)  # the reference's draws: rng.random(x.shape), in C order
    out = np.empty(x.shape, x.dtype)
    mask = np.empty(x.shape, np.uint8)
    dropout_flat(u, np.ascontiguousarray(x), out, mask, p, dropout_scale(p, training, mode))
    return out, mask


@functools.lru_cache(maxsize=256)
def _sum_plan(shape, axis, keepdim):
    """(outer, chans, inner, out_shape) when ``axis`` (an int or a tuple of distinct ints in
    range, negative ones counted from the end) reduces every axis of ``shape`` but one
    contiguous run of them (a bias row: the leading axes; channels: all but axis 1), else
    None; reducing every axis is (1, 1, size). Cached: a training step asks for the same few
    shapes again and again."""
    ndim = len(shape)
    axes = (axis,) if type(axis) is int else axis
    if not axes or not all(type(a) is int and -ndim <= a < ndim for a in axes):
        return None
    axes = {a % ndim for a in axes}
    kept = [a for a in range(ndim) if a not in axes]
    if len(axes) != len(axis if type(axis) is tuple else (axis,)) or (
            kept and kept[-1] - kept[0] != len(kept) - 1):
        return None
    out_shape = tuple(1 if a in axes else d for a, d in enumerate(shape) if keepdim or a not in axes)
    if not kept:
        return 1, 1, math.prod(shape), out_shape
    return (math.prod(shape[:kept[0]]), math.prod(shape[kept[0]:kept[-1] + 1]),
            math.prod(shape[kept[-1] + 1:]), out_shape)


def sum_(x, axis=None, dtype=None, keepdim=False):
    """sum over axis; bool/int input sums to int64 unless dtype says otherwise"""
    if (dtype is None and type(axis) in (tuple, int) and x.dtype.char in "fd"
            and x.flags.c_contiguous):
        plan = _sum_plan(x.shape, axis, bool(keepdim))
        if plan is not None:
            out = np.empty(plan[3], x.dtype)
            sum_outer_inner(x, out, plan[0], plan[1], plan[2])
            return out
    return numpy_kernels.sum_(x, axis, dtype, keepdim)


KERNELS = {"fused_linear_activation": fused_linear_activation, "dropout": dropout, "sum": sum_}


def fused_linear_activation_grad(x, out, out_grad, activation="none"):
    """(weight_grad, bias_grad, z_grad) of activation(x @ weight + bias) from x, out, out_grad"""
    dt = x.dtype
    if (activation not in ("relu", "none") or dt.char not in "fd" or out.dtype != dt
            or out_grad.dtype != dt or x.ndim != 2 or out.shape != out_grad.shape
            or out.ndim != 2 or out.shape[0] != x.shape[0]):
        return _REF["fused_linear_activation_grad"](x, out, out_grad, activation)
    rows, n = out.shape
    if activation == "none":  # z_grad is out_grad: no pass, and no copy when contiguous
        gz = np.ascontiguousarray(out_grad)
    else:
        gz = np.empty(out.shape, dt)
        relu_grad_flat(np.ascontiguousarray(out).reshape(-1),
                       np.ascontiguousarray(out_grad).reshape(-1), gz.reshape(-1))
    gb = np.empty(n, dt)
    sum_outer_inner(gz, gb, rows, n, 1)  # the sum kernel's loop: the same bias gradient
    return product(x.T, gz), gb, gz  # np.matmul's GEMM: np.dot zero-fills the product first


KERNELS["fused_linear_activation_grad"] = fused_linear_activation_grad
