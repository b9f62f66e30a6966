"""Checks of the CUDA path shared by test_gpu.py (real CuPy and device) and
test_cpu_gpu_generic.py (the same path with a stand-in for CuPy built on NumPy)."""

from __future__ import annotations

import contextlib
import sys
import types
from pathlib import Path

import numpy as np

import dygrad
from dygrad._core import engine as _engine
from dygrad._core.dispatch import apply
from dygrad._core.optable import TABLE
from dygrad._core.tensor import Tensor
from dygrad_accelerated import gpu
from dygrad_accelerated.engine import AcceleratedEngine

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "conformance"))
from opdb import OPDB  # noqa: E402

GPU = dygrad.CUDAPlace(0)
# GPU reductions and GEMMs add in another order than the CPU's: at least these tolerances
MIN_TOL = {np.dtype(np.float16): (1e-2, 1e-2), np.dtype(np.float32): (1e-4, 1e-5),
           np.dtype(np.float64): (1e-9, 1e-10)}


# ---------------------------------------------------------------------------
# a stand-in for CuPy on NumPy: device arrays are a NumPy subclass on "device 0"
# ---------------------------------------------------------------------------

class DeviceArray(np.ndarray):
    """A NumPy array that the stand-in calls a device array."""

    device = types.SimpleNamespace(id=0)

    def get(self):
        return np.array(self.view(np.ndarray))


def fake_cupy():
    """A module with NumPy's functions whose ``ndarray`` is :class:`DeviceArray`."""
    mod = types.ModuleType("fake_cupy")
    for name in dir(np):
        if not name.startswith("_"):
            setattr(mod, name, getattr(np, name))
    mod.ndarray = DeviceArray
    mod.asarray = lambda a, dtype=None: np.asarray(
        a.get() if isinstance(a, DeviceArray) else a, dtype).view(DeviceArray)
    mod.array = lambda a, dtype=None: np.array(
        a.get() if isinstance(a, DeviceArray) else a, dtype).view(DeviceArray)

    class Device(contextlib.nullcontext):
        def __init__(self, device_id=0):
            super().__init__()
            self.id = device_id

        def synchronize(self):
            pass
    mod.cuda = types.SimpleNamespace(Device=Device)
    return mod


@contextlib.contextmanager
def accelerated_with(probe=None):
    """The accelerated engine selected as a fresh instance (its CUDA state built anew), with
    ``gpu``'s probe answer replaced by ``probe`` when given; everything restored after."""
    before_probe, before_engine = gpu._probed, dygrad.get_engine()
    before_instance = _engine._instances.get("accelerated")
    if probe is not None:
        gpu._probed = probe
    _engine._instances["accelerated"] = AcceleratedEngine()
    try:
        dygrad.set_engine("accelerated")
        yield
    finally:
        dygrad.set_device("cpu")
        gpu._probed = before_probe
        if before_instance is None:
            _engine._instances.pop("accelerated")
        else:
            _engine._instances["accelerated"] = before_instance
        dygrad.set_engine(before_engine)


# ---------------------------------------------------------------------------
# the checks
# ---------------------------------------------------------------------------

def _tol(info, dtype):
    rtol, atol = info.tolerance(dtype)
    low = MIN_TOL.get(np.dtype(dtype), (0, 0))
    return max(rtol, low[0]), max(atol, low[1])


def _run(info, sample, place, grad):
    """Forward (and, with ``grad``, the input gradients of sum(out * 1.5)) of one sample with
    its inputs on ``place``, the current device; results as NumPy arrays."""
    dygrad.set_device(place)
    try:
        return _run_here(info, sample, place, grad)
    finally:
        dygrad.set_device("cpu")


def _run_here(info, sample, place, grad):
    op = TABLE[info.name]
    flat, args = [], []
    for k, a in enumerate(sample.inputs):
        group = a if (op.variadic and k == 0) else [a]
        ts = [dygrad.to_tensor(x, place=place, stop_gradient=not (grad and x.dtype.kind == "f"))
              for x in group]
        flat += ts
        args.append(ts if (op.variadic and k == 0) else ts[0])
    out = apply(op, *args, **dict(sample.attrs))
    outs = out if isinstance(out, tuple) else (out,)
    for o in outs:
        assert o.place == place, f"{info.name}: an output is on {o.place}, expected {place}"
    values = [o.numpy() for o in outs]
    if not grad:
        return values, []
    chosen = info.grad_outputs or [i for i, o in enumerate(outs)
                                   if o.dtype.is_floating_point and not o.stop_gradient]
    if not chosen:
        return values, []
    loss = None
    for i in chosen:
        term = (outs[i] * 1.5).sum()
        loss = term if loss is None else loss + term
    loss.backward()
    grads = [t.grad.numpy() if t.grad is not None else None for t in flat
             if not t.stop_gradient]
    for t in flat:
        if t.grad is not None:
            assert t.grad.place == place, f"{info.name}: a gradient is on {t.grad.place}"
    return values, grads


