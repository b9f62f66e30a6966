"""paddle.set_flags / paddle.get_flags: the global flags dygrad acts on.

Only flags with an effect here are accepted; any other name is a ValueError, as Paddle
answers for a flag it does not expose.
"""

from __future__ import annotations


def _flags():
    from ..autograd import anomaly
    # name -> (getter, setter)
    return {"FLAGS_check_nan_inf": (anomaly.check_nan_inf, anomaly.set_check_nan_inf)}


def set_flags(flags) -> None:
    """Set global flags from a dict, e.g. ``{'FLAGS_check_nan_inf': 1}`` (anomaly mode)."""
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    known = _flags()
    for name in flags:
        if name not in known:
            raise ValueError(f"Flag {name} cannot set its value through this function. "
                             f"dygrad's flags: {', '.join(sorted(known))}")
    for name, value in flags.items():
        known[name][1](value)


def get_flags(flags) -> dict:
    """``{name: value}`` for a flag name or a list/tuple of names."""
    if isinstance(flags, str):
        flags = [flags]
    elif not isinstance(flags, (list, tuple)):
        raise TypeError("Flags in get_flags should be a list, tuple or string.")
    known = _flags()
    out = {}
    for name in flags:
        if name not in known:
            raise ValueError(f"Flag {name} cannot get its value through this function. "
                             f"dygrad's flags: {', '.join(sorted(known))}")
        out[name] = known[name][0]()
    return out
