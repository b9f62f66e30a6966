"""The Executor's passes (constant folding, bias+activation fusion, elementwise fusion) and
its compiled plans: fetched values with and without each pass agree."""

import numpy as np
import pytest

import dygrad as paddle
from dygrad._core.engine import current
from dygrad.static.passes import FusedChain, plan

F = paddle.nn.functional
PASSES = ["constant_folding", "reshape_elimination", "broadcast_elimination",
          "linear_grad_fusion", "bias_activation_fusion", "outer_products", "elementwise_fusion",
          "buffer_reuse",
          "dead_op_elimination"]


def _train(main, startup, feeds, fetch):
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe = paddle.static.Executor()
        exe.run(startup)
        return [exe.run(main, feed=f, fetch_list=fetch) for f in feeds]


def _with_and_without(main, startup, feeds, fetch, flag):
    paddle.static.set_passes(**{flag: True})
    on = _train(main, startup, feeds, fetch)
    paddle.static.set_passes(**{flag: False})
    off = _train(main, startup, feeds, fetch)
    paddle.static.set_passes(**{flag: True})
    for a, b in zip(on, off):
        for u, v in zip(a, b):
            np.testing.assert_allclose(u, v, rtol=1e-5, atol=1e-6)
    return on


def _mlp_program(activation):
    x = paddle.static.data("x", [-1, 5], "float32")
    y = paddle.static.data("y", [-1, 1], "float32")
    l1, l2 = paddle.nn.Linear(5, 7), paddle.nn.Linear(7, 1)
    h = l1(x)
    h = getattr(F, activation)(h) if activation != "none" else h
    loss = F.mse_loss(l2(h), y)
    paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)
    return loss, l1.weight, l2.bias


def _feeds(sizes=(4, 4, 6)):
    rng = np.random.default_rng(0)
    return [{"x": rng.normal(size=(n, 5)).astype("float32"),
             "y": rng.normal(size=(n, 1)).astype("float32")} for n in sizes]


@pytest.mark.parametrize("activation", ["relu", "sigmoid", "tanh", "none"])
def test_bias_activation_fusion(static, activation):
    main, startup = static
    startup.random_seed = 3
    fetch = list(_mlp_program(activation))
    fused = [op for op in plan(main, [fetch[0].name], {4}).ops
             if op.type == "fused_linear_activation"]
    # the first Linear with its activation, and the last Linear (no activation)
    assert [op.attrs["activation"] for op in fused] == [activation, "none"]
    losses = _with_and_without(main, startup, _feeds(), fetch, "bias_activation_fusion")
    assert losses[1][0] < losses[0][0]


def test_a_linear_whose_output_is_read_elsewhere_is_not_fused(static):
    main, _ = static
    x = paddle.static.data("x", [-1, 5], "float32")
    pre = paddle.nn.Linear(5, 3)(x)
    out = F.relu(pre) + pre
    ops = plan(main, [out.name], {2}).ops
    assert [op.type for op in ops] == ["fused_linear_activation", "fused(relu, add)"]
    assert ops[0].attrs["activation"] == "none"  # the relu stays apart: 'pre' has two readers


def test_reshape_elimination_on_known_shapes(static):
    main, startup = static
    startup.random_seed = 5
    x = paddle.static.data("x", [6, 5], "float32")   # known batch: the gradient's reshapes
    y = paddle.static.data("y", [6, 1], "float32")   # are all known too
    l1, l2 = paddle.nn.Linear(5, 7), paddle.nn.Linear(7, 1)
    loss = F.mse_loss(l2(F.relu(l1(x))), y)
    paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)
    # the linear gradient fusion would take in a bias's sum; an outer product adds a reshape
    paddle.static.set_passes(linear_grad_fusion=False, outer_products=False)
    kept = paddle.static.set_passes(reshape_elimination=False)
    before = [op.type for op in plan(main, [loss.name]).ops]
    paddle.static.set_passes(**kept)
    ops = plan(main, [loss.name]).ops
    assert "reshape" in before and "reshape" not in [op.type for op in ops]
    sums = [op for op in ops if op.type == "sum"]
    assert len(sums) == 2 and not any(op.attrs["keepdim"] for op in sums)  # the biases'
    rng = np.random.default_rng(2)
    feeds = [{"x": rng.normal(size=(6, 5)).astype("float32"),
              "y": rng.normal(size=(6, 1)).astype("float32")} for _ in range(3)]
    got = _with_and_without(main, startup, feeds, [loss, l1.bias, l2.weight],
                            "reshape_elimination")
    assert got[2][0] < got[0][0]


