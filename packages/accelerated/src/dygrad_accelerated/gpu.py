"""CUDA places through CuPy: device detection, placement, and the kernels of both places.

Nothing here imports CuPy until a CUDA place is asked for (``device_count()``,
``set_device('gpu')``, ``to_tensor(..., place=CUDAPlace(0))``...), so the CPU path pays
nothing for it, installed or not. The accelerated engine mixes in :class:`CudaPlacement`:
its kernel mapping stays the CPU one until a CUDA place is first used; from then on it is
``_Cuda.kernels``, where every op's kernel runs the CPU kernel on NumPy inputs and the GPU
kernel (``gpu_kernels``) on CuPy inputs, and refuses inputs on different places.
"""

from __future__ import annotations

import numpy as np

from dygrad._core import device as _device
from dygrad._core import engine as _engine
from dygrad._core.optable import TABLE
from dygrad._core.place import CPU, CUDAPlace

from . import gpu_kernels
from .gpu_compat import Compat

_probed: tuple | None = None  # (cupy or None, number of devices, why none)


def _probe() -> tuple:
    """Import CuPy and count its devices, once."""
    global _probed
    if _probed is None:
        try:
            import cupy
        except Exception as exc:  # not installed, or its CUDA libraries are missing
            _probed = (None, 0, f"CuPy is not usable ({type(exc).__name__}: {exc}); install it "
                                f"with pip install 'dygrad-accelerated[cuda12]' (or [cuda13])")
        else:
            try:
                n = cupy.cuda.runtime.getDeviceCount()
                why = "" if n else "CuPy found no CUDA device"
            except Exception as exc:  # no driver, or a driver too old for this CuPy
                n, why = 0, f"CuPy found no usable CUDA device ({exc})"
            _probed = (cupy if n else None, n, why)
    return _probed


def device_count() -> int:
    """The number of CUDA devices CuPy can use (0 without CuPy or a device)."""
    return _probe()[1]


def is_available() -> bool:
    """Whether CuPy and at least one CUDA device are usable."""
    return device_count() > 0


def unavailable_reason() -> str:
    """Why no CUDA device is usable ('' when one is)."""
    return _probe()[2]


def synchronize(device_id: int) -> None:
    """Wait for every kernel queued on CUDA device ``device_id`` to finish."""
    cupy = _probe()[0]
    if cupy is None:
        raise RuntimeError(f"synchronize: no CUDA device is usable: {unavailable_reason()}")
    cupy.cuda.Device(device_id).synchronize()


class CudaPlacement:
    """The engine's placement methods for CPU and CUDA places (NumPy and CuPy arrays)."""

    _cuda = None        # the _Cuda state, from the first use of a CUDA place on
    _last_seed = None   # the seed the GPU generators start from

    def device_count(self) -> int:
        return device_count()

    def synchronize(self, place) -> None:
        self.check_place(place)
        if place.kind == "gpu":
            synchronize(place.device_id)

    def supports(self, place) -> bool:
        return place.kind == "cpu" or (place.kind == "gpu" and place.device_id < device_count())

    def check_place(self, place) -> None:
        if self.supports(place):
            if place.kind == "gpu":
                self._gpu()
            return
        if place.kind != "gpu":
            raise ValueError(f"{place} is not supported by the {self.name!r} engine: use "
                             f"CPUPlace() or CUDAPlace(i)")
        n = device_count()
        if n == 0:
            raise ValueError(f"The device should not be 'gpu:{place.device_id}', since no CUDA "
                             f"device is usable: {unavailable_reason()}")
        raise ValueError(f"The device should not be 'gpu:{place.device_id}': there are {n} "
                         f"CUDA devices (gpu:0 .. gpu:{n - 1})")

    def asarray(self, data, dtype, place=CPU):
        if place.kind == "cpu":
            return np.array(data, dtype=dtype)
        self.check_place(place)
        return self._gpu().asarray(data, dtype, place.device_id)

    def place_of(self, array):
        if type(array) is np.ndarray or self._cuda is None:
            return CPU
        return self._cuda.place_of(array)

    def to_numpy(self, array):
        if type(array) is np.ndarray or self._cuda is None:
            return array
        return self._cuda.to_numpy(array)

    def move(self, array, place):
        self.check_place(place)
        if place.kind == "cpu":
            return self.to_numpy(array)
        if self.place_of(array) == place:
            return array
        return self._gpu().asarray(array, array.dtype, place.device_id)

    def seed(self, n: int) -> None:
        super().seed(n)
        self._last_seed = n
        if self._cuda is not None:
            self._cuda.generators.clear()

    def _gpu(self):
        """The CUDA state; built, and the engine's kernels switched to both places, at the
        first use of a CUDA place (dispatch is told by re-selecting the engine)."""
        if self._cuda is None:
            self._cuda = _Cuda(self)
            self.kernels, self.ensure = self._cuda.kernels, self._cuda.ensure
            if _engine.current() is self:
                _engine.set_engine(self.name)
        return self._cuda


