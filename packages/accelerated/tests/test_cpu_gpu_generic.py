"""The GPU path without a GPU: the GPU kernels' code run with NumPy as the array module
(restricted to CuPy's API) against the reference kernels; the engine's CUDA placement and
two-place kernels with a stand-in for CuPy on NumPy; the place API where no device is."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from _gpu_checks import OPDB, accelerated_with, check_lenet, check_op, check_places, fake_cupy

import dygrad
from dygrad._core.optable import TABLE
from dygrad.kernels import KERNELS as REFERENCE
from dygrad_accelerated import gpu, gpu_kernels
from dygrad_accelerated.gpu_compat import CUPY_API, FILL_INS, GENERATOR_API, LINALG, UFUNC_AT, Compat
from opdb import noncontiguous

XP = Compat(np)
GPU_KERNELS = gpu_kernels.build(XP)


def _copy(inputs, noncontig):
    conv = noncontiguous if noncontig else (lambda a: a)
    return [[conv(np.array(x)) for x in a] if isinstance(a, list) else conv(np.array(a))
            for a in inputs]


@pytest.mark.parametrize("name", sorted(TABLE))
def test_gpu_kernel_code_on_numpy_matches_reference(name):
    """The GPU kernel of every op, run on NumPy restricted to CuPy's API, gives the reference
    kernel's results on every op-database sample (contiguous and not)."""
    info, ran = OPDB[name], 0
    for dtype in info.dtypes:
        for sample in info.samples(dtype, np.random.default_rng(0)):
            for noncontig in (False, True):
                attrs = dict(sample.attrs)
                if TABLE[name].random:
                    want_rng, got_rng = np.random.default_rng(1), XP.default_rng(1)
                try:
                    want = REFERENCE[name](*_copy(sample.inputs, noncontig), **attrs,
                                           **({"rng": want_rng} if TABLE[name].random else {}))
                except Exception as exc:
                    with pytest.raises(type(exc)):
                        GPU_KERNELS[name](*_copy(sample.inputs, noncontig), **attrs,
                                          **({"rng": got_rng} if TABLE[name].random else {}))
                    continue
                got = GPU_KERNELS[name](*_copy(sample.inputs, noncontig), **attrs,
                                        **({"rng": got_rng} if TABLE[name].random else {}))
                want = want if isinstance(want, tuple) else (want,)
                got = got if isinstance(got, tuple) else (got,)
                rtol, atol = info.tolerance(dtype)
                for w, g in zip(want, got, strict=True):
                    w, g = np.asarray(w), np.asarray(g)
                    assert (w.shape, w.dtype) == (g.shape, g.dtype), sample
                    if name == "randperm":   # drawn another way on the GPU: a permutation
                        np.testing.assert_array_equal(np.sort(g), np.arange(g.size))
                    else:
                        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True,
                                                   err_msg=repr(sample))
                ran += 1
    assert ran, f"no sample of {name} ran"


def test_compat_holds_only_cupys_api():
    assert not hasattr(XP, "nanmean") and not hasattr(XP, "lib")
    assert not hasattr(XP.logaddexp, "at") and not hasattr(XP.subtract, "reduce")
    assert hasattr(XP.add, "at") and not hasattr(XP.divide, "at")
    gen = XP.default_rng(0)
    assert not hasattr(gen, "choice") and not hasattr(gen, "shuffle")


def test_compat_fill_ins_match_numpy():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 5))
    idx = (np.array([0, 2, 0, 0, 3]), np.array([1, 1, 1, 4, 1]))
    vals = rng.standard_normal(5)
    want, got = a.copy(), a.copy()
    np.multiply.at(want, idx, vals)
    XP.multiply.at(got, idx, vals)
    np.testing.assert_array_equal(got, want)   # repeated positions in their order: exact
    np.testing.assert_array_equal(XP.multiply.outer(np.arange(3), np.arange(4.0)),
                                  np.multiply.outer(np.arange(3), np.arange(4.0)))
    b = np.array([[-np.inf, -np.inf], [1.0, 800.0], [np.inf, 0.0]])
    np.testing.assert_allclose(XP.logaddexp.reduce(b, axis=1), np.logaddexp.reduce(b, axis=1))
    np.testing.assert_array_equal(XP.default_rng(3).normal(1.0, 2.0, 5),
                                  np.random.default_rng(3).normal(1.0, 2.0, 5))
    assert XP.prod((2, 3, 4)) == 24 and XP.prod([]) == 1
    np.testing.assert_array_equal(XP.max(a, axis=0, initial=0.5), np.max(a, axis=0, initial=0.5))
    np.testing.assert_array_equal(XP.min(np.zeros((0, 3)), axis=0, initial=2.0), [2.0] * 3)
    for got, want in zip(XP.indices((2, 3, 4), sparse=True), np.indices((2, 3, 4), sparse=True)):
        np.testing.assert_array_equal(got, want)
    t, d = np.array([0.0, 1.0, 2.0]), np.array([0.0, 0.5, 4.0])
    np.testing.assert_array_equal(XP.divide(t, d, out=np.zeros(3), where=t != 0), [0, 2, 0.5])
    np.testing.assert_array_equal(XP.pad(np.ones(2), np.array([[1, 2]])), [0, 1, 1, 0, 0])


def test_cupy_has_every_name_the_gpu_kernels_use():
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed")
    missing = [n for n in CUPY_API if not hasattr(cupy, n)]
    missing += [f"{n}.at" for n in UFUNC_AT if getattr(cupy, n)._scatter_op is None]
    missing += [f"linalg.{n}" for n in LINALG if not hasattr(cupy.linalg, n)]
    missing += [f"Generator.{n}" for n in GENERATOR_API if not hasattr(cupy.random.Generator, n)]
    assert not missing
    assert callable(cupy.lib.stride_tricks.sliding_window_view)
    assert gpu_kernels.build(Compat(cupy)).keys() == TABLE.keys()


