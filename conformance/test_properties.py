"""Property tests: every binary elementwise op (and where) agrees with its NumPy statement
from the op database on random broadcastable shapes and values, on every engine."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from strategies import broadcast_operands

from dygrad._core.dispatch import apply
from dygrad._core.optable import TABLE
from dygrad._core.tensor import Tensor
from opdb import OPDB

ANY = (-4.0, 4.0, False)
NONZERO = (-4.0, 4.0, True)

# value ranges per operand where the op needs them (divisors away from zero; x ** y with
# x > 0 for floats and y >= 0 for integers)
RANGES = {
    "divide": [ANY, NONZERO],
    "floor_divide": [ANY, NONZERO],
    "remainder": [ANY, NONZERO],
    "elementwise_pow": [(0.25, 4.0, False), (-3.0, 3.0, False)],
}
INT_RANGES = {"elementwise_pow": [(-3, 3, False), (0, 3, False)]}

BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder",
          "elementwise_pow", "maximum", "minimum", "equal", "not_equal", "less_than",
          "less_equal", "greater_than", "greater_equal", "isclose", "allclose", "logical_and",
          "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"]
CASES = [(name, np.dtype(d).name) for name in BINARY for d in OPDB[name].dtypes]

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _check(name, arrays, dtype):
    """The op on the engine against the op database's NumPy statement."""
    info = OPDB[name]
    tensors = [Tensor._wrap(_engine_array(a)) for a in arrays]
    actual = apply(TABLE[name], *tensors).numpy()
    expected = np.asarray(info.ref(*arrays))
    assert actual.shape == expected.shape and actual.dtype == expected.dtype, \
        f"{name}: got {actual.shape} {actual.dtype}, expected {expected.shape} {expected.dtype}"
    if actual.dtype.kind in "fc":
        rtol, atol = info.tolerance(dtype)
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(actual, expected)


def _engine_array(a):
    import dygrad
    eng = dygrad._core.engine.current()
    return a if eng.array_type is np.ndarray else eng.asarray(a, a.dtype)


@pytest.mark.parametrize("name,dtype", CASES, ids=[f"{n}-{d}" for n, d in CASES])
def test_binary_op_matches_numpy(engine, name, dtype):
    kind = np.dtype(dtype).kind
    ranges = (INT_RANGES if kind in "iu" else {}).get(name, RANGES.get(name))

    @SETTINGS
    @given(broadcast_operands((dtype, dtype), ranges=ranges))
    def check(arrays):
        _check(name, arrays, dtype)

    check()


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_where_matches_numpy(engine, dtype):
    @SETTINGS
    @given(broadcast_operands(("bool", dtype, dtype), n=3))
    def check(arrays):
        _check("where", arrays, dtype)

    check()
