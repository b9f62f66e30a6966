"""Debugging tools: anomaly mode, explain/why_none, step_backward, engine-diff (dygrad.debug)."""

import json

import numpy as np
import pytest

import dygrad as paddle
from dygrad._core import autograd as core_autograd
from dygrad._core import dispatch
from dygrad.autograd import AnomalyError, detect_anomaly, explain, step_backward, why_none

pytestmark = pytest.mark.filterwarnings("ignore:(invalid value|divide by zero|overflow):RuntimeWarning")


class Block(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 3)

    def forward(self, x):
        return paddle.log(self.fc(x))  # NaN where fc(x) < 0


class MyNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        return self.block(x)


def _line_of(text):
    """The line number of the first line of this file containing ``text``."""
    with open(__file__) as f:
        return next(i for i, ln in enumerate(f, 1) if text in ln)


# -- anomaly mode ----------------------------------------------------------------------

def test_anomaly_in_forward_names_op_layer_and_line():
    net = MyNet()
    net.block.fc.weight.set_value(np.ones((3, 3), "float32"))
    x = paddle.to_tensor(np.full((2, 3), -100.0, "float32"))
    with pytest.raises(AnomalyError) as info:
        with detect_anomaly():
            net(x)
    e = info.value
    assert isinstance(e, RuntimeError)
    assert (e.op, e.phase, e.layer) == ("log", "forward", "MyNet.block (Block)")
    assert e.location.startswith(f"{__file__}:{_line_of('NaN where fc(x) < 0')}:")
    assert "op 'log' produced" in str(e) and "in layer MyNet.block (Block)" in str(e)


def test_anomaly_in_backward_names_the_forward_op():
    x = paddle.to_tensor(np.ones((2, 3), "float32"), stop_gradient=False)
    with pytest.raises(AnomalyError) as info:
        with detect_anomaly():
            y = paddle.sqrt(x - 1).sum()  # the gradient of sqrt at 0 is Inf
            y.backward()
    e = info.value
    assert e.phase == "backward"
    assert "gradient of forward op 'sqrt'" in str(e) and "produced 6 Inf" in str(e)
    assert e.location.startswith(f"{__file__}:{_line_of('the gradient of sqrt at 0')}:")
    assert f"backward was called at {__file__}:{_line_of('            y.backward()')}" in str(e)


def test_anomaly_mode_values_and_zero_cost_when_off(engine):
    before = (dispatch.apply, dispatch.binary, core_autograd.run_backward, paddle.nn.Layer.__call__)
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3) + 1, stop_gradient=False)

    def run():
        x.clear_gradient(False)
        y = (paddle.log(x) * x).sum()
        y.backward()
        return y.numpy(), x.grad.numpy()
    plain = run()
    with detect_anomaly():
        assert dispatch.debug_hook() is not None
        assert core_autograd.run_backward is core_autograd.REFERENCE_PATHS["run_backward"]
        checked = run()
    np.testing.assert_allclose(checked[0], plain[0], rtol=1e-6)
    np.testing.assert_allclose(checked[1], plain[1], rtol=1e-6)
    assert dispatch.debug_hook() is None
    after = (dispatch.apply, dispatch.binary, core_autograd.run_backward, paddle.nn.Layer.__call__)
    assert after == before


def test_check_nan_inf_flag():
    assert paddle.get_flags("FLAGS_check_nan_inf") == {"FLAGS_check_nan_inf": False}
    x = paddle.to_tensor([-1.0, 4.0])
    paddle.set_flags({"FLAGS_check_nan_inf": 1})
    try:
        assert paddle.get_flags(["FLAGS_check_nan_inf"]) == {"FLAGS_check_nan_inf": True}
        with pytest.raises(AnomalyError, match="op 'sqrt' produced 1 NaN"):
            paddle.sqrt(x)
    finally:
        paddle.set_flags({"FLAGS_check_nan_inf": 0})
    assert np.isnan(paddle.sqrt(x).numpy()[0])  # off: no check
    assert dispatch.debug_hook() is None


