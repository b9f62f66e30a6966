"""Places: where an array lives. CPUPlace holds NumPy arrays; CUDAPlace(i) CuPy arrays."""

from __future__ import annotations


class Place:
    """Base of the places; prints as Paddle's ``Place(cpu)`` / ``Place(gpu:0)``."""

    __slots__ = ()
    kind = "undefined"

    def __repr__(self):
        return f"Place({self._label()})"

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Place) and self._label() == other._label()

    def __hash__(self):
        return hash(self._label())

    def is_cpu_place(self):
        return self.kind == "cpu"

    def is_gpu_place(self):
        return self.kind == "gpu"

    def _label(self):
        return self.kind


class CPUPlace(Place):
    __slots__ = ()
    kind = "cpu"


class CUDAPlace(Place):
    __slots__ = ("device_id",)
    kind = "gpu"

    def __init__(self, device_id: int = 0):
        if not isinstance(device_id, int) or device_id < 0:
            raise ValueError(f"CUDAPlace: device_id must be a non-negative int, got {device_id!r}")
        self.device_id = device_id

    def get_device_id(self):
        return self.device_id

    def _label(self):
        return f"gpu:{self.device_id}"


class CUDAPinnedPlace(Place):
    __slots__ = ()
    kind = "gpu_pinned"


CPU = CPUPlace()


def parse_device(device) -> Place:
    """'cpu', 'gpu', 'gpu:1', a Place or None -> a Place."""
    if device is None:
        return CPU
    if isinstance(device, Place):
        return device
    if not isinstance(device, str):
        raise TypeError(f"set_device: device must be a str such as 'cpu' or 'gpu:0', got {device!r}")
    name = device.strip().lower()
    if name == "cpu":
        return CPU
    if name in ("gpu", "cuda"):
        return CUDAPlace(0)
    for prefix in ("gpu:", "cuda:"):
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            return CUDAPlace(int(name[len(prefix):]))
    raise ValueError(f"set_device: unknown device {device!r}; expected 'cpu', 'gpu' or 'gpu:N'")
