"""dygrad.fluid: Paddle 1.x's dygraph API (layers, fluid.layers functions, optimizers,
checkpoints, readers), checked against NumPy statements of the 1.x behaviours."""

from __future__ import annotations

import numpy as np
import pytest

import dygrad
import dygrad.fluid as fluid
from dygrad.fluid.dygraph import FC, Conv2D, Embedding, Linear, Pool2D, to_variable

rng = np.random.default_rng(0)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def np_conv2d(x, w, b, stride=1, padding=0):
    x = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (padding, padding), (padding, padding)])
    win = np.lib.stride_tricks.sliding_window_view(x, w.shape[2:], axis=(2, 3))
    win = win[:, :, ::stride, ::stride]
    return np.einsum("nchwij,ocij->nohw", win, w) + b[None, :, None, None]


# -- dygraph basics ----------------------------------------------------------------------------

def test_to_variable_needs_a_gradient_and_keeps_dtype():
    v = to_variable(np.ones([2, 3], np.float64))
    assert not v.stop_gradient and v.dtype == dygrad.float64 and v.shape == [2, 3]
    assert to_variable(v) is v
    assert fluid.dygraph.base.to_variable is to_variable
    with pytest.raises(TypeError, match="to_variable"):
        to_variable("text")


def test_guard_sets_the_place_for_its_block_and_restores_it():
    before = dygrad.get_device()
    with fluid.dygraph.guard(fluid.CPUPlace()):
        assert dygrad.get_device() == "cpu"
        assert fluid.in_dygraph_mode() and fluid.dygraph.enabled()
    assert dygrad.get_device() == before
    fluid.enable_imperative()
    assert isinstance(fluid.core.is_compiled_with_cuda(), bool)


def test_modes_switch_between_dygraph_and_static_programs():
    fluid.disable_dygraph()
    try:
        assert not fluid.in_dygraph_mode() and not dygrad.in_dynamic_mode()
        with fluid.dygraph.guard():  # a dygraph block inside static mode runs eagerly
            assert fluid.in_dygraph_mode()
            np.testing.assert_array_equal((to_variable(np.ones(2)) * 2).numpy(), [2.0, 2.0])
        assert not fluid.in_dygraph_mode()
        assert fluid.default_main_program() is dygrad.static.default_main_program()
    finally:
        fluid.enable_dygraph()
    assert fluid.in_dygraph_mode() and dygrad.in_dynamic_mode()
    assert fluid.disable_imperative is fluid.disable_dygraph


def test_gradient_of_intermediate_results_as_numpy():
    x = to_variable(np.array([1.0, 2.0, -1.0], np.float32))
    h = fluid.layers.relu(x)
    loss = fluid.layers.reduce_sum(fluid.layers.elementwise_mul(h, h))
    loss.backward()
    assert isinstance(h.gradient(), np.ndarray)
    np.testing.assert_array_equal(h.gradient(), [2.0, 4.0, 0.0])
    np.testing.assert_array_equal(x.gradient(), [2.0, 4.0, 0.0])
    assert loss.gradient() == 1.0


def test_layer_name_scope_and_build_once():
    calls = []

    class Net(fluid.Layer):
        def __init__(self, name_scope):
            super().__init__(name_scope)

        def build_once(self, x):
            calls.append(x.shape)

        def forward(self, x):
            return x * 2

    net = Net("my_net")
    assert net.full_name().startswith("my_net_") and isinstance(net, dygrad.nn.Layer)
    net(to_variable(np.ones([2], np.float32)))
    net(to_variable(np.ones([3], np.float32)))
    assert calls == [[2]]
    assert fluid.Layer is fluid.dygraph.Layer


# -- layers ------------------------------------------------------------------------------------

def test_fc_infers_its_input_size_at_the_first_call():
    fc = FC("fc", size=4, num_flatten_dims=2, act="relu")
    assert fc.parameters() == []
    x = randn(2, 3, 5, 2)
    out = fc(to_variable(x))
    w, b = fc.weight.numpy(), fc.bias.numpy()
    assert w.shape == (10, 4) and b.shape == (4,) and out.shape == [2, 3, 4]
    want = np.maximum(x.reshape(6, 10) @ w + b, 0).reshape(2, 3, 4)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-6)
    assert len(fc.parameters()) == 2
    with pytest.raises(ValueError, match="FC"):
        FC("fc", size=4, num_flatten_dims=3)(to_variable(randn(2, 3, 4)))


