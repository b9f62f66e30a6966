"""paddle.jit.to_static: outputs and gradients equal eager's, control flow conversion,
graph breaks, the program cache, save/load (every test on every engine)."""

import inspect
import re

import numpy as np
import pytest

import dygrad as paddle
from dygrad import nn

F = paddle.nn.functional
HERE = __file__


def _x(shape=(5, 4), seed=0):
    return np.random.RandomState(seed).randn(*shape).astype("float32")


def _line(fn, text):
    """The line number of ``text`` in ``fn``'s source."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, s in enumerate(lines) if text in s)


class Branchy(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 8)
        self.l2 = nn.Linear(8, 2)

    def forward(self, x, threshold):
        h = F.relu(self.l1(x))
        if h.mean() > threshold:
            y = self.l2(h) * 2.0
        else:
            y = self.l2(h) - h.sum()
        return y


def _eager_and_static(make, call):
    """Outputs and gradients (of the parameters and the input) of ``call`` eagerly and
    through to_static, from the same initial parameters."""
    results = []
    for static in (False, True):
        paddle.seed(1)
        layer = make()
        x = paddle.to_tensor(_x(), stop_gradient=False)
        if static:
            layer = paddle.jit.to_static(layer)
        out = call(layer, x)
        (out * out).sum().backward()
        results.append([out.numpy(), x.grad.numpy()] + [p.grad.numpy() for p in layer.parameters()])
    return results


@pytest.mark.parametrize("threshold", [-1e9, 1e9])  # the tensor-dependent if takes each branch
def test_layer_tensor_if_outputs_and_gradients(threshold):
    eager, static = _eager_and_static(Branchy, lambda m, x: m(x, threshold))
    for a, b in zip(eager, static):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)


def tensor_while(x):
    s = x * 0.0
    k = paddle.zeros([1])
    while k.sum() < 3:
        s = s + x * k
        k = k + 1
    return s


def python_flow(x, n, scale):
    y = x
    for i in range(n):
        y = y * scale + i
    if n > 2 and scale > 0:
        y = -y
    j = 0
    while j < n:
        y = y + 1
        j += 1
    return y


def _grad(fn, *args):
    x = paddle.to_tensor(_x(), stop_gradient=False)
    out = fn(x, *args)
    out.sum().backward()
    return out.numpy(), x.grad.numpy()


@pytest.mark.parametrize("fn,args", [(tensor_while, ()), (python_flow, (3, 2.0)),
                                     (python_flow, (1, -1.0))])
def test_function_outputs_and_gradients(fn, args):
    eager = _grad(fn, *args)
    static = _grad(paddle.jit.to_static(fn), *args)
    np.testing.assert_allclose(eager[0], 3 * _x() if fn is tensor_while else eager[0])
    for a, b in zip(eager, static):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)


def tensor_range(x, n):
    s = x * 0
    for i in range(n):  # noqa: B007 (the loop variable is returned)
        s = s + x + 1
    return s, i


def counted_while(x):
    count = 0
    while x.sum() < 100:
        x = x * 2
        count += 1
    return x, count


def test_for_over_a_tensor_range_and_a_counter_in_a_tensor_while():
    x = paddle.to_tensor(np.ones(2, "float32"), stop_gradient=False)
    out, last = paddle.jit.to_static(tensor_range)(x, paddle.to_tensor(4))
    np.testing.assert_allclose(out.numpy(), [8, 8])
    assert int(last) == 3  # Python's loop variable after the loop
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [4, 4])
    y, count = paddle.jit.to_static(counted_while)(x)
    np.testing.assert_allclose(y.numpy(), [64, 64])
    assert int(count) == 6


def logic(x, flag):
    if flag and x.sum() > 0 or not (x.mean() < 100):
        z = x + 1
    else:
        z = x - 1
    for row in x:
        z = z + row
    return z


@pytest.mark.parametrize("flag", [True, False])
def test_and_or_not_and_for_over_tensor(flag):
    x = paddle.to_tensor(np.abs(_x()))
    np.testing.assert_allclose(paddle.jit.to_static(logic)(x, flag).numpy(),
                               logic(x, flag).numpy(), rtol=1e-6)


def test_training_an_mlp_gives_eager_losses():
    data = _x((64, 8), seed=2)
    target = _x((64, 1), seed=3)
    losses = []
    for static in (False, True):
        paddle.seed(3)
        model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
        if static:
            model = paddle.jit.to_static(model)
        opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
        run = []
        for _ in range(5):
            loss = F.mse_loss(model(paddle.to_tensor(data)), paddle.to_tensor(target))
            loss.backward()
            opt.step()
            opt.clear_grad()
            run.append(float(loss))
        losses.append(run)
    assert losses[0][-1] < losses[0][0]
    np.testing.assert_allclose(losses[1], losses[0], rtol=1e-5)


@pytest.mark.parametrize("fuse", [True, False])
def test_a_relu_mlp_gets_eager_gradients_with_its_fused_gradient_ops(fuse):
    """W5's shape (two Linear+ReLU layers, a Linear, MSE): the backward plan runs each
    layer's weight and bias gradients as one fused_linear_activation_grad (or not, with the
    pass off)."""
    previous = paddle.static.set_passes(linear_grad_fusion=fuse)
    try:
        grads = []
        for static in (False, True):
            paddle.seed(4)
            model = nn.Sequential(nn.Linear(6, 9), nn.ReLU(), nn.Linear(9, 7), nn.ReLU(),
                                  nn.Linear(7, 1))
            loss_of = lambda x, y, model=model: F.mse_loss(model(x), y)  # noqa: E731
            if static:
                loss_of = paddle.jit.to_static(loss_of)
            x = paddle.to_tensor(_x((5, 6), seed=5), stop_gradient=False)
            loss_of(x, paddle.to_tensor(_x((5, 1), seed=6))).backward()
            grads.append([x.grad.numpy()] + [p.grad.numpy() for p in model.parameters()])
        program = next(iter(loss_of._cache.values()))
        (_, backward), = program._runners.values()
        fused = [op for op in backward.todo.ops if op.type == "fused_linear_activation_grad"]
        assert [op.attrs["activation"] for op in fused] == (
            ["none", "relu", "relu"] if fuse else [])
        for a, b in zip(*grads):
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)
    finally:
        paddle.static.set_passes(**previous)


class Normed(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 6)
        self.bn = nn.BatchNorm1D(6)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.bn(self.fc(x)))


def test_train_and_eval_programs_and_running_statistics():
    paddle.seed(4)
    eager = Normed()
    static = Normed()
    static.set_state_dict(eager.state_dict())
    static = paddle.jit.to_static(static)
    x = paddle.to_tensor(_x())
    eager.bn(eager.fc(x))  # train mode: updates the running statistics
    static.drop.p = 0.0
    static(x)
    np.testing.assert_allclose(static.bn._mean.numpy(), eager.bn._mean.numpy(), rtol=1e-5)
    eager.eval()
    static.eval()
    np.testing.assert_allclose(static(x).numpy(), eager(x).numpy(), rtol=1e-5, atol=1e-6)
    assert len(static.forward._cache) == 2  # one program per mode


def test_cache_by_shape_dtype_and_python_arguments():
    calls = []

    def f(x, k):
        calls.append(1)  # runs once per program built
        return x * k
    sf = paddle.jit.to_static(f)
    a, b = paddle.to_tensor(_x()), paddle.to_tensor(_x((3, 4)))
    for _ in range(3):
        sf(a, 2.0)
    assert len(calls) == 1
    np.testing.assert_allclose(sf(b, 2.0).numpy(), _x((3, 4)) * 2)
    np.testing.assert_allclose(sf(a, 3.0).numpy(), _x() * 3)
    sf(paddle.to_tensor(_x().astype("float64")), 3.0)
    assert len(calls) == 4 and len(sf._cache) == 4


def test_tensor_only_calls_share_the_cache_with_other_calls():
    calls = []

    def f(x, y):
        calls.append(1)
        return x + y
    sf = paddle.jit.to_static(f)
    a, b = paddle.to_tensor(_x()), paddle.to_tensor(_x(seed=1))
    sf(a, b)
    sf(a, y=b)  # a keyword argument: another signature
    sf(a, b)
    np.testing.assert_allclose(sf(x=a, y=b).numpy(), _x() + _x(seed=1))
    assert len(calls) == 3 and len(sf._cache) == 3


def test_runs_follow_the_pass_settings_and_a_retained_graph():
    paddle.seed(2)
    layer = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
    eager = [p.numpy() for p in layer.parameters()]
    static = paddle.jit.to_static(layer)
    x = paddle.to_tensor(_x(), stop_gradient=False)
    want = None
    previous = paddle.static.set_passes()
    try:
        for fused in (True, False):
            paddle.static.set_passes(bias_activation_fusion=fused)
            out = static(x)
            pp = next(iter(static.forward._cache.values()))
            forward = next(iter(pp._runners.values()))[0]
            types = [op.type for op in forward.todo.ops]
            assert ("fused_linear_activation" in types) == fused
            loss = (out * out).sum()
            loss.backward(retain_graph=True)
            loss.backward()  # the gradient program runs twice on what the forward kept
            got = [x.grad.numpy()] + [p.grad.numpy() for p in layer.parameters()]
            want = want or got
            for a, b in zip(got, want):
                np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
            x.clear_grad()
            layer.clear_gradients()
    finally:
        paddle.static.set_passes(**previous)
    w1, b1, w2, b2 = eager
    xv = _x()
    h = np.maximum(xv @ w1 + b1, 0)
    g = 2 * 2 * (h @ w2 + b2)  # two backward calls: twice d(sum(out^2))/d(out)
    np.testing.assert_allclose(want[4], g.sum(0), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(want[3], h.T @ g, rtol=1e-5, atol=1e-5)


def value_break(x):
    y = x * 2
    v = float(y.sum())
    return y + v


def print_break(x):
    print(x)
    return x + 1


def return_break(x):
    if x.sum() > 0:
        return x * 2
    return x - 1


@pytest.mark.parametrize("fn,text,reason", [
    (value_break, "v = float(y.sum())", "the value of a tensor is needed"),
    (print_break, "print(x)", "print() of a tensor"),
    (return_break, "if x.sum() > 0:", "holds return, break or continue"),
])
def test_graph_breaks_run_eagerly_and_are_reported(fn, text, reason, capsys):
    x = paddle.to_tensor(_x())
    sf = paddle.jit.to_static(fn)
    np.testing.assert_allclose(sf(x).numpy(), fn(x).numpy(), rtol=1e-6)
    breaks = paddle.jit.report(sf)
    assert len(breaks) == 1
    b = breaks[0]
    assert (b.filename, b.lineno, b.source) == (HERE, _line(fn, text), text)
    assert reason in b.reason
    assert f'line {_line(fn, text)}' in capsys.readouterr().out
    strict = paddle.jit.to_static(fn, full_graph=True)
    with pytest.raises(paddle.jit.GraphBreakError, match=rf"(?s)line {_line(fn, text)}.*{re.escape(text)}"):
        strict(x)


def test_enable_to_static_false_runs_eagerly():
    calls = []

    def f(x):
        calls.append(x)
        return x + 1
    sf = paddle.jit.to_static(f)
    x = paddle.to_tensor(_x())
    paddle.jit.enable_to_static(False)
    try:
        sf(x)
    finally:
        paddle.jit.enable_to_static(True)
    assert calls[0] is x  # the eager tensor itself, not a static Variable
    sf(x)
    assert calls[1] is not x
    with pytest.raises(TypeError):
        paddle.jit.enable_to_static(1)


def _helper_not_converted(x, flag):
    if flag:
        return x + 1
    return x - 1


def test_not_to_static_and_recursive_conversion():
    paddle.jit.not_to_static(_helper_not_converted)

    def f(x):
        return _helper_not_converted(x, True) + tensor_while(x)
    x = paddle.to_tensor(_x())
    np.testing.assert_allclose(paddle.jit.to_static(f)(x).numpy(), (_x() + 1) + 3 * _x(),
                               rtol=1e-6)


class Decorated(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    @paddle.jit.to_static(input_spec=[paddle.static.InputSpec([None, 4], "float32", "x")])
    def forward(self, x):
        return F.relu(self.fc(x))


def test_input_spec_with_unknown_batch_builds_one_program():
    paddle.seed(6)
    layer = Decorated()
    eager = nn.Linear(4, 3)
    eager.set_state_dict(layer.fc.state_dict())
    for rows in (5, 2):
        x = paddle.to_tensor(_x((rows, 4)))
        F.mse_loss(layer(x), paddle.ones([rows, 3])).backward()
        F.mse_loss(F.relu(eager(x)), paddle.ones([rows, 3])).backward()
        np.testing.assert_allclose(layer.fc.weight.grad.numpy(), eager.weight.grad.numpy(),
                                   rtol=1e-5, atol=1e-7)
    assert len(layer.forward._cache) == 1


def test_save_and_load_round_trip(tmp_path):
    paddle.seed(5)
    layer = Decorated()
    x = paddle.to_tensor(_x())
    expected = layer(x).numpy()
    paddle.jit.save(layer, str(tmp_path / "model"))
    loaded = paddle.jit.load(str(tmp_path / "model"))
    loaded.eval()
    np.testing.assert_allclose(loaded(x).numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(loaded(paddle.to_tensor(_x((2, 4)))).numpy(),
                               layer(paddle.to_tensor(_x((2, 4)))).numpy(), rtol=1e-6)
    state = loaded.state_dict()
    assert sorted(v.shape for v in state.values()) == [[3], [4, 3]]


def test_plain_static_mode_still_refuses_eager_parameters():
    layer = nn.Linear(3, 2)
    paddle.enable_static()
    try:
        x = paddle.static.data("x", [None, 3], "float32")
        with pytest.raises(TypeError, match="eager Tensor"):
            layer(x)
    finally:
        paddle.disable_static()


class Base(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(x)


SCALE = [3.0]


class Child(Base):
    def forward(self, x, scale=2.0, *, bias=None):
        y = super().forward(x) * scale * SCALE[0]
        if bias is not None:
            y = y + bias

        def inner(z):
            return z.mean() if z.sum() > 0 else z.max()
        return {"y": y, "m": inner(y), "t": (y, 1)}


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_super_kwargs_nested_functions_conditional_expressions_and_dict_outputs(sign):
    outs = []
    for static in (False, True):
        paddle.seed(7)
        layer = Child()
        if static:
            layer = paddle.jit.to_static(layer)
        x = paddle.to_tensor(np.abs(_x()) * sign, stop_gradient=False)
        out = layer(x, 0.5, bias=paddle.full([3], 100.0 * sign))  # picks the branch
        out["m"].backward()
        outs.append([out["y"].numpy(), out["m"].numpy(), x.grad.numpy(),
                     layer.fc.weight.grad.numpy()])
        assert out["t"][1] == 1
    for a, b in zip(*outs):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)
