"""CPU kernel of matmul: NumPy's (BLAS) but for small float32 products with few output
columns, which ``_linalg.pyx`` computes with AVX2 vectors where the CPU has them."""

from __future__ import annotations

import numpy as np

from . import numpy_kernels
from ._linalg import have_skinny, sgemm_skinny

# the products _linalg takes: float32, n a multiple of 8 up to this, m * k * n up to
# SKINNY_MAX_MACS multiply-adds (above it BLAS's packing and blocking pay for themselves)
SKINNY_MAX_N = 64
SKINNY_MAX_MACS = 1 << 20
_SKINNY = have_skinny()


def matmul(x, y, transpose_x=False, transpose_y=False):
    """op(x) @ op(y) with Paddle's 1-D rules (small float32 products with few columns in a
    compiled AVX2 loop)"""
    if (_SKINNY and x.ndim == 2 and y.ndim == 2 and x.dtype == np.float32
            and y.dtype == np.float32):
        a, b = (x.T if transpose_x else x), (y.T if transpose_y else y)
        m, k = a.shape
        n = b.shape[1]
        if (b.shape[0] == k and n % 8 == 0 and 0 < n <= SKINNY_MAX_N and m * k * n <= SKINNY_MAX_MACS
                and m > 0 and k > 0 and a.strides[0] % 4 == 0 and a.strides[1] % 4 == 0):
            out = np.empty((m, n), np.float32)
            sgemm_skinny(a, np.ascontiguousarray(b), out)
            return out
    return numpy_kernels.matmul(x, y, transpose_x, transpose_y)


KERNELS = {"matmul": matmul}
