"""dygrad.profiler: per-op timing tables, schedulers, Chrome trace export."""

import json

import numpy as np
import pytest

import dygrad as paddle
import dygrad.profiler as profiler
from dygrad._core import dispatch


def _net_and_input():
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 2))
    return net, paddle.to_tensor(np.ones((5, 3), "float32"))


def test_op_table_counts_every_op():
    net, x = _net_and_input()
    before = dispatch.apply
    with profiler.Profiler() as prof:
        assert dispatch.debug_hook() is not None
        with paddle.no_grad():
            net(x)
    assert dispatch.debug_hook() is None and dispatch.apply is before  # closed: nothing left
    table = {name: calls for name, calls, total, mean, mx, mn in prof.op_table()}
    assert table == {"matmul": 2, "add": 2, "relu": 1}
    for _, calls, total, mean, mx, mn in prof.op_table():
        assert total > 0 and mean == pytest.approx(total / calls) and mn <= mean <= mx


def test_summary_prints_the_table(capsys):
    net, x = _net_and_input()
    with profiler.Profiler() as prof:
        with profiler.RecordEvent("forward"):
            net(x).sum().backward()
    prof.summary(time_unit="us")
    out = capsys.readouterr().out
    assert out.startswith("Operator Summary")
    header = next(ln for ln in out.splitlines() if ln.startswith("Name"))
    assert header.split() == ["Name", "Calls", "Total(us)", "Avg(us)", "Max(us)", "Min(us)", "Ratio(%)"]
    rows = {ln.split()[0]: ln.split() for ln in out.split("UserDefined Summary")[0].splitlines()[4:-1]}
    assert rows["relu"][1] == "1" and rows["relu_grad"][1] == "1"
    assert sum(float(r[6]) for r in rows.values()) == pytest.approx(100, abs=0.1)
    assert "UserDefined Summary" in out and "forward" in out.split("UserDefined Summary")[1]
    with pytest.raises(ValueError, match="time_unit"):
        prof.summary(time_unit="h")


def test_make_scheduler_states():
    # Paddle 3.3.1: make_scheduler(closed=1, ready=1, record=2, repeat=1, skip_first=1)
    sched = profiler.make_scheduler(closed=1, ready=1, record=2, repeat=1, skip_first=1)
    assert [sched(i).name for i in range(7)] == \
        ["CLOSED", "CLOSED", "READY", "RECORD", "RECORD_AND_RETURN", "CLOSED", "CLOSED"]
    every = profiler.make_scheduler(closed=0, ready=0, record=1)
    assert {every(i) for i in range(3)} == {profiler.ProfilerState.RECORD_AND_RETURN}


def test_scheduled_steps_and_chrome_trace(tmp_path):
    net, x = _net_and_input()
    ready = []
    prof = profiler.Profiler(scheduler=(1, 3), on_trace_ready=lambda p: ready.append(
        sorted({e[0] for e in p.events if e[1] == "ProfileStep"})))
    prof.start()
    for _ in range(5):
        net(x).sum().backward()
        prof.step()
    prof.stop()
    assert ready == [["ProfileStep#1", "ProfileStep#2"]]  # steps 1 and 2, reported once
    assert dispatch.debug_hook() is None
    calls = {name: n for name, n, *_ in prof.op_table()}
    assert calls["relu"] == 2  # one forward per recorded step
    path = tmp_path / "trace.json"
    prof.export(str(path))
    trace = json.loads(path.read_text())["traceEvents"]
    assert {e["ph"] for e in trace} == {"X"}
    assert sum(e["name"] == "relu" and e["cat"] == "Operator" for e in trace) == 2
    assert all(e["dur"] >= 0 and "ts" in e and "pid" in e and "tid" in e for e in trace)


def test_export_chrome_tracing_handler(tmp_path):
    net, x = _net_and_input()
    with profiler.Profiler(on_trace_ready=profiler.export_chrome_tracing(str(tmp_path), "w0")):
        net(x)
    (f,) = tmp_path.iterdir()
    assert f.name.startswith("w0_time_") and f.name.endswith(".paddle_trace.json")
    assert any(e["name"] == "matmul" for e in json.loads(f.read_text())["traceEvents"])


def test_profiler_errors():
    with pytest.raises(ValueError, match="start < end"):
        profiler.Profiler(scheduler=(3, 1))
    with pytest.raises(TypeError, match="scheduler must be"):
        profiler.Profiler(scheduler=5)
    with pytest.raises(ValueError, match="format='json'"):
        profiler.Profiler().export("x.pb", format="pb")


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")
def test_profiler_and_anomaly_mode_together():
    x = paddle.to_tensor([1.0, 4.0])
    with profiler.Profiler() as prof:
        with paddle.autograd.detect_anomaly():
            paddle.sqrt(x)
            with pytest.raises(paddle.autograd.AnomalyError):
                paddle.log(x - 2)  # log(-1) is NaN
        paddle.exp(x)  # anomaly mode is off again, the profiler still records
    assert dispatch.debug_hook() is None
    calls = {name: n for name, n, *_ in prof.op_table()}
    assert calls == {"sqrt": 1, "subtract": 1, "log": 1, "exp": 1}
