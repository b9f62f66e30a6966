"""The accelerated engine as a package: registration, default choice, coverage, kernels."""

import subprocess
import sys

import numpy as np
import pytest

import dygrad
import dygrad_accelerated
from dygrad._core.optable import TABLE
from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import cpu_nn
from dygrad_accelerated.coverage import report
from dygrad_accelerated.engine import CYTHON, KERNELS, SOURCES


def test_registered_and_the_default():
    assert "accelerated" in dygrad.available_engines()
    code = "import dygrad; print(dygrad.get_engine())"
    env = {k: v for k, v in __import__("os").environ.items() if k != "DYGRAD_ENGINE"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "accelerated", out.stderr
    env["DYGRAD_ENGINE"] = "reference"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "reference", out.stderr


def test_same_version_as_dygrad():
    assert dygrad_accelerated.__version__ == dygrad.__version__


def test_every_op_has_a_kernel_and_a_declared_source():
    assert set(KERNELS) == set(TABLE) == set(SOURCES)
    assert set(SOURCES.values()) <= {"cython", "numpy", "reference"}
    for name, src in SOURCES.items():
        if src == "reference":
            assert KERNELS[name] is REFERENCE[name]
        if src == "cython":
            assert KERNELS[name] is CYTHON[name]


def test_coverage_report_counts():
    text = report(show_all=True)
    n = {src: sum(1 for s in SOURCES.values() if s == src) for src in ("cython", "numpy", "reference")}
    for src, count in n.items():
        assert f"  {src:<10} {count:4d}" in text
    assert f"dygrad-accelerated: {len(TABLE)} ops" in text
    out = subprocess.run([sys.executable, "-m", "dygrad_accelerated.coverage"], capture_output=True,
                         text=True)
    assert out.returncode == 0 and f"{len(TABLE)} ops" in out.stdout


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,axis", [((), -1), ((0, 3), 1), ((1,), 0), ((7,), -1), ((3, 5), 0),
                                        ((2, 3, 4), 1), ((64, 10), -1), ((2, 3, 4), -3)])
def test_softmax_kernels_match_the_reference(name, dtype, shape, axis):
    x = np.random.default_rng(0).uniform(-20, 20, shape).astype(dtype)
    want = REFERENCE[name](x, axis=axis)
    got = cpu_nn.KERNELS[name](x, axis=axis)
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = {np.float16: 1e-2, np.float32: 1e-5, np.float64: 1e-12}[dtype]
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol)


def test_softmax_kernel_on_a_non_contiguous_view():
    x = np.random.default_rng(1).normal(size=(6, 8)).astype(np.float32)[:, ::2].T
    np.testing.assert_allclose(cpu_nn.softmax(x, axis=1), REFERENCE["softmax"](x, axis=1),
                               rtol=1e-6)
