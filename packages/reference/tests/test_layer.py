"""paddle.nn.Layer: registration, traversal, naming, parameters and ParamAttr, state
dicts, modes, hooks, device/dtype conversion and printing; the containers (behaviour
checked against PaddlePaddle)."""

import re

import numpy as np
import pytest

import dygrad as paddle
from dygrad import nn


def counter(full_name):
    """The number at the end of a unique name ('linear_3' -> 3)."""
    return int(re.search(r"_(\d+)$", full_name).group(1))


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(2, 3)
        self.act = nn.ReLU()
        self.linear2 = nn.Linear(3, 1)
        self.register_buffer("steps", paddle.zeros([1]))

    def forward(self, x):
        return self.linear2(self.act(self.linear1(x)))


# ---------------------------------------------------------------------------
# registration and traversal
# ---------------------------------------------------------------------------

def test_attribute_assignment_registers_by_type():
    net = Net()
    assert list(net._sub_layers) == ["linear1", "act", "linear2"]
    assert list(net._buffers) == ["steps"]
    assert "linear1" not in net.__dict__  # found through __getattr__
    assert net.linear1 is net._sub_layers["linear1"]
    assert net.linear1.weight is net.linear1._parameters["weight"]
    assert net.steps is net._buffers["steps"]
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        _ = net.missing
    assert {"linear1", "steps", "forward"} <= set(dir(net))


def test_parameters_in_registration_order():
    net = Net()
    names = [n for n, _ in net.named_parameters()]
    assert names == ["linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias"]
    params = net.parameters()
    assert params[0] is net.linear1.weight and params[3] is net.linear2.bias
    assert all(isinstance(p, paddle.Parameter) for p in params)
    assert net.parameters(include_sublayers=False) == []
    assert [n for n, _ in net.named_parameters(prefix="net")][0] == "net.linear1.weight"


def test_parameter_properties():
    lin = nn.Linear(2, 3)
    w = lin.weight
    assert w.stop_gradient is False and w.trainable and w.persistable
    assert w.shape == [2, 3] and w.dtype == paddle.float32
    assert lin.bias.shape == [3]
    assert w.optimize_attr == {"learning_rate": 1.0} and w.need_clip


def test_shared_weights_counted_once():
    class Tied(nn.Layer):
        def __init__(self):
            super().__init__()
            self.enc = nn.Linear(4, 4)
            self.dec = nn.Linear(4, 4)
            self.dec.weight = self.enc.weight
            self.again = self.enc  # the same sublayer twice

    m = Tied()
    names = [n for n, _ in m.named_parameters()]
    assert names == ["enc.weight", "enc.bias", "dec.bias"]
    assert len(m.parameters()) == 3
    assert [n for n, _ in m.named_sublayers()] == ["enc", "dec"]
    assert len(list(m.children())) == 2
    # state_dict lists a shared tensor under every name, as Paddle does
    assert list(m.state_dict()) == ["enc.weight", "enc.bias", "dec.weight", "dec.bias",
                                    "again.weight", "again.bias"]
    assert m.state_dict()["dec.weight"] is m.enc.weight


def test_sublayers_and_children():
    class Outer(nn.Layer):
        def __init__(self):
            super().__init__()
            self.net = Net()
            self.head = nn.Linear(1, 1)

    m = Outer()
    assert [n for n, _ in m.named_sublayers()] == ["net", "net.linear1", "net.act",
                                                   "net.linear2", "head"]
    assert [n for n, _ in m.named_sublayers(include_self=True)][0] == ""
    assert m.sublayers()[0] is m.net and len(m.sublayers(include_self=True)) == 6
    assert [c for c in m.children()] == [m.net, m.head]
    assert [n for n, _ in m.named_children()] == ["net", "head"]
    visited = []
    m.apply(lambda layer: visited.append(type(layer).__name__))
    assert visited == ["Linear", "ReLU", "Linear", "Net", "Linear", "Outer"]


def test_buffers_plain_tensors_and_register_buffer():
    class B(nn.Layer):
        def __init__(self):
            super().__init__()
            self.mask = paddle.ones([2])  # a plain Tensor attribute: non-persistable buffer
            self.register_buffer("mean", paddle.zeros([2]))
            self.register_buffer("tmp", paddle.zeros([2]), persistable=False)
            self.scale = 2.0

    b = B()
    assert [n for n, _ in b.named_buffers()] == ["mask", "mean", "tmp"]
    assert len(b.buffers()) == 3
    assert list(b.state_dict()) == ["mean"]
    assert b.scale == 2.0 and "scale" in b.__dict__
    b.mean = paddle.ones([2])  # re-assigning keeps it a persistable buffer
    assert list(b.state_dict()) == ["mean"] and b.mean.numpy().tolist() == [1, 1]
    del b.mean
    assert "mean" not in b._buffers and list(b.state_dict()) == []


