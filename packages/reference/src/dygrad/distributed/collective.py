"""paddle.distributed's process groups and collectives on Tensors.

``init_parallel_env()`` joins the processes started by ``mpirun``/``mpiexec`` (or by
``python -m dygrad.distributed.launch``) into the world group. Collectives take Tensors and
work in place as Paddle's do; the backend is chosen by the tensor's place (MPI for CPU
tensors, NCCL for CUDA tensors). Before a collective whose tensors must agree, the ranks
exchange their shapes and dtypes (a few integers), so a mismatch raises an error naming the
ranks and shapes instead of corrupting data or hanging. ``src``/``dst`` are global ranks.
"""

from __future__ import annotations

import datetime
import os
import sys
import time

import numpy as np

from .._core.engine import current as _engine
from .._core.place import CUDAPlace
from .._core.tensor import Tensor
from .backend import DistributedError, MPIBackend, NCCLBackend, ReduceOp, check_op

__all__ = ["Group", "init_parallel_env", "is_initialized", "get_rank", "get_world_size",
           "get_group", "new_group", "barrier", "all_reduce", "broadcast", "reduce",
           "all_gather", "all_gather_object", "scatter", "reduce_scatter", "alltoall",
           "send", "recv", "isend", "irecv"]

DEFAULT_TIMEOUT = 1800.0  # seconds, Paddle's default process-group timeout
# seconds between an uncaught exception's traceback and MPI_Abort: MPICH's launcher drops
# what it has not yet forwarded of the ranks' output when a rank aborts (the traceback went
# missing in about one run in ten without it)
_ABORT_GRACE = 0.25
_INSTALL_HINT = "pip install 'dygrad[distributed]'"
_world = None
_groups = {}


class Group:
    """A set of processes that run collectives together (``ranks`` are global ranks;
    ``rank`` is this process's position in the group, -1 outside it)."""

    def __init__(self, rank, ranks, gid, mpi):
        self.rank, self.ranks, self.id = rank, list(ranks), gid
        self._mpi, self._nccl = mpi, None

    @property
    def nranks(self):
        return len(self.ranks)

    world_size = nranks

    @property
    def process_group(self):
        return self

    def is_member(self):
        return self.rank >= 0

    def get_group_rank(self, rank):
        return self.ranks.index(rank) if rank in self.ranks else -1

    def backend_for(self, array):
        """MPI for arrays on the CPU, NCCL (made on first use) for arrays on a CUDA device."""
        if not isinstance(_engine().place_of(array), CUDAPlace):
            return self._mpi
        if self._nccl is None:
            self._nccl = NCCLBackend(self._mpi, self._mpi.timeout)
        return self._nccl

    def __repr__(self):
        return f"Group(id={self.id}, rank={self.rank}, ranks={self.ranks})"


def _seconds(api, timeout):
    """A timeout in seconds from None (DYGRAD_DIST_TIMEOUT, else 1800), a number or a
    datetime.timedelta."""
    if timeout is None:
        timeout = os.environ.get("DYGRAD_DIST_TIMEOUT", DEFAULT_TIMEOUT)
        try:
            timeout = float(timeout)
        except ValueError:
            raise ValueError(f"{api}: DYGRAD_DIST_TIMEOUT should be a number of seconds, got "
                             f"{timeout!r}") from None
    if isinstance(timeout, datetime.timedelta):
        timeout = timeout.total_seconds()
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        raise ValueError(f"{api}: timeout should be a positive number of seconds or a "
                         f"datetime.timedelta, got {timeout!r}")
    return float(timeout)


