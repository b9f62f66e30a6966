"""The layer database run against every installed engine.

- forward: each case's output (float64) against its NumPy statement computed from the
  layer's own state_dict; random layers against their statistical check;
- gradients: float64 central differences of sum(out * v) for a fixed random v, with
  respect to every differentiable input and every trainable parameter (elementwise for
  small tensors, directional derivatives for larger ones); random layers reseed before
  every forward, so each sees the same mask;
- coverage: every Layer class exported by dygrad.nn has an entry or a stated exemption.
"""

from __future__ import annotations

import numpy as np
import pytest
from layerdb import LAYERDB

import dygrad
from dygrad import nn

# Exported Layer classes without an entry, and why.
EXEMPT = {
    "Layer": "the abstract base class",
    "RNNCellBase": "the abstract base of the cells (SimpleRNNCell, LSTMCell, GRUCell)",
    # containers only hold other layers; their behaviour is tested in the unit tests
    "Sequential": "container", "LayerList": "container", "LayerDict": "container",
    "ParameterList": "container", "ParameterDict": "container",
}

CASES = [(name, i) for name in sorted(LAYERDB) for i in range(len(LAYERDB[name].cases))]
IDS = [f"{n}-{i}-{LAYERDB[n].cases[i].desc or 'default'}".replace(" ", "_") for n, i in CASES]
SMALL = 4      # tensors up to this size are differentiated elementwise
DIRECTIONS = 2  # random directions for larger ones


@pytest.fixture(autouse=True)
def _float64():
    before = dygrad.get_default_dtype()
    dygrad.set_default_dtype("float64")
    yield
    dygrad.set_default_dtype(before)


def _flat(out):
    """The tensors (arrays) of a nested output, in order."""
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in _flat(o)]
    return [out]


def _make(name, case):
    """The layer of a case (seeded initialisation; array arguments become tensors), in
    train or eval mode."""
    dygrad.seed(0)
    kwargs = {k: dygrad.to_tensor(v) if isinstance(v, np.ndarray) else v
              for k, v in case.kwargs.items()}
    layer = case.build(nn) if case.build else getattr(nn, name)(**kwargs)
    if case.setup:
        case.setup(layer, np.random.default_rng(1))
    if case.train:
        layer.train()
    else:
        layer.eval()
    return layer


def _forward(layer, case, arrays, requires_grad=False):
    ts = [dygrad.to_tensor(a, stop_gradient=not requires_grad or a.dtype.kind != "f")
          for a in arrays]
    if case.check is not None:
        dygrad.seed(11)
    args = case.pack(ts) if case.pack else ts
    return _flat(layer(*args, **case.call)), ts


def _numpy_state(layer):
    return {k: v.numpy().copy() for k, v in layer.state_dict().items()}


@pytest.mark.parametrize("name,idx", CASES, ids=IDS)
def test_forward(engine, name, idx):
    case = LAYERDB[name].cases[idx]
    arrays = case.inputs(np.random.default_rng(idx))
    layer = _make(name, case)
    sd = _numpy_state(layer)
    outs, _ = _forward(layer, case, arrays)
    actual = [o.numpy() for o in outs]
    if case.check is not None:
        case.check(*actual, arrays, layer)
        return
    expected = [np.asarray(e) for e in _flat(case.ref(sd, *arrays))]
    assert len(actual) == len(expected), f"{name}: {len(actual)} outputs, {len(expected)} expected"
    for k, (a, e) in enumerate(zip(actual, expected)):
        msg = f"{name} case {idx} ({case.desc}) output {k}"
        assert a.shape == e.shape, f"{msg}: shape {a.shape}, expected {e.shape}"
        if e.dtype.kind in "iu":
            np.testing.assert_array_equal(a, e, err_msg=msg)
        else:
            assert a.dtype == np.float64, f"{msg}: dtype {a.dtype}"
            np.testing.assert_allclose(a, e, rtol=case.tol[0], atol=case.tol[1], err_msg=msg)
    if case.state is not None:
        after = _numpy_state(layer)
        for key, value in case.state(sd, *arrays).items():
            np.testing.assert_allclose(after[key], value, rtol=case.tol[0], atol=case.tol[1],
                                       err_msg=f"{name} case {idx}: state {key}")