@pytest.mark.parametrize("form", ["name_scope", "keywords", "positional"])
def test_conv2d_both_forms(form):
    if form == "name_scope":
        conv = Conv2D("scope", num_channels=4, num_filters=6, filter_size=3, padding=1,
                      groups=2, act="relu")
        assert conv.full_name().startswith("scope_")
    elif form == "keywords":
        conv = Conv2D(num_channels=4, num_filters=6, filter_size=3, padding=1, groups=2,
                      act="relu")
    else:
        conv = Conv2D(4, 6, 3, 1, 1, 1, 2, None, None, True, "relu")
    # the name_scope form creates its parameters at the first call (build_once)
    assert (conv.weight is None) == (form == "name_scope")
    x = randn(2, 4, 5, 5)
    out = conv(to_variable(x)).numpy()
    assert conv._filter_param is conv.weight and conv._bias_param is conv.bias
    assert conv.weight.shape == [6, 2, 3, 3] and conv.bias.shape == [6]
    w, b = conv.weight.numpy(), conv.bias.numpy()
    want = np.concatenate([np_conv2d(x[:, :2], w[:3], b[:3], padding=1),
                           np_conv2d(x[:, 2:], w[3:], b[3:], padding=1)], axis=1)
    np.testing.assert_allclose(out, np.maximum(want, 0), rtol=1e-4, atol=1e-5)


def test_conv2d_default_init_and_errors():
    conv = Conv2D(num_channels=8, num_filters=32, filter_size=5)
    assert np.all(conv.bias.numpy() == 0)
    assert abs(conv.weight.numpy().std() - (2.0 / (25 * 8)) ** 0.5) < 0.02
    with pytest.raises(ValueError, match="Conv2D"):
        Conv2D(num_channels=3, num_filters=2, filter_size=3, groups=2)
    with pytest.raises(TypeError):
        Conv2D(num_filters=2, filter_size=3)


def test_pool2d():
    x = randn(2, 3, 6, 6)
    out = Pool2D(pool_size=2, pool_type="max")(to_variable(x)).numpy()  # 1.x stride: 1
    want = np.lib.stride_tricks.sliding_window_view(x, (2, 2), axis=(2, 3)).max(axis=(4, 5))
    np.testing.assert_allclose(out, want)
    out = Pool2D("p", 2, "avg", 2)(to_variable(x)).numpy()
    np.testing.assert_allclose(out, x.reshape(2, 3, 3, 2, 3, 2).mean(axis=(3, 5)), rtol=1e-5)
    out = Pool2D(global_pooling=True, pool_type="avg")(to_variable(x)).numpy()
    np.testing.assert_allclose(out, x.mean(axis=(2, 3), keepdims=True), rtol=1e-5)
    out = Pool2D(pool_type="max", global_pooling=True)(to_variable(x)).numpy()
    np.testing.assert_allclose(out, x.max(axis=(2, 3), keepdims=True))
    with pytest.raises(ValueError, match="pool_type"):
        Pool2D(pool_size=2, pool_type="min")
    with pytest.raises(ValueError, match="data_format"):
        Pool2D(pool_size=2, data_format="NWHC")
    with pytest.raises(ValueError, match="pool_size"):
        Pool2D(pool_type="avg")


def test_linear_embedding_batchnorm():
    lin = Linear(5, 3, act="tanh")
    x = randn(4, 5)
    np.testing.assert_allclose(lin(to_variable(x)).numpy(),
                               np.tanh(x @ lin.weight.numpy() + lin.bias.numpy()), rtol=1e-5)
    assert Linear(5, 3, bias_attr=False).bias is None
    emb = Embedding(size=[10, 4], padding_idx=-1)
    ids = np.array([[1, 9], [3, 3]], np.int64)
    out = emb(to_variable(ids))
    assert out.shape == [2, 2, 4]
    np.testing.assert_array_equal(out.numpy()[0, 1], 0)
    np.testing.assert_array_equal(out.numpy()[1, 0], emb.weight.numpy()[3])
    assert fluid.dygraph.BatchNorm is dygrad.nn.BatchNorm


# -- fluid.layers ------------------------------------------------------------------------------

def test_elementwise_axis_broadcasting():
    x, y = randn(2, 3, 4, 5), randn(3, 4)
    out = fluid.layers.elementwise_add(to_variable(x), to_variable(y), axis=1)
    np.testing.assert_allclose(out.numpy(), x + y[None, :, :, None], rtol=1e-6)
    y = randn(4, 5)  # axis=-1: the trailing dimensions
    out = fluid.layers.elementwise_sub(to_variable(x), to_variable(y))
    np.testing.assert_allclose(out.numpy(), x - y, rtol=1e-6)
    y = np.abs(randn(2)) + 1
    out = fluid.layers.elementwise_div(to_variable(x), to_variable(y), axis=0, act="relu")
    np.testing.assert_allclose(out.numpy(), np.maximum(x / y[:, None, None, None], 0), rtol=1e-6)
    with pytest.raises(ValueError, match="elementwise_mul"):
        fluid.layers.elementwise_mul(to_variable(x), to_variable(randn(3, 4)), axis=2)


