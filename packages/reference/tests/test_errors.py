"""Errors that point at the user's code (dygrad._core.errors): context added at dispatch,
Layer.__call__ and backward, trimmed tracebacks, and the plain-container warning."""

import sys
import traceback
import warnings
import weakref

import pytest

import dygrad as paddle
from dygrad import nn
from dygrad._core import errors

HERE = __file__


def _line_of(fn, text):
    """file:line of the line of ``fn``'s source holding ``text``."""
    import inspect
    lines, start = inspect.getsourcelines(fn)
    return f"{HERE}:{start + next(i for i, line in enumerate(lines) if text in line)}"


class Inner(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


class Outer(nn.Layer):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x):
        return self.inner(x)


def _raise(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the tests look at any error
        return exc
    raise AssertionError("no error")


def test_op_error_names_api_shapes_and_line():
    def user():
        return paddle.matmul(paddle.ones([4, 3]), paddle.ones([5, 2]))
    exc = _raise(user)
    assert type(exc) is ValueError
    msg = str(exc)
    assert msg.startswith("matmul: the contracted dimensions differ")
    assert "[op] paddle.matmul(x: float32[4, 3], y: float32[5, 2])" in msg
    assert f"[at] {_line_of(user, 'paddle.matmul')} in user: " in msg


def test_layer_path_from_outermost_layer():
    exc = _raise(lambda: Outer()(paddle.ones([3, 5])))
    msg = str(exc)
    assert "[layer] Outer.inner.fc (Linear)" in msg
    assert f"[at] {_line_of(Inner.forward, 'self.fc(x)')} in forward" in msg
    assert msg.count("[layer]") == 1 and msg.count("[at]") == 1


def test_single_layer_path():
    exc = _raise(lambda: nn.Linear(4, 2)(paddle.ones([3, 5])))
    assert "[layer] Linear\n" in str(exc)


def test_traceback_ends_in_user_frames(monkeypatch):
    monkeypatch.delenv("DYGRAD_FULL_TRACEBACK", raising=False)
    exc = _raise(lambda: Outer()(paddle.ones([3, 5])))
    frames = traceback.extract_tb(exc.__traceback__)
    assert frames[-1].filename == HERE and frames[-1].name == "forward"
    framework = [f.name for f in frames if errors.is_framework_file(f.filename)]
    # Python 3.10 re-raises from the outermost Layer's handler, whose frame stays (the
    # excepthook's display drops it); 3.11+ keeps the trimmed traceback as it is
    assert framework == ([] if errors.BARE_RAISE_KEEPS_TRIM else ["__call__"])


def test_full_traceback_keeps_framework_frames(monkeypatch):
    monkeypatch.setenv("DYGRAD_FULL_TRACEBACK", "1")
    exc = _raise(lambda: Outer()(paddle.ones([3, 5])))
    frames = traceback.extract_tb(exc.__traceback__)
    assert any(errors.is_framework_file(f.filename) for f in frames)


def test_excepthook_trims(capsys, monkeypatch):
    monkeypatch.delenv("DYGRAD_FULL_TRACEBACK", raising=False)
    exc = _raise(lambda: paddle.reshape(paddle.ones([3, 4]), [5, 7]))
    errors._excepthook(type(exc), exc, exc.__traceback__, _previous=sys.__excepthook__)
    err = capsys.readouterr().err
    assert HERE in err and "dygrad/_core" not in err and "ValueError: reshape" in err


def test_excepthook_adds_the_user_line(capsys):
    def user():
        return paddle.ones("a")  # a check before dispatch, caught by no boundary
    exc = _raise(user)
    assert "[at]" not in str(exc)
    errors._excepthook(type(exc), exc, exc.__traceback__, _previous=sys.__excepthook__)
    assert f"[at] {_line_of(user, 'paddle.ones')} in user: " in capsys.readouterr().err
    mine = _raise(lambda: int("x"))  # raised outside dygrad: left as it is
    errors._excepthook(type(mine), mine, mine.__traceback__, _previous=sys.__excepthook__)
    assert "[at]" not in capsys.readouterr().err


def test_constructor_errors_name_the_user_line():
    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, -1)

    assert f"[at] {_line_of(Net.__init__, 'nn.Linear(3, -1)')} in __init__" in str(_raise(Net))
    exc = _raise(lambda: paddle.optimizer.SGD(parameters=nn.Linear(2, 2)))
    assert str(exc).startswith("'Linear' object is not iterable\n  [at] " + HERE)
    assert not hasattr(Net.__init__, "__wrapped__")  # a user's Layer is left as written


def test_user_exception_types_are_left_alone():
    class MyError(Exception):
        pass

    class Boom(nn.Layer):
        def forward(self, x):
            raise MyError("mine")

    exc = _raise(lambda: Boom()(paddle.ones([1])))
    assert type(exc) is MyError and str(exc) == "mine"
    key = _raise(lambda: {}["k"])
    assert errors.annotate(key, at="x") is key and key.args == ("k",)


