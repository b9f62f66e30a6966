"""Communication backends: the small interface the collectives and DataParallel use, with an
MPI backend (mpi4py; NumPy arrays on the CPU) and an NCCL backend (CuPy's NCCL bindings;
CuPy arrays on CUDA devices).

A backend works on contiguous engine arrays of one group of processes. Every operation is
started at once and returns a :class:`Task`; ``Task.wait()`` finishes it, polling with the
group's deadline, so a rank that died or stopped makes the others raise
:class:`DistributedError` instead of waiting forever. Another engine (Gloo, UCC) is added by
writing the same methods.
"""

from __future__ import annotations

import pickle
import time

import numpy as np

__all__ = ["ReduceOp", "Task", "Backend", "MPIBackend", "NCCLBackend", "DistributedError"]


class ReduceOp:
    """How collectives combine the tensors of the ranks (Paddle's values)."""

    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


_OP_NAMES = {ReduceOp.SUM: "SUM", ReduceOp.MAX: "MAX", ReduceOp.MIN: "MIN",
             ReduceOp.PROD: "PROD", ReduceOp.AVG: "AVG"}


class DistributedError(RuntimeError):
    """A collective could not finish: a rank died or hangs, or the ranks disagree."""


def check_op(api, op):
    if op not in _OP_NAMES:
        raise ValueError(f"{api}: op should be one of paddle.distributed.ReduceOp.SUM, MAX, "
                         f"MIN, PROD or AVG, but got {op!r}")


class Task:
    """A started communication; ``wait()`` finishes it (then runs ``finish``, e.g. a copy
    back) and returns True, as Paddle's task does. ``test()`` lets it progress without
    waiting (``test``: a function saying whether the transfer is complete)."""

    def __init__(self, poll, finish=None, test=None):
        self._poll, self._finish, self._test, self._done = poll, finish, test, False

    def test(self):
        return self._done or (self._test is not None and self._test())

    def wait(self):
        if not self._done:
            self._poll()
            self._done = True
            if self._finish is not None:
                self._finish()
        return True

    def is_completed(self):
        return self._done


class Backend:
    """One group's communicator. ``timeout`` is in seconds; ``what`` names the operation in
    errors. Reductions work in place on ``array``; the ``stacked`` arrays hold one slice per
    rank of the group (``[nranks, *shape]``)."""

    name = "?"

    def __init__(self, rank, nranks, timeout):
        self.rank, self.nranks, self.timeout = rank, nranks, timeout

    def all_reduce(self, array, op):
        raise NotImplementedError

    def broadcast(self, array, root):
        raise NotImplementedError

    def reduce(self, array, root, op):
        raise NotImplementedError

    def all_gather(self, stacked, array):
        raise NotImplementedError

    def scatter(self, array, stacked, root):
        raise NotImplementedError

    def reduce_scatter(self, array, stacked, op):
        raise NotImplementedError

    def alltoall(self, out_stacked, in_stacked):
        raise NotImplementedError

    def send(self, array, peer):
        raise NotImplementedError

    def recv(self, array, peer):
        raise NotImplementedError

    def _timed_out(self, what, start):
        return DistributedError(
            f"paddle.distributed.{what}: rank {self.rank} of a group of {self.nranks} waited "
            f"{time.monotonic() - start:.1f} s for the other ranks (the limit is "
            f"{self.timeout:g} s, set by init_parallel_env(timeout=...) or the environment "
            f"variable DYGRAD_DIST_TIMEOUT): a rank has died, hangs, or runs a different "
            f"collective. See the other ranks' output for their errors.")