def env_rank_and_size():
    """(rank, world size) from the launcher's environment (Paddle's, MPICH's or Open
    MPI's variables), (0, 1) when none is set."""
    for rank, size in (("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM"), ("PMI_RANK", "PMI_SIZE"),
                       ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE")):
        if rank in os.environ and size in os.environ:
            return int(os.environ[rank]), int(os.environ[size])
    return 0, 1


def init_parallel_env(timeout=None):
    """Join the processes of this job (started by mpirun/mpiexec or the launcher) and return
    the world group. ``timeout`` (seconds or a timedelta; default DYGRAD_DIST_TIMEOUT, else
    1800) bounds every wait for the other ranks. When the current device is a GPU, each
    rank moves to its own (``ParallelEnv().device_id``), as in Paddle. A second call returns
    the same group."""
    global _world
    if _world is not None:
        return _world
    seconds = _seconds("init_parallel_env", timeout)
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise ImportError(f"paddle.distributed.init_parallel_env needs mpi4py and an MPI "
                          f"library: {_INSTALL_HINT} ({e})") from None
    backend = MPIBackend(MPI.COMM_WORLD, seconds)
    _world = Group(backend.rank, range(backend.nranks), 0, backend)
    _groups[0] = _world
    if backend.nranks > 1:
        _abort_on_uncaught_exception(backend)
    from .._core.device import get_device, set_device
    if get_device().startswith("gpu"):
        from .parallel import ParallelEnv
        set_device(f"gpu:{ParallelEnv().device_id}")
    return _world


def _abort_on_uncaught_exception(backend):
    """An uncaught exception on one rank prints its traceback, then ends the whole job
    (MPI_Abort) so that the other ranks do not wait for it."""
    previous = sys.excepthook

    def hook(kind, value, tb):
        previous(kind, value, tb)
        sys.stderr.flush()
        time.sleep(_ABORT_GRACE)  # the launcher forwards the traceback before the abort
        backend.abort(1)
    sys.excepthook = hook


def is_initialized():
    return _world is not None


def get_rank(group=None):
    """This process's rank in ``group`` (the world by default; -1 outside the group)."""
    if group is not None:
        return group.rank
    return _world.rank if _world is not None else env_rank_and_size()[0]


def get_world_size(group=None):
    if group is not None:
        return group.nranks
    return _world.nranks if _world is not None else env_rank_and_size()[1]


def get_group(id=0):
    return _groups.get(id)


def _group(api, group):
    if group is not None:
        return group
    if _world is None:
        raise RuntimeError(f"paddle.distributed.{api}: the parallel environment is not "
                           f"initialized; call paddle.distributed.init_parallel_env() first")
    return _world


def new_group(ranks=None, backend=None, timeout=None):
    """A group of the given global ranks (all ranks by default). Every rank of the world
    must call it, in the same order, as in Paddle."""
    world = _group("new_group", None)
    ranks = sorted(range(world.nranks) if ranks is None else ranks)
    bad = [r for r in ranks if not 0 <= r < world.nranks]
    if bad or len(set(ranks)) != len(ranks):
        raise ValueError(f"new_group: ranks should be distinct ranks in [0, {world.nranks}), "
                         f"got {ranks}")
    seconds = world._mpi.timeout if timeout is None else _seconds("new_group", timeout)
    mpi = world._mpi.split(ranks, seconds)
    gid = max(_groups) + 1
    group = Group(ranks.index(world.rank) if world.rank in ranks else -1, ranks, gid, mpi)
    _groups[gid] = group
    return group


# -- tensors <-> buffers ---------------------------------------------------------------------
def _check_tensor(api, name, t):
    if not isinstance(t, Tensor):
        raise TypeError(f"paddle.distributed.{api}: {name} should be a Tensor, but got "
                        f"{type(t).__name__}")
    return t


def _buffer(api, t, name="tensor"):
    """(a contiguous array of ``t``, a function that writes it back into ``t``)."""
    arr = _check_tensor(api, name, t)._data
    if arr.flags.c_contiguous:
        return arr, t._bump
    work = arr.copy(order="C")

    def write_back():
        t._data[...] = work
        t._bump()
    return work, write_back


def _xp(array):
    if isinstance(array, np.ndarray):
        return np
    import cupy
    return cupy


def _stack(api, name, tensors, like, nranks):
    """The tensors of a list stacked into one ``[nranks, *shape]`` array (their shapes and
    dtypes must be ``like``'s)."""
    if not isinstance(tensors, (list, tuple)) or len(tensors) != nranks:
        raise ValueError(f"paddle.distributed.{api}: {name} should be a list of {nranks} "
                         f"tensors (one per rank of the group), got "
                         f"{len(tensors) if isinstance(tensors, (list, tuple)) else tensors!r}")
    for i, t in enumerate(tensors):
        _check_tensor(api, f"{name}[{i}]", t)
        if t._data.shape != like.shape or t._data.dtype != like.dtype:
            raise ValueError(f"paddle.distributed.{api}: {name}[{i}] is "
                             f"{_describe(t._data.dtype, t._data.shape)}, expected "
                             f"{_describe(like.dtype, like.shape)} like tensor")
    return _xp(like).stack([t._data for t in tensors])


def _fill(tensors, stacked):
    """Write the slices of ``stacked`` into the list: new tensors when it is empty, else in
    place into the tensors it holds."""
    if not tensors:
        tensors.extend(Tensor._wrap(stacked[i].copy()) for i in range(stacked.shape[0]))
        return
    for t, part in zip(tensors, stacked):
        t._data[...] = part
        t._bump()


# -- shape/dtype agreement -------------------------------------------------------------------
_DTYPES = [np.dtype(d) for d in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16",
                                 "float32", "float64", "complex64", "complex128")]