def test_reduce_dims_and_keep_dim():
    x = randn(2, 3, 4)
    v = to_variable(x)
    np.testing.assert_allclose(fluid.layers.reduce_sum(v, dim=1).numpy(), x.sum(1), rtol=1e-5)
    out = fluid.layers.reduce_mean(v, dim=[0, 2], keep_dim=True)
    assert out.shape == [1, 3, 1]
    np.testing.assert_allclose(out.numpy(), x.mean((0, 2), keepdims=True), rtol=1e-5)
    np.testing.assert_allclose(fluid.layers.reduce_max(v, dim=-1).numpy(), x.max(-1))
    np.testing.assert_allclose(fluid.layers.reduce_min(v).numpy(), x.min())
    assert fluid.layers.mean(v).shape == []  # 0-D, as Paddle >= 2.5


def test_cross_entropy_takes_probabilities():
    p = np.abs(randn(4, 5)) + 0.1
    p /= p.sum(1, keepdims=True)
    label = np.array([[0], [4], [2], [2]], np.int64)
    out = fluid.layers.cross_entropy(to_variable(p), to_variable(label))
    assert out.shape == [4, 1]
    np.testing.assert_allclose(out.numpy(), -np.log(p[np.arange(4), label[:, 0]])[:, None],
                               rtol=1e-5)
    logits = randn(4, 5)
    out = fluid.layers.softmax_with_cross_entropy(to_variable(logits), to_variable(label))
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    np.testing.assert_allclose(out.numpy(), -logp[np.arange(4), label[:, 0]][:, None],
                               rtol=1e-5)
    np.testing.assert_allclose(fluid.layers.softmax(to_variable(logits)).numpy(),
                               np.exp(logp), rtol=1e-5)


def test_other_functions():
    x, y = randn(2, 3), randn(3, 4)
    out = fluid.layers.matmul(to_variable(x), to_variable(y), alpha=2.0)
    np.testing.assert_allclose(out.numpy(), 2 * x @ y, rtol=1e-5)
    out = fluid.layers.matmul(to_variable(x), to_variable(x), transpose_y=True)
    np.testing.assert_allclose(out.numpy(), x @ x.T, rtol=1e-5)
    out = fluid.layers.reshape(to_variable(randn(2, 3, 4)), [0, -1], act="relu")
    assert out.shape == [2, 12] and out.numpy().min() >= 0
    np.testing.assert_array_equal(fluid.layers.transpose(to_variable(x), [1, 0]).numpy(), x.T)
    np.testing.assert_array_equal(
        fluid.layers.concat([to_variable(x), to_variable(x)], axis=1).numpy(),
        np.concatenate([x, x], 1))
    c = fluid.layers.fill_constant([2, 2], "int64", 3)
    assert c.dtype == dygrad.int64 and c.stop_gradient and np.all(c.numpy() == 3)
    ones = [to_variable(np.ones([2], np.float32)) for _ in range(3)]
    np.testing.assert_array_equal(fluid.layers.sums(ones).numpy(), [3.0, 3.0])
    with pytest.raises(ValueError, match="sums"):
        fluid.layers.sums([ones[0], to_variable(np.ones([3], np.float32))])
    scores = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32)
    acc = fluid.layers.accuracy(to_variable(scores), to_variable(np.array([[1], [1], [1]])))
    np.testing.assert_allclose(acc.numpy(), 2 / 3, rtol=1e-6)


# -- optimizers --------------------------------------------------------------------------------

def _step(opt_factory, **kwargs):
    fc = FC("fc", size=2)
    x = to_variable(randn(3, 4))
    fc(x)
    before = [p.numpy() for p in fc.parameters()]
    opt = opt_factory(fc)
    loss = fluid.layers.mean(fc(x))
    loss.backward()
    grads = [p.gradient() for p in fc.parameters()]
    opt.minimize(loss)
    return before, grads, [p.numpy() for p in fc.parameters()]


