"""Logic functions of the tensor API (paddle.tensor.logic), and ``where``.

Comparisons, ``isclose`` and the logical ops return bool tensors and carry no gradient;
``where`` selects between x and y and is differentiable in both.
"""

from __future__ import annotations

import numpy as np

from .._core import dispatch as _dispatch
from .._core.creation import to_array
from .._core.dispatch import as_operands, ops
from .._core.optable import TABLE
from .._core.tensor import Tensor
from .reduce import check_tensor

__all__ = [
    "equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
    "isclose", "allclose", "logical_and", "logical_or", "logical_xor", "logical_not",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "where", "equal_all",
]
METHODS = list(__all__)


def _comparison(op_name, doc):
    """A public ``f(x, y, name=None)`` running the table's comparison ``op_name``."""
    op = TABLE[op_name]

    def fn(x, y, name=None):
        return _dispatch.binary(op, x, y)
    fn.__name__ = fn.__qualname__ = op_name
    fn.__doc__ = doc
    return fn


equal = _comparison("equal", "x == y elementwise, broadcasting (bool).")
not_equal = _comparison("not_equal", "x != y elementwise, broadcasting (bool).")
less_than = _comparison("less_than", "x < y elementwise, broadcasting (bool).")
less_equal = _comparison("less_equal", "x <= y elementwise, broadcasting (bool).")
greater_than = _comparison("greater_than", "x > y elementwise, broadcasting (bool).")
greater_equal = _comparison("greater_equal", "x >= y elementwise, broadcasting (bool).")


def _close(api, x, y, rtol, atol, equal_nan):
    x, y = as_operands(api, x, y)
    return _dispatch.apply(TABLE[api], x, y, rtol=float(rtol), atol=float(atol), equal_nan=bool(equal_nan))


def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """|x - y| <= atol + rtol * |y| elementwise, broadcasting (bool); NaNs are equal only
    with equal_nan."""
    return _close("isclose", x, y, rtol, atol, equal_nan)


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Whether isclose(x, y, ...) holds for every element: a 0-D bool tensor."""
    return _close("allclose", x, y, rtol, atol, equal_nan)


def equal_all(x, y, name=None):
    """Whether x and y have the same shape and equal elements (NaN never equals): a 0-D
    bool tensor. x and y must have one dtype (a ValueError otherwise, as Paddle)."""
    check_tensor("equal_all", x)
    check_tensor("equal_all", y, "y")
    if x._data.dtype != y._data.dtype:
        raise ValueError(f"equal_all: x has dtype {x.dtype.name} but y has {y.dtype.name}; "
                         f"cast one of them first")
    if x.shape != y.shape:
        return ops.full(shape=(), fill_value=False, dtype=np.dtype(np.bool_))
    return ops.all(ops.equal(x, y))


def _with_out(result, out):
    """Paddle's ``out=`` argument: the result written into ``out`` (then returned)."""
    if out is None:
        return result
    return out.set_value(result)


def _logical(op_name, doc):
    """A public ``f(x, y, out=None, name=None)`` running the table's binary ``op_name``."""
    op = TABLE[op_name]

    def fn(x, y, out=None, name=None):
        return _with_out(_dispatch.binary(op, x, y), out)
    fn.__name__ = fn.__qualname__ = op_name
    fn.__doc__ = doc
    return fn


logical_and = _logical("logical_and", "x and y elementwise, nonzero counting as true (bool).")
logical_or = _logical("logical_or", "x or y elementwise, nonzero counting as true (bool).")
logical_xor = _logical("logical_xor", "x xor y elementwise, nonzero counting as true (bool).")
bitwise_and = _logical("bitwise_and", "x & y bit by bit, broadcasting (bool or integer tensors).")
bitwise_or = _logical("bitwise_or", "x | y bit by bit, broadcasting (bool or integer tensors).")
bitwise_xor = _logical("bitwise_xor", "x ^ y bit by bit, broadcasting (bool or integer tensors).")


def logical_not(x, out=None, name=None):
    """not x elementwise, nonzero counting as true (bool)."""
    check_tensor("logical_not", x)
    return _with_out(ops.logical_not(x), out)


def bitwise_not(x, out=None, name=None):
    """~x bit by bit (bool or integer tensors)."""
    check_tensor("bitwise_not", x)
    return _with_out(ops.bitwise_not(x), out)


def where(condition, x=None, y=None, name=None):
    """x where the bool ``condition`` holds, else y (the three broadcast; x and y may be
    Python numbers). With neither x nor y: the coordinates of the true elements, as
    ``nonzero(condition, as_tuple=True)``."""
    if x is None and y is None:
        import dygrad
        return dygrad.nonzero(condition, as_tuple=True)
    if x is None or y is None:
        raise ValueError("where: either both or neither of x and y should be given")
    check_tensor("where", condition, "condition")
    if condition._data.dtype.kind != "b":
        raise ValueError(f"where: condition is expected to be a bool Tensor, got a Tensor with "
                         f"dtype {condition.dtype}")
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        # two numbers share the dtype a list of both would get (where(c, 1, 2.5) is float)
        pair = np.ndim(x) == 0 and np.ndim(y) == 0
        x = Tensor._wrap(to_array(x, to_array([x, y]).dtype if pair else None))
    x, y = as_operands("where", x, y)
    return ops.where(condition, x, y)