def test_anomaly_in_an_inplace_op():
    x = paddle.to_tensor([1.0, 3e38])
    with pytest.raises(AnomalyError, match="op 'scale' produced 1 Inf") as info:
        with detect_anomaly():
            x.scale_(10.0)
    assert info.value.phase == "forward"


def test_anomaly_in_an_optimizer_update(engine):
    from dygrad.optimizer import optimizer as optimizer_module
    lin = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.Adam(0.1, epsilon=0.0, parameters=lin.parameters())
    (lin(paddle.zeros([1, 2])) * 0).sum().backward()  # zero gradients: Adam's 0 / (0 + 0)
    with pytest.raises(AnomalyError) as info:
        with detect_anomaly():
            opt.step()  # the update gives NaN
    e = info.value
    assert (e.op, e.phase, e.layer) == ("adam_", "update", None)
    assert f"in parameter {lin.weight.name!r}" in str(e) and "produced 4 NaN" in str(e)
    assert e.location.startswith(f"{__file__}:{_line_of('the update gives NaN')}:")
    assert optimizer_module._check_update is None  # off again: no cost
    opt.step()  # unchecked when off


def test_flags_errors():
    with pytest.raises(TypeError, match="should be a dict"):
        paddle.set_flags(["FLAGS_check_nan_inf"])
    with pytest.raises(ValueError, match="Flag FLAGS_nope cannot set its value"):
        paddle.set_flags({"FLAGS_nope": 1})
    with pytest.raises(ValueError, match="Flag FLAGS_nope cannot get its value"):
        paddle.get_flags("FLAGS_nope")
    with pytest.raises(TypeError, match="list, tuple or string"):
        paddle.get_flags(3)


# -- explain and why_none ----------------------------------------------------------------

def _leaf(shape=(2,), value=1.0):
    return paddle.to_tensor(np.full(shape, value, "float32"), stop_gradient=False)


def test_explain_each_reason():
    x, w, b, d, u, s = (_leaf() for _ in range(6))
    frozen = paddle.to_tensor(np.ones(2, "float32"))  # stop_gradient=True
    with detect_anomaly():
        with paddle.no_grad():
            bb = b * 2  # no_grad line
        h = x * w + bb + d.detach()  # detach line
        idx = paddle.argmax(s).astype("float32")  # integer line
        cut = w * 3  # stop_gradient line
        cut.stop_gradient = True
        loss = (h * idx + frozen + cut).sum()
    r = {name: e for name, e in zip("xwbdusf", explain(loss, [x, w, b, d, u, s, frozen]))}
    assert r["x"].reaches and r["w"].reaches and r["x"].reason is None
    assert (r["b"].reason, r["b"].op) == ("no_grad", "multiply")
    assert f"test_debug.py:{_line_of('bb = b * 2  # no_grad line')}" in r["b"].location
    assert (r["d"].reason, r["d"].op) == ("detach", "add")
    assert f":{_line_of('# detach line')}" in r["d"].location
    assert (r["s"].reason, r["s"].op) == ("integer", "argmax")
    assert f":{_line_of('# integer line')}" in r["s"].location
    assert r["u"].reason == "not_used" and not r["u"].reaches
    assert r["f"].reason == "stop_gradient" and "stop_gradient=True" in r["f"].message
    (rc,) = explain(loss, [cut])
    assert rc.reason == "stop_gradient" and "stop_gradient=True" in rc.message
    # w reaches the loss through x * w, even though the path through `cut` is cut
    (rw,) = explain(loss, [w])
    assert rw.reaches


def test_explain_stop_gradient_on_intermediate_result():
    w = _leaf()
    with detect_anomaly():
        cut = w * 3  # cut here
        cut.stop_gradient = True
        loss = (cut * 2).sum()
    (r,) = explain(loss, [w])
    assert (r.reason, r.op) == ("stop_gradient", "multiply")
    assert f":{_line_of('# cut here')}" in r.location