def test_assignment_errors():
    lin = nn.Linear(2, 2)
    with pytest.raises(TypeError, match="assignment to parameter 'weight' should be of type "
                                        "Parameter or None, but got 'Tensor'"):
        lin.weight = paddle.ones([2, 2])
    lin.bias = None  # None is allowed, and drops the parameter from traversals
    assert lin.bias is None and [n for n, _ in lin.named_parameters()] == ["weight"]

    class NoInit(nn.Layer):
        def __init__(self):
            self.l = nn.Linear(2, 2)

    with pytest.raises(ValueError, match=r"super\(\).__init__\(\) should be called first"):
        NoInit()


def test_add_parameter_add_sublayer_register_buffer_checks():
    m = nn.Layer()
    p = m.create_parameter([2])
    assert m.add_parameter("p", p) is p and m.p is p
    relu = nn.ReLU()
    assert m.add_sublayer("act", relu) is relu and m.act is relu
    with pytest.raises(KeyError, match="can not contain"):
        m.add_parameter("a.b", p)
    with pytest.raises(KeyError, match="already exists"):
        m.add_parameter("act", p)
    with pytest.raises(TypeError, match="Parameter or None"):
        m.add_parameter("q", paddle.ones([2]))
    with pytest.raises(TypeError, match="should be a Paddle.Tensor"):
        m.register_buffer("b", np.ones(2))
    with pytest.raises(TypeError, match="Layer or None"):
        m.add_sublayer("x", 3)


# ---------------------------------------------------------------------------
# naming
# ---------------------------------------------------------------------------

def test_full_names_and_parameter_names():
    a, b = nn.Linear(2, 2), nn.Linear(2, 2)
    n = counter(a.full_name())
    assert a.full_name() == f"linear_{n}" and b.full_name() == f"linear_{n + 1}"
    assert a.weight.name == f"linear_{n}.w_0" and a.bias.name == f"linear_{n}.b_0"
    assert nn.Linear(2, 2, bias_attr=False, name="foo").full_name() == f"linear_{n + 2}"

    class MyModel(nn.Layer):
        def __init__(self):
            super().__init__()
            self.w = self.create_parameter([2, 3])
            self.b = self.create_parameter([3], is_bias=True)
            self.w2 = self.create_parameter([2, 3], dtype="float64")

    m = MyModel()
    k = counter(m.full_name())
    assert m.full_name() == f"my_model_{k}"
    assert (m.w.name, m.b.name, m.w2.name) == (f"my_model_{k}.w_0", f"my_model_{k}.b_0",
                                               f"my_model_{k}.w_1")
    assert m.w2.dtype == paddle.float64 and m.b.numpy().tolist() == [0, 0, 0]

    class HTTPServer2D(nn.Layer):
        pass

    assert HTTPServer2D().full_name().startswith("http_server2d_")
    assert nn.Layer("abc").full_name().startswith("abc_")


# ---------------------------------------------------------------------------
# state dicts
# ---------------------------------------------------------------------------

def test_state_dict_keys_and_round_trip():
    paddle.seed(1)
    src, dst = Net(), Net()
    sd = src.state_dict()
    # own parameters, then own persistable buffers, then sublayers in order
    assert list(sd) == ["steps", "linear1.weight", "linear1.bias", "linear2.weight",
                        "linear2.bias"]
    assert sd["linear1.weight"] is src.linear1.weight  # the tensors themselves
    target = dst.linear1.weight
    version = target.inplace_version
    missing, unexpected = dst.set_state_dict(sd)
    assert missing == [] and unexpected == []
    assert dst.linear1.weight is target and target.inplace_version > version  # in place
    for (k, a), (_, b) in zip(src.state_dict().items(), dst.state_dict().items()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=k)
    x = paddle.rand([4, 2])
    np.testing.assert_array_equal(src(x).numpy(), dst(x).numpy())


def test_set_state_dict_from_numpy_missing_and_unexpected():
    lin = nn.Linear(2, 3)
    missing, unexpected = lin.set_state_dict({"weight": np.ones((2, 3), np.float32),
                                              "extra": np.ones(3)})
    assert missing == ["bias"] and unexpected == ["extra"]
    np.testing.assert_array_equal(lin.weight.numpy(), np.ones((2, 3)))
    missing, unexpected = lin.set_state_dict({lin.weight.name: np.zeros((2, 3), np.float32)},
                                             use_structured_name=False)
    assert missing == [lin.bias.name] and unexpected == []
    np.testing.assert_array_equal(lin.weight.numpy(), np.zeros((2, 3)))
    assert lin.set_dict == lin.set_state_dict and lin.load_dict == lin.set_state_dict


def test_set_state_dict_rejects_shape_and_dtype_mismatch_before_copying():
    lin = nn.Linear(2, 3)
    before = lin.bias.numpy().copy()
    with pytest.raises(ValueError, match=r"weight receives a shape \[3, 3\], but the expected "
                                         r"shape is \[2, 3\]"):
        lin.set_state_dict({"bias": np.full(3, 5, np.float32),
                            "weight": np.ones((3, 3), np.float32)})
    np.testing.assert_array_equal(lin.bias.numpy(), before)  # nothing was copied
    with pytest.raises(TypeError, match="weight receives dtype float64.*float32"):
        lin.set_state_dict({"weight": np.ones((2, 3))})


