"""The accelerated engine's threads (``dygrad.set_num_threads``).

Four kinds of threads serve the kernels:

- OpenMP's team, for the ``prange`` loops of the compiled kernels;
- a pool of Python threads that splits a convolution's or a pooling's batch (``split``):
  each part runs the compiled loops without the GIL and a single-threaded BLAS product;
- ``_linalg``'s pool of C threads (``dy_pool.h``, ``_linalg.pool_threads``), which shares a matrix
  product of a quarter million to 16 million multiply-adds: pieces of its output, each a
  single-threaded BLAS call (``cpu_linalg.product``);
- BLAS's own threads, given only to a matrix product big enough to pay for them (``blas_for``).

OpenBLAS's threads make every call wait for all of them: on a machine whose cores are busy
with other processes a thread held off its core stalls every small product by a scheduler
slice (a W2 step ran 20x slower: 189, 53, 57 against 802-939 steps/s). So BLAS keeps one
thread except inside the big products, and W2's products (2 to 4 million multiply-adds) go
to ``_linalg``'s pool, whose caller waits only for the pieces a worker has begun: a worker
held off its core leaves its pieces to the caller. With it a W2 step on two idle cores runs
2300 steps/s against 1900 on one thread (and 2200 with OpenBLAS's threads).

OpenMP's idle threads spin too, by default: importing the package asks for the passive wait
policy (``OMP_WAIT_POLICY=PASSIVE`` unless set), else a team thread spinning after a
``prange`` loop holds the core a batch-pool thread needs. W4 (LeNet, batch 64, two threads)
trained at 2020 and 1759 images/s with spinning, 2663 and 2659 passive, 2287 and 2297 on
one thread (runs one after another on a 2-core machine).
"""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor

from . import _fastpath, _linalg

# A matrix product of at least this many multiply-adds gets BLAS's threads.
BLAS_MIN_MACS = 1 << 24
# A batch is split among the threads when its work is at least this many multiply-adds
# (or, for pooling, elements read).
SPLIT_MIN_WORK = 1 << 20
PIECES_PER_THREAD = 4

_count = os.cpu_count() or 1
_pool: ThreadPoolExecutor | None = None
_blas_controllers = None
_blas_now = 0
_linalg.set_threads(_count)


def set_num_threads(n: int) -> None:
    """n threads for every kind: OpenMP's team, the batch pool, _linalg's pool and the big
    BLAS products."""
    global _count, _pool
    _count = n
    _fastpath.set_omp_threads(n)
    _linalg.set_threads(n)
    if _pool is not None:
        _pool.shutdown(wait=True)
        _pool = None
    blas(1)


def count() -> int:
    return _count


def blas(n: int) -> None:
    """Let BLAS use n threads from now on (nothing to do when it already does)."""
    global _blas_controllers, _blas_now
    if n == _blas_now:
        return
    if _blas_controllers is None:
        from threadpoolctl import ThreadpoolController
        _blas_controllers = ThreadpoolController().select(user_api="blas").lib_controllers
    for c in _blas_controllers:
        c.set_num_threads(n)
    _blas_now = n
    _linalg.note_blas(n)


def blas_for(macs: int) -> None:
    """BLAS threads for a product of ``macs`` multiply-adds."""
    n = _count if macs >= BLAS_MIN_MACS else 1
    if n != _blas_now:  # blas(n)'s own test, without its call for every product
        blas(n)


def split(n: int, work: int, fn) -> list:
    """``[fn(lo, hi) for each piece]`` of ``range(n)`` cut into pieces that the threads (this
    one too) take in turn, when ``work`` is big enough, else ``[fn(0, n)]``. Several pieces
    per thread: a thread that the machine's other processes hold back takes fewer, instead
    of the others waiting for its share. BLAS has one thread meanwhile: the pieces are the
    parallelism."""
    global _pool
    blas(1)
    k = min(_count, n) if work >= SPLIT_MIN_WORK else 1
    if k <= 1:
        return [fn(0, n)]
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=_count - 1, thread_name_prefix="dygrad")
    pieces = min(n, PIECES_PER_THREAD * k)
    cuts = [n * i // pieces for i in range(pieces + 1)]
    results = [None] * pieces
    turn = itertools.count()           # next() on it is atomic: each piece is taken once

    def take():
        i = next(turn)
        while i < pieces:
            results[i] = fn(cuts[i], cuts[i + 1])
            i = next(turn)

    futures = [_pool.submit(take) for _ in range(k - 1)]
    try:
        take()
    finally:  # the pieces write into the caller's arrays: let every one finish first
        for f in futures:
            f.result()
    return results