def test_explain_without_anomaly_mode_says_what_the_tape_knows():
    x, w, u = _leaf(), _leaf(), _leaf()
    other = (u * 2).sum()  # u is used, but not on a path to loss
    with paddle.no_grad():
        xx = x * 2  # cut under no_grad
    loss = (xx * w).sum()
    rx, rw, ru = explain(loss, [x, w, u])
    assert rw.reaches
    assert (rx.reason, rx.op) == ("no_grad", "multiply")  # marked without anomaly mode
    assert f"test_debug.py:{_line_of('# cut under no_grad')}" in rx.location
    assert ru.reason == "cut" and "detect_anomaly" in ru.message
    del other
    with pytest.raises(TypeError, match="inputs must be Tensors"):
        explain(loss, [3])
    (ri,) = explain(loss, paddle.to_tensor([1, 2]))
    assert ri.reason == "integer"


def test_why_none():
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.Linear(2, 2))
    unused = paddle.nn.Linear(2, 2)
    net[0].weight.stop_gradient = True
    x = paddle.to_tensor(np.ones((1, 2), "float32"))
    with detect_anomaly():
        with paddle.no_grad():
            side = unused(x)
        loss = net(x).sum()
    loss.backward()
    assert why_none(net[1].weight).endswith("its .grad is not None")
    assert "stop_gradient=True" in why_none(net[0].weight)
    msg = why_none(unused.weight)
    assert "used only under no_grad, by op 'matmul'" in msg and "test_debug.py" in msg
    assert "not used on any path" in why_none(unused.bias, loss) or \
        "does not depend on it" in why_none(unused.bias, loss)
    del side
    lone = _leaf()
    assert "no op used it" in why_none(lone)


# -- step_backward -----------------------------------------------------------------------

def test_step_backward_same_order_and_values_as_backward(engine):
    def build():
        x = paddle.to_tensor(np.array([0.5, -1.0, 2.0], "float32"), stop_gradient=False)
        w = paddle.to_tensor(np.array([1.5, 0.5, -2.0], "float32"), stop_gradient=False)
        a = x * w
        b, c = paddle.exp(a), paddle.sin(a)
        loss = (b * c + a).sum()
        return x, w, {"a": a, "b": b, "c": c}, loss

    x1, w1, mids1, loss1 = build()
    order, seen = [], {}
    for name, t in mids1.items():
        t.register_hook(lambda g, name=name: (order.append(name), seen.__setitem__(name, g.numpy())) and None)
    loss1.backward()

    x2, w2, mids2, loss2 = build()
    by_node = {t._grad_fn: name for name, t in mids2.items()}
    steps = list(step_backward(loss2))
    assert [by_node[s.node] for s in steps if s.node in by_node] == order
    for s in steps:
        if s.node in by_node:
            np.testing.assert_allclose(s.grads_in[0].numpy(), seen[by_node[s.node]], rtol=1e-6)
    np.testing.assert_allclose(x2.grad.numpy(), x1.grad.numpy(), rtol=1e-6)
    np.testing.assert_allclose(w2.grad.numpy(), w1.grad.numpy(), rtol=1e-6)
    leaves = [s.leaf for s in steps if s.leaf is not None]
    assert len(leaves) == 2 and {id(t) for t in leaves} == {id(x2), id(w2)}
    assert steps[0].name == "sum_grad" and str(steps[0]).startswith("step 0: sum_grad")
    with pytest.raises(core_autograd.BackwardError, match="freed"):
        loss2.backward()  # the walk freed the graph, as backward does


def test_step_backward_is_lazy_and_checks_its_argument():
    x = _leaf()
    gen = step_backward((x * x).sum())
    first = next(gen)
    assert first.name == "sum_grad" and x.grad is None  # nothing has reached x yet
    list(gen)
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])
    with pytest.raises(core_autograd.BackwardError, match="stop_gradient=True"):
        next(step_backward(paddle.to_tensor([1.0])))


# -- compare and record ------------------------------------------------------------------

