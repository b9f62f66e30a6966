"""The engine protocol and engine selection.

An engine supplies a kernel for every op of the table and owns array placement. Kernels
take raw arrays and attributes and return raw arrays (or a tuple of them); they never
touch the autograd record.

Engines are found through the entry-point group ``dygrad.engines``. The default is the
accelerated engine when it is installed, else the reference; ``DYGRAD_ENGINE`` (read
once, at import) or :func:`set_engine` choose another.
"""

from __future__ import annotations

import os
from importlib import metadata
from typing import Callable, Mapping

import numpy as np

from .place import CPU, Place


class Engine:
    """What every engine provides. Subclasses fill ``kernels`` and may override placement."""

    name: str = "abstract"
    kernels: Mapping[str, Callable] = {}
    array_type: type = np.ndarray  # what kernels return; anything else goes through ensure()
    # Optional compiled equivalents of dispatch/autograd functions ({"apply": fn, ...}),
    # installed while this engine is selected; the pure-Python functions are the meaning.
    fast_paths: Mapping[str, Callable] | None = None
    # Whether the matmul kernel computes a product over an inner dimension of 1 without
    # BLAS's packing: static mode's outer-products pass then leaves such products to it.
    matmul_outer: bool = False

    @staticmethod
    def ensure(x):
        """Make a kernel's result an array of ``array_type`` (NumPy returns scalars for 0-D)."""
        return np.asarray(x)

    def __init__(self):
        self.generator = np.random.default_rng()

    # -- placement ---------------------------------------------------------------------
    def supports(self, place: Place) -> bool:
        return place.kind == "cpu"

    def check_place(self, place: Place) -> None:
        if not self.supports(place):
            raise RuntimeError(
                f"{place} is not available on the {self.name!r} engine: GPU places need the "
                f"accelerated engine with CuPy (pip install 'dygrad-accelerated[cuda12]', "
                f"then dygrad.set_engine('accelerated'))")

    def asarray(self, data, dtype: np.dtype, place: Place = CPU):
        """A new array of ``dtype`` on ``place`` holding ``data`` (copied)."""
        self.check_place(place)
        return np.array(data, dtype=dtype)

    def place_of(self, array) -> Place:
        return CPU

    def to_numpy(self, array) -> np.ndarray:
        return array

    def move(self, array, place: Place):
        self.check_place(place)
        return array

    def device_count(self) -> int:
        """How many CUDA devices this engine can run on."""
        return 0

    def synchronize(self, place: Place) -> None:
        """Wait until the kernels queued on ``place`` have finished (CPU kernels run at once)."""
        self.check_place(place)

    # -- randomness --------------------------------------------------------------------
    def seed(self, n: int) -> None:
        self.generator = np.random.default_rng(n)

    def get_rng_state(self):
        return self.generator.bit_generator.state

    def set_rng_state(self, state):
        self.generator.bit_generator.state = state

    # -- threads -----------------------------------------------------------------------
    def set_num_threads(self, n: int) -> None:
        """Use ``n`` threads in kernels. The reference engine's only threads are NumPy's
        BLAS pool: it is limited through threadpoolctl when that is installed; otherwise
        NumPy keeps the count it read from OMP_NUM_THREADS/OPENBLAS_NUM_THREADS at import."""
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:
            return
        threadpool_limits(n, user_api="blas")

    # -- coverage ----------------------------------------------------------------------
    def kernel_source(self, op_name: str) -> str:
        """Where this engine's kernel for an op comes from ('numpy', 'cython', 'reference', ...)."""
        return "numpy"


_REGISTRY: dict[str, Callable[[], Engine]] = {}
_instances: dict[str, Engine] = {}
_current: Engine | None = None
_listeners: list[Callable[[Engine], None]] = []
_num_threads: int = os.cpu_count() or 1


def _discover() -> None:
    """Fill the registry from the ``dygrad.engines`` entry points (once)."""
    if _REGISTRY:
        return
    for ep in metadata.entry_points(group="dygrad.engines"):
        _REGISTRY.setdefault(ep.name, ep.load)
    if "reference" not in _REGISTRY:  # running from a source tree that is not installed
        def _load_reference():
            from dygrad.kernels import ReferenceEngine
            return ReferenceEngine
        _REGISTRY["reference"] = _load_reference


def available_engines() -> list[str]:
    """Names of the installed engines."""
    _discover()
    return sorted(_REGISTRY)


def _instance(name: str) -> Engine:
    _discover()
    if name not in _REGISTRY:
        raise ValueError(f"set_engine: no engine named {name!r}; installed engines: "
                         f"{', '.join(sorted(_REGISTRY))}")
    if name not in _instances:
        cls = _REGISTRY[name]()
        _instances[name] = cls()
    return _instances[name]


def set_engine(name: str) -> None:
    """Select the engine that runs every op from now on."""
    global _current
    eng = _instance(name)
    _current = eng
    if _num_threads != (os.cpu_count() or 1):
        eng.set_num_threads(_num_threads)
    for fn in _listeners:
        fn(eng)


def set_num_threads(n: int) -> None:
    """Run kernels on ``n`` threads (default: all cores), on this and later engines."""
    global _num_threads
    n = int(n)
    if n < 1:
        raise ValueError(f"set_num_threads: expected a positive number of threads, got {n}")
    _num_threads = n
    current().set_num_threads(n)


def get_num_threads() -> int:
    """The number of threads kernels run on."""
    return _num_threads


def get_engine() -> str:
    """Name of the current engine."""
    return current().name


def current() -> Engine:
    if _current is None:
        _select_default()
    return _current


def on_engine_change(fn: Callable[[Engine], None]) -> None:
    """Call ``fn(engine)`` now and whenever the engine changes (dispatch caches kernels)."""
    _listeners.append(fn)
    if _current is not None:
        fn(_current)


def _select_default() -> None:
    wanted = os.environ.get("DYGRAD_ENGINE")
    if wanted:
        set_engine(wanted)
        return
    _discover()
    set_engine("accelerated" if "accelerated" in _REGISTRY else "reference")