_MAX_DIMS = 9  # dims past the ninth are folded into it (their product)


def _meta(array):
    """[dtype code, ndim, dims...] as int64, the description the ranks compare."""
    shape = list(array.shape)
    if len(shape) > _MAX_DIMS:
        shape = shape[:_MAX_DIMS - 1] + [int(np.prod(shape[_MAX_DIMS - 1:]))]
    out = np.full(2 + _MAX_DIMS, -1, dtype=np.int64)
    dt = np.dtype(array.dtype)
    out[0] = _DTYPES.index(dt) if dt in _DTYPES else len(_DTYPES)
    out[1] = array.ndim
    out[2:2 + len(shape)] = shape
    return out


def _describe(dtype, shape):
    return f"{np.dtype(dtype).name}{list(shape)}"


def _describe_meta(meta):
    dtype = _DTYPES[meta[0]].name if meta[0] < len(_DTYPES) else "other"
    dims = [int(d) for d in meta[2:] if d >= 0]
    return f"{dtype}{dims}"


def _check_same(api, group, meta):
    """Raise on every rank when the ranks' metas differ, naming each rank's tensor."""
    metas = np.empty((group.nranks, meta.size), dtype=np.int64)
    group._mpi.all_gather(metas, meta, api).wait()
    if (metas == metas[0]).all():
        return
    described = ", ".join(f"rank {r}: {_describe_meta(m)}" for r, m in zip(group.ranks, metas))
    raise DistributedError(f"paddle.distributed.{api}: the tensors differ across the ranks of "
                           f"the group ({described}); every rank must pass a tensor of the "
                           f"same shape and dtype")


def _root(api, group, rank, name):
    root = group.get_group_rank(rank)
    if root < 0:
        raise ValueError(f"paddle.distributed.{api}: {name}={rank} is not a rank of the group "
                         f"(ranks {group.ranks})")
    return root


def _finish(task, after, sync_op):
    """One task that waits for ``task`` then runs ``after``; waited now when ``sync_op``."""
    from .backend import Task
    done = Task(task.wait, after)
    if sync_op:
        done.wait()
    return done