class _Cuda:
    """CuPy, the GPU kernels, the random generators per device, and the kernel mapping that
    serves both places."""

    def __init__(self, engine):
        self.cp = _probe()[0]
        self.engine = engine
        self.ndarray = self.cp.ndarray
        self.xp = Compat(self.cp)
        self.generators = {}
        gpu = gpu_kernels.build(self.xp)
        self.kernels = {name: self._dual(TABLE[name], cpu, gpu[name])
                        for name, cpu in engine.kernels.items()}
        ndarray = self.ndarray

        def ensure(x):
            return x if type(x) is ndarray else np.asarray(x)
        self.ensure = ensure

    # -- arrays ------------------------------------------------------------------------
    def asarray(self, data, dtype, device_id):
        with self.cp.cuda.Device(device_id):
            return self.cp.array(data, dtype=dtype)

    def place_of(self, array):
        return CUDAPlace(array.device.id) if type(array) is self.ndarray else CPU

    def to_numpy(self, array):
        return array.get() if type(array) is self.ndarray else array

    def generator(self, device_id):
        """The random generator of a device, seeded with the last ``dygrad.seed``."""
        gen = self.generators.get(device_id)
        if gen is None:
            with self.cp.cuda.Device(device_id):
                gen = self.generators[device_id] = self.xp.default_rng(self.engine._last_seed)
        return gen

    # -- kernels -----------------------------------------------------------------------
    def _dual(self, op, cpu, gpu):
        """The kernel of ``op`` for both places: by the inputs' place, or for an op without
        inputs (creation) by the current device."""
        if not op.inputs:
            def kernel(**attrs):
                place = _device.current_place()
                if place.kind == "cpu":
                    return cpu(**attrs)
                return self.run(op, gpu, place.device_id, (), attrs)
        else:
            def kernel(*arrays, **attrs):
                for a in arrays:
                    if type(a) is not np.ndarray:
                        break
                else:  # NumPy arrays only: the CPU
                    return cpu(*arrays, **attrs)
                device_id = self.device_of(op, arrays)
                if device_id is None:
                    return cpu(*_each(arrays, self.to_numpy), **attrs)
                return self.run(op, gpu, device_id, arrays, attrs)
        kernel.__name__, kernel.__doc__ = op.name, getattr(gpu, "__doc__", None)
        kernel.__wrapped__ = cpu  # the signature is the CPU kernel's (checked by conformance)
        return kernel

    def device_of(self, op, arrays):
        """The CUDA device id the op runs on, None for the CPU. 0-D inputs follow the others,
        as Python scalars do (``x * 2`` makes a 0-D array on the current device); inputs
        with dimensions on different places raise an error naming them and their places."""
        items = []
        for name, a in zip(op.inputs, arrays):
            if isinstance(a, list):
                items += [(f"{name}[{i}]", x) for i, x in enumerate(a)]
            else:
                items.append((name, a))
        items = [(name, a) for name, a in items
                 if type(a) is np.ndarray or type(a) is self.ndarray]
        places = [(name, self.place_of(a)) for name, a in items if a.ndim] or \
                 [(name, self.place_of(a)) for name, a in items[:1]]
        if not places or places[0][1] is CPU and all(p is CPU for _, p in places):
            return None
        if any(p != places[0][1] for _, p in places):
            found = ", ".join(f"{name} is on {p}" for name, p in places)
            raise RuntimeError(f"{op.name}: the inputs are on different places ({found}); move "
                               f"them to one place first (Tensor.cuda(), Tensor.cpu() or "
                               f"Tensor.to(place))")
        return places[0][1].device_id

    def run(self, op, gpu, device_id, arrays, attrs):
        """The GPU kernel on device ``device_id``: 0-D NumPy inputs and NumPy arrays among
        the attributes (index arrays) are copied to it, random ops draw from its generator,
        results are CuPy arrays."""
        cp, ndarray = self.cp, self.ndarray

        def to_device(a):
            return cp.asarray(a) if type(a) is np.ndarray else a
        with cp.cuda.Device(device_id):
            arrays = _each(arrays, to_device)
            for k, v in attrs.items():
                if type(v) is np.ndarray:
                    attrs[k] = cp.asarray(v)
                elif type(v) is tuple and any(type(i) is np.ndarray for i in v):
                    attrs[k] = tuple(to_device(i) for i in v)
            if op.random:
                attrs["rng"] = self.generator(device_id)
            out = gpu(*arrays, **attrs)
            if type(out) is tuple:
                return tuple(o if type(o) is ndarray else cp.asarray(o) for o in out)
            return out if type(out) is ndarray else cp.asarray(out)


def _each(arrays, fn):
    """``fn`` applied to every array of a kernel's positional inputs (lists included)."""
    return tuple([fn(x) for x in a] if isinstance(a, list) else fn(a) for a in arrays)
