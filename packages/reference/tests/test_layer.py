"""paddle.nn.Layer: registration, traversal, naming, parameters and ParamAttr, state
dicts, modes, hooks, device/dtype conversion and printing; the containers (behaviour
checked against PaddlePaddle)."""

import re
import warnings

import numpy as np
import pytest

import dygrad as paddle
from dygrad import nn
from dygrad.nn import initializer as I
from dygrad.nn.param_attr import ParamAttr


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
    # the registries own them; the instance dict holds copies (a normal attribute lookup)
    assert net.__dict__["linear1"] is net._sub_layers["linear1"]
    assert net.linear1 is net._sub_layers["linear1"]
    assert net.linear1.weight is net.linear1._parameters["weight"]
    assert net.steps is net._buffers["steps"]
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        _ = net.missing
    assert {"linear1", "steps", "forward"} <= set(dir(net))


def _reads_as_registries(layer):
    """Every registered name reads as __getattr__'s search of the registries gives it."""
    for name in {*layer._parameters, *layer._sub_layers, *layer._buffers}:
        want = next(r[name] for r in (layer._parameters, layer._sub_layers, layer._buffers)
                    if name in r)
        assert getattr(layer, name) is want, name
    return True


def test_attributes_follow_every_change_of_the_registries():
    """Reading a registered name finds the registry's entry (copied into the instance dict)
    however the registry changed: the Layer's methods, containers and direct writes."""
    net = Net()
    other, p = nn.Linear(2, 2), nn.Linear(1, 2).bias
    net._sub_layers["linear1"] = other
    assert net.linear1 is other and _reads_as_registries(net)
    del net._sub_layers["act"]
    with pytest.raises(AttributeError, match="no attribute 'act'"):
        _ = net.act
    assert net._sub_layers.pop("linear2") is not None and not hasattr(net, "linear2")
    net._parameters.update(extra=p)
    net._buffers.setdefault("counts", None)
    assert net.extra is p and net.counts is None and _reads_as_registries(net)
    net._parameters |= {"extra": None}
    assert net.extra is None
    assert net._buffers.popitem() == ("counts", None) and not hasattr(net, "counts")
    net._parameters.clear()
    assert not hasattr(net, "extra") and _reads_as_registries(net)
    net.extra = p  # and the attribute protocol: a registry for each kind of value
    net.extra = None
    assert net.extra is None and net._parameters["extra"] is None
    del net.extra
    assert not hasattr(net, "extra") and "extra" not in net._parameters
    net.extra = other
    assert net.extra is other and "extra" in net._sub_layers and _reads_as_registries(net)
    d = nn.LayerDict({"a": nn.ReLU(), "b": nn.Tanh()})
    del d["a"]
    assert not hasattr(d, "a") and d.pop("b") is not None and not hasattr(d, "b")
    d.update({"c": nn.ReLU()})
    d.clear()
    assert not hasattr(d, "c") and _reads_as_registries(d)
    seq = nn.Sequential(nn.ReLU(), nn.Tanh())
    del seq[0]
    assert not hasattr(seq, "0") and isinstance(getattr(seq, "1"), nn.Tanh)


def test_a_plain_or_class_attribute_still_shadows_a_registered_name():
    class WithMethod(nn.Layer):
        def weight(self):
            return "method"

    layer = WithMethod()
    layer._parameters["weight"] = nn.Linear(1, 1).bias
    assert layer.weight() == "method"  # the class attribute wins, as before
    net = Net()
    object.__setattr__(net, "plain", 1)
    net._buffers["plain"] = paddle.zeros([1])
    assert net.plain == 1
    del net._buffers["plain"]
    assert net.plain == 1


