"""Static mode: programs built by running Paddle code, run by the Executor."""

import numpy as np
import pytest

import dygrad as paddle
from dygrad._core import autograd, dispatch
from dygrad._core.engine import current

F = paddle.nn.functional


def _regression_data(n=16):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3).astype("float32")
    return x, y


def _eager_losses(model, opt, loss_fn, batches):
    losses = []
    for xs in batches:
        loss = loss_fn(model, *[paddle.to_tensor(a) for a in xs])
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses


def _load(model, values):
    for p in model.parameters():
        p.set_value(values[p.name])


def test_linear_regression_trains_as_in_eager(static):
    main, startup = static
    x = paddle.static.data("x", [None, 3], "float32")
    y = paddle.static.data("y", [-1, 1], "float32")
    model = paddle.nn.Linear(3, 1)
    loss = F.mse_loss(model(x), y)
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    names = [p.name for p in model.parameters()]
    init = dict(zip(names, exe.run(startup, fetch_list=names)))
    X, Y = _regression_data()
    static_losses = [float(exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])[0])
                     for _ in range(6)]
    paddle.disable_static()
    eager = paddle.nn.Linear(3, 1)
    for p, name in zip(eager.parameters(), names):
        p.set_value(init[name])
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=eager.parameters())
    eager_losses = _eager_losses(eager, opt, lambda m, a, b: F.mse_loss(m(a), b), [(X, Y)] * 6)
    paddle.enable_static()
    assert static_losses[-1] < 0.5 * static_losses[0]
    np.testing.assert_allclose(static_losses, eager_losses, rtol=1e-5)


def _mlp():
    return paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.ReLU(),
                                paddle.nn.Linear(16, 4))


def test_mlp_with_adam_matches_eager(static):
    main, startup = static
    x = paddle.static.data("x", [-1, 8], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    model = _mlp()
    loss = F.cross_entropy(model(x), label)
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    exe = paddle.static.Executor()
    names = [p.name for p in model.parameters()]
    init = dict(zip(names, exe.run(startup, fetch_list=names)))
    rng = np.random.default_rng(1)
    X = rng.normal(size=(10, 8)).astype("float32")
    L = rng.integers(0, 4, size=(10, 1)).astype("int64")
    static_losses = [float(exe.run(main, feed={"x": X, "label": L}, fetch_list=[loss])[0])
                     for _ in range(5)]
    paddle.disable_static()
    eager = _mlp()
    for p, name in zip(eager.parameters(), names):
        p.set_value(init[name])
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=eager.parameters())
    eager_losses = _eager_losses(eager, opt, lambda m, a, b: F.cross_entropy(m(a), b),
                                 [(X, L)] * 5)
    paddle.enable_static()
    assert static_losses[-1] < static_losses[0]
    np.testing.assert_allclose(static_losses, eager_losses, rtol=1e-5)


class LeNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(1, 4, 3)
        self.pool = paddle.nn.MaxPool2D(2, 2)
        self.fc = paddle.nn.Linear(4 * 3 * 3, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv(x)))
        return self.fc(paddle.flatten(x, 1))