def test_user_assertion_gets_the_layer_path():
    class Check(nn.Layer):
        def forward(self, x):
            assert x.shape[0] == 2, "batch of 2 expected"
            return x

    exc = _raise(lambda: Check()(paddle.ones([3])))
    assert type(exc) is AssertionError
    assert str(exc).startswith("batch of 2 expected")  # (pytest adds its own explanation)
    assert "\n  [layer] Check\n  [at] " + HERE in str(exc)


def test_backward_error_names_op_and_forward_line(engine):
    def forward():
        x = paddle.ones([3])
        x.stop_gradient = False
        return paddle.exp(x)

    y = forward()
    y.scale_(2.0)
    exc = _raise(lambda: y.sum().backward())
    msg = str(exc)
    assert isinstance(exc, RuntimeError) and "[backward of] paddle.exp" in msg
    assert f"[created at] {_line_of(forward, 'paddle.exp')} in forward: return paddle.exp(x)" in msg


def _mul_by_two(x):
    return x * 2  # the forward line


def test_origin_recorded_by_default(engine):
    x = paddle.ones([2])
    x.stop_gradient = False
    y = _mul_by_two(x)
    site = errors.origin_site(y._grad_fn.origin)
    assert site == f"{_line_of(_mul_by_two, 'x * 2')} in _mul_by_two: return x * 2  # the forward line"
    loss = (y * y).sum()
    loss.backward()
    assert "[created at] " + HERE in str(_raise(loss.backward))


def test_engines_record_the_same_origin():
    """The accelerated engine's compiled frame walk finds what errors.creation_site finds."""
    if "accelerated" not in paddle.available_engines():
        pytest.skip("the accelerated engine is not installed")
    before = paddle.get_engine()
    origins = {}
    try:
        for engine in ("reference", "accelerated"):
            paddle.set_engine(engine)
            x = paddle.ones([2])
            x.stop_gradient = False
            origins[engine] = [_mul_by_two(x)._grad_fn.origin for _ in range(2)]
    finally:
        paddle.set_engine(before)
    assert origins["reference"] == origins["accelerated"]
    assert origins["reference"][0][0] is _mul_by_two.__code__


def test_origin_keeps_no_frame(engine):
    """A node keeps the code and offset of its line, not the frame (whose locals would live on)."""
    class Big:
        pass

    def forward(x):
        local = Big()
        return x * 2, weakref.ref(local)

    x = paddle.ones([2])
    x.stop_gradient = False
    y, local = forward(x)
    assert y._grad_fn.origin[0] is forward.__code__
    assert local() is None


def test_origin_recording_switch(engine):
    x = paddle.ones([2])
    x.stop_gradient = False
    errors.set_record_origin(False)
    try:
        y = paddle.exp(x)
    finally:
        errors.set_record_origin(True)
    exp_node = y._grad_fn
    y.scale_(2.0)  # exp saved its output: its backward refuses
    msg = str(_raise(lambda: y.sum().backward()))
    assert "[backward of] paddle.exp" in msg
    if engine == "reference":  # the reference engine always records
        assert "[created at] " + HERE in msg
    else:
        assert exp_node.origin is None
        assert "[created at] not recorded (no user code above the op, or recording was off" in msg


def test_annotate_once():
    exc = ValueError("bad")
    errors.annotate(exc, op="paddle.x()", at="a.py:1")
    errors.annotate(exc, op="paddle.y()", hint="fix it")
    assert str(exc) == "bad\n  [op] paddle.x()\n  [at] a.py:1\n  [hint] fix it"
    assert errors.context(exc) == {"op": "paddle.x()", "at": "a.py:1", "hint": "fix it"}


def test_api_names():
    from dygrad._core.optable import TABLE
    assert errors.api_name(TABLE["matmul"]) == "paddle.matmul"
    assert errors.api_name(TABLE["conv2d"]) == "paddle.nn.functional.conv2d"
    assert errors.api_name(TABLE["elementwise_pow"]) == "paddle.pow"


class Hidden(nn.Layer):
    def __init__(self):
        super().__init__()
        self.blocks = []
        self.blocks.append(nn.Linear(2, 2))


@pytest.mark.parametrize("value,box", [([nn.Linear(2, 2)], "LayerList"),
                                       ({"a": nn.Linear(2, 2)}, "LayerDict"),
                                       ((nn.Linear(2, 2).weight,),
                                        "ParameterList")])
def test_plain_container_warns_at_assignment(value, box):
    layer = nn.Layer()
    with pytest.warns(UserWarning, match=f"Layer.held is a plain .* Use paddle.nn.{box}") as rec:
        layer.held = value
    assert rec[0].filename == HERE
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        layer.parameters()  # once per attribute
        layer.other = [1, 2]  # no Layers or Parameters: no warning


def test_plain_container_filled_later_warns_at_parameters():
    net = Hidden()
    with pytest.warns(UserWarning, match="Hidden.blocks is a plain list holding Layers"):
        assert net.parameters() == []
    net2 = Hidden()
    with pytest.warns(UserWarning, match="Hidden.blocks"):
        assert len(net2.state_dict()) == 0


def test_registered_containers_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        net = nn.Layer()
        net.blocks = nn.LayerList([nn.Linear(2, 2)])
        assert len(net.parameters()) == 2 and len(net.state_dict()) == 2