def _numpy_calls():
    """(file:line, 'name', keywords) of every ``np.<name>(...)`` call in the reference kernels."""
    import dygrad.kernels
    for path in sorted(Path(dygrad.kernels.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                parts, f = [], node.func
                while isinstance(f, ast.Attribute):
                    parts.insert(0, f.attr)
                    f = f.value
                if isinstance(f, ast.Name) and f.id == "np":
                    yield f"{path.name}:{node.lineno}", ".".join(parts), \
                        [k.arg for k in node.keywords if k.arg]


def test_cupy_accepts_the_keywords_the_kernels_pass():
    """Every NumPy call of the reference kernels that reaches CuPy itself (not a fill-in)
    passes only keywords CuPy's function takes (ufuncs: out, dtype, casting)."""
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed")
    problems = []
    for where, name, keywords in _numpy_calls():
        if name in FILL_INS or name.split(".")[0] in ("linalg", "random"):
            continue
        fn = cupy
        for part in name.split("."):
            fn = getattr(fn, part)
        try:
            params = inspect.signature(fn).parameters
            if any(p.kind == p.VAR_KEYWORD for p in params.values()):
                continue
        except (TypeError, ValueError):  # a ufunc
            params = ("out", "dtype", "casting")
        problems += [f"{where} {name}({k}=)" for k in keywords if k not in params]
    assert not problems


def test_no_cuda_kernels_to_compile():
    assert gpu_kernels.CUDA_KERNELS == ()


# -- the engine's CUDA path with a stand-in for CuPy -----------------------------------

@pytest.fixture
def fake_gpu():
    with accelerated_with(probe=(fake_cupy(), 1, "")):
        yield


@pytest.mark.parametrize("name", sorted(TABLE))
def test_every_op_on_the_stand_in_device(fake_gpu, name):
    check_op(name)


def test_places_on_the_stand_in_device(fake_gpu):
    check_places()


def test_lenet_on_the_stand_in_device(fake_gpu):
    check_lenet()


def test_cpu_kernels_stay_until_a_cuda_place_is_used(fake_gpu):
    eng = dygrad._core.engine.current()
    cpu_kernels = type(eng).kernels
    assert eng.kernels is cpu_kernels
    dygrad.to_tensor([1.0]) + dygrad.to_tensor([2.0])
    assert eng.kernels is cpu_kernels
    dygrad.to_tensor([1.0], place="gpu:0")
    assert eng.kernels is not cpu_kernels and eng.kernels.keys() == cpu_kernels.keys()
    assert dygrad._core.dispatch._kernels is eng.kernels


# -- where no CUDA device is usable ----------------------------------------------------

no_device = pytest.mark.skipif(gpu.device_count() > 0, reason="a CUDA device is usable here")


@no_device
def test_without_a_device_paddle_says_no_cuda():
    with accelerated_with():
        assert dygrad.device.cuda.device_count() == 0 and dygrad.device.device_count() == 0
        assert not dygrad.is_compiled_with_cuda() and not dygrad.device.is_compiled_with_cuda()
        with pytest.raises(ValueError, match="The device should not be 'gpu:0', since no CUDA"):
            dygrad.set_device("gpu")
        assert dygrad.get_device() == "cpu"
        x = dygrad.to_tensor([1.0, 2.0])
        with pytest.raises(ValueError, match="The device should not be 'gpu:0'"):
            x.cuda()
        with pytest.raises(ValueError, match="The device should not be 'gpu:1'"):
            dygrad.to_tensor([1.0], place=dygrad.CUDAPlace(1))
        with pytest.raises(RuntimeError, match="no CUDA device is usable"):
            dygrad.device.cuda.synchronize()
        dygrad.device.synchronize()   # the CPU: nothing to wait for


def test_reference_engine_has_no_cuda(engine_reference):
    assert dygrad.device.cuda.device_count() == 0 and not dygrad.is_compiled_with_cuda()
    with pytest.raises(RuntimeError, match="is not available on the 'reference' engine"):
        dygrad.to_tensor([1.0]).cuda()


@pytest.fixture
def engine_reference():
    before = dygrad.get_engine()
    dygrad.set_engine("reference")
    yield
    dygrad.set_engine(before)


def test_cpu_place_methods():
    x = dygrad.to_tensor([1.0, 2.0], stop_gradient=False)
    assert x.cpu() is x and x.to("cpu") is x and x.to(dygrad.CPUPlace()) is x and x.to(x) is x
    y = x.to("float64")
    assert str(y.dtype) == "paddle.float64" and y.grad_fn is not None  # a cast, recorded
    assert str(x.to("cpu", "float64", True).dtype) == "paddle.float64"
    assert str(x.to(dtype="float16").dtype) == "paddle.float16"
    assert str(dygrad.CUDAPlace(0)) == "Place(gpu:0)" and str(x.place) == "Place(cpu)"
    with pytest.raises(ValueError, match="unknown device 'xyz'"):
        x.to("xyz")
    with pytest.raises(TypeError, match="Tensor.to"):
        x.to("cpu", "float32", True, 1)


def test_the_cpu_path_never_imports_cupy():
    code = ("import sys, dygrad; x = dygrad.to_tensor([1.0], stop_gradient=False); "
            "(x * 2).sum().backward(); print(x.place, 'cupy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["Place(cpu)", "False"]