def test_linear_relu_gradients_fuse(static):
    main, startup = static
    startup.random_seed = 6
    x = paddle.static.data("x", [6, 5], "float32")
    y = paddle.static.data("y", [6, 1], "float32")
    l1, l2, l3 = paddle.nn.Linear(5, 7), paddle.nn.Linear(7, 4), paddle.nn.Linear(4, 1)
    loss = F.mse_loss(l3(F.relu(l2(F.relu(l1(x))))), y)
    paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)
    fused = [op for op in plan(main, [loss.name]).ops if op.type == "fused_linear_activation_grad"]
    # every layer's weight and bias gradient; for both ReLU layers with the gradient before
    # the ReLU, for the last Linear (no activation) from its output gradient
    assert [[d.name for d in op.outputs[:2]] + [op.attrs["activation"]] for op in fused] == [
        [f"{l3.weight.name}@GRAD", f"{l3.bias.name}@GRAD", "none"],
        [f"{l2.weight.name}@GRAD", f"{l2.bias.name}@GRAD", "relu"],
        [f"{l1.weight.name}@GRAD", f"{l1.bias.name}@GRAD", "relu"]]
    types = [op.type for op in plan(main, [loss.name]).ops]
    assert "relu_grad" not in types and "sum" not in types
    rng = np.random.default_rng(4)
    feeds = [{"x": rng.normal(size=(6, 5)).astype("float32"),
              "y": rng.normal(size=(6, 1)).astype("float32")} for _ in range(3)]
    got = _with_and_without(main, startup, feeds, [loss, l1.weight, l1.bias, l2.weight],
                            "linear_grad_fusion")
    assert got[2][0] < got[0][0]


def test_the_gradients_of_a_tanh_layer_fuse_from_its_pre_activation_gradient(static):
    """No fused gradient for tanh: its multiply chain stays, and the bias sum and the
    weight matmul of the gradient it makes fuse as activation 'none'."""
    main, startup = static
    startup.random_seed = 7
    x = paddle.static.data("x", [6, 5], "float32")
    y = paddle.static.data("y", [6, 1], "float32")
    l1, l2 = paddle.nn.Linear(5, 7), paddle.nn.Linear(7, 1)
    loss = F.mse_loss(l2(F.tanh(l1(x))), y)
    paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)
    ops = plan(main, [loss.name]).ops
    fused = [op for op in ops if op.type == "fused_linear_activation_grad"]
    assert [(op.outputs[0].name, op.attrs["activation"]) for op in fused] == [
        (f"{l2.weight.name}@GRAD", "none"), (f"{l1.weight.name}@GRAD", "none")]
    assert "sum" not in [op.type for op in ops]
    rng = np.random.default_rng(6)
    feeds = [{"x": rng.normal(size=(6, 5)).astype("float32"),
              "y": rng.normal(size=(6, 1)).astype("float32")}] * 3
    got = _with_and_without(main, startup, feeds, [loss, l1.weight, l1.bias, l2.weight],
                            "linear_grad_fusion")
    assert got[2][0] < got[0][0]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_outer_products_become_multiplies(static, dtype):
    main, startup = static
    startup.random_seed = 8
    x = paddle.static.data("x", [6, 5], "float32")
    y = paddle.static.data("y", [6, 1], "float32")
    l1, l2 = paddle.nn.Linear(5, 7), paddle.nn.Linear(7, 1)   # l2's input gradient:
    loss = F.mse_loss(l2(F.tanh(l1(x))), y)                   # [6, 1] @ weight.T [1, 7]
    paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)
    col = paddle.static.data("col", [1, 4], dtype)             # and col.T @ row, by hand
    row = paddle.static.data("row", [1, 3], dtype)
    outer = paddle.matmul(col, row, transpose_x=True)
    fetch = [loss.name, outer.name]
    types = [op.type for op in plan(main, fetch).ops]
    if current().matmul_outer:  # the engine's matmul does them without BLAS: left alone
        assert types.count("matmul") == 2 and "reshape" not in types
    else:  # (the weight gradients' matmuls are fused_linear_activation_grad's)
        assert types.count("matmul") == 0 and types.count("reshape") == 2
    previous = paddle.static.set_passes(outer_products=False)
    assert [op.type for op in plan(main, fetch).ops].count("matmul") == 2
    paddle.static.set_passes(**previous)
    rng = np.random.default_rng(5)
    feeds = [{"x": rng.normal(size=(6, 5)).astype("float32"),
              "y": rng.normal(size=(6, 1)).astype("float32"),
              "col": rng.normal(size=(1, 4)).astype(dtype),
              "row": rng.normal(size=(1, 3)).astype(dtype)}] * 3  # one batch: the loss falls
    got = _with_and_without(main, startup, feeds, [loss, outer, l1.weight, l2.bias],
                            "outer_products")
    np.testing.assert_array_equal(got[0][1], feeds[0]["col"].T * feeds[0]["row"])
    assert got[2][0] < got[0][0]


