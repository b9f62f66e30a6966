"""What runs inside a DataLoader worker process, and what it tells the main process.

A worker receives tasks ``(epoch, idx, indices)`` on its own index queue, fetches and
collates the samples, and puts ``(epoch, idx, payload)`` on the shared data queue. The
payload is the pickled NumPy batch (pickled here, so that an unpicklable batch is an
error the main process hears about), a :class:`WorkerError` (the dataset or collate function
raised), or :class:`IterableEnd` (the worker's copy of an IterableDataset is exhausted). A
:class:`Resume` message starts a new epoch (persistent workers); ``None`` asks the worker
to exit.
"""

from __future__ import annotations

import os
import pickle
import queue
import random
import sys
import traceback

import numpy as np

from .._core import errors as _errors
from .._core.device import seed as _seed_dygrad
from .collate import to_numpy

__all__ = ["get_worker_info", "WorkerInfo"]

POLL_S = 0.2  # how often a waiting worker or loader checks that its peer is alive

_worker_info = None


class WorkerInfo:
    """What :func:`get_worker_info` tells code running in a worker: ``id``,
    ``num_workers``, ``seed`` (the base seed the loader drew when it started its workers;
    the worker's random generators, Python's, NumPy's global one and dygrad's, are seeded
    with ``seed + id``) and ``dataset`` (this worker's copy)."""

    def __init__(self, **kwargs):
        for key, value in kwargs.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key, value):
        raise RuntimeError(f"Cannot assign attributes to {type(self).__name__} objects")

    def __repr__(self):
        return (f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, "
                f"seed={self.seed})")


def get_worker_info():
    """Inside a DataLoader worker process, its :class:`WorkerInfo`; ``None`` elsewhere."""
    return _worker_info


class WorkerError:
    """An exception raised in a worker, carried to the main process as its type, the
    formatted traceback (without dygrad's frames) and the user's line that raised it, and
    raised there again by :meth:`reraise`."""

    def __init__(self, worker_id, indices=None):
        exc_type, exc, tb = sys.exc_info()
        self.worker_id = worker_id
        self.exc_type = exc_type if _picklable(exc_type) else RuntimeError
        self.exc_name = exc_type.__name__
        self.text = "".join(traceback.format_exception(exc_type, exc,
                                                       _errors.trim_traceback(tb) or tb))
        self.site = _errors.user_site_in_tb(tb)
        self.indices = None if indices is None else list(indices)[:8]

    def reraise(self):
        msg = (f"DataLoader worker({self.worker_id}) caught {self.exc_name} with message:\n"
               f"{self.text}")
        try:
            err = self.exc_type(msg)
        except Exception:  # an exception type that cannot be built from one message
            err = RuntimeError(msg)
        where = None if self.site is None else f"{self.site} (in worker {self.worker_id})"
        hint = (None if self.indices is None else
                f"the batch of sample indices {self.indices}; num_workers=0 runs the dataset "
                f"in this process, where a debugger can stop at the error")
        raise _errors.annotate(err, at=where, hint=hint)


def _picklable(obj) -> bool:
    try:
        pickle.dumps(obj)
    except Exception:
        return False
    return True


class IterableEnd:
    """A worker's copy of the IterableDataset has no more (full) batches."""

    def __init__(self, worker_id):
        self.worker_id = worker_id


class Resume:
    """Start the next epoch: make a fresh fetcher (persistent workers)."""


class Fetcher:
    """Turns a task's indices into a collated batch, for a map-style dataset (``iterable``
    False) or an IterableDataset (indices are placeholders; only their count matters)."""

    def __init__(self, dataset, iterable, auto_collate, collate_fn, drop_last):
        self.dataset = dataset
        self.iterable = iterable
        self.auto_collate = auto_collate
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.stream = iter(dataset) if iterable else None

    def fetch(self, indices):
        """The batch for ``indices``; StopIteration when an IterableDataset is done."""
        if not self.auto_collate:
            sample = next(self.stream) if self.iterable else self.dataset[indices]
            return self.collate_fn(sample)
        if self.iterable:
            samples = [s for _, s in zip(indices, self.stream)]
            if not samples or (self.drop_last and len(samples) < len(indices)):
                raise StopIteration
        else:
            samples = [self.dataset[i] for i in indices]
        return self.collate_fn(samples)


def worker_loop(dataset, iterable, index_queue, data_queue, done_event, auto_collate,
                collate_fn, drop_last, init_fn, worker_id, num_workers, base_seed, parent_pid):
    """The body of worker process ``worker_id``."""
    global _worker_info
    data_queue.cancel_join_thread()  # never block this process's exit on unsent results
    seed = base_seed + worker_id
    random.seed(seed)
    np.random.seed(seed % 2**32)
    _seed_dygrad(seed)
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=base_seed,
                              dataset=dataset)
    init_error = None
    try:
        if init_fn is not None:
            init_fn(worker_id)
        fetcher = Fetcher(dataset, iterable, auto_collate, collate_fn, drop_last)
    except Exception:
        init_error = WorkerError(worker_id)
    exhausted = False
    while not done_event.is_set():
        try:
            task = index_queue.get(timeout=POLL_S)
        except queue.Empty:
            if os.getppid() != parent_pid:  # the main process died: nobody will ask us to stop
                break
            continue
        if task is None:
            break
        if isinstance(task, Resume):
            exhausted = False
            try:
                fetcher = Fetcher(dataset, iterable, auto_collate, collate_fn, drop_last)
            except Exception:
                init_error = WorkerError(worker_id)
            continue
        epoch, idx, indices = task
        if exhausted:
            continue
        if init_error is not None:
            data_queue.put((epoch, idx, init_error))
            continue
        try:
            payload = pickle.dumps(to_numpy(fetcher.fetch(indices)), pickle.HIGHEST_PROTOCOL)
        except StopIteration:
            if not iterable:
                payload = WorkerError(worker_id, indices)
            else:
                exhausted = True
                payload = IterableEnd(worker_id)
        except Exception:
            payload = WorkerError(worker_id, indices)
        data_queue.put((epoch, idx, payload))
