"""Gradients through static cond, switch_case and while_loop (append_backward, gradients,
minimize), checked against NumPy statements, finite differences and eager training."""

import numpy as np
import pytest

import dygrad as paddle

F = paddle.nn.functional
nn = paddle.static.nn


def _param(shape, value):
    return paddle.static.create_parameter(
        shape, "float32", default_initializer=paddle.nn.initializer.Assign(
            np.asarray(value, "float32")))


def _data(name, shape, grad=True):
    v = paddle.static.data(name, shape, "float32")
    v.stop_gradient = not grad
    return v


def _run(main, startup, feed, fetch):
    exe = paddle.static.Executor()
    exe.run(startup)
    return exe.run(main, feed=feed, fetch_list=fetch)


def _numeric_grad(f, x, eps=1e-3):
    x = x.astype("float64")
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


@pytest.mark.parametrize("p", [1.0, -1.0])
def test_cond_gradients_follow_the_branch_taken(static, p):
    main, startup = static
    x, pred = _data("x", [3]), _data("p", [1], grad=False)
    w0 = np.array([2.0, -1.0, 0.5], "float32")
    w = _param([3], w0)
    # true: reads x and w; false: reads w only and returns x unchanged
    out, same = nn.cond(pred.sum() > 0.0, lambda: [(x * w * x).sum(), x * 2.0],
                        lambda: [(w * 3.0).sum(), x])
    loss = out + (same * same).sum()
    gx, gw = paddle.static.gradients([loss], [x, w])
    xv = np.array([1.0, 2.0, 3.0], "float32")
    got = _run(main, startup, {"x": xv, "p": np.array([p], "float32")}, [loss, gx, gw])
    if p > 0:
        want = [(xv * w0 * xv).sum() + (4 * xv * xv).sum(), 2 * xv * w0 + 8 * xv, xv * xv]
    else:
        want = [(3 * w0).sum() + (xv * xv).sum(), 2 * xv, np.full(3, 3.0)]  # x unused: zeros
    for g, e in zip(got, want):
        np.testing.assert_allclose(g, e, rtol=1e-5)


def test_append_backward_through_cond_names_parameter_gradients(static):
    main, startup = static
    x, pred = _data("x", [2], grad=False), _data("p", [1], grad=False)
    w, u = _param([2], [1.0, 2.0]), _param([2], [3.0, 4.0])
    out = nn.cond(pred.sum() > 0.0, lambda: (w * x).sum(), lambda: (u * u).sum())
    pairs = paddle.static.append_backward(out)
    assert sorted(g.name for _, g in pairs) == sorted([f"{w.name}@GRAD", f"{u.name}@GRAD"])
    grads = [g for _, g in sorted(pairs, key=lambda pg: pg[0].name)]
    names = sorted([w.name, u.name])
    xv = np.array([5.0, 6.0], "float32")
    for p in (1.0, -1.0):
        got = dict(zip(names, _run(main, startup, {"x": xv, "p": np.array([p], "float32")},
                                   grads)))
        want_w, want_u = (xv, np.zeros(2)) if p > 0 else (np.zeros(2), [6.0, 8.0])
        np.testing.assert_allclose(got[w.name], want_w)
        np.testing.assert_allclose(got[u.name], want_u)


def test_nested_cond_gradients(static):
    main, startup = static
    x, pred = _data("x", [2]), _data("p", [1], grad=False)
    w = _param([2], [0.5, -2.0])
    s = pred.sum()
    out = nn.cond(s > 0.0,
                  lambda: nn.cond(s > 1.0, lambda: (x * w).sum() * 2.0, lambda: (x * x * w).sum()),
                  lambda: (w * w).sum())
    gx, gw = paddle.static.gradients([out], [x, w])
    xv, wv = np.array([1.0, 3.0], "float32"), np.array([0.5, -2.0], "float32")
    cases = {1.5: (2 * wv, 2 * xv), 0.5: (2 * xv * wv, xv * xv), -1.0: (np.zeros(2), 2 * wv)}
    for p, want in cases.items():
        got = _run(main, startup, {"x": xv, "p": np.array([p], "float32")}, [gx, gw])
        np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
        np.testing.assert_allclose(got[1], want[1], rtol=1e-6)


def test_switch_case_gradients(static):
    main, startup = static
    x = _data("x", [2])
    idx = paddle.static.data("idx", [1], "int64")
    w = _param([2], [2.0, 3.0])
    out = nn.switch_case(idx, {1: lambda: (x * w).sum(), 3: lambda: (x * x).sum()},
                         default=lambda: w.sum() * 4.0)
    gx, gw = paddle.static.gradients([out], [x, w])
    xv = np.array([1.0, -2.0], "float32")
    for k, want in [(1, ([2.0, 3.0], xv)), (3, (2 * xv, [0.0, 0.0])), (5, ([0, 0], [4, 4]))]:
        got = _run(main, startup, {"x": xv, "idx": np.array([k])}, [gx, gw])
        np.testing.assert_allclose(got[0], want[0])
        np.testing.assert_allclose(got[1], want[1])