def test_a_fetched_reshape_is_kept(static):
    main, _ = static
    x = paddle.static.data("x", [2, 3], "float32")
    same = paddle.reshape(x, [2, 3])
    flat = paddle.reshape(paddle.sum(same * 2.0, axis=0, keepdim=True), [3])
    assert [op.type for op in plan(main, [flat.name]).ops] == ["multiply", "sum"]
    assert [op.type for op in plan(main, [same.name, flat.name]).ops] == [
        "reshape", "multiply", "sum"]
    exe = paddle.static.Executor()
    xv = np.arange(6, dtype="float32").reshape(2, 3)
    got = exe.run(main, feed={"x": xv}, fetch_list=[same, flat])
    np.testing.assert_allclose(got[0], xv)
    np.testing.assert_allclose(got[1], (xv * 2).sum(axis=0))


def test_a_compiled_reshape_of_a_known_shape_is_the_arrays_own(static):
    main, _ = static
    x = paddle.static.data("x", [-1, 6], "float32")
    out = paddle.reshape(x * 2.0, [-1, 2, 3])
    exe = paddle.static.Executor()
    for n in (4, 1):
        xv = np.arange(n * 6, dtype="float32").reshape(n, 6)
        got, = exe.run(main, feed={"x": xv}, fetch_list=[out])
        np.testing.assert_array_equal(got, (xv * 2).reshape(n, 2, 3))
        lines = plan(main, [out.name], {n}).compiled.lines
        assert any(line.endswith(f".reshape(({n}, 2, 3))") for line in lines)


def test_broadcasts_move_past_elementwise_ops_and_drop(static):
    main, _ = static
    s = paddle.static.data("s", [], "float32")
    v = paddle.static.data("v", [4, 3], "float32")
    b = paddle.broadcast_to(s, [4, 3])
    out = paddle.exp(b * 2.0) * v                    # exp(s * 2) first, then times v
    kept = paddle.broadcast_to(paddle.reshape(s, [1, 1]), [4, 3]) - 1.0  # nothing to drop:
    types = [op.type for op in plan(main, [out.name, kept.name]).ops]  # moved last
    assert types.count("broadcast_to") == 1 and types[-1] == "broadcast_to"
    assert [op.type for op in plan(main, [b.name, out.name]).ops][0] == "broadcast_to"
    exe = paddle.static.Executor()
    feed = {"s": np.float32(0.5), "v": np.arange(12, dtype="float32").reshape(4, 3)}
    for flag in (True, False):
        paddle.static.set_passes(broadcast_elimination=flag)
        got = exe.run(main, feed=feed, fetch_list=[out, kept])
        np.testing.assert_allclose(got[0], np.exp(np.float32(1.0)) * feed["v"], rtol=1e-6)
        np.testing.assert_allclose(got[1], np.full((4, 3), -0.5, "float32"))
    paddle.static.set_passes(broadcast_elimination=True)