def test_copies_and_pickles_keep_the_attributes_and_registries_in_step():
    import copy
    import pickle
    net = Net()
    deep = copy.deepcopy(net)
    assert deep.linear1 is deep._sub_layers["linear1"] and deep.linear1 is not net.linear1
    deep.linear1 = nn.Linear(2, 3)
    deep._sub_layers["act"] = nn.Tanh()
    assert net.linear1 is net._sub_layers["linear1"] and isinstance(net.act, nn.ReLU)
    assert isinstance(deep.act, nn.Tanh) and _reads_as_registries(deep)
    shallow = copy.copy(net)  # shares the registries with net, as Paddle's copy
    shallow.linear2 = nn.Linear(3, 1)
    assert shallow._sub_layers is net._sub_layers and shallow.linear2 is net.linear2
    net._sub_layers["act"] = nn.Sigmoid()
    assert isinstance(shallow.act, nn.Sigmoid) and _reads_as_registries(shallow)
    assert _reads_as_registries(net)
    loaded = pickle.loads(pickle.dumps(Net()))
    loaded._sub_layers["act"] = nn.Tanh()
    assert isinstance(loaded.act, nn.Tanh) and _reads_as_registries(loaded)


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
    with pytest.raises(KeyError, match="The parameter 'act' already exists."):
        m.add_parameter("act", p)
    with pytest.raises(KeyError, match="attribute 'act' already exists."):
        m.register_buffer("act", paddle.ones([1]))
    with pytest.raises(KeyError, match="can not be empty"):
        m.register_buffer("", paddle.ones([1]))
    with pytest.raises(TypeError, match="should be a string, but received int"):
        m.add_parameter(1, p)
    with pytest.raises(TypeError, match="should be a Parameter, but received Tensor"):
        m.add_parameter("q", paddle.ones([2]))
    with pytest.raises(TypeError, match="should be a Paddle.Tensor, but received Parameter"):
        m.register_buffer("b", p)
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
    with pytest.warns(UserWarning, match="Skip loading for bias. bias is not found in the "
                                         "provided dict."):
        missing, unexpected = lin.set_state_dict({"weight": np.ones((2, 3), np.float32),
                                                  "extra": np.ones(3)})
    assert missing == ["bias"] and unexpected == ["extra"]
    np.testing.assert_array_equal(lin.weight.numpy(), np.ones((2, 3)))
    with pytest.warns(UserWarning, match=f"Skip loading for bias. {lin.bias.name} is not found"):
        missing, unexpected = lin.set_state_dict(
            {lin.weight.name: paddle.zeros([2, 3])}, use_structured_name=False)
    assert missing == [lin.bias.name] and unexpected == []
    np.testing.assert_array_equal(lin.weight.numpy(), np.zeros((2, 3)))
    assert lin.set_dict == lin.set_state_dict and lin.load_dict == lin.set_state_dict


def test_set_state_dict_skips_a_shape_mismatch_and_rejects_a_dtype_mismatch():
    lin = nn.Linear(2, 3)
    weight = lin.weight.numpy().copy()
    # as Paddle 3.3.1: a warning naming both shapes; the key is missing and unexpected
    with pytest.warns(UserWarning, match=r"Skip loading for weight. weight receives a shape "
                                         r"\[3, 3\], but the expected shape is \[2, 3\]."):
        missing, unexpected = lin.set_state_dict({"bias": np.full(3, 5, np.float32),
                                                  "weight": np.ones((3, 3), np.float32)})
    assert missing == ["weight"] and unexpected == ["weight"]
    np.testing.assert_array_equal(lin.weight.numpy(), weight)
    np.testing.assert_array_equal(lin.bias.numpy(), [5, 5, 5])
    with pytest.raises(TypeError, match="weight receives dtype float64.*float32"):
        lin.set_state_dict({"bias": np.zeros(3, np.float32), "weight": np.ones((2, 3))})
    np.testing.assert_array_equal(lin.bias.numpy(), [5, 5, 5])  # nothing was copied


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


def test_layer_dict():
    d = nn.LayerDict({"b": nn.Linear(2, 2), "a": nn.ReLU()})  # insertion order is kept
    assert list(d) == ["b", "a"] and list(d.keys()) == ["b", "a"] and len(d) == 2
    assert "a" in d and "z" not in d and isinstance(d["a"], nn.ReLU)
    assert [type(v).__name__ for v in d.values()] == ["Linear", "ReLU"]
    assert [k for k, _ in d.items()] == ["b", "a"]
    d.update([("c", nn.Tanh()), ("a", nn.Sigmoid())])  # pairs; an existing key is replaced
    assert list(d) == ["b", "a", "c"] and isinstance(d["a"], nn.Sigmoid)
    d.update(nn.LayerDict({"e": nn.ReLU()}))
    d["f"] = nn.Linear(1, 1)
    assert [n for n, _ in d.named_parameters()] == ["b.weight", "b.bias", "f.weight", "f.bias"]
    relu = d["e"]
    assert d.pop("e") is relu and "e" not in d
    del d["f"]
    assert list(d) == ["b", "a", "c"]
    with pytest.raises(KeyError):
        d.pop("e")
    with pytest.raises(ValueError, match="The length of the 0's element in sublayers is 3, "
                                         "which must be 2."):
        d.update([("x", nn.ReLU(), 1)])
    with pytest.raises(TypeError, match="not iterable of key/value pairs"):
        d.update(3)
    with pytest.raises(TypeError, match="Layer or None"):
        d["x"] = 3
    d.clear()
    assert len(d) == 0 and d.parameters() == []


