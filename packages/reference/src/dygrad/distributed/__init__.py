"""paddle.distributed: data-parallel training over processes, on MPI (CPU tensors) and NCCL
(CUDA tensors).

Start the ranks with ``python -m dygrad.distributed.launch --nproc_per_node N train.py`` or
``mpirun -n N python train.py``; in the script call ``init_parallel_env()``, wrap the model
in ``paddle.DataParallel`` and shard the data with ``paddle.io.DistributedBatchSampler``.
Needs ``pip install 'dygrad[distributed]'`` (mpi4py with an MPI library); importing this
package does not.
"""

from .backend import DistributedError, ReduceOp
from .collective import (
    Group,
    all_gather,
    all_gather_object,
    all_reduce,
    alltoall,
    barrier,
    broadcast,
    get_group,
    get_rank,
    get_world_size,
    init_parallel_env,
    irecv,
    is_initialized,
    isend,
    new_group,
    recv,
    reduce,
    reduce_scatter,
    scatter,
    send,
)
from .parallel import DataParallel, ParallelEnv
from .spawn import spawn

__all__ = ["init_parallel_env", "get_rank", "get_world_size", "ParallelEnv", "is_initialized",
           "barrier", "new_group", "get_group", "Group", "ReduceOp", "all_reduce", "broadcast",
           "reduce", "all_gather", "all_gather_object", "scatter", "reduce_scatter",
           "alltoall", "send", "recv", "isend", "irecv", "DataParallel", "DistributedError",
           "spawn"]
