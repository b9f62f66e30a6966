"""CPU kernel of matmul: NumPy's (BLAS) but for small float32 products with few output
columns, which ``_linalg.pyx`` computes with AVX2 vectors where the CPU has them, and
``product`` (``_linalg.product``), the 2-D product of the kernels that multiply matrices
(matmul, the linear layer's forward and gradient): NumPy's own cblas_?gemm called from
compiled code, without np.matmul's Python-level machinery; with several threads, one too
small for BLAS's own threads but big enough to share is cut into pieces that ``_linalg``'s
pool of threads takes in turn, each piece a single-threaded call (``threads.py`` says why).
What it declines is ``_other_product``'s."""

from __future__ import annotations

import ctypes
import os

import numpy as np

from . import numpy_kernels, threads
from ._linalg import configure, gemm, have_skinny, outer, product, set_gemm, sgemm_skinny

# the products _linalg takes: float32, n a multiple of 8 up to this, m * k * n up to
# SKINNY_MAX_MACS multiply-adds (above it BLAS's packing and blocking pay for themselves)
SKINNY_MAX_N = 64
SKINNY_MAX_MACS = 1 << 20
_SKINNY = have_skinny()
# products of at least this many multiply-adds are shared among the threads (below
# threads.BLAS_MIN_MACS, where BLAS's own threads take over)
SPLIT_MIN_MACS = 1 << 18
PIECES_PER_THREAD = 2


def _numpy_gemm():
    """(cblas_sgemm, cblas_dgemm, ilp64) of the BLAS that NumPy calls, their addresses 0 when
    it cannot be told: the OpenBLAS in NumPy's wheel (or the only BLAS loaded), its symbols
    named as threadpoolctl names them. Integers of 64 bits where the names say so (a suffix
    with 64); a BLAS that NumPy's build says has them under names that do not is refused."""
    from threadpoolctl import ThreadpoolController
    try:
        built = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        says_ilp64 = "USE64BITINT" in built.get("openblas configuration", "")
    except Exception:  # NumPy before 1.25: no such report
        says_ilp64 = False
    libs = ThreadpoolController().select(user_api="blas").lib_controllers
    own = os.path.dirname(os.path.dirname(np.__file__))
    mine = [c for c in libs if os.path.realpath(c.filepath).startswith(
        (os.path.join(own, "numpy.libs"), os.path.join(own, "numpy") + os.sep))]
    if len(mine) != 1 and len(libs) != 1:
        return 0, 0, False
    lib = (mine or libs)[0]
    prefix, suffix = getattr(lib, "_symbol_prefix", ""), getattr(lib, "_symbol_suffix", "")
    try:
        dll = ctypes.CDLL(lib.filepath)
        fns = [getattr(dll, f"{prefix}cblas_{t}gemm{suffix}") for t in "sd"]
    except (OSError, AttributeError):
        return 0, 0, False
    if says_ilp64 and "64" not in suffix:
        return 0, 0, False
    return (*(ctypes.cast(f, ctypes.c_void_p).value for f in fns), "64" in suffix)


_GEMM = _numpy_gemm()
set_gemm(*_GEMM)


def _thin(a, b, m, k, n):
    """a @ b when one of its sizes is 1, without the gemm that packs both operands first (a
    W2 step's [64, 256] x [256, 1] took 5.6 us so, where a gemv takes 2): a vector product
    (BLAS's gemv) when m or n is 1, an outer product (one multiplication each) when k is 1;
    None for other products"""
    if n == 1:
        return np.dot(a, b[:, 0]).reshape(m, 1)
    if m == 1:
        return np.dot(a[0], b).reshape(1, n)
    if k == 1 and a.strides[0] % a.itemsize == 0 and b.flags.c_contiguous:
        out = np.empty((m, n), a.dtype)
        outer(a, b, out)
        return out
    return None


def _other_product(a, b):
    """a @ b for what ``product`` (``_linalg._gemm``) declines: products with a size of 1
    (``_thin``); BLAS put on one thread first for a product below BLAS_MIN_MACS, then
    ``_linalg.gemm`` again; else ``numpy_kernels.matmul``'s"""
    m, k = a.shape
    n = b.shape[1]
    if a.dtype == b.dtype and a.dtype.char in "fd" and b.shape[0] == k and m and n and k:
        out = _thin(a, b, m, k, n)
        if out is not None:
            return out
    threads.blas_for(m * k * n)
    out = gemm(a, b)
    return numpy_kernels.matmul(a, b) if out is None else out


configure(SPLIT_MIN_MACS, threads.BLAS_MIN_MACS, PIECES_PER_THREAD, _other_product)


def matmul(x, y, transpose_x=False, transpose_y=False):
    """op(x) @ op(y) with Paddle's 1-D rules (small float32 products with few columns in a
    compiled AVX2 loop, bigger ones shared among the threads)"""
    if x.ndim == 2 and y.ndim == 2 and x.dtype == y.dtype and x.dtype.char in "fd":
        a, b = (x.T if transpose_x else x), (y.T if transpose_y else y)
        m, k = a.shape
        n = b.shape[1]
        if b.shape[0] == k and m > 0 and k > 0:
            if (_SKINNY and x.dtype == np.float32 and n % 8 == 0 and 0 < n <= SKINNY_MAX_N
                    and m * k * n <= SKINNY_MAX_MACS and a.strides[0] % 4 == 0
                    and a.strides[1] % 4 == 0):
                out = np.empty((m, n), np.float32)
                sgemm_skinny(a, np.ascontiguousarray(b), out)
                return out
            if n:
                return product(a, b)
    return numpy_kernels.matmul(x, y, transpose_x, transpose_y)


KERNELS = {"matmul": matmul}