# -- MPI -----------------------------------------------------------------------------------
class MPIBackend(Backend):
    """Collectives of an MPI communicator on NumPy arrays (mpi4py's non-blocking calls).

    Data movement sends bytes, so every dtype works; reductions need an MPI type, so float16
    is reduced in float32 and bool as uint8 (then copied back)."""

    name = "mpi"
    _HEADER, _DATA = 11, 12  # message tags of send/recv

    def __init__(self, comm, timeout):
        super().__init__(comm.Get_rank(), comm.Get_size(), timeout)
        from mpi4py import MPI
        self.MPI, self.comm = MPI, comm
        self._ops = {ReduceOp.SUM: MPI.SUM, ReduceOp.AVG: MPI.SUM, ReduceOp.MAX: MPI.MAX,
                     ReduceOp.MIN: MPI.MIN, ReduceOp.PROD: MPI.PROD}

    def _task(self, requests, what, finish=None):
        def poll():
            self.wait_requests(requests, what)
        return Task(poll, finish, lambda: self.MPI.Request.Testall(requests))

    def wait_requests(self, requests, what):
        """Test the requests until they complete, sleeping briefly between tests after a
        while (ranks may share cores); raise DistributedError past the deadline."""
        test = self.MPI.Request.Testall
        start = time.monotonic()
        spins = 0
        while not test(requests):
            spins += 1
            if spins > 200:
                if time.monotonic() - start > self.timeout:
                    raise self._timed_out(what, start)
                time.sleep(5e-5)

    def _bytes(self, array):
        return [array, self.MPI.BYTE]

    def _reducible(self, array, op):
        """(the array MPI reduces, a function that writes the result back and averages)."""
        copy = array.dtype in (np.float16, np.bool_)
        work = array.astype(np.float32 if array.dtype == np.float16 else np.uint8) if copy \
            else array

        def finish():
            if op == ReduceOp.AVG:
                np.divide(work, self.nranks, out=work, casting="unsafe")
            if copy:
                array[...] = work
        return work, finish

    def all_reduce(self, array, op, what="all_reduce"):
        work, finish = self._reducible(array, op)
        req = self.comm.Iallreduce(self.MPI.IN_PLACE, work, op=self._ops[op])
        return self._task([req], what, finish)

    def reduce(self, array, root, op, what="reduce"):
        work, finish = self._reducible(array, op)
        if self.rank == root:
            req = self.comm.Ireduce(self.MPI.IN_PLACE, work, op=self._ops[op], root=root)
            return self._task([req], what, finish)
        req = self.comm.Ireduce(work, None, op=self._ops[op], root=root)
        return self._task([req], what)

    def broadcast(self, array, root, what="broadcast"):
        return self._task([self.comm.Ibcast(self._bytes(array), root=root)], what)

    def all_gather(self, stacked, array, what="all_gather"):
        req = self.comm.Iallgather(self._bytes(array), self._bytes(stacked))
        return self._task([req], what)

    def scatter(self, array, stacked, root, what="scatter"):
        send = self._bytes(stacked) if self.rank == root else None
        req = self.comm.Iscatter(send, self._bytes(array), root=root)
        return self._task([req], what)

    def reduce_scatter(self, array, stacked, op, what="reduce_scatter"):
        work, finish = self._reducible(stacked, op)
        out = array.astype(work.dtype) if work.dtype != array.dtype else array
        req = self.comm.Ireduce_scatter_block(work, out, op=self._ops[op])

        def copy_back():
            if op == ReduceOp.AVG:
                np.divide(out, self.nranks, out=out, casting="unsafe")
            if out is not array:
                array[...] = out
        return self._task([req], what, copy_back)

    def alltoall(self, out_stacked, in_stacked, what="alltoall"):
        req = self.comm.Ialltoall(self._bytes(in_stacked), self._bytes(out_stacked))
        return self._task([req], what)

    def barrier(self, what="barrier"):
        return self._task([self.comm.Ibarrier()], what)

    def send(self, array, peer, header, what="send"):
        """Send ``header`` (the int64 description of the array) then the data."""
        reqs = [self.comm.Isend(header, dest=peer, tag=self._HEADER),
                self.comm.Isend(self._bytes(array), dest=peer, tag=self._DATA)]
        return self._task(reqs, what)

    def recv(self, array, peer, header, check, what="recv"):
        """Receive into ``array`` from ``peer`` (None: any rank); ``check(header, source)``
        compares the sender's header with ours before the data is used."""
        MPI = self.MPI
        status = MPI.Status()
        if peer is not None:
            head = self.comm.Irecv(header, source=peer, tag=self._HEADER)
            data = self.comm.Irecv(self._bytes(array), source=peer, tag=self._DATA)

            def poll():
                self.wait_requests([head], what)
                check(header, peer)
                self.wait_requests([data], what)
            return Task(poll)
        head = self.comm.Irecv(header, source=MPI.ANY_SOURCE, tag=self._HEADER)

        def poll_any():
            start = time.monotonic()
            while not head.Test(status):
                if time.monotonic() - start > self.timeout:
                    raise self._timed_out(what, start)
                time.sleep(5e-5)
            source = status.Get_source()
            check(header, source)
            req = self.comm.Irecv(self._bytes(array), source=source, tag=self._DATA)
            self.wait_requests([req], what)
        return Task(poll_any)

    def all_gather_object(self, obj, what="all_gather_object"):
        """Every rank's picklable ``obj``, in rank order."""
        data = np.frombuffer(pickle.dumps(obj), dtype=np.uint8)
        sizes = np.zeros(self.nranks, dtype=np.int64)
        self.wait_requests([self.comm.Iallgather(np.array([data.size], np.int64), sizes)], what)
        out = np.empty(int(sizes.sum()), dtype=np.uint8)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.wait_requests([self.comm.Iallgatherv(data, [out, (sizes, offsets), self.MPI.BYTE])],
                           what)
        return [pickle.loads(out[o:o + s].tobytes()) for o, s in zip(offsets, sizes)]

    def split(self, ranks, timeout):
        """A backend for the world ranks ``ranks`` (None on ranks outside); collective over
        this backend's communicator."""
        me = self.comm.Get_rank()
        color = 0 if me in ranks else self.MPI.UNDEFINED
        key = ranks.index(me) if me in ranks else 0
        comm = self.comm.Split(color, key)
        return None if comm == self.MPI.COMM_NULL else MPIBackend(comm, timeout)

    def abort(self, code=1):
        self.MPI.COMM_WORLD.Abort(code)