@pytest.mark.parametrize("with_list", [True, False])
def test_sgd_minimize_with_and_without_parameter_list(with_list):
    before, grads, after = _step(lambda fc: fluid.optimizer.SGDOptimizer(
        learning_rate=0.5, parameter_list=fc.parameters() if with_list else None))
    for b, g, a in zip(before, grads, after):
        np.testing.assert_allclose(a, b - 0.5 * g, rtol=1e-5, atol=1e-7)


def test_adam_and_momentum_first_steps():
    before, grads, after = _step(lambda fc: fluid.optimizer.Adam(0.1, parameter_list=fc.parameters()))
    for b, g, a in zip(before, grads, after):  # Adam's first step is lr * sign(g)
        np.testing.assert_allclose(a, b - 0.1 * np.sign(g), rtol=1e-4, atol=1e-6)
    before, grads, after = _step(lambda fc: fluid.optimizer.MomentumOptimizer(0.1, 0.9))
    for b, g, a in zip(before, grads, after):
        np.testing.assert_allclose(a, b - 0.1 * g, rtol=1e-5, atol=1e-7)
    assert fluid.optimizer.SGD is fluid.optimizer.SGDOptimizer


def test_parameters_without_a_list_are_those_the_loss_reaches():
    used, unused = FC("a", size=2), FC("b", size=2)
    x = to_variable(randn(3, 4))
    unused(x)
    opt = fluid.optimizer.SGDOptimizer(0.1)
    loss = fluid.layers.mean(used(x))
    loss.backward()
    opt.minimize(loss)
    assert {id(p) for p in opt._param_groups[0]["params"]} == {id(p) for p in used.parameters()}


# -- initializers ------------------------------------------------------------------------------

def test_initializers():
    init = fluid.initializer
    assert isinstance(init.Xavier(uniform=False), dygrad.nn.initializer.XavierNormal)
    assert isinstance(init.MSRA(), dygrad.nn.initializer.KaimingUniform)
    assert init.Normal is init.NormalInitializer
    attr = fluid.param_attr.ParamAttr(initializer=init.ConstantInitializer(0.5))
    assert fluid.ParamAttr is fluid.param_attr.ParamAttr
    lin = Linear(3, 2, param_attr=attr)
    np.testing.assert_array_equal(lin.weight.numpy(), 0.5)
    w = Linear(200, 300, param_attr=fluid.ParamAttr(
        initializer=init.NormalInitializer(loc=1.0, scale=0.1))).weight.numpy()
    assert abs(w.mean() - 1.0) < 0.01 and abs(w.std() - 0.1) < 0.01
    w = Linear(200, 300, param_attr=fluid.ParamAttr(initializer=init.Uniform(-2, 2))).weight.numpy()
    assert -2 <= w.min() and w.max() <= 2 and w.max() > 1.9
    with pytest.raises(ValueError, match="seed"):
        init.NormalInitializer(seed=3)


# -- checkpoints -------------------------------------------------------------------------------

def test_save_and_load_persistables_round_trip(tmp_path):
    a, b = Linear(3, 2), Linear(3, 2)
    fluid.dygraph.save_persistables(a.state_dict(), str(tmp_path / "d"))
    assert sorted(f.name for f in (tmp_path / "d").iterdir()) == sorted(
        p.name for p in a.parameters())
    loaded = fluid.dygraph.load_persistables(a.state_dict(), str(tmp_path / "d"))
    assert list(loaded) == list(a.state_dict())
    b.load_dict(loaded)
    for p, q in zip(a.parameters(), b.parameters()):
        np.testing.assert_array_equal(p.numpy(), q.numpy())
    fluid.dygraph.save_persistables(a.state_dict(), str(tmp_path / "e"), filename="all")
    loaded = fluid.dygraph.load_persistables(a.state_dict(), str(tmp_path / "e"), "all")
    np.testing.assert_array_equal(loaded["weight"].numpy(), a.weight.numpy())
    with pytest.raises(RuntimeError, match="load_persistables"):
        fluid.dygraph.load_persistables(Linear(2, 2).state_dict(), str(tmp_path / "d"))


def test_save_and_load_dygraph_round_trip(tmp_path):
    emb = Embedding([10, 4])
    saved = emb.weight.numpy()
    fluid.save_dygraph(emb.state_dict(), str(tmp_path / "m"))
    assert fluid.load_dygraph(str(tmp_path / "m"))[1] is None
    opt = fluid.optimizer.Adam(0.1, parameter_list=emb.parameters())
    loss = fluid.layers.mean(emb(to_variable(np.array([1, 2]))))
    loss.backward()
    opt.minimize(loss)
    fluid.save_dygraph(opt.state_dict(), str(tmp_path / "m"))
    params, opt_state = fluid.load_dygraph(str(tmp_path / "m"))
    assert isinstance(params["weight"], np.ndarray) and isinstance(opt_state, dict)
    other = Embedding([10, 4])
    other.load_dict(params)
    np.testing.assert_array_equal(other.weight.numpy(), saved)
    with pytest.raises(RuntimeError, match="does not exist"):
        fluid.load_dygraph(str(tmp_path / "missing"))