def check_op(name, grad=True):
    """Every sample of op ``name`` on CUDA device 0 against the reference engine on the
    CPU: forward values, and input gradients for float samples of differentiable ops."""
    info = OPDB[name]
    op = TABLE[name]
    for dtype in info.dtypes:
        for sample in info.samples(dtype, np.random.default_rng(0)):
            with_grad = grad and info.grad and sample.grad and not op.random and op.grad \
                and np.dtype(dtype).kind == "f"
            _engine.set_engine("reference")
            try:
                want, want_grads = _run(info, sample, dygrad.CPUPlace(), with_grad)
            except Exception:  # the reference refuses this sample (an error input)
                continue
            finally:
                _engine.set_engine("accelerated")
            got, got_grads = _run(info, sample, GPU, with_grad)
            rtol, atol = _tol(info, dtype)
            for w, g in zip(want, got):
                assert w.shape == g.shape and w.dtype == g.dtype, (name, sample)
                if not info.random:
                    np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True,
                                               err_msg=f"{name} {sample}")
            for w, g in zip(want_grads, got_grads):
                assert (w is None) == (g is None), (name, sample)
                if w is not None:
                    np.testing.assert_allclose(g, w, rtol=rtol * 10, atol=atol * 10,
                                               equal_nan=True, err_msg=f"{name} grad {sample}")


def lenet_losses(device, steps=3):
    """Losses and final first-layer weights of a few Adam steps of LeNet on ``device``."""
    dygrad.set_device(device)
    try:
        dygrad.seed(7)
        model = dygrad.vision.models.LeNet()
        opt = dygrad.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
        rng = np.random.default_rng(0)
        losses = []
        for _ in range(steps):
            x = dygrad.to_tensor(rng.standard_normal((8, 1, 28, 28)).astype(np.float32))
            y = dygrad.to_tensor(rng.integers(0, 10, (8, 1)))
            loss = dygrad.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            first = model.parameters()[0]
            assert first.grad.place == first.place == x.place
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        first = model.parameters()[0]
        return losses, first.numpy(), str(first.place)
    finally:
        dygrad.set_device("cpu")


def check_lenet():
    """LeNet trained on gpu:0 gives the CPU's losses and weights (within float32 rounding)."""
    cpu_losses, cpu_w, cpu_place = lenet_losses("cpu")
    gpu_losses, gpu_w, gpu_place = lenet_losses("gpu:0")
    assert (cpu_place, gpu_place) == ("Place(cpu)", "Place(gpu:0)")
    np.testing.assert_allclose(gpu_losses, cpu_losses, rtol=1e-4)
    np.testing.assert_allclose(gpu_w, cpu_w, rtol=1e-3, atol=1e-5)


def check_places():
    """Place API on a usable device: creation, moves, printing, mixed-place errors."""
    import pytest
    x = dygrad.to_tensor([1.0, 2.0], place=dygrad.CUDAPlace(0))
    assert str(x.place) == "Place(gpu:0)" and x.place.is_gpu_place()
    assert x.cuda() is x and x.to("gpu:0") is x
    c = x.cpu()
    assert str(c.place) == "Place(cpu)" and type(c._data) is np.ndarray
    assert isinstance(x.numpy(), np.ndarray) and type(x.numpy()) is np.ndarray
    np.testing.assert_array_equal(c.numpy(), [1.0, 2.0])
    g = c.cuda()
    assert g.place == dygrad.CUDAPlace(0) and g is not c
    assert str(c.to(dygrad.CUDAPlace(0), "float64").dtype) == "paddle.float64"
    p = dygrad.to_tensor([1.0, 2.0], stop_gradient=False)
    assert p.cuda().stop_gradient is False and p.cuda().is_leaf  # a new leaf, as Paddle
    with pytest.raises(RuntimeError, match=r"add: the inputs are on different places \(x is "
                                           r"on Place\(gpu:0\), y is on Place\(cpu\)\)"):
        x + c
    dygrad.set_device("gpu")
    try:
        assert dygrad.get_device() == "gpu:0"
        z = dygrad.zeros([2, 3])
        assert z.place == dygrad.CUDAPlace(0)
        r = dygrad.randn([4])
        assert r.place == dygrad.CUDAPlace(0)
        dygrad.device.cuda.synchronize()
        dygrad.device.synchronize()
    finally:
        dygrad.set_device("cpu")
    assert dygrad.device.cuda.device_count() >= 1 and dygrad.is_compiled_with_cuda()
    assert Tensor._wrap(np.zeros(2)).place == dygrad.CPUPlace()