def test_small_conv_net_trains(static):
    main, startup = static
    img = paddle.static.data("img", [None, 1, 8, 8], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    model = LeNet()
    logits = model(img)
    assert logits.shape == [-1, 10]
    loss = F.cross_entropy(logits, label)
    paddle.optimizer.Momentum(learning_rate=0.05).minimize(loss)
    exe = paddle.static.Executor()
    exe.run(startup)
    rng = np.random.default_rng(2)
    X = rng.normal(size=(5, 1, 8, 8)).astype("float32")
    L = rng.integers(0, 10, size=(5, 1)).astype("int64")
    losses = [float(exe.run(main, feed={"img": X, "label": L}, fetch_list=[loss])[0])
              for _ in range(8)]
    assert losses[-1] < 0.7 * losses[0]
    out, = exe.run(main.clone(for_test=True), feed={"img": X[:2], "label": L[:2]},
                   fetch_list=[logits])
    assert out.shape == (2, 10)


def test_fetch_by_name_and_variable(static):
    main, startup = static
    x = paddle.static.data("x", [2, 3], "float32")
    y = (x * 2.0 + 1.0).sum(axis=1)
    z = paddle.exp(x)
    exe = paddle.static.Executor()
    a = np.arange(6, dtype="float32").reshape(2, 3)
    by_var, by_name = exe.run(feed={"x": a}, fetch_list=[y, z.name])
    np.testing.assert_allclose(by_var, (a * 2 + 1).sum(1))
    np.testing.assert_allclose(by_name, np.exp(a), rtol=1e-6)
    t, = exe.run(main, feed={"x": a}, fetch_list=y, return_numpy=False)
    assert isinstance(t, paddle.Tensor)
    np.testing.assert_allclose(t.numpy(), (a * 2 + 1).sum(1))


def test_variables_carry_shape_and_dtype(static):
    x = paddle.static.data("x", [None, 4, 5], "float64")
    assert x.shape == [-1, 4, 5] and x.dtype == paddle.float64 and x.name == "x"
    y = paddle.matmul(x, paddle.ones([5, 2], dtype="float64"))
    assert y.shape == [-1, 4, 2] and y.dtype == paddle.float64
    assert paddle.reshape(y, [-1, 8]).shape == [-1, 8]
    assert y.mean().shape == [] and x[:, 0].shape == [-1, 5]
    with pytest.raises(ValueError, match="cannot be broadcast"):
        x + paddle.static.data("w", [3], "float64")
    with pytest.raises(TypeError, match="no value while the program is built"):
        y.numpy()


def test_clone_for_test_drops_backward_and_updates(static):
    paddle.seed(0)  # unseeded, dropout dropped all 8 values 1 run in 256, and w did not move
    main, startup = static
    x = paddle.static.data("x", [-1, 3], "float32")
    model = paddle.nn.Linear(3, 2)
    h = F.dropout(model(x), p=0.5)
    loss = h.mean()
    test_prog = main.clone(for_test=True)
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
    trained_test = main.clone(for_test=True)
    roles = {op.role for op in main.global_block().ops}
    assert roles == {"forward", "backward", "optimize"}
    for prog in (test_prog, trained_test):
        assert {op.role for op in prog.global_block().ops} == {"forward"}
        assert [op.type for op in prog.global_block().ops] == ["matmul", "add", "dropout", "mean"]
        assert not any(v.name.endswith("@GRAD") for v in prog.list_vars())
    exe = paddle.static.Executor()
    exe.run(startup)
    a = np.ones((4, 3), "float32")
    w = model.weight.name
    w0, out1 = exe.run(trained_test, feed={"x": a}, fetch_list=[w, h.name])
    w1, out2 = exe.run(trained_test, feed={"x": a}, fetch_list=[w, h.name])
    np.testing.assert_array_equal(w0, w1)            # no update ops
    np.testing.assert_array_equal(out1, out2)        # dropout is off
    exe.run(main, feed={"x": a})
    w2, = exe.run(trained_test, feed={"x": a}, fetch_list=[w])
    assert not np.array_equal(w1, w2)                 # the training program updates


def test_append_backward_and_gradients_match_eager(static):
    main, startup = static
    x = paddle.static.data("x", [-1, 3], "float32")
    x.stop_gradient = False
    model = paddle.nn.Linear(3, 2)
    loss = paddle.tanh(model(x)).pow(2).mean()
    pairs = paddle.static.append_backward(loss)
    assert [p.name for p, _ in pairs] == [model.weight.name, model.bias.name]
    assert [g.name for _, g in pairs] == [f"{model.weight.name}@GRAD", f"{model.bias.name}@GRAD"]
    gx, = paddle.static.gradients([loss], [x])
    exe = paddle.static.Executor()
    w0, b0 = exe.run(startup, fetch_list=[model.weight, model.bias])
    a = np.random.default_rng(3).normal(size=(5, 3)).astype("float32")
    gw, gb, gxv = exe.run(main, feed={"x": a}, fetch_list=[g for _, g in pairs] + [gx])
    paddle.disable_static()
    xt = paddle.to_tensor(a, stop_gradient=False)
    w = paddle.to_tensor(w0, stop_gradient=False)
    b = paddle.to_tensor(b0, stop_gradient=False)
    ew, eb, ex = paddle.grad(paddle.tanh(xt @ w + b).pow(2).mean(), [w, b, xt])
    paddle.enable_static()
    np.testing.assert_allclose(gw, ew.numpy(), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(gb, eb.numpy(), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(gxv, ex.numpy(), rtol=1e-5, atol=1e-7)


def test_second_order_gradients(static):
    main, _ = static
    x = paddle.static.data("x", [4], "float64")
    x.stop_gradient = False
    y = (x ** 3).sum()
    g, = paddle.static.gradients(y, x)
    gg, = paddle.static.gradients(g.sum(), x)
    a = np.array([1.0, -2.0, 0.5, 3.0])
    out = paddle.static.Executor().run(main, feed={"x": a}, fetch_list=[g, gg])
    np.testing.assert_allclose(out[0], 3 * a ** 2)
    np.testing.assert_allclose(out[1], 6 * a)


def test_bad_input_errors_name_the_variable(static):
    main, startup = static
    x = paddle.static.data("x", [-1, 3], "float32")
    model = paddle.nn.Linear(3, 1)
    out = model(x)
    exe = paddle.static.Executor()
    good = np.ones((2, 3), "float32")
    with pytest.raises(RuntimeError, match=r"'linear_\d+\.w_0'.*run the startup program first"):
        exe.run(main, feed={"x": good}, fetch_list=[out])
    exe.run(startup)
    with pytest.raises(ValueError, match=r"'x' should have dimensions = 2, shape = \[-1, 3\], "
                                         r"but received fed shape \[2, 4\]"):
        exe.run(main, feed={"x": np.ones((2, 4), "float32")}, fetch_list=[out])
    with pytest.raises(ValueError, match=r"'x' must be 'float32', but received 'float64'"):
        exe.run(main, feed={"x": good.astype("float64")}, fetch_list=[out])
    with pytest.raises(ValueError, match="cannot fetch 'nope'"):
        exe.run(main, feed={"x": good}, fetch_list=["nope"])
    with pytest.raises(ValueError, match="no variable 'z' to feed"):
        exe.run(main, feed={"z": good}, fetch_list=[out])
    with pytest.raises(ValueError, match="data variable 'x'.*not fed"):
        exe.run(main, fetch_list=[out])
    assert exe.run(main, feed={"x": good}, fetch_list=[out])[0].shape == (2, 1)


def test_str_program_lists_variables_and_ops(static):
    main, startup = static
    x = paddle.static.data("x", [None, 2], "float32")
    paddle.nn.Linear(2, 3, weight_attr=paddle.ParamAttr(name="fc.w_0"),
                     bias_attr=paddle.ParamAttr(name="fc.b_0"))(x)
    text = str(main)
    assert "var x : LOD_TENSOR.shape(-1, 2).dtype(float32).stop_gradient(True)" in text
    assert "persist trainable param var fc.w_0 : LOD_TENSOR.shape(2, 3)" in text
    assert "= matmul(inputs={x=['x'], y=['fc.w_0']}" in text
    assert "{out=['fc.w_0']} = uniform(" in str(startup)
    assert [p.name for p in main.all_parameters()] == ["fc.w_0", "fc.b_0"]
    assert {v.name for v in main.list_vars()} >= {"x", "fc.w_0", "fc.b_0"}
    assert main.global_block().var("x").shape == [-1, 2]


def test_random_seed_makes_startup_reproducible(static):
    main, startup = static
    startup.random_seed = 7
    w = paddle.nn.Linear(4, 4).weight
    exe = paddle.static.Executor()
    first, = exe.run(startup, fetch_list=[w])
    second, = exe.run(startup, fetch_list=[w])
    np.testing.assert_array_equal(first, second)


def test_scope_guard_keeps_values_apart(static):
    main, startup = static
    w = paddle.nn.Linear(2, 2).weight
    exe = paddle.static.Executor()
    exe.run(startup)
    assert paddle.static.global_scope().find_var(w.name) is not None
    with paddle.static.scope_guard(paddle.static.Scope()):
        assert paddle.static.global_scope().find_var(w.name) is None
    t = paddle.static.global_scope().find_var(w.name).get_tensor()
    t.set(np.full((2, 2), 3.0, "float32"), paddle.CPUPlace())
    np.testing.assert_array_equal(exe.run(main, fetch_list=[w])[0], np.full((2, 2), 3.0))


def test_enable_disable_restores_eager_and_fast_paths():
    eager_apply = dispatch.apply
    eager_walk = autograd.run_backward
    fast = current().fast_paths or {}
    assert paddle.in_dynamic_mode()
    paddle.enable_static()
    try:
        assert not paddle.in_dynamic_mode()
        assert dispatch.apply is dispatch.REFERENCE_PATHS["apply"]
        x = paddle.static.data("x", [2], "float32")
        assert isinstance(x + 1.0, paddle.static.Variable)
    finally:
        paddle.disable_static()
    assert paddle.in_dynamic_mode()
    assert dispatch.apply is eager_apply is fast.get("apply", dispatch.REFERENCE_PATHS["apply"])
    assert autograd.run_backward is eager_walk
    t = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (t * t).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), [2.0, 4.0])


def test_input_spec():
    spec = paddle.static.InputSpec([None, 784], "float32", "x")
    assert spec.shape == (-1, 784) and spec.dtype == paddle.float32 and spec.name == "x"
    assert spec.batch(8).shape == (8, -1, 784)
    assert spec.unbatch().shape == (-1, 784)
    assert paddle.static.InputSpec.from_numpy(np.ones((2, 3), "int64")).shape == (2, 3)


def test_cond_runs_the_branch_the_value_chooses(static):
    main, _ = static
    # seed 003's static program (Paddle 1.x spelling there: fluid.layers.cond)
    x = paddle.static.data(shape=[1], name="x", dtype="float32")
    y = paddle.static.data(shape=[1], name="y", dtype="float32")
    z = paddle.static.nn.cond(x > y, lambda: x + y, lambda: x - y)
    pair = paddle.static.nn.cond(x > y, lambda: [x * 2.0, y], lambda: [y, x])
    exe = paddle.static.Executor()
    for a, b in [(2.0, 1.0), (1.0, 2.0)]:
        feed = {"x": np.array([a], "float32"), "y": np.array([b], "float32")}
        got = exe.run(main, feed=feed, fetch_list=[z, *pair])
        want = [a + b, 2 * a, b] if a > b else [a - b, b, a]
        np.testing.assert_allclose(np.concatenate(got), want)
    assert "cond(inputs=" in str(main) and main.num_blocks == 5
    with pytest.raises(ValueError, match="different structures"):
        paddle.static.nn.cond(x > y, lambda: x, lambda: [x, y])
    with pytest.raises(ValueError, match="output 0 of the branches differs"):
        paddle.static.nn.cond(x > y, lambda: x, lambda: paddle.cast(x, "int64"))


def test_while_loop_and_switch_case(static):
    main, _ = static
    x = paddle.static.data("x", [2], "float32")
    idx = paddle.static.data("idx", [1], "int64")
    i = paddle.full([1], 0, "int64")
    limit = paddle.full([1], 4, "int64")
    acc = paddle.zeros([2], "float32")
    i_out, acc_out = paddle.static.nn.while_loop(lambda i, a: i < limit,
                                                 lambda i, a: [i + 1, a * 2.0 + x], [i, acc])
    sw = paddle.static.nn.switch_case(idx, {1: lambda: x * 10.0, 3: lambda: x * 30.0},
                                      default=lambda: -x)
    exe = paddle.static.Executor()
    a = np.array([1.0, 2.0], "float32")
    for k, factor in [(1, 10.0), (3, 30.0), (7, -1.0)]:
        got = exe.run(main, feed={"x": a, "idx": np.array([k])}, fetch_list=[i_out, acc_out, sw, i])
        np.testing.assert_array_equal(got[0], [4])
        np.testing.assert_allclose(got[1], a * 15)       # ((((0*2+a)*2+a)*2+a)*2+a)
        np.testing.assert_allclose(got[2], a * factor)
        np.testing.assert_array_equal(got[3], [0])        # the loop changed a copy


def test_control_flow_in_dynamic_mode_just_runs():
    x = paddle.to_tensor([3.0])
    assert float(paddle.static.nn.cond(x > 1.0, lambda: x * 2, lambda: x)) == 6.0
    out = paddle.static.nn.while_loop(lambda i: i < 5, lambda i: [i + 2], [paddle.to_tensor(0)])
    assert int(out[0]) == 6
    assert paddle.static.nn.switch_case(paddle.to_tensor(2), [lambda: 0, lambda: 1]) == 1


def test_save_and_load(static, tmp_path):
    main, startup = static
    x = paddle.static.data("x", [-1, 3], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    model = paddle.nn.Linear(3, 4)
    logits = model(x)
    loss = F.cross_entropy(logits, label)
    paddle.optimizer.Adam(learning_rate=0.1).minimize(loss)
    exe = paddle.static.Executor()
    exe.run(startup)
    feed = {"x": np.ones((2, 3), "float32"), "label": np.array([[1], [2]])}
    exe.run(main, feed=feed)
    paddle.static.save(main, str(tmp_path / "ckpt" / "model"))
    saved = paddle.load(str(tmp_path / "ckpt" / "model.pdparams"), return_numpy=True)
    assert sorted(saved) == sorted([model.weight.name, model.bias.name])
    after_one, = exe.run(main, feed=feed, fetch_list=[loss])
    exe.run(main, feed=feed)
    paddle.static.load(main, str(tmp_path / "ckpt" / "model"), exe)
    again, = exe.run(main, feed=feed, fetch_list=[loss])   # parameters and Adam's state back
    np.testing.assert_allclose(again, after_one, rtol=1e-6)

    paddle.static.save_inference_model(str(tmp_path / "infer"), [x], [logits], exe)
    want, = exe.run(main.clone(for_test=True), feed=feed, fetch_list=[logits])
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, feed_names, fetches = paddle.static.load_inference_model(str(tmp_path / "infer"),
                                                                       exe)
        assert feed_names == ["x"] and [op.type for op in prog.global_block().ops] == [
            "matmul", "add"]
        got, = exe.run(prog, feed={"x": feed["x"]}, fetch_list=fetches)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    with pytest.raises(ValueError, match="need data variable 'label'"):
        paddle.static.save_inference_model(str(tmp_path / "bad"), [x], [loss], exe)


def test_inference_model_with_control_flow(static, tmp_path):
    main, startup = static
    x = paddle.static.data("x", [-1, 2], "float32")
    model = paddle.nn.Linear(2, 2)
    out = paddle.static.nn.cond(x.sum() > 0.0, lambda: model(x), lambda: x[:, ::-1] * 3.0)
    exe = paddle.static.Executor()
    exe.run(startup)
    paddle.static.save_inference_model(str(tmp_path / "m"), [x], [out], exe)
    feeds = [np.ones((3, 2), "float32"), -np.arange(4, dtype="float32").reshape(2, 2)]
    want = [exe.run(main, feed={"x": a}, fetch_list=[out])[0] for a in feeds]
    with paddle.static.scope_guard(paddle.static.Scope()):
        prog, _, fetches = paddle.static.load_inference_model(str(tmp_path / "m"), exe)
        got = [exe.run(prog, feed={"x": a}, fetch_list=fetches)[0] for a in feeds]
    np.testing.assert_allclose(got[1], feeds[1][:, ::-1] * 3.0)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_batch_norm_updates_running_stats_and_set_value(static):
    main, startup = static
    x = paddle.static.data("x", [-1, 3, 2, 2], "float32")
    bn = paddle.nn.BatchNorm2D(3, momentum=0.5)
    y = bn(x)
    test_prog = main.clone(for_test=True)
    exe = paddle.static.Executor()
    exe.run(startup)
    a = np.random.default_rng(4).normal(size=(4, 3, 2, 2)).astype("float32")
    out, mean = exe.run(main, feed={"x": a}, fetch_list=[y, bn._mean])
    np.testing.assert_allclose(mean, 0.5 * a.mean(axis=(0, 2, 3)), rtol=1e-5, atol=1e-6)
    norm = (a - a.mean(axis=(0, 2, 3), keepdims=True)) / np.sqrt(
        a.var(axis=(0, 2, 3), keepdims=True) + 1e-5)
    np.testing.assert_allclose(out, norm, rtol=1e-4, atol=1e-5)
    before, = exe.run(test_prog, feed={"x": a}, fetch_list=[bn._mean])
    after, = exe.run(test_prog, feed={"x": a}, fetch_list=[bn._mean])
    np.testing.assert_array_equal(before, after)       # inference leaves the statistics alone
    bn.weight.set_value(np.full([3], 2.0, "float32"))  # an array: written into the scope now
    out2, = exe.run(test_prog, feed={"x": a}, fetch_list=[y])
    bn.weight.set_value(np.ones([3], "float32"))
    out1, = exe.run(test_prog, feed={"x": a}, fetch_list=[y])
    np.testing.assert_allclose(out2, 2 * out1, rtol=1e-5)


def test_lr_scheduler_is_read_at_every_run(static):
    main, startup = static
    x = paddle.static.data("x", [None, 3], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    model = paddle.nn.Linear(3, 1)
    loss = F.mse_loss(model(x), y)
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5)
    paddle.optimizer.Momentum(learning_rate=sched, momentum=0.5).minimize(loss)
    exe = paddle.static.Executor()
    names = [p.name for p in model.parameters()]
    init = dict(zip(names, exe.run(startup, fetch_list=names)))
    X, Y = _regression_data()
    static_losses = []
    for _ in range(5):
        static_losses.append(float(exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])[0]))
        sched.step()
    paddle.disable_static()
    eager = paddle.nn.Linear(3, 1)
    for p, name in zip(eager.parameters(), names):
        p.set_value(init[name])
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5)
    opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.5,
                                    parameters=eager.parameters())
    eager_losses = []
    for _ in range(5):
        loss_e = F.mse_loss(eager(paddle.to_tensor(X)), paddle.to_tensor(Y))
        loss_e.backward()
        opt.step()
        opt.clear_grad()
        sched.step()
        eager_losses.append(float(loss_e))
    paddle.enable_static()
    np.testing.assert_allclose(static_losses, eager_losses, rtol=1e-5)


