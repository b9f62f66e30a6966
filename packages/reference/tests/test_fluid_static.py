"""dygrad.fluid in static mode: the fluid.layers functions build programs that an
Executor runs (checked against NumPy statements), and 1.x layers made before static mode
starts create static parameters at their first call."""

from __future__ import annotations

import re

import numpy as np
import pytest

import dygrad
import dygrad.fluid as fluid
from dygrad.fluid.dygraph import FC, Conv2D

rng = np.random.default_rng(0)
L = fluid.layers


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


@pytest.fixture
def programs():
    main, startup = fluid.Program(), fluid.Program()
    try:
        with fluid.scope_guard(dygrad.static.Scope()), fluid.program_guard(main, startup):
            yield main, startup
    finally:
        dygrad.disable_static()


def _run(main, startup, feed, fetch):
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    return exe.run(main, feed=feed, fetch_list=fetch)


def test_fluid_layers_functions_in_a_static_program(programs):
    main, startup = programs
    x = L.data("x", [3, 4])                       # [-1, 3, 4]
    y = L.data("y", [3])                          # [-1, 3]
    label = L.data("label", [1], dtype="int64")
    probs = L.softmax(L.reshape(x, [-1, 12]))
    outs = [
        L.relu(x),
        L.elementwise_add(x, y, axis=0),           # y [N, 3] lines up with x's first two dims
        L.elementwise_sub(x, L.fill_constant([4], "float32", 2.0)),
        L.elementwise_mul(x, x, act="relu"),
        L.elementwise_div(x, L.fill_constant([1], "float32", 4.0)),
        L.reduce_sum(x, dim=1),
        L.reduce_mean(x, dim=[1, 2], keep_dim=True),
        L.reduce_max(x, dim=-1),
        L.reduce_min(x),
        L.mean(x),
        L.sums([x, x, x]),
        L.cross_entropy(probs, label),
        L.softmax_with_cross_entropy(L.reshape(x, [-1, 12]), label),
        L.concat([x, x], axis=2),
        L.transpose(x, [0, 2, 1]),
        L.matmul(x, x, transpose_y=True, alpha=0.5),
        L.accuracy(probs, label, k=3),
    ]
    xv, yv = randn(2, 3, 4), randn(2, 3)
    lv = np.array([[1], [7]])
    got = _run(main, startup, {"x": xv, "y": yv, "label": lv}, outs)
    flat = xv.reshape(2, 12)
    sm = np.exp(flat - flat.max(1, keepdims=True))
    sm /= sm.sum(1, keepdims=True)
    ce = -np.log(sm[[0, 1], lv[:, 0]])[:, None]
    top3 = np.argsort(-sm, axis=1)[:, :3]
    want = [np.maximum(xv, 0), xv + yv[:, :, None], xv - 2, np.maximum(xv * xv, 0), xv / 4,
            xv.sum(1), xv.mean((1, 2), keepdims=True), xv.max(-1), xv.min(), xv.mean(), 3 * xv,
            ce, ce, np.concatenate([xv, xv], 2), xv.transpose(0, 2, 1),
            0.5 * xv @ xv.transpose(0, 2, 1), np.mean([lv[i, 0] in top3[i] for i in range(2)])]
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=f"output {i}")


def test_fc_and_pool2d_in_static_form(programs):
    main, startup = programs
    img = L.data("img", [2, 6, 6])
    vec = L.data("vec", [5])
    pooled = L.pool2d(img, pool_size=2, pool_type="max", pool_stride=2)
    avg = L.pool2d(img, pool_type="avg", global_pooling=True)
    out = L.fc(pooled, size=3, act="relu")
    both = L.fc([pooled, vec], size=2, param_attr=[None, fluid.ParamAttr(name="vec_w")])
    assert (pooled.shape, avg.shape, out.shape, both.shape) == (
        [-1, 2, 3, 3], [-1, 2, 1, 1], [-1, 3], [-1, 2])
    params = [(p.name, p.shape) for p in main.all_parameters()]
    (w0, _), (b0, _), (w1, _), (b1, _), _ = params  # 1.x's names: fc_<k>.w_0, fc_<k>.b_0
    assert [re.sub(r"fc_\d+", "fc_k", n) for n in (w0, b0, w1, b1)] == [
        "fc_k.w_0", "fc_k.b_0", "fc_k.w_0", "fc_k.b_0"]
    assert [s for _, s in params] == [[18, 3], [3], [18, 2], [2], [5, 2]] and \
        params[4][0] == "vec_w"
    iv, vv = randn(4, 2, 6, 6), randn(4, 5)
    exe = fluid.Executor()
    exe.run(startup)
    got = exe.run(main, feed={"img": iv, "vec": vv},
                  fetch_list=[pooled, avg, out, both, w0, b0, w1, b1, "vec_w"])
    p, a, o, b, w0, b0, w1, b1, wv = got
    want_pool = iv.reshape(4, 2, 3, 2, 3, 2).max(axis=(3, 5))
    np.testing.assert_allclose(p, want_pool)
    np.testing.assert_allclose(a, iv.mean(axis=(2, 3), keepdims=True), rtol=1e-5)
    np.testing.assert_allclose(o, np.maximum(want_pool.reshape(4, 18) @ w0 + b0, 0), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(b, want_pool.reshape(4, 18) @ w1 + vv @ wv + b1, rtol=1e-5,
                               atol=1e-6)
    with pytest.raises(ValueError, match="param_attr holds 1 attributes for 2 inputs"):
        L.fc([pooled, vec], size=2, param_attr=[None])


def test_layers_made_before_static_mode_get_program_parameters():
    fc, conv = FC("fc", 3), Conv2D("conv", num_channels=1, num_filters=2, filter_size=3)
    assert fc.weight is None and conv.weight is None
    main, startup = fluid.Program(), fluid.Program()
    try:
        with fluid.scope_guard(dygrad.static.Scope()), fluid.program_guard(main, startup):
            img = L.data("img", [1, 5, 5])
            label = L.data("label", [1], dtype="int64")
            loss = L.mean(L.cross_entropy(L.softmax(fc(conv(img))), label))
            fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)
            names = sorted(p.name for p in (*conv.parameters(), *fc.parameters()))
            assert names == sorted(p.name for p in main.all_parameters())
            exe = fluid.Executor()
            init = dict(zip(names, exe.run(startup, fetch_list=names)))
            feed = {"img": randn(4, 1, 5, 5), "label": np.array([[0], [1], [2], [0]])}
            losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(5)]
    finally:
        dygrad.disable_static()
    assert init[conv.weight.name].shape == (2, 1, 3, 3) and init[fc.weight.name].shape == (18, 3)
    assert np.all(init[conv.bias.name] == 0)
    assert losses[-1] < losses[0], losses
