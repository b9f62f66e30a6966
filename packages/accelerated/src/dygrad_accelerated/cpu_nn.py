"""CPU kernels of the nn family (activations, softmax, dropout, embedding): NumPy-level glue
around the compiled loops of ``_nn.pyx``.

Every ``cpu_<family>.py`` module is built the same way: each function keeps the signature of
the reference kernel it replaces (the conformance suite checks this), hands the compiled
loop C-contiguous float32/float64 data, and is listed in the module's ``KERNELS``.
"""

from __future__ import annotations

import numpy as np

from dygrad.kernels import KERNELS as _REF
from dygrad.kernels.nn import _ids

from ._nn import embedding_grad_rows, relu_array, relu_flat, relu_grad_array, relu_grad_flat, softmax_rows


def _flat(a, work):
    """a as a C-contiguous vector of dtype ``work``."""
    return np.ascontiguousarray(a, dtype=work).reshape(-1)


def _work(dtype):
    """The dtype the compiled loops use for ``dtype`` (float16 in float32), or None."""
    return {"e": np.float32, "f": np.float32, "d": np.float64}.get(dtype.char)


def relu(x):
    """max(x, 0)"""
    out = relu_array(x)  # a C-contiguous float32/float64 array: one call
    if out is not None:
        return out
    work = _work(x.dtype)
    if work is None:
        return _REF["relu"](x)
    out = np.empty(x.shape, work)
    relu_flat(_flat(x, work), out.reshape(-1))
    return out.astype(x.dtype, copy=False)


def relu_grad(out, out_grad):
    """out_grad where out > 0, else 0"""
    dx = relu_grad_array(out, out_grad)  # C-contiguous float32/float64 arrays: one call
    if dx is not None:
        return dx
    work = _work(out_grad.dtype)
    if work is None or out.dtype != out_grad.dtype or out.shape != out_grad.shape:
        return _REF["relu_grad"](out, out_grad)
    dx = np.empty(out.shape, work)
    relu_grad_flat(_flat(out, work), _flat(out_grad, work), dx.reshape(-1))
    return dx.astype(out_grad.dtype, copy=False)


def embedding_grad(x, out_grad, num_embeddings=0, padding_idx=None):
    """zeros [num_embeddings, dim] with out_grad's rows added at the ids x"""
    work = _work(out_grad.dtype)
    if work is None or out_grad.ndim != x.ndim + 1:
        return _REF["embedding_grad"](x, out_grad, num_embeddings, padding_idx)
    ids = _flat(_ids(x, num_embeddings), np.int64)
    out = np.zeros((num_embeddings, out_grad.shape[-1]), work)
    g = np.ascontiguousarray(out_grad, dtype=work).reshape(ids.size, out.shape[1])
    embedding_grad_rows(ids, g, out)
    if padding_idx is not None:
        out[padding_idx] = 0
    return out.astype(out_grad.dtype, copy=False)


def _along_last_axis(x, axis, take_log):
    """Softmax or log_softmax along ``axis``: that axis is moved last (a copy when it is
    not), float16 is computed in float32 and rounded back."""
    if x.ndim == 0 or x.size == 0:  # one element (softmax 1, log_softmax 0), or nothing
        return np.zeros_like(x) if take_log else np.ones_like(x)
    work = x.astype(np.float32) if x.dtype == np.float16 else x
    moved = np.moveaxis(work, axis, -1)
    rows = np.ascontiguousarray(moved).reshape(-1, moved.shape[-1])
    out = np.empty_like(rows)
    softmax_rows(rows, out, take_log)
    out = np.moveaxis(out.reshape(moved.shape), -1, axis)
    return out.astype(x.dtype) if x.dtype == np.float16 else np.ascontiguousarray(out)


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along axis"""
    return _along_last_axis(x, axis, False)


def log_softmax(x, axis=-1):
    """x - log(sum(exp(x))) along axis"""
    return _along_last_axis(x, axis, True)


KERNELS = {"softmax": softmax, "log_softmax": log_softmax, "relu": relu, "relu_grad": relu_grad,
           "embedding_grad": embedding_grad}