# -- NCCL ----------------------------------------------------------------------------------
class NCCLBackend(Backend):
    """Collectives of an NCCL communicator on CuPy arrays, enqueued on the current CUDA
    stream. The communicator is made from a unique id that rank 0 sends over the group's MPI
    backend (``bootstrap``), which also carries send/recv headers. AVG sums then divides."""

    name = "nccl"

    def __init__(self, bootstrap, timeout):
        super().__init__(bootstrap.rank, bootstrap.nranks, timeout)
        import cupy
        from cupy.cuda import nccl
        self.cupy, self.nccl, self.bootstrap = cupy, nccl, bootstrap
        uid = nccl.get_unique_id() if self.rank == 0 else None
        uid = bootstrap.all_gather_object(uid, "init_parallel_env")[0]
        self.comm = nccl.NcclCommunicator(self.nranks, uid, self.rank)
        self._ops = {ReduceOp.SUM: nccl.NCCL_SUM, ReduceOp.AVG: nccl.NCCL_SUM,
                     ReduceOp.MAX: nccl.NCCL_MAX, ReduceOp.MIN: nccl.NCCL_MIN,
                     ReduceOp.PROD: nccl.NCCL_PROD}
        self._types = {np.dtype(np.int8): nccl.NCCL_INT8, np.dtype(np.uint8): nccl.NCCL_UINT8,
                       np.dtype(np.bool_): nccl.NCCL_UINT8, np.dtype(np.int32): nccl.NCCL_INT32,
                       np.dtype(np.int64): nccl.NCCL_INT64,
                       np.dtype(np.float16): nccl.NCCL_FLOAT16,
                       np.dtype(np.float32): nccl.NCCL_FLOAT32,
                       np.dtype(np.float64): nccl.NCCL_FLOAT64}

    def _args(self, array):
        """(pointer, count, NCCL type) of a contiguous array; other dtypes go as bytes."""
        kind = self._types.get(array.dtype)
        if kind is None:
            return array.data.ptr, array.nbytes, self.nccl.NCCL_UINT8
        return array.data.ptr, array.size, kind

    def _stream(self):
        return self.cupy.cuda.get_current_stream()

    def _task(self, what, finish=None):
        """A task that waits on an event recorded after the enqueued NCCL calls."""
        event = self._stream().record()

        def poll():
            start = time.monotonic()
            while not event.done:
                self.comm.check_async_error()
                if time.monotonic() - start > self.timeout:
                    self.comm.abort()
                    raise self._timed_out(what, start)
                time.sleep(5e-5)
        return Task(poll, finish)

    def _average(self, array, op):
        return (lambda: array.__itruediv__(self.nranks)) if op == ReduceOp.AVG else None

    def all_reduce(self, array, op, what="all_reduce"):
        ptr, n, kind = self._args(array)
        self.comm.allReduce(ptr, ptr, n, kind, self._ops[op], self._stream().ptr)
        return self._task(what, self._average(array, op))

    def reduce(self, array, root, op, what="reduce"):
        ptr, n, kind = self._args(array)
        self.comm.reduce(ptr, ptr, n, kind, self._ops[op], root, self._stream().ptr)
        return self._task(what, self._average(array, op) if self.rank == root else None)

    def broadcast(self, array, root, what="broadcast"):
        ptr, n, kind = self._args(array)
        self.comm.broadcast(ptr, ptr, n, kind, root, self._stream().ptr)
        return self._task(what)

    def all_gather(self, stacked, array, what="all_gather"):
        ptr, n, kind = self._args(array)
        self.comm.allGather(ptr, stacked.data.ptr, n, kind, self._stream().ptr)
        return self._task(what)

    def reduce_scatter(self, array, stacked, op, what="reduce_scatter"):
        ptr, n, kind = self._args(array)
        self.comm.reduceScatter(stacked.data.ptr, ptr, n, kind, self._ops[op],
                                self._stream().ptr)
        return self._task(what, self._average(array, op))

    def _exchange(self, sends, recvs, what):
        """Grouped point-to-point calls: sends/recvs are lists of (array, peer)."""
        stream = self._stream().ptr
        self.nccl.groupStart()
        for array, peer in sends:
            ptr, n, kind = self._args(array)
            self.comm.send(ptr, n, kind, peer, stream)
        for array, peer in recvs:
            ptr, n, kind = self._args(array)
            self.comm.recv(ptr, n, kind, peer, stream)
        self.nccl.groupEnd()
        return self._task(what)

    def scatter(self, array, stacked, root, what="scatter"):
        sends = [(stacked[r], r) for r in range(self.nranks)] if self.rank == root else []
        return self._exchange(sends, [(array, root)], what)

    def alltoall(self, out_stacked, in_stacked, what="alltoall"):
        peers = range(self.nranks)
        return self._exchange([(in_stacked[r], r) for r in peers],
                              [(out_stacked[r], r) for r in peers], what)

    def send(self, array, peer, header, what="send"):
        self.bootstrap.send(np.empty(0, np.uint8), peer, header, what).wait()
        return self._exchange([(array, peer)], [], what)

    def recv(self, array, peer, header, check, what="recv"):
        if peer is None:
            raise ValueError("paddle.distributed.irecv: src=None (any rank) is not supported "
                             "for CUDA tensors (NCCL needs the peer); pass src")
        self.bootstrap.recv(np.empty(0, np.uint8), peer, header, check, what).wait()
        return self._exchange([], [(array, peer)], what)
