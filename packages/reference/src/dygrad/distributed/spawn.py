"""paddle.distributed.spawn: run ``func(*args)`` on ``nprocs`` new ranks of this machine.

The ranks are an MPI job started through the launcher's ``mpiexec -n nprocs python -c
RANK_CODE PAYLOAD [MAIN]``. ``func`` and ``args`` travel pickled, so
``func`` must be importable: a module-level function, also of the main script, which each
rank runs first under the name ``__mp_main__`` (as multiprocessing's spawn does: keep the
script's work under ``if __name__ == "__main__":``). ``func`` calls ``init_parallel_env()``
itself, as in Paddle.
"""

from __future__ import annotations

import os
import pickle
import runpy
import subprocess
import sys
import tempfile

__all__ = ["spawn", "MultiprocessContext"]


class MultiprocessContext:
    """The started job; ``join()`` waits for it and raises if a rank failed."""

    def __init__(self, process, payload):
        self.process, self._payload = process, payload

    def join(self, timeout=None):
        """Wait for the ranks (at most ``timeout`` seconds: then False); True when done."""
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        if os.path.exists(self._payload):
            os.remove(self._payload)
        if code != 0:
            raise RuntimeError(f"paddle.distributed.spawn: the ranks failed (exit status "
                               f"{code}); their errors are printed above")
        return True


def spawn(func, args=(), nprocs=-1, join=True, daemon=False, **options):
    """Start ``nprocs`` ranks (-1: one per CPU core) running ``func(*args)``; with ``join``
    wait for them. Returns a :class:`MultiprocessContext`. ``daemon`` and Paddle's other
    options (devices, ips) have no effect with MPI."""
    from .launch import mpiexec_command
    if nprocs == -1:
        nprocs = os.cpu_count() or 1
    if isinstance(nprocs, bool) or not isinstance(nprocs, int) or nprocs <= 0:
        raise ValueError(f"spawn: nprocs should be a positive integer or -1, got {nprocs!r}")
    fd, payload = tempfile.mkstemp(prefix="dygrad-spawn-", suffix=".pkl")
    with os.fdopen(fd, "wb") as f:
        pickle.dump((func, tuple(args)), f)
    argv = ["-c", _RANK_CODE, payload]
    main = getattr(sys.modules.get("__main__"), "__file__", None)
    if getattr(func, "__module__", None) == "__main__":
        if main is None:
            raise ValueError("spawn: func is defined in an interactive session; define it in "
                             "a module or a script file")
        argv.append(os.path.abspath(main))
    command, env = mpiexec_command(nprocs, argv)
    context = MultiprocessContext(subprocess.Popen(command, env=env), payload)
    if join:
        context.join()
    return context


def _run_rank(payload, main=None):
    """One rank: load the main script as ``__mp_main__`` (so ``__main__.func`` unpickles),
    then call the function."""
    if main is not None:
        module = type(sys)("__mp_main__")
        module.__dict__.update(runpy.run_path(main, run_name="__mp_main__"))
        sys.modules["__main__"] = sys.modules["__mp_main__"] = module
    with open(payload, "rb") as f:
        func, args = pickle.load(f)
    func(*args)


_RANK_CODE = "import sys; from dygrad.distributed.spawn import _run_rank; _run_rank(*sys.argv[1:])"