def _scalar(layer, case, arrays, vs):
    """sum(out * v) over the float outputs, without recording."""
    with dygrad.no_grad():
        outs, _ = _forward(layer, case, arrays)
    return sum(float(np.sum(o.numpy() * v)) for o, v in zip(outs, vs) if v is not None)


def _directions(shape, rng):
    """The unit vectors of a small tensor, else DIRECTIONS random directions."""
    size = int(np.prod(shape))
    if size <= SMALL:
        return list(np.eye(size).reshape((size,) + tuple(shape)))
    return [rng.standard_normal(shape) for _ in range(DIRECTIONS)]


GRAD_CASES = [(n, i) for n, i in CASES if LAYERDB[n].cases[i].grad]


@pytest.mark.parametrize("name,idx", GRAD_CASES,
                         ids=[IDS[CASES.index(c)] for c in GRAD_CASES])
def test_gradients(engine, name, idx):
    case = LAYERDB[name].cases[idx]
    rng = np.random.default_rng(100 + idx)
    arrays = list(case.inputs(np.random.default_rng(idx)))
    layer = _make(name, case)
    params = [p for p in layer.parameters() if not p.stop_gradient]
    outs, ts = _forward(layer, case, arrays, requires_grad=True)
    vs = [rng.standard_normal(o.shape) if o.dtype in (dygrad.float64, dygrad.float32) else None
          for o in outs]
    loss = sum(dygrad.sum(o * dygrad.to_tensor(v)) for o, v in zip(outs, vs) if v is not None)
    loss.backward()
    which = case.grad_inputs if case.grad_inputs is not None else \
        [k for k, a in enumerate(arrays) if a.dtype.kind == "f"]
    for k in which:
        _check_grad(f"input {k}", [ts[k]], lambda ds, k=k: _scalar(
            layer, case, arrays[:k] + [arrays[k] + ds[0]] + arrays[k + 1:], vs), rng, case, name)
    groups = [params] if case.joint_params else [[p] for p in params]
    for group in groups:
        _check_grad(f"parameters {[p.name for p in group]}", group,
                    lambda ds, g=group: _scalar_moved(layer, case, arrays, vs, g, ds),
                    rng, case, name)


def _scalar_moved(layer, case, arrays, vs, params, ds):
    """The scalar with each parameter moved by its d (restored afterwards)."""
    orig = [p.numpy().copy() for p in params]
    for p, o, d in zip(params, orig, ds):
        p.set_value(o + d)
    try:
        return _scalar(layer, case, arrays, vs)
    finally:
        for p, o in zip(params, orig):
            p.set_value(o)


def _check_grad(what, tensors, f, rng, case, name, eps=1e-6):
    """Directional derivatives of f (a function of one displacement per tensor) at 0
    against the analytic gradients: elementwise for one small tensor, else along random
    directions."""
    assert all(t.grad is not None for t in tensors), f"{name} ({case.desc}): no gradient for {what}"
    gs = [t.grad.numpy() for t in tensors]
    rtol, atol = case.grad_tol
    if len(gs) == 1:
        directions = [[d] for d in _directions(gs[0].shape, rng)]
    else:
        directions = [[rng.standard_normal(g.shape) for g in gs] for _ in range(DIRECTIONS)]
    for ds in directions:
        numeric = (f([eps * d for d in ds]) - f([-eps * d for d in ds])) / (2 * eps)
        analytic = sum(float(np.sum(g * d)) for g, d in zip(gs, ds))
        assert abs(analytic - numeric) <= atol + rtol * abs(numeric), \
            f"{name} ({case.desc}) d/d {what}: {analytic} vs {numeric}"


def test_every_layer_has_an_entry():
    exported = {n for n in nn.__all__
                if isinstance(getattr(nn, n), type) and issubclass(getattr(nn, n), nn.Layer)}
    # a second name for a class that has an entry (HuberLoss is SmoothL1Loss) is covered by it
    covered = {getattr(nn, n) for n in LAYERDB if n in exported}
    aliases = {n for n in exported if n not in LAYERDB and getattr(nn, n) in covered}
    missing = exported - set(LAYERDB) - set(EXEMPT) - aliases
    assert not missing, f"Layer classes without a layer-database entry: {sorted(missing)}"
    assert not set(LAYERDB) - exported, "entries for classes dygrad.nn does not export"
    assert not set(EXEMPT) - exported, "exemptions for classes dygrad.nn does not export"