def test_parameter_list_and_dict():
    owner = nn.Layer()
    params = [owner.create_parameter([i + 1]) for i in range(3)]
    plist = nn.ParameterList(params[:2])
    assert plist.append(params[2]) is plist and len(plist) == 3
    assert list(plist) == params and plist[-1] is params[2] and plist[0] is params[0]
    assert [n for n, _ in plist.named_parameters()] == ["0", "1", "2"]
    assert plist.parameters() == params and list(plist.state_dict()) == ["0", "1", "2"]
    new = owner.create_parameter([4])
    plist[1] = new
    assert plist[1] is new and plist.parameters() == [params[0], new, params[2]]
    with pytest.raises(IndexError, match=r"index 3 is out of range"):
        plist[3]
    with pytest.raises(TypeError, match="ParameterList holds Parameters"):
        plist.append(paddle.ones([1]))
    with pytest.raises(TypeError, match="ParameterList holds Parameters"):
        plist[0] = paddle.ones([1])

    class Stacked(nn.Layer):
        def __init__(self):
            super().__init__()
            self.ws = nn.ParameterList([self.create_parameter([2, 2]) for _ in range(2)])

    assert [n for n, _ in Stacked().named_parameters()] == ["ws.0", "ws.1"]

    pdict = nn.ParameterDict({"w": params[0], "b": params[1]})
    assert list(pdict) == ["w", "b"] and len(pdict) == 2 and pdict["b"] is params[1]
    pdict["c"] = params[2]
    pdict.update([("w", new)])
    assert [n for n, _ in pdict.named_parameters()] == ["w", "b", "c"] and pdict["w"] is new
    with pytest.raises(TypeError, match="ParameterDict holds Parameters"):
        pdict["d"] = paddle.ones([1])
    with pytest.raises(TypeError, match="ParameterDict holds Parameters"):
        nn.ParameterDict({"x": np.ones(2)})


def test_layer_list_edits():
    a, b, c, d = nn.Linear(1, 1), nn.ReLU(), nn.Tanh(), nn.Sigmoid()
    layers = nn.LayerList()
    assert layers.extend([a, b]) is layers and layers.append(c) is layers
    layers.insert(-1, d)  # before the last
    assert list(layers) == [a, b, d, c]
    layers.insert(4, nn.ReLU())  # index == len appends
    assert len(layers) == 5 and list(layers._sub_layers) == ["0", "1", "2", "3", "4"]
    del layers[1:3]
    assert list(layers)[:2] == [a, c] and list(layers._sub_layers) == ["0", "1", "2"]
    del layers[-1]
    assert list(layers) == [a, c]
    layers[-1] = d
    assert list(layers) == [a, d]
    sub = layers[::-1]
    assert isinstance(sub, nn.LayerList) and list(sub) == [d, a]
    with pytest.raises(IndexError, match=r"index should be an integer in range \[-2, 2\]"):
        layers.insert(3, b)
    with pytest.raises(IndexError, match=r"index -3 is out of range"):
        layers[-3] = b
    with pytest.raises(TypeError, match="LayerList indices must be integers or slices"):
        layers["0"]
    with pytest.raises(TypeError, match="should be of type Layer or None"):
        layers[0] = 3
    with pytest.raises(TypeError, match="Layer or None"):
        nn.LayerList([nn.ReLU(), 3])
    assert [n for n, _ in layers.named_parameters()] == ["0.weight", "0.bias"]
    assert repr(layers) == ("LayerList(\n  (0): Linear(in_features=1, out_features=1, "
                            "dtype=float32)\n  (1): Sigmoid()\n)")
    assert {"LayerDict", "ParameterList", "ParameterDict"} <= set(nn.__all__)


