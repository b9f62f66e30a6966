"""CPU kernels of the nn family (activations, softmax, dropout, embedding): NumPy-level glue
around the compiled loops of ``_nn.pyx``.

Every ``cpu_<family>.py`` module is built the same way: each function keeps the signature of
the reference kernel it replaces (the conformance suite checks this), hands the compiled
loop C-contiguous float32/float64 data, and is listed in the module's ``KERNELS``.
"""

from __future__ import annotations

import numpy as np

from ._nn import softmax_rows


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


KERNELS = {"softmax": softmax, "log_softmax": log_softmax}
