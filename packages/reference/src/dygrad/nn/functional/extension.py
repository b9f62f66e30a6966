"""paddle.nn.functional: sequence_mask (Paddle's ``nn.functional.extension``)."""

from __future__ import annotations

from ... import tensor as T
from ...tensor.creation import convert_dtype
from ...tensor.manipulation import _int
from ._check import check_tensor


def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """The masks of the sequence lengths x: ``out[..., j] = j < x[...]`` in ``dtype``, of
    shape x.shape + [maxlen]; ``maxlen`` (an int or a one-element int Tensor) None or
    negative takes max(x) (truncated to an int; 0 for an empty x)."""
    check_tensor(x, "sequence_mask")
    if x.dtype.name not in ("int32", "int64", "float32", "float64"):
        raise TypeError(f"sequence_mask: x must be int32, int64, float32 or float64, got "
                        f"{x.dtype.name}")
    maxlen = -1 if maxlen is None else _int(maxlen, "sequence_mask", "maxlen")
    if maxlen < 0:
        maxlen = int(x.numpy().max()) if x.size else 0
    positions = T.arange(maxlen, dtype=x.dtype)
    return T.cast(T.unsqueeze(x, -1) > positions, convert_dtype(dtype))


__all__ = ["sequence_mask"]