# ---------------------------------------------------------------------------
# modes, hooks, printing
# ---------------------------------------------------------------------------

def test_train_and_eval_are_recursive():
    net = Net()
    assert net.training and net.linear1.training
    assert net.eval() is net
    assert not net.training and not net.linear1.training and not net.act.training
    net.train()
    assert all(layer.training for layer in net.sublayers(include_self=True))


def test_forward_hooks():
    lin = nn.Linear(2, 2, bias_attr=False)
    calls = []
    pre = lin.register_forward_pre_hook(lambda layer, inputs: (inputs[0] * 2.0,))
    post = lin.register_forward_post_hook(lambda layer, inputs, out: calls.append(out) or out + 1.0)
    x = paddle.ones([1, 2])
    out = lin(x)
    expected = 2.0 * x.numpy() @ lin.weight.numpy() + 1.0
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    assert len(calls) == 1
    pre.remove()
    post.remove()
    np.testing.assert_allclose(lin(x).numpy(), x.numpy() @ lin.weight.numpy(), rtol=1e-6)


def test_layer_without_forward():
    with pytest.raises(NotImplementedError, match="does not define forward"):
        nn.Layer()(paddle.ones([1]))


def test_repr_like_paddle():
    class M(nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear1 = nn.Linear(2, 3)
            self.act = nn.ReLU()
            self.inner = Net()

    assert repr(nn.Linear(300, 200)) == "Linear(in_features=300, out_features=200, dtype=float32)"
    assert repr(nn.Linear(2, 3, name="abc")) == \
        "Linear(in_features=2, out_features=3, dtype=float32, name=abc)"
    assert repr(M()) == (
        "M(\n"
        "  (linear1): Linear(in_features=2, out_features=3, dtype=float32)\n"
        "  (act): ReLU()\n"
        "  (inner): Net(\n"
        "    (linear1): Linear(in_features=2, out_features=3, dtype=float32)\n"
        "    (act): ReLU()\n"
        "    (linear2): Linear(in_features=3, out_features=1, dtype=float32)\n"
        "  )\n"
        ")")
    assert [repr(x) for x in (nn.ReLU(), nn.ReLU(name="foo"), nn.MSELoss(), nn.Sigmoid(),
                              nn.Tanh(), nn.Softmax(axis=1, name="x"), nn.LogSoftmax())] == \
        ["ReLU()", "ReLU(name=foo)", "MSELoss()", "Sigmoid()", "Tanh()",
         "Softmax(axis=1, name=x)", "LogSoftmax(axis=-1)"]


def test_clear_gradients():
    lin = nn.Linear(2, 2)
    (lin(paddle.ones([1, 2])) * 3.0).sum().backward()
    assert lin.weight.grad is not None
    lin.clear_gradients()  # Paddle's default zeroes the gradients
    np.testing.assert_array_equal(lin.weight.grad.numpy(), np.zeros((2, 2)))
    lin.clear_gradients(set_to_zero=False)
    assert lin.weight.grad is None and lin.bias.grad is None

def test_sequential():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(seq) == 3 and isinstance(seq[-1], nn.Linear) and seq[1] is seq._sub_layers["1"]
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    x = np.random.default_rng(0).standard_normal((4, 2)).astype(np.float32)
    hidden = np.maximum(x @ seq[0].weight.numpy() + seq[0].bias.numpy(), 0)
    np.testing.assert_allclose(seq(paddle.to_tensor(x)).numpy(),
                               hidden @ seq[2].weight.numpy() + seq[2].bias.numpy(), rtol=1e-5)
    tail = seq[1:]
    assert isinstance(tail, nn.Sequential) and tail[1] is seq[2] and list(tail._sub_layers) == ["0", "1"]
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    named = nn.Sequential(("enc", nn.Linear(2, 2)), ("act", nn.ReLU()))
    assert repr(named) == ("Sequential(\n  (enc): Linear(in_features=2, out_features=2, "
                           "dtype=float32)\n  (act): ReLU()\n)")
    assert isinstance(named["act"], nn.ReLU)


def test_layer_list():
    layers = nn.LayerList([nn.Linear(2, 2), nn.ReLU()])
    layers.append(nn.Tanh())
    layers.insert(0, nn.Sigmoid())
    assert [type(m).__name__ for m in layers] == ["Sigmoid", "Linear", "ReLU", "Tanh"]
    assert len(layers.parameters()) == 2 and layers[-1] is layers[3]
    del layers[1]
    assert [n for n, _ in layers.named_sublayers()] == ["0", "1", "2"]
    assert [type(m).__name__ for m in layers[1:]] == ["ReLU", "Tanh"]
    with pytest.raises(IndexError, match=r"index 5 is out of range, should be an integer in "
                                         r"range \[-3, 3\)"):
        layers[5]
    layers[0] = nn.Linear(1, 1)
    assert isinstance(layers[0], nn.Linear) and len(layers) == 3
