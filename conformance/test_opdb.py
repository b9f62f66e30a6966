"""The op database run against every installed engine.

- forward: the reference engine against each entry's NumPy statement; any other engine
  against the reference engine (same samples), within the entry's tolerances; both
  contiguous inputs and non-contiguous views;
- infer_meta: the row's output shapes and dtypes equal what the kernel returned;
- gradients: float64 central differences (directional derivatives for large inputs) of
  sum(out * v) for a random v; second derivatives where the entry says ``gradgrad``;
- errors: each error input raises the stated exception type;
- coverage: every op of the table has an entry, every kernel's signature matches its row.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import dygrad
from dygrad._core.autograd import run_backward
from dygrad._core.dispatch import apply
from dygrad._core.optable import TABLE, Meta
from dygrad._core.tensor import Tensor
from opdb import OPDB, noncontiguous

NAMES = sorted(OPDB)


def _wrap(a, stop_gradient=True):
    return Tensor._wrap(a, stop_gradient)


def _tensors(info, sample, noncontig=False, requires_grad=False):
    """Tensors for a sample's inputs, straight around the arrays (no copy, unless the op
    writes into its inputs), so views stay non-contiguous; returns (call_args, flat list of
    tensors)."""
    op = TABLE[info.name]
    copy = (lambda a: a.copy()) if info.inplace else (lambda a: a)
    conv = (lambda a: _engine_array(noncontiguous(copy(a)) if noncontig else copy(a)))
    args, flat = [], []
    for k, a in enumerate(sample.inputs):
        if op.variadic and k == 0:
            lst = [_wrap(conv(x), not (requires_grad and x.dtype.kind == "f")) for x in a]
            args.append(lst)
            flat.extend(lst)
        else:
            t = _wrap(conv(a), not (requires_grad and a.dtype.kind == "f"))
            args.append(t)
            flat.append(t)
    return args, flat


def _engine_array(a):
    eng = dygrad._core.engine.current()
    return a if eng.array_type is np.ndarray else eng.asarray(a, a.dtype)


def _run(info, sample, **kw):
    args, flat = _tensors(info, sample, **kw)
    out = apply(TABLE[info.name], *args, **dict(sample.attrs))
    outs = out if isinstance(out, tuple) else (out,)
    return outs, args, flat


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def _expected(info, sample, engine):
    """NumPy's answer for the reference engine, the reference engine's for any other."""
    if engine == "reference":
        return tuple(np.asarray(r) for r in _as_tuple(info.ref(*sample.inputs, **sample.attrs)))
    before = dygrad.get_engine()
    dygrad.set_engine("reference")
    try:
        outs, _, _ = _run(info, sample)
        return tuple(o.numpy() for o in outs)
    finally:
        dygrad.set_engine(before)


def _check_close(info, actual, expected, dtype, sample, what):
    rtol, atol = info.tolerance(dtype)
    assert len(actual) == len(expected), \
        f"{info.name} {sample}: {len(actual)} outputs, expected {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected)):
        a, e = np.asarray(a), np.asarray(e)
        msg = f"{info.name} {what} output {i} for {sample} (dtype {np.dtype(dtype).name})"
        assert a.shape == e.shape, f"{msg}: shape {a.shape}, expected {e.shape}"
        assert a.dtype == e.dtype, f"{msg}: dtype {a.dtype}, expected {e.dtype}"
        if info.random:
            continue
        if info.compare is not None:
            info.compare(a, e, rtol, atol)
        elif a.dtype.kind in "fc":
            np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, equal_nan=True, err_msg=msg)
        else:
            np.testing.assert_array_equal(a, e, err_msg=msg)


def _samples(info, dtype, seed=0):
    return list(info.samples(np.dtype(dtype), np.random.default_rng(seed)))


CASES = [(n, np.dtype(d).name) for n in NAMES for d in OPDB[n].dtypes]


@pytest.mark.parametrize("name,dtype", CASES, ids=[f"{n}-{d}" for n, d in CASES])
def test_forward(engine, name, dtype):
    info = OPDB[name]
    op = TABLE[name]
    for sample in _samples(info, dtype):
        if info.random:
            dygrad.seed(7)
        expected = _expected(info, sample, engine)
        if info.random:
            dygrad.seed(7)
        outs, _, _ = _run(info, sample)
        actual = tuple(o.numpy() for o in outs)
        _check_close(info, actual, expected, dtype, sample, "forward")
        # infer_meta agrees with what the kernel produced
        metas = [[Meta(x.shape, x.dtype) for x in a] if isinstance(a, list) else Meta(a.shape, a.dtype)
                 for a in sample.inputs]
        meta = op.infer_meta(*metas, **sample.attrs)
        meta = (meta,) if isinstance(meta, Meta) else tuple(meta)
        got = tuple((tuple(o.shape), o.numpy().dtype) for o in outs)
        # a -1 in infer_meta is a data-dependent size (nonzero, unique, masked_select): any size fits
        want = tuple((tuple(g if w == -1 else w for w, g in zip(m.shape, shape)), np.dtype(m.dtype))
                     if len(m.shape) == len(shape) else (tuple(m.shape), np.dtype(m.dtype))
                     for m, (shape, _) in zip(meta, got))
        assert len(meta) == len(got) and got == want, \
            f"{name} infer_meta for {sample}: {want}, kernel gave {got}"
        if sample.noncontig and not info.random:
            outs, _, _ = _run(info, sample, noncontig=True)
            _check_close(info, tuple(o.numpy() for o in outs), expected, dtype, sample,
                         "non-contiguous forward")


def _grad_cases():
    return [n for n in NAMES if OPDB[n].grad and TABLE[n].differentiable]


def _diff_inputs(info, flat):
    idx = [i for i, t in enumerate(flat) if t._data.dtype.kind == "f"]
    if info.grad_inputs is not None:
        idx = [i for i in idx if i in info.grad_inputs]
    return idx


def _diff_outputs(info, outs):
    op = TABLE[info.name]
    keep = [i for i, o in enumerate(outs) if o._data.dtype.kind == "f"
            and op.outputs[i] not in op.nondiff_outputs]
    if info.grad_outputs is not None:
        keep = [i for i in keep if i in info.grad_outputs]
    return keep


def _loss_fn(info, sample, cotangents):
    """f(arrays) = sum_k sum(out_k * v_k) computed with the engine (no graph)."""
    def f(flat_arrays):
        s = _rebuild(sample, flat_arrays)
        with dygrad.no_grad():
            outs, _, _ = _run(info, s)
        return sum(float(np.sum(outs[k].numpy() * v)) for k, v in cotangents.items())
    return f


def _rebuild(sample, flat_arrays):
    it = iter(flat_arrays)
    inputs = tuple([next(it) for _ in a] if isinstance(a, list) else next(it) for a in sample.inputs)
    from opdb import Sample
    return Sample(inputs, sample.attrs, sample.desc)


def _flat_arrays(sample):
    out = []
    for a in sample.inputs:
        out.extend(a if isinstance(a, list) else [a])
    return [np.array(a, copy=True) for a in out]


def _numeric_grad(f, arrays, i, rng, eps=1e-6):
    """Central differences of f in input i: full gradient if small, else directional."""
    a = arrays[i]
    if a.size <= 32:
        g = np.zeros_like(a)
        for j in np.ndindex(a.shape):
            old = a[j]
            a[j] = old + eps
            fp = f(arrays)
            a[j] = old - eps
            fm = f(arrays)
            a[j] = old
            g[j] = (fp - fm) / (2 * eps)
        return g, None
    d = rng.standard_normal(a.shape)
    old = a.copy()
    arrays[i] = old + eps * d
    fp = f(arrays)
    arrays[i] = old - eps * d
    fm = f(arrays)
    arrays[i] = old
    return (fp - fm) / (2 * eps), d


@pytest.mark.parametrize("name", _grad_cases())
def test_gradient(engine, name):
    info = OPDB[name]
    if np.float64 not in [np.dtype(d).type for d in info.dtypes]:
        pytest.skip(f"{name}: the op database has no float64 samples")
    rng = np.random.default_rng(1)
    for sample in _samples(info, np.float64):
        if not sample.grad:
            continue
        outs, args, flat = _run(info, sample, requires_grad=True)
        wrt = _diff_inputs(info, flat)
        keep = _diff_outputs(info, outs)
        if not wrt or not keep:
            continue
        cot = {k: rng.standard_normal(outs[k]._data.shape) for k in keep}
        analytic = run_backward([outs[k] for k in keep], [_wrap(cot[k]) for k in keep],
                                inputs=[flat[i] for i in wrt], allow_unused=True)
        f = _loss_fn(info, sample, cot)
        arrays = _flat_arrays(sample)
        rtol, atol = info.grad_tol
        for n, i in enumerate(wrt):
            ga = np.zeros(arrays[i].shape) if analytic[n] is None else analytic[n].numpy()
            gn, d = _numeric_grad(f, arrays, i, rng)
            if d is not None:
                ga = np.sum(ga * d)
            np.testing.assert_allclose(
                ga, gn, rtol=rtol, atol=atol,
                err_msg=f"{name}: gradient of input {i} for {sample}\ninputs={sample.inputs}\n"
                        f"direction={d}\nanalytic={ga}\nnumeric={gn}")


@pytest.mark.parametrize("name", [n for n in _grad_cases() if OPDB[n].gradgrad])
def test_second_derivative(engine, name):
    """d/dx of sum(grad_x(sum(out * v)) * w), through create_graph=True."""
    info = OPDB[name]
    rng = np.random.default_rng(2)
    for sample in _samples(info, np.float64)[:6]:
        if sample.grad:
            _check_second_derivative(info, sample, rng)


def _first_grads(info, sample, flat, wrt, keep, cot, create_graph):
    """Gradients of sum(out_k * v_k) with respect to the inputs ``wrt``."""
    o = _as_tuple(apply(TABLE[info.name], *_regroup(sample, flat), **dict(sample.attrs)))
    return run_backward([o[k] for k in keep], [_wrap(cot[k]) for k in keep],
                        inputs=[flat[i] for i in wrt], allow_unused=True,
                        create_graph=create_graph, retain_graph=create_graph)


def _check_second_derivative(info, sample, rng):
    outs, _, flat = _run(info, sample, requires_grad=True)
    wrt, keep = _diff_inputs(info, flat), _diff_outputs(info, outs)
    if not wrt or not keep:
        return
    cot = {k: rng.standard_normal(outs[k]._data.shape) for k in keep}
    w = {i: rng.standard_normal(flat[i]._data.shape) for i in wrt}
    gs = _first_grads(info, sample, flat, wrt, keep, cot, True)
    terms = [(g * _wrap(w[i])).sum() for g, i in zip(gs, wrt) if g is not None and not g.stop_gradient]
    if not terms:
        return
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    analytic = run_backward([total], [_wrap(np.ones(()))], inputs=[flat[i] for i in wrt],
                            allow_unused=True)

    def f(arrays):
        ts = [_wrap(a, a.dtype.kind != "f") for a in arrays]
        gs2 = _first_grads(info, sample, ts, wrt, keep, cot, False)
        return sum(float(np.sum(g.numpy() * w[i])) for g, i in zip(gs2, wrt) if g is not None)

    arrays = _flat_arrays(sample)
    rtol, atol = info.grad_tol
    for n, i in enumerate(wrt):
        ga = np.zeros(arrays[i].shape) if analytic[n] is None else analytic[n].numpy()
        gn, d = _numeric_grad(f, arrays, i, rng, eps=1e-5)
        if d is not None:
            ga = np.sum(ga * d)
        np.testing.assert_allclose(ga, gn, rtol=max(rtol, 1e-4), atol=max(atol, 1e-5),
                                   err_msg=f"{info.name}: second derivative, input {i}, {sample}")


def _regroup(sample, flat):
    it = iter(flat)
    return [[next(it) for _ in a] if isinstance(a, list) else next(it) for a in sample.inputs]


@pytest.mark.parametrize("name", [n for n in NAMES if OPDB[n].errors is not None])
def test_errors(engine, name):
    info = OPDB[name]
    for err in info.errors(np.random.default_rng(3)):
        with pytest.raises(err.exc, match=err.match or None):
            _run(info, err.sample)


def test_every_op_has_an_entry():
    missing = sorted(set(TABLE) - set(OPDB))
    extra = sorted(set(OPDB) - set(TABLE))
    assert not missing, f"ops of the table without an op-database entry: {missing}"
    assert not extra, f"op-database entries for ops not in the table: {extra}"


def test_kernel_signatures(engine):
    """Each kernel takes the row's inputs positionally and its attributes with the same
    defaults, so the table, not the engine, says what an op accepts."""
    kernels = dygrad._core.engine.current().kernels
    problems = []
    for name, op in TABLE.items():
        if name not in kernels:
            problems.append(f"{name}: no kernel")
            continue
        params = inspect.signature(kernels[name]).parameters
        pos = [p for p in params.values() if p.default is inspect.Parameter.empty
               and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        kw = {p.name: p.default for p in params.values() if p.default is not inspect.Parameter.empty}
        if op.random:
            kw.pop("rng", None)
        if len(pos) != len(op.inputs):
            problems.append(f"{name}: kernel takes {len(pos)} inputs, the row has {len(op.inputs)}")
        if kw != dict(op.attrs):
            problems.append(f"{name}: kernel attributes {kw} differ from the row's {dict(op.attrs)}")
    assert not problems, "\n".join(problems)
