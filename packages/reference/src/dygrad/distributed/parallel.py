"""ParallelEnv and paddle.DataParallel: data-parallel training of one Layer over the ranks.

DataParallel broadcasts the parameters and persistable buffers from the group's first rank
when it wraps the layer, then averages the gradients during backward. The trainable
parameters are split, in reverse order (the order backward reaches them), into buckets of
at most ``last_comm_buffer_size`` MB (the first) and ``comm_buffer_size`` MB (the rest). A
leaf-gradient hook of each parameter copies its gradient (plus any gradient accumulated
under ``no_sync``), divided by the number of ranks, into its bucket's flat buffer and hands
the slice back as the gradient, so ``.grad`` is a view of the buffer. When a bucket is full
its all-reduce starts at once (non-blocking), while backward goes on; buckets start in
index order on every rank. The hook that fills the last bucket waits for all of them, so
the averaged gradients are in place before ``backward()`` returns.
"""

from __future__ import annotations

import contextlib
import os
import time

from .._core.autograd import AccumulateGrad, grad_mode
from .._core.tensor import Tensor
from ..nn.layer import Layer
from . import collective
from .backend import ReduceOp

__all__ = ["ParallelEnv", "DataParallel"]


class ParallelEnv:
    """This process's place in the job: ``rank``/``local_rank``, ``world_size``/``nranks``,
    ``device_id`` (FLAGS_selected_gpus, else the rank on this node), endpoints (Paddle's
    launcher variables, empty under MPI)."""

    def __init__(self):
        self._rank = collective.get_rank()
        self._world_size = collective.get_world_size()
        gpus = os.environ.get("FLAGS_selected_gpus", "")
        local = os.environ.get("MPI_LOCALRANKID", os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK"))
        self._device_id = int(gpus.split(",")[0]) if gpus else int(local or 0)
        self._current_endpoint = os.environ.get("PADDLE_CURRENT_ENDPOINT", "")
        endpoints = os.environ.get("PADDLE_TRAINER_ENDPOINTS", "")
        self._trainer_endpoints = endpoints.split(",") if endpoints else []

    @property
    def rank(self):
        return self._rank

    local_rank = rank

    @property
    def world_size(self):
        return self._world_size

    nranks = world_size

    @property
    def device_id(self):
        return self._device_id

    dev_id = device_id

    @property
    def current_endpoint(self):
        return self._current_endpoint

    @property
    def trainer_endpoints(self):
        return self._trainer_endpoints


def _tensors_in(value):
    """The Tensors in a (nested) forward output."""
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _tensors_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tensors_in(v)


def _reached_leaves(outputs):
    """ids of the leaf tensors whose gradients backward from ``outputs`` would compute."""
    from .._core.autograd import edge_of
    stack = [e[0] for e in (edge_of(t) for t in outputs) if e is not None]
    seen, leaves = set(), set()
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if isinstance(node, AccumulateGrad):
            leaves.add(id(node.tensor))
        stack.extend(e[0] for e in node.next_edges if e is not None)
    return leaves


class _Bucket:
    """Parameters whose gradients are all-reduced together in one flat buffer."""

    def __init__(self, backend):
        self.backend, self.params, self.slots, self.size = backend, [], [], 0
        self.pending, self.buffer, self.task, self.ready = 0, None, None, []

    def add(self, p):
        n = p._data.size
        self.slots.append((self.size, self.size + n, p._data.shape))
        self.params.append(p)
        self.size += n

    def view(self, i):
        start, stop, shape = self.slots[i]
        if self.buffer is None:
            like = self.params[0]._data
            self.buffer = _xp(like).zeros(self.size, like.dtype)
        return self.buffer[start:stop].reshape(shape)


def _xp(array):
    return collective._xp(array)


class _Reducer:
    """The gradient hooks and bucket all-reduces of one DataParallel."""

    def __init__(self, params, group, sizes_mb, find_unused):
        self.group, self.find_unused, self.scale = group, find_unused, 1.0 / group.nranks
        self.buckets, self.where = [], {}
        limits = [int(mb * 1024 * 1024) for mb in sizes_mb]
        bucket, nbytes = None, 0
        for p in reversed(params):
            backend = group.backend_for(p._data)
            limit = limits[0] if len(self.buckets) <= 1 else limits[1]
            if (bucket is None or nbytes + p._data.nbytes > limit
                    or bucket.backend is not backend
                    or bucket.params[0]._data.dtype != p._data.dtype):
                bucket, nbytes = _Bucket(backend), 0
                self.buckets.append(bucket)
            self.where[id(p)] = (bucket, len(bucket.params))
            bucket.add(p)
            nbytes += p._data.nbytes
            p.register_hook(self._hook_for(p))
        self.active, self.unused, self.hooked = False, [], 0
        self.wait_seconds = 0.0  # time backward spent waiting for all-reduces (benchmarks)

    def prepare(self, outputs):
        """Before a backward that synchronises: check the last step finished, reset the
        buckets, and with find_unused_parameters mark the parameters forward did not use."""
        if self.active and self.hooked:
            missing = [p.name for b in self.buckets for p, ready in zip(b.params, b.ready)
                       if not ready]
            self.active = False
            raise RuntimeError(
                f"DataParallel: rank {self.group.rank} got no gradient for parameters "
                f"{missing} in the previous backward, so the gradients were not averaged "
                f"across the ranks. Pass find_unused_parameters=True to paddle.DataParallel "
                f"when some parameters are not used in forward.")
        for b in self.buckets:
            b.pending, b.buffer, b.task = len(b.params), None, None
            b.ready = [False] * len(b.params)
        self.next, self.active, self.unused, self.hooked = 0, True, [], 0
        if self.find_unused:
            reached = _reached_leaves(outputs)
            for b in self.buckets:
                for i, p in enumerate(b.params):
                    if id(p) not in reached:
                        self.unused.append((b, i))
                        self._fill(b, i, None, p)

    def _hook_for(self, p):
        bucket, i = self.where[id(p)]

        def hook(g):
            if not self.active:
                return None
            self.hooked += 1
            return Tensor._wrap(self._fill(bucket, i, g._data, p))
        return hook

    def _fill(self, bucket, i, g, p):
        """Put parameter i's scaled gradient in its slot; launch the buckets now ready."""
        view = bucket.view(i)
        if p._grad is not None:
            g = p._grad._data if g is None else p._grad._data + g
            p._grad = None
        if g is not None:
            _xp(view).multiply(g, self.scale, out=view)
        bucket.ready[i] = True
        bucket.pending -= 1
        while self.next < len(self.buckets) and self.buckets[self.next].pending == 0:
            b = self.buckets[self.next]
            b.task = b.backend.all_reduce(b.buffer, ReduceOp.SUM,
                                          "DataParallel (gradient all_reduce)")
            self.next += 1
        for b in self.buckets[:self.next]:
            b.task.test()
        if self.next == len(self.buckets):
            self._finish()
        return view

    def _finish(self):
        start = time.perf_counter()
        for b in self.buckets:
            b.task.wait()
        self.wait_seconds += time.perf_counter() - start
        for b, i in self.unused:
            b.params[i]._grad = Tensor._wrap(b.view(i))
        self.active = False


class DataParallel(Layer):
    """Run ``layers`` in data-parallel mode: each rank feeds its share of the batch and the
    gradients are averaged across the ranks during backward (see the module doc).
    ``strategy`` is accepted for compatibility; ``group`` defaults to the world. In a single
    process it is a plain wrapper, as in Paddle."""

    def __init__(self, layers, strategy=None, comm_buffer_size=25, last_comm_buffer_size=1,
                 find_unused_parameters=False, group=None):
        super().__init__()
        if not isinstance(layers, Layer):
            raise TypeError(f"DataParallel: layers should be a paddle.nn.Layer, but got "
                            f"{type(layers).__name__}")
        for name, value in (("comm_buffer_size", comm_buffer_size),
                            ("last_comm_buffer_size", last_comm_buffer_size)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"DataParallel: {name} should be a positive number of MB, "
                                 f"got {value!r}")
        self._layers = layers
        self.find_unused_parameters = find_unused_parameters
        self._grad_need_sync = True
        if group is None and not collective.is_initialized():
            if collective.get_world_size() > 1:
                raise RuntimeError("DataParallel: this job has several ranks but the parallel "
                                   "environment is not initialized; call "
                                   "paddle.distributed.init_parallel_env() first")
        else:
            group = group or collective.get_group(0)
        self.group = group
        self._reducer = None
        if group is not None and group.nranks > 1 and group.is_member():
            self._sync_params_buffers()
            params = [p for p in layers.parameters() if not p.stop_gradient]
            self._reducer = _Reducer(params, group, (last_comm_buffer_size, comm_buffer_size),
                                     find_unused_parameters)

    def _sync_params_buffers(self):
        """Broadcast the parameters and persistable buffers from the group's first rank,
        one flat buffer per dtype."""
        tensors = list(self._layers.state_dict().values())
        for dtype in dict.fromkeys(t._data.dtype for t in tensors):
            same = [t for t in tensors if t._data.dtype == dtype]
            flat = Tensor._wrap(_xp(same[0]._data).concatenate([t._data.ravel() for t in same]))
            collective.broadcast(flat, src=self.group.ranks[0], group=self.group)
            start = 0
            for t in same:
                t._data[...] = flat._data[start:start + t._data.size].reshape(t._data.shape)
                t._bump()
                start += t._data.size

    def forward(self, *inputs, **kwargs):
        outputs = self._layers(*inputs, **kwargs)
        if self._reducer is not None and self._grad_need_sync and grad_mode.enabled:
            produced = [t for t in _tensors_in(outputs) if not t.stop_gradient]
            if produced:
                self._reducer.prepare(produced)
        return outputs

    @contextlib.contextmanager
    def no_sync(self):
        """Inside, backward accumulates local gradients without averaging them; the next
        backward outside averages the accumulated gradients."""
        previous = self._grad_need_sync
        self._grad_need_sync = False
        try:
            yield
        finally:
            self._grad_need_sync = previous

    def scale_loss(self, loss):
        """Paddle 1.x-style API: the loss is returned unchanged (gradients are averaged)."""
        return loss

    def apply_collective_grads(self):
        """Paddle 1.x-style API: nothing to do, backward has averaged the gradients."""

    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                   use_hook=True):
        """The wrapped layer's state_dict (no ``_layers.`` prefix, as Paddle)."""
        return self._layers.state_dict(destination, include_sublayers, structured_name_prefix,
                                       use_hook)

    def set_state_dict(self, state_dict, use_structured_name=True):
        return self._layers.set_state_dict(state_dict, use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict
