"""Data types: Paddle's dtype objects over NumPy dtypes, and the default float dtype."""

from __future__ import annotations

import numpy as np


class DType:
    """A dtype object that prints as Paddle's (``paddle.float32``) and compares with
    other DTypes, dtype strings and NumPy dtypes."""

    __slots__ = ("name", "np")

    def __init__(self, name: str, np_dtype):
        self.name = name
        self.np = np.dtype(np_dtype)

    def __repr__(self):
        return f"paddle.{self.name}"

    __str__ = __repr__

    def __eq__(self, other):
        if isinstance(other, DType):
            return self.np == other.np
        try:
            return self.np == convert_dtype(other).np
        except (TypeError, ValueError):
            return NotImplemented

    def __hash__(self):
        return hash(self.np)

    def __reduce__(self):
        return (convert_dtype, (self.name,))

    @property
    def is_floating_point(self) -> bool:
        return self.np.kind == "f"

    @property
    def is_integer(self) -> bool:
        return self.np.kind in "iu"


bool_ = DType("bool", np.bool_)
uint8 = DType("uint8", np.uint8)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
float16 = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)

ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64, complex64, complex128)
_BY_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update({"float": float32, "double": float64, "half": float16, "int": int32, "long": int64})
_PY_TYPES = {bool: bool_, int: int64, float: float32, complex: complex64}

_default = float32


def convert_dtype(dtype) -> DType:
    """Turn any spelling of a dtype (DType, 'float32', 'paddle.float32', np.float32,
    np.dtype, Python type) into a DType."""
    if isinstance(dtype, DType):
        return dtype
    if isinstance(dtype, str):
        key = dtype[7:] if dtype.startswith("paddle.") else dtype
        try:
            return _BY_NAME[key]
        except KeyError:
            raise TypeError(f"dtype: unsupported dtype {dtype!r}; expected one of "
                            f"{', '.join(d.name for d in ALL)}") from None
    if dtype in _PY_TYPES:
        return _PY_TYPES[dtype]
    try:
        return _BY_NP[np.dtype(dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"dtype: unsupported dtype {dtype!r}") from None


def from_numpy(np_dtype) -> DType:
    """The DType of a NumPy dtype (fast path for arrays the kernels return)."""
    return _BY_NP[np_dtype]


def set_default_dtype(d) -> None:
    """Set the dtype that Python floats and float NumPy data become (float16/32/64)."""
    global _default
    d = convert_dtype(d)
    if d.np.kind != "f":
        raise TypeError(f"set_default_dtype: only float16, float32 and float64 are "
                        f"supported, got {d.name}")
    _default = d


def get_default_dtype() -> str:
    """The default float dtype's name, as Paddle returns it ('float32')."""
    return _default.name


def default_float() -> DType:
    return _default


def result_float(d: DType) -> DType:
    """The float dtype an op on ``d`` produces (ints become the default float)."""
    return d if d.np.kind in "fc" else _default