# ---------------------------------------------------------------------------
# create_parameter and ParamAttr
# ---------------------------------------------------------------------------

def test_paddle_create_parameter_makes_a_trainable_parameter_named_as_paddle_does():
    """paddle.create_parameter (also paddle.static's) in dygraph mode: names
    'create_parameter_<n>.w_0'/'.b_0' as Paddle 3.3.1 prints them, Xavier or zeros, and
    the parameter trains."""
    w = paddle.create_parameter([4, 3], "float32")
    b = paddle.create_parameter([3], "float32", is_bias=True)
    k = int(re.match(r"create_parameter_(\d+)\.w_0$", w.name).group(1))
    assert b.name == f"create_parameter_{k + 1}.b_0"
    assert paddle.create_parameter([2], "float64", name="foo").name == "foo"
    assert isinstance(w, paddle.Parameter) and not w.stop_gradient and w.trainable
    assert b.numpy().tolist() == [0, 0, 0] and np.abs(w.numpy()).max() <= np.sqrt(6 / 7)
    x = paddle.ones([2, 4])
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w, b])
    before = w.numpy().copy()
    (paddle.matmul(x, w) + b).sum().backward()
    opt.step()
    np.testing.assert_allclose(w.numpy(), before - 0.1 * 2, rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), [-0.2] * 3, rtol=1e-6)
    with pytest.raises(TypeError, match="dtype int32 has no default initializer"):
        paddle.create_parameter([2], "int32")
    assert paddle.static.create_parameter is paddle.create_parameter


def test_create_parameter_applies_param_attr():
    m = nn.Layer()
    reg = paddle.regularizer.L2Decay(0.01)  # kept on the parameter for the optimizer
    p = m.create_parameter([2, 3], attr=ParamAttr(
        name="my_w", initializer=I.Constant(0.5), learning_rate=0.25, regularizer=reg,
        trainable=False, do_model_average=False, need_clip=False))
    assert isinstance(p, paddle.Parameter) and p.name == "my_w" and p.shape == [2, 3]
    np.testing.assert_array_equal(p.numpy(), np.full((2, 3), 0.5))
    assert p.optimize_attr == {"learning_rate": 0.25} and p.regularizer is reg
    assert p.stop_gradient and not p.trainable and not p.need_clip
    assert p.do_model_average is False and p.persistable
    q = m.create_parameter([2], attr="by_name", is_bias=True)
    assert q.name == "by_name" and q.numpy().tolist() == [0, 0]
    k = counter(m.full_name())
    p = m.create_parameter([2], attr=I.Constant(3.0))
    assert p.name == f"layer_{k}.w_0" and p.numpy().tolist() == [3, 3]  # named ones: no count
    assert m.create_parameter([1], attr="").name == f"layer_{k}.w_1"  # '' means no attr
    assert m.create_parameter([1], attr=True).name == f"layer_{k}.w_2"
    assert m.create_parameter([2], attr=False) is None
    assert m.create_parameter([], dtype="float64").shape == []
    ints = m.create_parameter([2], dtype="int32", default_initializer=I.Constant(7))
    assert ints.dtype == paddle.int32 and ints.numpy().tolist() == [7, 7]
    with pytest.raises(TypeError, match="dtype int32 has no default initializer"):
        m.create_parameter([2], dtype="int32")
    with pytest.raises(ValueError, match=r"must be >= 0, got \[2, -1\]"):
        m.create_parameter([2, -1])
    with pytest.raises(TypeError, match="<class 'int'> cast to ParamAttr"):
        m.create_parameter([2], attr=3)


def test_param_attr_defaults_conversion_and_errors():
    attr = ParamAttr()
    assert (attr.name, attr.initializer, attr.learning_rate, attr.regularizer, attr.trainable,
            attr.do_model_average, attr.need_clip) == (None, None, 1.0, None, True, True, True)
    assert paddle.ParamAttr is ParamAttr and nn.ParamAttr is ParamAttr
    init = I.Normal()
    a, b = ParamAttr._to_attr(["w", init])
    assert a.name == "w" and b.initializer is init
    assert ParamAttr._to_attr(attr) is attr and ParamAttr._to_attr(False) is False
    with pytest.raises(TypeError, match="The type of 'name' in ParamAttr must be "
                                        r"\(str, NoneType\), but received int."):
        ParamAttr(name=3)
    with pytest.raises(ValueError, match="name of ParamAttr can not be empty str"):
        ParamAttr(name="")
    with pytest.raises(TypeError, match="'trainable' in ParamAttr"):
        ParamAttr(trainable=1)
    with pytest.raises(TypeError, match="'learning_rate' in ParamAttr"):
        ParamAttr(learning_rate="0.1")
    with pytest.raises(TypeError, match="'initializer' in ParamAttr"):
        ParamAttr(initializer="normal")


