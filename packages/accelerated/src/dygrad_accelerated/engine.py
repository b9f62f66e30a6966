"""The accelerated engine: dygrad's op table with Cython and NumPy kernels.

``KERNELS`` starts from the reference engine's kernels and replaces those this package
computes itself; ``SOURCES`` records where each op's kernel comes from ('cython', 'numpy'
or 'reference'), so nothing falls back silently (``python -m dygrad_accelerated.coverage``).
"""

from __future__ import annotations

from dygrad._core.engine import Engine
from dygrad._core.optable import TABLE
from dygrad.kernels import KERNELS as REFERENCE_KERNELS

from . import cpu_conv, cpu_loss, cpu_nn, cpu_norm, cpu_optimizer, fastpath, numpy_kernels

CYTHON = {**cpu_nn.KERNELS, **cpu_conv.KERNELS, **cpu_loss.KERNELS, **cpu_norm.KERNELS,
          **cpu_optimizer.KERNELS}


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


class AcceleratedEngine(Engine):
    """Compiled kernels on the CPU."""

    name = "accelerated"
    kernels = KERNELS

    @property
    def fast_paths(self):
        return fastpath.fast_paths(self)

    def set_num_threads(self, n: int) -> None:
        fastpath.set_num_threads(n)

    def kernel_source(self, op_name: str) -> str:
        return SOURCES[op_name]