# -- collectives -----------------------------------------------------------------------------
def all_reduce(tensor, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce ``tensor`` over the ranks with ``op``; every rank gets the result in place."""
    check_op("all_reduce", op)
    group = _group("all_reduce", group)
    if not group.is_member():
        return None
    arr, write_back = _buffer("all_reduce", tensor)
    _check_same("all_reduce", group, _meta(arr))
    return _finish(group.backend_for(arr).all_reduce(arr, op), write_back, sync_op)


def broadcast(tensor, src, group=None, sync_op=True):
    """Copy rank ``src``'s tensor into ``tensor`` on every rank."""
    group = _group("broadcast", group)
    if not group.is_member():
        return None
    root = _root("broadcast", group, src, "src")
    arr, write_back = _buffer("broadcast", tensor)
    _check_same("broadcast", group, _meta(arr))
    return _finish(group.backend_for(arr).broadcast(arr, root), write_back, sync_op)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce ``tensor`` over the ranks into rank ``dst``'s tensor (the others keep theirs)."""
    check_op("reduce", op)
    group = _group("reduce", group)
    if not group.is_member():
        return None
    root = _root("reduce", group, dst, "dst")
    arr, write_back = _buffer("reduce", tensor)
    _check_same("reduce", group, _meta(arr))
    return _finish(group.backend_for(arr).reduce(arr, root, op), write_back, sync_op)


def all_gather(tensor_list, tensor, group=None, sync_op=True):
    """Every rank's ``tensor``, in rank order, into ``tensor_list`` (appended when it is
    empty, else written into its tensors)."""
    group = _group("all_gather", group)
    if not group.is_member():
        return None
    arr, _ = _buffer("all_gather", tensor)
    if tensor_list:
        _stack("all_gather", "tensor_list", tensor_list, arr, group.nranks)
    _check_same("all_gather", group, _meta(arr))
    stacked = _xp(arr).empty((group.nranks, *arr.shape), dtype=arr.dtype)
    task = group.backend_for(arr).all_gather(stacked, arr)
    return _finish(task, lambda: _fill(tensor_list, stacked), sync_op)


def all_gather_object(object_list, obj, group=None):
    """Every rank's picklable ``obj``, in rank order, appended to ``object_list``."""
    group = _group("all_gather_object", group)
    if not group.is_member():
        return
    object_list.extend(group._mpi.all_gather_object(obj))


def scatter(tensor, tensor_list=None, src=0, group=None, sync_op=True):
    """Rank ``src``'s ``tensor_list[i]`` into ``tensor`` of the group's i-th rank."""
    group = _group("scatter", group)
    if not group.is_member():
        return None
    root = _root("scatter", group, src, "src")
    arr, write_back = _buffer("scatter", tensor)
    stacked = None
    if group.rank == root:
        if tensor_list is None:
            raise ValueError("paddle.distributed.scatter: tensor_list is required on the "
                             "source rank")
        stacked = _stack("scatter", "tensor_list", tensor_list, arr, group.nranks)
    _check_same("scatter", group, _meta(arr))
    return _finish(group.backend_for(arr).scatter(arr, stacked, root), write_back, sync_op)


def reduce_scatter(tensor, tensor_list, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduce the ranks' ``tensor_list`` elementwise; the group's i-th rank gets element i of
    the result in ``tensor``."""
    check_op("reduce_scatter", op)
    group = _group("reduce_scatter", group)
    if not group.is_member():
        return None
    arr, write_back = _buffer("reduce_scatter", tensor)
    stacked = _stack("reduce_scatter", "tensor_list", tensor_list, arr, group.nranks)
    _check_same("reduce_scatter", group, _meta(arr))
    task = group.backend_for(arr).reduce_scatter(arr, stacked, op)
    return _finish(task, write_back, sync_op)


def alltoall(out_tensor_list, in_tensor_list, group=None, sync_op=True):
    """Send ``in_tensor_list[i]`` to the group's i-th rank; receive the i-th rank's tensor in
    ``out_tensor_list[i]`` (appended when the list is empty)."""
    group = _group("alltoall", group)
    if not group.is_member():
        return None
    if not in_tensor_list:
        raise ValueError("paddle.distributed.alltoall: in_tensor_list should hold one tensor "
                         "per rank of the group, got an empty list")
    like = _check_tensor("alltoall", "in_tensor_list[0]", in_tensor_list[0])._data
    stacked = _stack("alltoall", "in_tensor_list", in_tensor_list, like, group.nranks)
    if out_tensor_list:
        _stack("alltoall", "out_tensor_list", out_tensor_list, like, group.nranks)
    _check_same("alltoall", group, _meta(like))
    out = _xp(like).empty_like(stacked)
    task = group.backend_for(like).alltoall(out, stacked)
    return _finish(task, lambda: _fill(out_tensor_list, out), sync_op)


def barrier(group=None):
    """Wait until every rank of the group has reached the barrier."""
    group = _group("barrier", group)
    if group.is_member():
        group._mpi.barrier().wait()


def send(tensor, dst=0, group=None, sync_op=True):
    """Send ``tensor`` to rank ``dst`` (its recv must expect the same shape and dtype)."""
    group = _group("send", group)
    if not group.is_member():
        return None
    peer = _root("send", group, dst, "dst")
    arr, _ = _buffer("send", tensor)
    task = group.backend_for(arr).send(arr, peer, _meta(arr))
    return _finish(task, None, sync_op)


def recv(tensor, src=0, group=None, sync_op=True):
    """Receive into ``tensor`` what rank ``src`` sends (any rank when ``src`` is None)."""
    group = _group("recv", group)
    if not group.is_member():
        return None
    peer = None if src is None else _root("recv", group, src, "src")
    arr, write_back = _buffer("recv", tensor)
    mine = _meta(arr)

    def check(header, source):
        if not (header == mine).all():
            raise DistributedError(
                f"paddle.distributed.recv: rank {group.ranks[group.rank]} expects "
                f"{_describe_meta(mine)} but rank {group.ranks[source]} sent "
                f"{_describe_meta(header)}")
    task = group.backend_for(arr).recv(arr, peer, np.empty_like(mine), check)
    return _finish(task, write_back, sync_op)


def isend(tensor, dst, group=None):
    """Start sending ``tensor`` to rank ``dst``; returns a task with ``wait()``."""
    return send(tensor, dst, group, sync_op=False)


def irecv(tensor, src=None, group=None):
    """Start receiving into ``tensor`` from rank ``src``; returns a task with ``wait()``."""
    return recv(tensor, src, group, sync_op=False)