def test_global_initializer_precedence():
    try:
        I.set_global_initializer(I.Constant(2.0), I.Constant(-1.0))
        lin = nn.Linear(2, 2)  # the global ones replace the layer's defaults
        assert lin.weight.numpy().tolist() == [[2, 2], [2, 2]]
        assert lin.bias.numpy().tolist() == [-1, -1]
        lin = nn.Linear(2, 2, weight_attr=I.Constant(5.0))  # an attr's initializer wins
        assert lin.weight.numpy().tolist() == [[5, 5], [5, 5]]
        m = nn.Layer()  # ... over a layer's default_initializer too
        assert m.create_parameter([1], default_initializer=I.Constant(9.0)).numpy() == 2.0
        I.set_global_initializer(I.Constant(3.0))  # bias_init None: biases default again
        assert nn.Linear(2, 1).bias.numpy().tolist() == [0]
        with pytest.raises(TypeError, match="'weight_init' in set_global_initializer"):
            I.set_global_initializer("x")
    finally:
        I.set_global_initializer(None)
    assert nn.Linear(2, 2).weight.numpy().std() > 0  # XavierUniform again


# ---------------------------------------------------------------------------
# more of the Layer protocol
# ---------------------------------------------------------------------------

def test_state_dict_options_and_hooks():
    net = Net()
    assert list(net.state_dict(include_sublayers=False)) == ["steps"]
    assert list(net.state_dict(structured_name_prefix="m."))[:2] == ["m.steps",
                                                                      "m.linear1.weight"]
    dest = {"x": 1}
    assert net.state_dict(destination=dest) is dest and list(dest)[:2] == ["x", "steps"]

    def drop_steps(sd):
        sd.pop("steps")

    handle = net.register_state_dict_hook(drop_steps)
    assert "steps" not in net.state_dict() and "steps" in net.state_dict(use_hook=False)
    handle.remove()
    assert "steps" in net.state_dict()
    # a returned dict replaces the layer's own result; as in Paddle 3.3.1, an owner keeps
    # filling the dict it passed down
    net.linear1.register_state_dict_hook(lambda sd: {"only": 1})
    assert net.linear1.state_dict() == {"only": 1}
    assert len(net.state_dict()) == 5


def test_state_dict_round_trip_nested_with_buffers():
    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.layers = nn.LayerList([nn.Linear(3, 3), nn.Linear(3, 2)])
            self.heads = nn.LayerDict({"cls": nn.Linear(2, 4)})
            self.register_buffer("mean", paddle.zeros([3]))
            self.register_buffer("scratch", paddle.zeros([1]), persistable=False)

        def forward(self, x):
            x = x - self.mean
            for layer in self.layers:
                x = layer(x)
            return self.heads["cls"](x)

    paddle.seed(5)
    src, dst = Block(), Block()
    src.mean.set_value(np.array([1, 2, 3], np.float32))
    keys = ["mean", "layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias",
            "heads.cls.weight", "heads.cls.bias"]
    assert list(src.state_dict()) == keys
    arrays = {k: v.numpy() for k, v in src.state_dict().items()}  # NumPy values load too
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert dst.set_state_dict(arrays) == ([], [])
    x = paddle.rand([2, 3])
    np.testing.assert_array_equal(dst(x).numpy(), src(x).numpy())
    assert dst.mean.numpy().tolist() == [1, 2, 3]


