"""The current device (``set_device``/``get_device``) and the random seed."""

from __future__ import annotations

from .engine import current
from .place import CPU, Place, parse_device

_place: Place = CPU


def set_device(device) -> Place:
    """Make ``device`` ('cpu', 'gpu', 'gpu:N' or a Place) where new tensors are created."""
    global _place
    place = parse_device(device)
    current().check_place(place)
    _place = place
    return place


def get_device() -> str:
    """'cpu' or 'gpu:N', as Paddle spells it."""
    return "cpu" if _place.kind == "cpu" else f"gpu:{_place.device_id}"


def current_place() -> Place:
    return _place


def seed(n: int):
    """Make every random op of the current engine reproducible from ``n``."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"seed: expected an int, got {type(n).__name__}")
    current().seed(n)
    return _Generator(n)


class _Generator:
    """What ``paddle.seed`` returns: an object that knows its initial seed."""

    def __init__(self, n):
        self._seed = n

    def initial_seed(self):
        return self._seed

    def manual_seed(self, n):
        return seed(n)


def get_rng_state():
    return [current().get_rng_state()]


def set_rng_state(state):
    current().set_rng_state(state[0] if isinstance(state, list) else state)
