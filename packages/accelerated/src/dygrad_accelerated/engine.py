"""The accelerated engine: dygrad's op table with Cython and NumPy kernels.

``KERNELS`` starts from the reference engine's kernels and replaces those this package
computes itself; ``SOURCES`` records where each op's kernel comes from ('cython', 'numpy'
or 'reference'), so nothing falls back silently (``python -m dygrad_accelerated.coverage``).
"""

from __future__ import annotations

import ctypes

from dygrad._core import dispatch
from dygrad._core.engine import Engine
from dygrad._core.optable import TABLE
from dygrad.kernels import KERNELS as REFERENCE_KERNELS

from . import (
    cpu_conv,
    cpu_elementwise,
    cpu_fused,
    cpu_linalg,
    cpu_loss,
    cpu_nn,
    cpu_norm,
    cpu_optimizer,
    fastpath,
    numpy_kernels,
)
from .gpu import CudaPlacement

CYTHON = {**cpu_nn.KERNELS, **cpu_conv.KERNELS, **cpu_loss.KERNELS, **cpu_norm.KERNELS,
          **cpu_optimizer.KERNELS, **cpu_elementwise.KERNELS, **cpu_fused.KERNELS,
          **cpu_linalg.KERNELS}


def _build():
    kernels, sources = {}, {}
    for name in TABLE:
        if name in CYTHON:
            kernels[name], sources[name] = CYTHON[name], "cython"
        elif name in numpy_kernels.KERNELS:
            kernels[name], sources[name] = numpy_kernels.KERNELS[name], "numpy"
        else:
            kernels[name], sources[name] = REFERENCE_KERNELS[name], "reference"
    return kernels, sources


KERNELS, SOURCES = _build()


def _keep_freed_memory():
    """Keep freed blocks in the heap: glibc's malloc otherwise maps every large array afresh and
    hands it back when freed, so each training step page-faults on all its activations and
    gradients (a fifth of a LeNet step). Elsewhere than glibc this does nothing."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, TypeError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_mmap_threshold, 32 << 20)       # glibc's largest: blocks below it come from the heap
    mallopt(m_trim_threshold, 1 << 30)        # and the heap is not trimmed below a GiB free


_keep_freed_memory()


class AcceleratedEngine(CudaPlacement, Engine):
    """Compiled kernels on the CPU; CuPy on CUDA devices (``gpu.CudaPlacement``)."""

    name = "accelerated"
    kernels = KERNELS
    matmul_outer = True  # cpu_linalg's _thin: an outer-product loop (2.9 us for [64, 256],
    # where the reference's broadcast multiply takes 7)

    @property
    def fast_paths(self):
        """The compiled dispatch and backward walk; none while a debugging mode is on
        (anomaly detection and the profiler read the reference walk's frames and timings)."""
        if dispatch.debug_hook() is not None:
            return {}
        return fastpath.fast_paths(self)

    def set_num_threads(self, n: int) -> None:
        fastpath.set_num_threads(n)

    def kernel_source(self, op_name: str) -> str:
        return SOURCES[op_name]