# -- readers -----------------------------------------------------------------------------------

def test_mnist_readers_and_batch():
    sample = next(dygrad.dataset.mnist.train()())
    image, label = sample
    assert image.shape == (784,) and image.dtype == np.float32 and isinstance(label, int)
    assert image.min() >= -1 and image.max() <= 1 and image.min() == -1
    images = dygrad.vision.datasets.MNIST(mode="test").images
    first = next(dygrad.dataset.mnist.test()())[0]
    np.testing.assert_allclose(first, images[0].reshape(-1) / 255.0 * 2 - 1, atol=1e-6)

    def reader():
        yield from range(7)
    assert list(dygrad.batch(reader, 3)()) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(dygrad.batch(reader, 3, drop_last=True)()) == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="batch_size"):
        dygrad.batch(reader, 0)


# -- PyLayer (seed 002's comment) --------------------------------------------------------------

def test_py_layer_in_numpy():
    class MyPyLayer(fluid.PyLayer):
        def __init__(self):
            super(MyPyLayer, self).__init__()

        @staticmethod
        def forward(inputs):
            return np.tanh(inputs[0])

        @staticmethod
        def backward(inputs):
            inp, out, dout = inputs
            return np.array(dout) * (1 - np.square(np.array(out)))

    np_inp = np.array([[0.5, -1.0], [2.0, 0.0]], np.float32)
    var_inp = to_variable(np_inp)
    outs = MyPyLayer()(var_inp)
    assert isinstance(outs, list) and len(outs) == 1
    np.testing.assert_allclose(outs[0].numpy(), np.tanh(np_inp), rtol=1e-6)
    outs[0].backward()
    np.testing.assert_allclose(var_inp.gradient(), 1 - np.tanh(np_inp) ** 2, rtol=1e-5)
    with pytest.raises(TypeError, match="Variable"):
        MyPyLayer()(np_inp)


def test_load_dict_reaches_parameters_created_at_the_first_call():
    class Net(fluid.Layer):
        def __init__(self, name_scope):
            super().__init__(name_scope)
            self._fc = FC(self.full_name(), 3)

        def forward(self, x):
            return self._fc(x)

    x = to_variable(randn(2, 5))
    trained = Net("net")
    want = trained(x).numpy()
    fresh = Net("net")
    fresh.load_dict(trained.state_dict())
    np.testing.assert_array_equal(fresh(x).numpy(), want)


def test_guard_restarts_the_name_counters():
    names = []
    for _ in range(2):
        with fluid.dygraph.guard():
            names.append(Linear(2, 2).weight.name)
    assert names[0] == names[1]


def test_fluid_data_starts_static_mode_and_layers_data_adds_the_batch():
    assert dygrad.in_dynamic_mode()
    main, startup = dygrad.static.Program(), dygrad.static.Program()
    try:
        with dygrad.static.program_guard(main, startup):
            x = fluid.data(name="x", shape=[None, 4], dtype="float32")
            assert not dygrad.in_dynamic_mode()  # 1.x's default mode
            img = fluid.layers.data(name="img", shape=[1, 28, 28], dtype="float32")
            label = fluid.layers.data(name="label", shape=[-1, 1], dtype="int64")
            flat = fluid.layers.data(name="flat", shape=[3], append_batch_size=False)
            out = fluid.layers.conv2d(input=img, num_filters=2, filter_size=5, act="relu")
        assert (x.shape, img.shape, label.shape, flat.shape) == (
            [-1, 4], [-1, 1, 28, 28], [-1, 1], [3])
        assert out.shape == [-1, 2, 24, 24]
        exe = fluid.Executor()
        exe.run(startup)
        got, = exe.run(main, feed={"img": np.ones((2, 1, 28, 28), np.float32)}, fetch_list=[out])
        assert got.shape == (2, 2, 24, 24) and np.all(got >= 0)
    finally:
        dygrad.disable_static()
    with pytest.raises(TypeError, match="fluid.layers.conv2d: input"):
        fluid.layers.conv2d(input=np.ones((1, 1, 4, 4)), num_filters=1, filter_size=3)
