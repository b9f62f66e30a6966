"""explain / why_none in the default mode (no anomaly mode): the op and the user's line where
the tape was cut (no_grad, detach, a non-differentiable op), on both engines."""

import numpy as np
import pytest

import dygrad as paddle
from dygrad._core import errors
from dygrad.autograd import explain, why_none


def _line_of(text):
    """'test_explain.py:<n>' for the first line of this file containing ``text``."""
    with open(__file__) as f:
        return f"test_explain.py:{next(i for i, ln in enumerate(f, 1) if text in ln)}"


def _leaf(shape=(2, 2)):
    return paddle.to_tensor(np.ones(shape, "float32"), stop_gradient=False)


def _check(reason, why, op, line):
    assert not reason.reaches
    assert (reason.reason, reason.op) == (why, op), reason.message
    assert line in reason.location and line in reason.message


def test_no_grad_cut():
    x, w = _leaf(), _leaf()
    with paddle.no_grad():
        h = paddle.matmul(x, w)  # the no_grad line
    loss = (h * w).sum()
    rx, rw = explain(loss, [x, w])
    assert rw.reaches
    _check(rx, "no_grad", "matmul", _line_of("# the no_grad line"))
    assert "used only under no_grad, by op 'matmul'" in rx.message
    loss.backward()
    msg = why_none(x)
    assert "used only under no_grad, by op 'matmul'" in msg and _line_of("# the no_grad line") in msg


def test_layer_parameters_used_under_no_grad():
    paddle.seed(0)
    net, head = paddle.nn.Linear(2, 2), paddle.nn.Linear(2, 1)
    x = paddle.ones([1, 2])
    with paddle.no_grad():
        feats = net(x)  # frozen features
    loss = head(feats).sum()
    loss.backward()
    assert head.weight.grad is not None and net.weight.grad is None
    msg = why_none(net.weight)
    assert "used only under no_grad" in msg and _line_of("# frozen features") in msg
    (r,) = explain(loss, [net.bias])
    assert r.reason == "no_grad" and _line_of("# frozen features") in r.location


def test_detach_cut():
    x, w = _leaf(), _leaf()
    loss = (x.detach() * w).sum()  # the detach line
    rx, rw = explain(loss, [x, w])
    assert rw.reaches
    _check(rx, "detach", "detach", _line_of("# the detach line"))
    assert "detach()" in rx.message
    loss.backward()
    assert _line_of("# the detach line") in why_none(x)


def test_detach_in_place_cut():
    x = _leaf()
    h = x * 2
    h.detach_()  # the detach_ line
    loss = (h * 3).sum()
    (r,) = explain(loss, [h])
    _check(r, "detach", "detach_", _line_of("# the detach_ line"))


@pytest.mark.parametrize("kind", ["argmax", "comparison", "cast"])
def test_integer_op_cut(kind):
    x, w = _leaf(), _leaf()
    if kind == "argmax":
        k = paddle.argmax(x, axis=1).astype("float32")  # argmax line
        op, line = "argmax", _line_of("# argmax line")
    elif kind == "comparison":
        k = (x > 0.5).astype("float32")  # comparison line
        op, line = "greater_than", _line_of("# comparison line")
    else:
        # a cast to int passes the gradient on (as Paddle); the non-differentiable op that
        # uses the integer result is the cut
        n = x.astype("int64")  # cast line
        k = paddle.nn.functional.one_hot(n, 2)  # one_hot line
        op, line = "one_hot", _line_of("# one_hot line")
    loss = (k.sum() * w).sum()
    rx, rw = explain(loss, [x, w])
    assert rw.reaches
    _check(rx, "integer", op, line)
    assert "not differentiable" in rx.message
    if kind == "cast":  # the cut is on the cast's result, computed from x
        assert "a result computed from it" in rx.message
        assert _line_of("# cast line") in rx.message
    loss.backward()
    assert line in why_none(x)


def test_not_used_and_stop_gradient_on_input():
    x, u = _leaf(), _leaf()
    frozen = paddle.ones([2, 2])  # stop_gradient=True
    loss = (x * frozen).sum()
    rx, ru, rf = explain(loss, [x, u, frozen])
    assert rx.reaches
    assert (ru.reason, ru.op, ru.location) == ("not_used", None, None)
    assert "no op used it" in ru.message
    assert rf.reason == "stop_gradient" and "stop_gradient=True" in rf.message
    loss.backward()
    assert "no op used it" in why_none(u)
    assert "stop_gradient=True" in why_none(frozen)


def test_intermediate_result_used_under_no_grad():
    x, w = _leaf(), _leaf()
    h = x * 2  # h's line
    with paddle.no_grad():
        z = paddle.exp(h)  # the cut line
    loss = (z * w).sum()
    rx, rh = explain(loss, [x, h])
    _check(rx, "no_grad", "exp", _line_of("# the cut line"))
    assert "a result computed from it (by op 'multiply' at " in rx.message
    assert _line_of("# h's line") in rx.message
    _check(rh, "no_grad", "exp", _line_of("# the cut line"))
    loss.backward()
    msg = why_none(x)
    assert "a result computed from it" in msg and _line_of("# the cut line") in msg


def test_first_cut_is_kept_and_recorded_uses_are_told():
    x, w = _leaf(), _leaf()
    with paddle.no_grad():
        x * 2  # first cut
        x * 3  # second cut
    other = (x * w).sum()  # recorded, but not on the loss's path
    loss = (w * 2).sum()
    (r,) = explain(loss, [x])
    _check(r, "no_grad", "multiply", _line_of("# first cut"))
    assert "used only" not in r.message
    assert "ops recorded for backward use it" in why_none(x)
    assert _line_of("# first cut") in why_none(x)
    del other


def test_no_marks_when_origin_recording_is_off():
    x = _leaf()
    errors.set_record_origin(False)
    try:
        with paddle.no_grad():
            loss = (x * 2).sum()
        x.detach()
        (r,) = explain(loss, [x])
    finally:
        errors.set_record_origin(True)
    assert x._cut is None
    assert r.reason == "not_used" and "set_record_origin(False)" in r.message


def test_optimizer_steps_leave_no_marks():
    """In-place updates (sgd_, adam_, ...) under no_grad mark nothing; weight decay's ops on
    a parameter mark it once, so later steps walk no frames."""
    paddle.seed(0)
    net = paddle.nn.Linear(2, 2)
    decayed = paddle.nn.Linear(2, 2)
    opts = [paddle.optimizer.Adam(parameters=net.parameters()),
            paddle.optimizer.SGD(parameters=decayed.parameters(), weight_decay=0.1)]
    x = paddle.ones([3, 2])
    marks = []
    for _ in range(2):
        (net(x).sum() + decayed(x).sum()).backward()
        for opt in opts:
            opt.step()
            opt.clear_grad()
        marks.append(decayed.weight._cut)
    assert net.weight._cut is None and net.bias._cut is None
    assert marks[0] is not None and marks[1] is marks[0]


def test_backward_marks_nothing():
    """Gradient rules run with grad mode off (and use comparisons: relu's, maximum's) on
    tensors that need gradients; a backward walk is no cut."""
    x, w = _leaf(), _leaf()
    h = paddle.nn.functional.relu(x * w)
    m = paddle.maximum(h, x)
    loss = (m * m).sum()
    (gx,) = paddle.grad(loss, [x], retain_graph=True)
    loss.backward()
    assert gx is not None and x.grad is not None
    assert [t._cut for t in (x, w, h, m, loss)] == [None] * 5
