"""DataLoader (paddle.io): batches of Tensors from a dataset, loaded in worker processes or
in the main process.

One epoch is one pass over the loader's index sampler (a batch sampler for batched loading,
every index for ``batch_size=None``, endless placeholders for an IterableDataset). With
``num_workers=0`` the main process fetches and collates each batch when it is asked for.
With ``num_workers > 0`` the main process sends the lists of indices to worker processes
round-robin, keeping ``prefetch_factor`` batches in flight per worker, and hands the
results out in the order they were sent, whatever order they arrive in.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import pickle
import queue
import time
import weakref

from .._core.engine import current
from .batch_sampler import BatchSampler, _InfiniteIterableSampler
from .collate import default_collate_fn, default_convert_fn, to_tensors
from .dataset import IterableDataset
from .worker import POLL_S, Fetcher, IterableEnd, Resume, WorkerError, worker_loop

__all__ = ["DataLoader"]

SHUTDOWN_GRACE_S = 5.0  # how long a worker may take to finish its batch before it is killed


def _start_method() -> str:
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


class DataLoader:
    """Iterate over ``dataset`` in mini-batches of Tensors.

    Args:
        dataset: a :class:`Dataset` (indexed through a sampler) or an
            :class:`IterableDataset` (read as a stream).
        return_list: kept for compatibility: in dynamic mode Paddle (and dygrad) return each
            batch with the structure of its samples either way: a list of fields for tuple or
            list samples, a dict for dict samples, a Tensor for array samples.
        batch_sampler: yields the lists of indices of the batches; excludes ``batch_size``,
            ``shuffle`` and ``drop_last``.
        batch_size: samples per batch; ``None`` loads single samples without collating.
        shuffle: visit the indices in a random order drawn from dygrad's random state (so
            ``dygrad.seed`` makes it reproducible), a new one each epoch.
        drop_last: leave out the last batch when it is smaller than ``batch_size``.
        collate_fn: turns a list of samples into a batch; by default
            :func:`~dygrad.io.collate.default_collate_fn` stacks them per field. Arrays and
            Tensors in the result become Tensors (``stop_gradient=True``).
        num_workers: worker processes (0: load in the main process). Workers are forked
            where the platform allows, else spawned (then the dataset, ``collate_fn`` and
            ``worker_init_fn`` must be picklable).
        prefetch_factor: batches in flight per worker.
        timeout: seconds to wait for a batch from the workers before raising RuntimeError
            (0: wait as long as the workers are alive).
        worker_init_fn: called as ``worker_init_fn(worker_id)`` in each worker before it
            loads anything.
        persistent_workers: keep the worker processes from one epoch to the next.
        feed_list, places, use_buffer_reader, use_shared_memory: accepted and ignored: they
            configure Paddle's static-graph feeding, device placement of its reader and its
            shared-memory transport, which have no counterpart here (batches are placed on
            the current device, and workers send results through pipes).
    """

    def __init__(self, dataset, feed_list=None, places=None, return_list=True, batch_sampler=None,
                 batch_size=1, shuffle=False, drop_last=False, collate_fn=None, num_workers=0,
                 use_buffer_reader=True, prefetch_factor=2, use_shared_memory=True, timeout=0,
                 worker_init_fn=None, persistent_workers=False):
        if not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError(f"DataLoader: num_workers should be a non-negative integer, got "
                             f"{num_workers!r}")
        if not isinstance(prefetch_factor, int) or prefetch_factor <= 0:
            raise ValueError(f"DataLoader: prefetch_factor should be a positive integer, got "
                             f"{prefetch_factor!r}")
        if timeout < 0:
            raise ValueError(f"DataLoader: timeout should be a non-negative value, got {timeout}")
        self.dataset = dataset
        self.return_list = return_list
        self.collate_fn = collate_fn
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.persistent_workers = persistent_workers
        self.is_iterable = isinstance(dataset, IterableDataset)
        if self.is_iterable:
            if shuffle:
                raise ValueError(f"DataLoader: IterableDataset does not support shuffle, but got "
                                 f"shuffle={shuffle}")
            if batch_sampler is not None:
                raise ValueError("DataLoader: IterableDataset expects an unspecified "
                                 "batch_sampler")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise ValueError("DataLoader: batch_size/shuffle/drop_last should not be set "
                                 "when batch_sampler is given")
            self.batch_sampler = batch_sampler
            self.batch_size = None
        elif batch_size is None:
            self.batch_sampler = None
            self.batch_size = None
        else:
            if not isinstance(batch_size, int) or batch_size <= 0:
                raise ValueError(f"DataLoader: batch_size should be None or a positive integer "
                                 f"when batch_sampler is not given, got {batch_size!r}")
            self.batch_size = batch_size
            if self.is_iterable:
                self.batch_sampler = _InfiniteIterableSampler(dataset, batch_size)
            else:
                self.batch_sampler = BatchSampler(dataset=dataset, batch_size=batch_size,
                                                  shuffle=shuffle, drop_last=drop_last)
        self.drop_last = drop_last
        self.auto_collate_batch = self.batch_sampler is not None
        self._iterator = None

    def __len__(self):
        if self.is_iterable:
            raise ValueError("DataLoader: length of IterableDataset not supported")
        return len(self.batch_sampler) if self.auto_collate_batch else len(self.dataset)

    def __iter__(self):
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        if not self.persistent_workers:
            return _MultiProcessIter(self)
        if self._iterator is None or self._iterator.closed:
            self._iterator = _MultiProcessIter(self)
        else:
            self._iterator.next_epoch()
        return self._iterator

    def __call__(self):
        return self.__iter__()


class _LoaderIter:
    """What both iterators share: the epoch's index sampler and how to fetch a batch."""

    def __init__(self, loader):
        self._dataset = loader.dataset
        self._iterable = loader.is_iterable
        self._auto_collate = loader.auto_collate_batch
        self._drop_last = loader.drop_last
        if self._auto_collate:
            self._index_sampler = loader.batch_sampler
            self._collate_fn = loader.collate_fn or default_collate_fn
        else:
            self._index_sampler = (_InfiniteIterableSampler(loader.dataset) if self._iterable
                                   else range(len(loader.dataset)))
            self._collate_fn = loader.collate_fn or default_convert_fn
        self._sampler_iter = iter(self._index_sampler)

    def __iter__(self):
        return self

    def __len__(self):
        if self._iterable:
            raise TypeError("DataLoader: an iterator over an IterableDataset has no length")
        return len(self._index_sampler)