@pytest.fixture
def passes():
    """Restore the pass switches after the test."""
    previous = paddle.static.set_passes()
    yield paddle.static.set_passes
    paddle.static.set_passes(**previous)


def _train_mlp(main, startup, feed, fetch, steps=4):
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe = paddle.static.Executor()
        exe.run(startup)
        return [exe.run(main, feed=feed, fetch_list=fetch) for _ in range(steps)]


def test_passes_do_not_change_fetched_values(static, passes):
    main, startup = static
    startup.random_seed = 5
    x = paddle.static.data("x", [-1, 8], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    model = _mlp()
    hidden = model[1](model[0](x))
    loss = F.cross_entropy(model[2](hidden), label)
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    rng = np.random.default_rng(6)
    feed = {"x": rng.normal(size=(6, 8)).astype("float32"),
            "label": rng.integers(0, 4, size=(6, 1)).astype("int64")}
    fetch = [loss, hidden, model[0].weight]
    with_passes = _train_mlp(main, startup, feed, fetch)
    passes(dead_op_elimination=False, buffer_reuse=False)
    without = _train_mlp(main, startup, feed, fetch)
    for a, b in zip(with_passes, without):
        for u, v in zip(a, b):
            np.testing.assert_array_equal(u, v)
    with pytest.raises(ValueError, match="unknown passes"):
        passes(fusion=True)


def test_dead_op_elimination_and_buffer_reuse(static, passes):
    from dygrad.static.passes import plan
    passes(bias_activation_fusion=False, elementwise_fusion=False)
    main, startup = static
    x = paddle.static.data("x", [-1, 3], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    model = paddle.nn.Linear(3, 4)
    logits = model(x)
    h = paddle.tanh(logits) * 2.0
    loss = F.cross_entropy(logits, label)
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    exe = paddle.static.Executor()
    exe.run(startup)
    a = np.ones((2, 3), "float32")
    test_prog = main.clone(for_test=True)
    def value(v):
        return np.array(paddle.static.global_scope().find_var(v.name).get_tensor())

    out, = exe.run(test_prog, feed={"x": a}, fetch_list=[h])  # the loss is not computed
    np.testing.assert_allclose(out, np.tanh(a @ value(model.weight) + value(model.bias)) * 2,
                               rtol=1e-6)
    p = plan(test_prog, [h.name])
    assert [op.type for op in p.ops] == ["matmul", "add", "tanh", "multiply"]
    freed = {name for names in p.free for name in names}
    assert "x" in freed and logits.name in freed and h.name not in freed
    assert model.weight.name not in freed
    # training still runs every update, though only the loss is fetched
    w0 = value(model.weight)
    exe.run(main, feed={"x": a, "label": np.array([[1], [2]])}, fetch_list=[loss])
    assert not np.array_equal(w0, value(model.weight))
    passes(dead_op_elimination=False)
    with pytest.raises(ValueError, match="data variable 'label'.*not fed"):
        exe.run(test_prog, feed={"x": a}, fetch_list=[h])