def test_while_loop_gradient_replays_the_iterations(static):
    main, startup = static
    x = _data("x", [2])
    n = paddle.static.data("n", [1], "int64")
    w0 = np.array([0.5, -1.5], "float32")
    w = _param([2], w0)
    i = paddle.full([1], 0, "int64")
    _, a = nn.while_loop(lambda i, a: i < n, lambda i, a: [i + 1, a * w + x * a], [i, x])
    loss = (a * a).sum()
    gx, gw = paddle.static.gradients([loss], [x, w])
    xv = np.array([1.0, 0.5], "float32")

    def f(xv, wv, steps):
        a = xv
        for _ in range(steps):
            a = a * wv + xv * a
        return (a * a).sum()
    for steps in (0, 1, 4):
        got = _run(main, startup, {"x": xv, "n": np.array([steps])}, [loss, gx, gw])
        np.testing.assert_allclose(got[0], f(xv, w0, steps), rtol=1e-5)
        np.testing.assert_allclose(got[1], _numeric_grad(lambda v, s=steps: f(v, w0, s), xv),
                                   rtol=1e-3, atol=1e-4)
        np.testing.assert_allclose(got[2], _numeric_grad(lambda v, s=steps: f(xv, v, s), w0),
                                   rtol=1e-3, atol=1e-4)


def test_while_loop_with_cond_in_its_body(static):
    main, startup = static
    x = _data("x", [1])
    i = paddle.full([1], 0, "int64")
    # doubles on even steps, squares on odd ones: ((x*2)^2*2)^2 after four steps
    body = lambda i, a: [i + 1, nn.cond((i % 2).sum() == 0, lambda: a * 2.0, lambda: a * a)]
    _, a = nn.while_loop(lambda i, a: i < 4, body, [i, x])
    gx, = paddle.static.gradients([a.sum()], [x])
    got = _run(main, startup, {"x": np.array([0.7], "float32")}, [a, gx])
    f = lambda v: float(np.sum(((v * 2) ** 2 * 2) ** 2))
    np.testing.assert_allclose(got[0], f(0.7), rtol=1e-5)
    np.testing.assert_allclose(got[1], _numeric_grad(f, np.array([0.7])), rtol=1e-3)


def test_training_through_cond_matches_eager():
    rng = np.random.default_rng(0)
    xs = [rng.normal(size=(4, 3)).astype("float32") for _ in range(4)]
    flags = [True, False, True, True]

    def model_loss(fc1, fc2, x, flag, branch):
        h = branch(flag, lambda: F.relu(fc1(x)), lambda: fc1(x) * 0.5)
        return (fc2(h) ** 2).mean()

    def eager_losses():
        paddle.seed(1)
        fc1, fc2 = paddle.nn.Linear(3, 5), paddle.nn.Linear(5, 1)
        opt = paddle.optimizer.SGD(0.1, parameters=[*fc1.parameters(), *fc2.parameters()])
        out = []
        for x, flag in zip(xs, flags):
            loss = model_loss(fc1, fc2, paddle.to_tensor(x), flag,
                              lambda f, a, b: a() if f else b())
            loss.backward()
            opt.step()
            opt.clear_grad()
            out.append(float(loss))
        return out
    want = eager_losses()
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.scope_guard(paddle.static.Scope()), \
                paddle.static.program_guard(main, startup):
            paddle.seed(1)
            fc1, fc2 = paddle.nn.Linear(3, 5), paddle.nn.Linear(5, 1)
            x = paddle.static.data("x", [-1, 3], "float32")
            flag = paddle.static.data("flag", [1], "bool")
            loss = model_loss(fc1, fc2, x, flag, lambda f, a, b: nn.cond(f, a, b))
            paddle.optimizer.SGD(0.1).minimize(loss)
            exe = paddle.static.Executor()
            exe.run(startup)
            got = [float(exe.run(main, feed={"x": a, "flag": np.array([f])},
                                 fetch_list=[loss])[0]) for a, f in zip(xs, flags)]
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_fetching_only_a_gradient_keeps_the_forward_control_op(static):
    main, startup = static
    x = _data("x", [2])
    i = paddle.full([1], 0, "int64")
    _, a = nn.while_loop(lambda i, a: i < 2, lambda i, a: [i + 1, a * x], [i, x])
    gx, = paddle.static.gradients([a.sum()], [x])
    got, = _run(main, startup, {"x": np.array([2.0, 3.0], "float32")}, [gx])
    np.testing.assert_allclose(got, 3 * np.array([2.0, 3.0]) ** 2)  # d(x^3)/dx


def test_second_derivative_through_control_flow_is_refused(static):
    x = _data("x", [2])
    out = nn.cond(x.sum() > 0.0, lambda: (x * x * x).sum(), lambda: x.sum())
    gx, = paddle.static.gradients([out], [x])
    with pytest.raises(NotImplementedError, match="second derivatives through .*cond"):
        paddle.static.gradients([gx.sum()], [x])


def test_outer_values_returned_by_a_branch_keep_their_own_gradients(static):
    main, startup = static
    x, pred = _data("x", [2]), _data("p", [1], grad=False)
    w = _param([2], [3.0, -1.0])
    h = x * w                      # computed outside, returned unchanged by one branch
    out = nn.cond(pred.sum() > 0.0, lambda: h, lambda: h * w)
    gx, gw = paddle.static.gradients([(out + w).sum()], [x, w])
    xv, wv = np.array([1.0, 2.0], "float32"), np.array([3.0, -1.0], "float32")
    for p, want in [(1.0, (wv, xv + 1)), (-1.0, (wv * wv, 2 * xv * wv + 1))]:
        got = _run(main, startup, {"x": xv, "p": np.array([p], "float32")}, [gx, gw])
        np.testing.assert_allclose(got[0], want[0])
        np.testing.assert_allclose(got[1], want[1])