def test_elementwise_chains_run_as_one_step(static):
    main, startup = static
    startup.random_seed = 7
    x = paddle.static.data("x", [-1, 3], "float32")
    w = paddle.static.create_parameter([3], "float32")
    t = paddle.exp(paddle.tanh(x * 2.0 + w) * 3.0)   # one chain: multiply .. exp
    shared = x - 1.0
    out = shared * 3.0 + paddle.sum(shared)          # two ops read 'shared': no chain there
    steps = plan(main, [out.name, t.name], {2}).ops
    chains = [s for s in steps if isinstance(s, FusedChain)]
    assert [[o.type for o in c.ops] for c in chains] == [
        ["multiply", "add", "tanh", "multiply", "exp"]]
    feeds = [{"x": np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)}]
    got = _with_and_without(main, startup, feeds, [out, t], "elementwise_fusion")
    wv = _train(main, startup, feeds, [w])[0][0]
    xv = feeds[0]["x"]
    want_t = np.exp(np.tanh(xv * 2 + wv) * 3)
    np.testing.assert_allclose(got[0][1], want_t, rtol=1e-5)
    np.testing.assert_allclose(got[0][0], (xv - 1) * 3 + (xv - 1).sum(), rtol=1e-5)


def test_constant_folding_follows_the_fed_batch_size(static):
    main, startup = static
    startup.random_seed = 3
    loss, w, _ = _mlp_program("relu")
    grad = main.global_block().var(f"{w.name}@GRAD")
    folded = plan(main, [loss.name], {4})
    assert {"numel", "full_like", "broadcast_to"}.isdisjoint(op.type for op in folded.ops)
    assert folded.consts
    # batches of 4, 4, 6: the mean's gradient (1/N) is folded once per size
    _with_and_without(main, startup, _feeds(), [loss, grad], "constant_folding")


@pytest.mark.parametrize("flag", PASSES)
def test_each_pass_keeps_adam_training_the_same(static, flag):
    main, startup = static
    startup.random_seed = 4
    x = paddle.static.data("x", [-1, 5], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    net = paddle.nn.Sequential(paddle.nn.Linear(5, 8), paddle.nn.Tanh(), paddle.nn.Linear(8, 3))
    loss = F.cross_entropy(net(x), label)
    paddle.optimizer.Adam(learning_rate=0.05).minimize(loss)
    rng = np.random.default_rng(1)
    feeds = [{"x": rng.normal(size=(n, 5)).astype("float32"),
              "label": rng.integers(0, 3, size=(n, 1))} for n in (3, 3, 5)]
    _with_and_without(main, startup, feeds, [loss, net[0].weight], flag)


def test_a_kernel_error_in_a_compiled_plan_names_the_op(static):
    main, startup = static
    a = paddle.static.data("a", [-1, -1], "float32")
    b = paddle.static.data("b", [-1, -1], "float32")
    out = paddle.matmul(a, b, transpose_y=True)
    exe = paddle.static.Executor()
    exe.run(startup)
    got, = exe.run(main, feed={"a": np.ones((2, 3), "float32"), "b": np.ones((4, 3), "float32")},
                   fetch_list=[out])
    assert got.shape == (2, 4)
    with pytest.raises(ValueError, match="matmul: the contracted dimensions differ"):
        exe.run(main, feed={"a": np.ones((2, 3), "float32"),
                            "b": np.ones((4, 3), "float32")[:, :2].copy()},
                fetch_list=[out])


def test_fetching_a_folded_constant(static):
    main, _ = static
    x = paddle.static.data("x", [-1, 3], "float32")
    n = paddle.numel(x)
    doubled = paddle.full_like(x, 2.0) * x
    exe = paddle.static.Executor()
    got = exe.run(main, feed={"x": np.ones((5, 3), "float32")}, fetch_list=[n, doubled])
    assert int(got[0]) == 15 and got[1].shape == (5, 3) and np.all(got[1] == 2)
    got = exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[n])
    assert int(got[0]) == 6
