"""CPU kernels of the norm family: NumPy-level glue around ``_norm.pyx``.

Batch norm and layer norm, forward and backward. Inputs are checked by the op's row, as
the reference kernels do (the compiled loops trust the shapes); float16 is computed in
float32 and rounded back; an empty x, or an out_grad of another dtype, goes to the
reference kernel.
"""

from __future__ import annotations

import math

import numpy as np

from dygrad._core.ops.norm import channel_axis, uses_global_stats
from dygrad.kernels import KERNELS as _REF
from dygrad.kernels.norm import _validate

from . import _norm


def _work(dtype):
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def _blocks(x, c, work):
    """x as a C-contiguous [outer, channels, inner] array of dtype ``work``."""
    shape = (math.prod(x.shape[:c]), x.shape[c], math.prod(x.shape[c + 1:]))
    return np.ascontiguousarray(x, dtype=work).reshape(shape)


def _vectors(work, *vs):
    return [np.ascontiguousarray(v, dtype=work) for v in vs]


def batch_norm(x, running_mean, running_var, weight, bias, momentum=0.9, epsilon=1e-5,
               training=False, data_format="NCHW", use_global_stats=None):
    """per-channel (x - mean) / sqrt(var + epsilon) * weight + bias; new running stats"""
    _validate("batch_norm", x, running_mean, running_var, weight, bias, data_format=data_format)
    if x.size == 0:
        return _REF["batch_norm"](x, running_mean, running_var, weight, bias, momentum, epsilon,
                                  training, data_format, use_global_stats)
    work = _work(x.dtype)
    x3 = _blocks(x, channel_axis("batch_norm", data_format, x.ndim), work)
    out = np.empty_like(x3)
    stats = [np.empty(x3.shape[1], work) for _ in range(4)]
    _norm.batch_norm(x3, out, *_vectors(work, running_mean, running_var, weight, bias), *stats,
                     momentum, epsilon, uses_global_stats(training, use_global_stats))
    return (out.reshape(x.shape).astype(x.dtype, copy=False),
            *(s.astype(x.dtype, copy=False) for s in stats))


def batch_norm_grad(x, weight, saved_mean, saved_inv_std, out_grad, data_format="NCHW",
                    use_global_stats=False):
    """closed-form dx, dweight, dbias of batch_norm"""
    _validate("batch_norm_grad", x, weight, saved_mean, saved_inv_std, out_grad,
              data_format=data_format)
    if out_grad.dtype != x.dtype or x.size == 0:
        return _REF["batch_norm_grad"](x, weight, saved_mean, saved_inv_std, out_grad,
                                       data_format, use_global_stats)
    work, c = _work(x.dtype), channel_axis("batch_norm_grad", data_format, x.ndim)
    x3, g3 = _blocks(x, c, work), _blocks(out_grad, c, work)
    dx, dw, db = np.empty_like(x3), np.empty(x3.shape[1], work), np.empty(x3.shape[1], work)
    _norm.batch_norm_grad(x3, *_vectors(work, weight, saved_mean, saved_inv_std), g3, dx, dw,
                          db, bool(use_global_stats))
    return (dx.reshape(x.shape).astype(x.dtype, copy=False), dw.astype(x.dtype, copy=False),
            db.astype(x.dtype, copy=False))


def _rows(x, begin_norm_axis, work):
    """x as a C-contiguous matrix of dtype ``work``: one row per leading position."""
    return np.ascontiguousarray(x, dtype=work).reshape(math.prod(x.shape[:begin_norm_axis]), -1)


def layer_norm(x, weight, bias, epsilon=1e-5, begin_norm_axis=1):
    """(x - mean) / sqrt(var + epsilon) * weight + bias over the trailing dimensions"""
    _validate("layer_norm", x, weight, bias, begin_norm_axis=begin_norm_axis)
    if x.size == 0:
        return _REF["layer_norm"](x, weight, bias, epsilon, begin_norm_axis)
    work = _work(x.dtype)
    x2 = _rows(x, begin_norm_axis, work)
    out, mean, var = np.empty_like(x2), np.empty(x2.shape[0], work), np.empty(x2.shape[0], work)
    _norm.layer_norm(x2, *_vectors(work, weight, bias), out, mean, var, epsilon)
    return (out.reshape(x.shape).astype(x.dtype, copy=False), mean.astype(x.dtype, copy=False),
            var.astype(x.dtype, copy=False))


def layer_norm_grad(x, weight, mean, variance, out_grad, epsilon=1e-5, begin_norm_axis=1):
    """closed-form dx, dweight, dbias of layer_norm"""
    _validate("layer_norm_grad", x, weight, mean, variance, out_grad,
              begin_norm_axis=begin_norm_axis)
    if out_grad.dtype != x.dtype or x.size == 0:
        return _REF["layer_norm_grad"](x, weight, mean, variance, out_grad, epsilon,
                                       begin_norm_axis)
    work = _work(x.dtype)
    x2, g2 = _rows(x, begin_norm_axis, work), _rows(out_grad, begin_norm_axis, work)
    dx, dw, db = np.empty_like(x2), np.empty(x2.shape[1], work), np.empty(x2.shape[1], work)
    _norm.layer_norm_grad(x2, *_vectors(work, weight, mean, variance), g2, dx, dw, db,
                          np.empty(x2.shape[0]), epsilon)
    return (dx.reshape(x.shape).astype(x.dtype, copy=False), dw.astype(x.dtype, copy=False),
            db.astype(x.dtype, copy=False))


KERNELS = {"batch_norm": batch_norm, "batch_norm_grad": batch_norm_grad,
           "layer_norm": layer_norm, "layer_norm_grad": layer_norm_grad}
