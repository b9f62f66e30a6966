"""Engine discovery and selection, and the engine protocol's placement rules."""

import os
import subprocess
import sys

import numpy as np
import pytest

import dygrad
from dygrad._core import engine as engine_mod


def test_reference_engine_is_installed_through_entry_points():
    from importlib import metadata
    names = {ep.name for ep in metadata.entry_points(group="dygrad.engines")}
    assert "reference" in names
    assert "reference" in dygrad.available_engines()


def test_set_and_get_engine():
    before = dygrad.get_engine()
    dygrad.set_engine("reference")
    assert dygrad.get_engine() == "reference"
    with pytest.raises(ValueError, match="no engine named 'nosuch'.*reference"):
        dygrad.set_engine("nosuch")
    dygrad.set_engine(before)


def test_environment_variable_selects_engine():
    code = "import dygrad; print(dygrad.get_engine())"
    env = dict(os.environ, DYGRAD_ENGINE="reference")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "reference", out.stderr
    env["DYGRAD_ENGINE"] = "nosuch"
    out = subprocess.run([sys.executable, "-c", "import dygrad; dygrad.ones([1])"], env=env,
                         capture_output=True, text=True)
    assert out.returncode != 0 and "no engine named 'nosuch'" in out.stderr


def test_kernels_cover_the_table():
    from dygrad._core.optable import TABLE
    kernels = engine_mod.current().kernels
    assert sorted(set(TABLE) - set(kernels)) == []


def test_gpu_places_need_the_accelerated_engine():
    dygrad.set_engine("reference")
    with pytest.raises(RuntimeError, match="accelerated.*CuPy"):
        dygrad.set_device("gpu")
    with pytest.raises(RuntimeError, match="accelerated.*CuPy"):
        dygrad.to_tensor([1.0], place=dygrad.CUDAPlace(0))
    assert dygrad.get_device() == "cpu"
    assert dygrad.set_device("cpu") == dygrad.CPUPlace()


def test_places_print_as_paddle():
    assert str(dygrad.CPUPlace()) == "Place(cpu)"
    assert repr(dygrad.CUDAPlace(1)) == "Place(gpu:1)"
    assert dygrad.to_tensor([1.0]).place == dygrad.CPUPlace()


def test_kernel_error_is_replaced_by_the_tables_error():
    a = dygrad.to_tensor(np.ones((2, 3), np.float32))
    b = dygrad.to_tensor(np.ones((4, 5), np.float32))
    with pytest.raises(ValueError, match=r"matmul: .*\[2, 3\].*\[4, 5\]"):
        dygrad.matmul(a, b)


def test_ops_call_the_current_apply():
    """``ops.<name>`` is ``apply`` with the row bound, bound again whenever an engine or a
    mode replaces ``apply`` (static mode, a debugging mode)."""
    from dygrad._core import dispatch
    from dygrad._core.optable import TABLE
    from dygrad.autograd import detect_anomaly

    add = dispatch.ops.add
    assert add.func is dispatch.apply and add.args == (TABLE["add"],)
    assert add.__name__ == "add" and add.__doc__ == TABLE["add"].doc
    x = dygrad.to_tensor([1.0, 2.0])
    with detect_anomaly():
        assert dispatch.ops.add.func is dispatch.apply is not dispatch.REFERENCE_PATHS["apply"]
        np.testing.assert_array_equal(dispatch.ops.add(x, x).numpy(), [2.0, 4.0])
    dygrad.enable_static()
    try:
        assert dispatch.ops.add.func is dispatch.REFERENCE_PATHS["apply"]
    finally:
        dygrad.disable_static()
    assert dispatch.ops.add.func is dispatch.apply
    with pytest.raises(AttributeError, match="no op 'nosuch'"):
        dispatch.ops.nosuch()