class TwoLayer(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(4, 5)
        self.act = paddle.nn.Tanh()
        self.fc2 = paddle.nn.Linear(5, 2)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def _model_and_input():
    paddle.seed(3)
    return TwoLayer(), np.random.default_rng(0).standard_normal((3, 4)).astype("float32")


def _pair():
    engines = paddle.available_engines()
    return (engines[0], engines[-1])  # two engines where installed


def test_compare_identical_runs_agree():
    model, x = _model_and_input()
    result = paddle.debug.compare(model, [x], engines=_pair(), rtol=1e-4, atol=1e-5)
    assert result.ok and result.first is None
    # 4 layer outputs, 4 output gradients, 4 parameter gradients
    assert result.checked == 12 and "agree" in str(result)


def test_compare_names_the_injected_layer():
    model, x = _model_and_input()
    plain, calls = model.act.forward, []

    def shifted(t):  # the second run (the second engine) is off by 1e-3
        calls.append(paddle.get_engine())
        return plain(t) + (1e-3 if len(calls) == 2 else 0)
    model.act.forward = shifted
    result = paddle.debug.compare(model, [x], engines=_pair())
    assert not result.ok
    assert (result.first.kind, result.first.layer, result.first.layer_type) == ("output", "act", "Tanh")
    assert "layer act (Tanh): output 0 differs by up to 0.001" in str(result)
    assert calls == list(_pair())


def test_record_and_compare_against_recording(tmp_path):
    model, x = _model_and_input()
    path = paddle.debug.record(model, [x], str(tmp_path / "run"))
    index = json.loads((tmp_path / "run.json").read_text())
    assert index["format"] == "dygrad-layer-recording"
    assert index["forward"] == ["fc1", "act", "fc2", ""] and index["backward"] == ["fc2", "", "act", "fc1"]
    assert index["params"] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    with np.load(path) as z:
        np.testing.assert_allclose(z["grad::0"], np.ones((3, 2)))  # d(sum)/d(output)
        assert set(z.files) >= {"out:fc1:0", "grad:act:0", "param_grad:fc2.bias"}
    assert paddle.debug.compare(model, [x], recorded=path, rtol=1e-4, atol=1e-5).ok
    plain = model.fc2.forward
    model.fc2.forward = lambda t: plain(t) + 1e-3
    result = paddle.debug.compare(model, [x], recorded=path)
    assert (result.first.kind, result.first.layer) == ("output", "fc2")
    assert [d.layer for d in result.differences] == ["fc2", ""]  # gradients are unchanged


def test_compare_gradient_difference_and_custom_loss(tmp_path):
    model, x = _model_and_input()
    path = paddle.debug.record(model, [x], str(tmp_path / "run.npz"), loss=lambda y: (y * y).mean())
    model.fc1.weight.register_hook(lambda g: g * 1.01)
    result = paddle.debug.compare(model, [x], recorded=path, loss=lambda y: (y * y).mean())
    assert [(d.kind, d.layer) for d in result.differences] == [("param_grad", "fc1.weight")]
    with pytest.raises(ValueError, match="two engines"):
        paddle.debug.compare(model, [x], engines=("reference",))


def test_compare_against_a_hand_written_recording(tmp_path):
    """A recording as another framework writes it: same keys, a weight stored [out, in]."""
    model, x = _model_and_input()
    path = paddle.debug.record(model, [x], str(tmp_path / "ours"))
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["param_grad:fc1.weight"] = arrays["param_grad:fc1.weight"].T
    np.savez(tmp_path / "theirs.npz", **arrays)
    index = json.loads((tmp_path / "ours.json").read_text())
    (tmp_path / "theirs.json").write_text(json.dumps({**index, "framework": "torch"}))
    result = paddle.debug.compare(model, [x], recorded=str(tmp_path / "theirs.npz"))
    assert [(d.kind, d.layer) for d in result.differences] == [("param_grad", "fc1.weight")]
    assert "has shapes [4, 5] and [5, 4] (transposed" in str(result.first)
    (tmp_path / "bad.json").write_text(json.dumps({"format": "other"}))
    with pytest.raises(ValueError, match="not a dygrad-layer-recording index"):
        paddle.debug.load_recording(str(tmp_path / "bad.npz"))