class _SingleProcessIter(_LoaderIter):
    """Fetch and collate each batch in the main process when it is asked for."""

    def __init__(self, loader):
        super().__init__(loader)
        self._fetch = Fetcher(self._dataset, self._iterable, self._auto_collate,
                              self._collate_fn, self._drop_last).fetch

    def __next__(self):
        indices = next(self._sampler_iter)
        return to_tensors(self._fetch(indices))  # an IterableDataset ends with StopIteration


class _MultiProcessIter(_LoaderIter):
    """Fan the batches out to worker processes and gather the results in order.

    Task ``idx`` (the ``idx``-th batch of the epoch) goes to worker ``task_worker[idx]``;
    results that arrive before their turn wait in ``results``. Messages carry the epoch
    number so that, with persistent workers, late results of an abandoned epoch are dropped.
    """

    def __init__(self, loader):
        super().__init__(loader)
        ctx = multiprocessing.get_context(_start_method())
        n = loader.num_workers
        self._timeout = loader.timeout
        self._persistent = loader.persistent_workers
        self._capacity = loader.prefetch_factor * n
        base_seed = int(current().generator.integers(2**62))  # reproducible under dygrad.seed
        self._data_queue = ctx.Queue()
        self._done_event = ctx.Event()
        self._index_queues, self._workers = [], []
        # Runs once: on exhaustion, on error, when the iterator is collected, or at exit.
        self._shutdown = weakref.finalize(self, _shutdown_workers, self._workers,
                                          self._index_queues, self._data_queue, self._done_event)
        try:
            for worker_id in range(n):
                index_queue = ctx.Queue()
                worker = ctx.Process(
                    target=worker_loop, daemon=True,
                    args=(self._dataset, self._iterable, index_queue, self._data_queue,
                          self._done_event, self._auto_collate, self._collate_fn,
                          self._drop_last, loader.worker_init_fn, worker_id, n, base_seed,
                          os.getpid()))
                worker.start()
                self._index_queues.append(index_queue)
                self._workers.append(worker)
        except BaseException:  # e.g. spawn cannot pickle the dataset: stop those started
            self._shutdown()
            raise
        self._epoch = 0
        self._start_epoch()

    @property
    def closed(self) -> bool:
        return not self._shutdown.alive

    def _start_epoch(self):
        self._send_idx = self._rcvd_idx = 0
        self._task_worker = {}
        self._results = {}
        self._active = [True] * len(self._workers)
        self._worker_cycle = itertools.cycle(range(len(self._workers)))
        for _ in range(self._capacity):
            self._send_task()

    def next_epoch(self):
        """Start a new epoch on the same (persistent) workers."""
        self._epoch += 1
        self._sampler_iter = iter(self._index_sampler)
        for index_queue in self._index_queues:
            index_queue.put(Resume())
        self._start_epoch()

    def _send_task(self):
        """Send the next batch's indices to the next worker that still has data."""
        if not any(self._active):
            return
        try:
            indices = next(self._sampler_iter)
        except StopIteration:
            return
        worker_id = next(w for w in self._worker_cycle if self._active[w])
        self._index_queues[worker_id].put((self._epoch, self._send_idx, indices))
        self._task_worker[self._send_idx] = worker_id
        self._send_idx += 1

    def _task_done(self):
        del self._task_worker[self._rcvd_idx]
        self._rcvd_idx += 1
        self._send_task()

    def __next__(self):
        if self.closed:
            raise StopIteration
        while True:
            # Tasks of a worker whose IterableDataset ran out will never be answered.
            while (self._rcvd_idx < self._send_idx and self._rcvd_idx not in self._results
                   and not self._active[self._task_worker[self._rcvd_idx]]):
                self._task_done()
            if self._rcvd_idx == self._send_idx:
                if not self._persistent:
                    self._shutdown()
                raise StopIteration
            if self._rcvd_idx in self._results:
                payload = self._results.pop(self._rcvd_idx)
                if isinstance(payload, WorkerError):
                    self._shutdown()
                    payload.reraise()
                self._task_done()
                return to_tensors(pickle.loads(payload))
            epoch, idx, payload = self._receive()
            if epoch != self._epoch:
                continue
            if isinstance(payload, IterableEnd):
                self._active[payload.worker_id] = False
            else:
                self._results[idx] = payload

    def _receive(self):
        """The next message from the workers; RuntimeError when a worker died or ``timeout``
        seconds passed without one."""
        deadline = time.monotonic() + self._timeout if self._timeout else None
        while True:
            wait = POLL_S if deadline is None else max(0.0, min(POLL_S, deadline - time.monotonic()))
            try:
                return self._data_queue.get(timeout=wait)
            except queue.Empty:
                pass
            dead = [w for w in self._workers if not w.is_alive()]
            if dead:
                self._shutdown()
                raise RuntimeError(f"DataLoader worker (pid {dead[0].pid}) exited unexpectedly "
                                   f"with exit code {dead[0].exitcode}")
            if deadline is not None and time.monotonic() >= deadline:
                self._shutdown()
                raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds waiting "
                                   f"for a batch from its workers")


def _shutdown_workers(workers, index_queues, data_queue, done_event):
    """Ask every worker to exit, wait for them (killing any that will not), close the queues."""
    done_event.set()
    for index_queue in index_queues:
        index_queue.put(None)
    deadline = time.monotonic() + SHUTDOWN_GRACE_S
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
            worker.join()
    for q in (*index_queues, data_queue):
        q.cancel_join_thread()
        q.close()