def test_to_astype_and_float_cast_in_place():
    class M(nn.Layer):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, 2)
            self.act = nn.ReLU()
            self.register_buffer("count", paddle.to_tensor([3]))  # int64
            self.register_buffer("scale", paddle.ones([1]))

    m = M()
    weight = m.lin.weight
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=m.parameters())
    m.lin(paddle.ones([1, 2])).sum().backward()
    assert m.double() is m
    assert m.lin.weight is weight and weight.dtype == paddle.float64
    assert weight.grad.dtype == paddle.float64 and m.scale.dtype == paddle.float64
    assert m.count.dtype == paddle.int64  # double() casts floating tensors only
    assert m.lin._dtype == paddle.float64
    assert repr(m.lin) == "Linear(in_features=2, out_features=2, dtype=paddle.float64)"
    before = weight.numpy().copy()
    opt.step()  # the optimizer still holds the (now float64) parameter
    np.testing.assert_allclose(weight.numpy(), before - 0.1, rtol=1e-12)
    assert m.float(excluded_layers=nn.Linear) is m
    assert weight.dtype == paddle.float64 and m.scale.dtype == paddle.float32
    m.float()
    assert weight.dtype == paddle.float32 and m.count.dtype == paddle.int64
    assert m.half().lin.bias.dtype == paddle.float16
    m.float16([nn.ReLU])
    assert m.to(dtype="float32") is m and m.count.dtype == paddle.float32  # to() casts all
    assert m.astype("float64").count.dtype == paddle.float64
    assert m.to() is m and m.to(device="cpu") is m and m.to(paddle.CPUPlace()) is m
    assert weight.place == paddle.CPUPlace()
    with pytest.raises(ValueError, match="device should be type of str"):
        m.to(device=3)
    with pytest.raises(ValueError, match="blocking value error"):
        m.to(blocking="yes")
    with pytest.raises(TypeError, match="excluded_layers should be type nn.Layer or list"):
        m.float(excluded_layers="Linear")


def test_train_mode_argument_and_apply_for_initialization():
    net = Net()
    assert net.train(False) is net and not net.linear2.training
    assert net.train().training and net.linear2.training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train(1)

    def init_weights(layer):
        if isinstance(layer, nn.Linear):
            I.Constant(0.5)(layer.weight)

    assert net.apply(init_weights) is net
    assert net.linear1.weight.numpy().tolist() == [[0.5] * 3] * 2


def test_hooks_single_value_order_and_removal():
    lin = nn.Linear(1, 1, weight_attr=I.Constant(1.0), bias_attr=False)
    order = []
    h1 = lin.register_forward_pre_hook(lambda layer, inp: order.append(1) or inp[0] * 3.0)
    h2 = lin.register_forward_pre_hook(lambda layer, inp: order.append(2))
    lin.register_forward_post_hook(lambda layer, inp, out: order.append(3))
    assert lin(paddle.ones([1, 1])).numpy().tolist() == [[3.0]]  # one value, not a tuple
    assert order == [1, 2, 3] and h1._hook_id < h2._hook_id
    h1.remove()
    h1.remove()  # removing twice is harmless
    assert lin(paddle.ones([1, 1])).numpy().tolist() == [[1.0]]


def test_duplicates_deletion_and_dir():
    class Shared(nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(1, 1)
            self.b = self.a
            self.register_buffer("buf", paddle.zeros([1]))
            self.alias = self.buf

    m = Shared()
    assert [n for n, _ in m.named_parameters()] == ["a.weight", "a.bias"]
    assert [n for n, _ in m.named_parameters(remove_duplicate=False)] == [
        "a.weight", "a.bias", "b.weight", "b.bias"]
    assert [n for n, _ in m.named_sublayers(remove_duplicate=False)] == ["a", "b"]
    assert [n for n, _ in m.named_buffers()] == ["buf"]
    assert [n for n, _ in m.named_buffers(remove_duplicate=False)] == ["buf", "alias"]
    assert [n for n, _ in m.named_sublayers(layers_set={m.a})] == []
    assert {"a", "b", "buf", "alias"} <= set(dir(m))
    del m.b
    del m.a.bias
    del m.buf
    assert list(m._sub_layers) == ["a"] and [n for n, _ in m.named_parameters()] == ["a.weight"]
    assert list(m.state_dict()) == ["a.weight"]
    with pytest.raises(AttributeError):
        del m.nothing


def test_repr_multiline_extra_and_none_sublayer():
    class Two(nn.Layer):
        def __init__(self):
            super().__init__()
            self.act = nn.ReLU()
            self.gone = None
            self.add_sublayer("empty", None)

        def extra_repr(self):
            return "first\nsecond"

    assert repr(Two()) == "Two(\n  first\n  second\n\n  (act): ReLU()\n  (empty): None\n)"
