"""paddle.profiler: time every op of a block of code; a per-op table and Chrome traces.

While a :class:`Profiler` records, each op goes through a timing wrapper of dispatch's
apply (the debugging-mode hook of :mod:`dygrad.debug._modes`; the engine's fast paths step
aside, so the times are those of the reference dispatch around each engine's kernels).
Closed, it costs nothing. Times are host times: kernels of an asynchronous device are
timed as they are queued.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from enum import Enum

from ..debug import _modes

__all__ = ["ProfilerState", "ProfilerTarget", "make_scheduler", "export_chrome_tracing",
           "Profiler", "RecordEvent", "SortedKeys"]


class ProfilerState(Enum):
    """What the profiler does at a step."""

    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3  # the last recorded step: on_trace_ready runs after it


class ProfilerTarget(Enum):
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


class SortedKeys(Enum):
    """The order of summary()'s rows (dygrad times on the host: GPU keys sort as CPU ones)."""

    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


def make_scheduler(*, closed: int, ready: int, record: int, repeat: int = 0, skip_first: int = 0):
    """A scheduler: after ``skip_first`` steps, cycles of ``closed`` closed, ``ready`` ready
    and ``record`` recorded steps (the last one RECORD_AND_RETURN), ``repeat`` times (0:
    forever)."""
    period = closed + ready + record
    if record < 1:
        raise ValueError(f"make_scheduler: record must be at least 1, got {record}")

    def scheduler(step: int) -> ProfilerState:
        if step < skip_first:
            return ProfilerState.CLOSED
        step -= skip_first
        if repeat > 0 and step // period >= repeat:
            return ProfilerState.CLOSED
        k = step % period
        if k < closed:
            return ProfilerState.CLOSED
        if k < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD if k < period - 1 else ProfilerState.RECORD_AND_RETURN
    return scheduler


def export_chrome_tracing(dir_name: str, worker_name: str | None = None):
    """An ``on_trace_ready`` handler writing each recording to ``dir_name`` as Chrome trace
    JSON (open it in chrome://tracing or Perfetto)."""
    os.makedirs(dir_name, exist_ok=True)
    worker = worker_name or f"host_{socket.gethostname()}pid_{os.getpid()}"

    def handler(prof):
        stamp = time.strftime("%Y_%m_%d_%H_%M_%S")
        prof.export(os.path.join(dir_name, f"{worker}_time_{stamp}_{prof.step_num}.paddle_trace.json"))
    return handler


_recording: list = []  # the Profilers recording now (RecordEvent reports to them)


class Profiler:
    """Records op timings between ``start()`` and ``stop()`` (or in a ``with`` block) on
    the steps ``scheduler`` selects (a callable ``step -> ProfilerState``, a ``(start,
    end)`` range of steps, or None for every step); ``on_trace_ready(prof)`` runs after
    each recorded range. ``record_shapes`` adds the input shapes to each op's event;
    ``targets``, ``timer_only``, ``profile_memory``, ``emit_nvtx``, ``custom_device_types``
    and ``with_flops`` are accepted as Paddle spells them and change nothing here (ops are
    timed on the host only)."""

    def __init__(self, *, targets=None, scheduler=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, timer_only=False, emit_nvtx=False, custom_device_types=(),
                 with_flops=False):
        if isinstance(scheduler, (tuple, list)):
            start, end = scheduler
            if not 0 <= start < end:
                raise ValueError(f"Profiler: scheduler range must satisfy 0 <= start < end, "
                                 f"got {tuple(scheduler)}")
            scheduler = make_scheduler(closed=max(start - 1, 0), ready=1 if start > 0 else 0,
                                       record=end - start, repeat=1)
        elif scheduler is not None and not callable(scheduler):
            raise TypeError(f"Profiler: scheduler must be a callable, a (start, end) tuple or "
                            f"None, got {type(scheduler).__name__}")
        self.targets = list(targets) if targets is not None else [ProfilerTarget.CPU]
        self.scheduler = scheduler or (lambda step: ProfilerState.RECORD)
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.timer_only = timer_only
        self.step_num = 0
        self.current_state = ProfilerState.CLOSED
        self.events: list = []  # (name, category, start ns, duration ns, thread id, args)
        self._wrap = None
        self._step_start = None

    # -- recording ---------------------------------------------------------------------
    def _timing_wrapper(self, name, fn):
        events, shapes, clock = self.events, self.record_shapes, time.perf_counter_ns

        def timed(op, *inputs, **attrs):
            t0 = clock()
            result = fn(op, *inputs, **attrs)
            t1 = clock()
            args = {"shapes": [list(t.shape) for t in inputs if hasattr(t, "shape")]} if shapes else None
            events.append((op.name, "Operator", t0, t1 - t0, threading.get_ident(), args))
            return result
        return timed

    def _record(self, on: bool) -> None:
        if on and self._wrap is None:
            self._wrap = self._timing_wrapper
            _modes.push(self._wrap)
            _recording.append(self)
        elif not on and self._wrap is not None:
            _modes.pop(self._wrap)
            _recording.remove(self)
            self._wrap = None

    def _enter(self, state: ProfilerState) -> None:
        """Move to ``state`` at the start of a step."""
        recording = state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)
        if recording and self._wrap is None:  # a new recording
            self.events = []
        self._record(recording)
        self.current_state = state
        self._step_start = time.perf_counter_ns() if recording else None

    def _end_step(self) -> None:
        if self._step_start is not None:
            t0 = self._step_start
            self.events.append((f"ProfileStep#{self.step_num}", "ProfileStep", t0,
                                time.perf_counter_ns() - t0, threading.get_ident(), None))

    def start(self) -> None:
        """Start at step 0 in the state the scheduler gives it."""
        self.step_num = 0
        self._enter(self.scheduler(0))

    def step(self, num_samples=None) -> None:
        """End the current step and begin the next one."""
        self._end_step()
        returning = self.current_state is ProfilerState.RECORD_AND_RETURN
        self.step_num += 1
        state = self.scheduler(self.step_num)
        if returning:
            self._record(False)
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)
        self._enter(state)

    def stop(self) -> None:
        """Stop recording; ``on_trace_ready`` runs if steps were being recorded."""
        recorded = self.current_state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)
        self._end_step()
        self._record(False)
        self.current_state = ProfilerState.CLOSED
        self._step_start = None
        if recorded and self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    # -- results -----------------------------------------------------------------------
    def op_table(self, category: str = "Operator") -> list:
        """``[(name, calls, total ns, mean ns, max ns, min ns)]`` over the recorded ops (or
        the events of another category: 'UserDefined', 'ProfileStep')."""
        stats = {}
        for name, cat, _, dur, _, _ in self.events:
            if cat != category:
                continue
            s = stats.setdefault(name, [0, 0, 0, None])
            s[0] += 1
            s[1] += dur
            s[2] = max(s[2], dur)
            s[3] = dur if s[3] is None else min(s[3], dur)
        return [(name, n, total, total / n, mx, mn) for name, (n, total, mx, mn) in stats.items()]

    def summary(self, sorted_by=SortedKeys.CPUTotal, op_detail=True, thread_sep=False,
                time_unit="ms", views=None) -> None:
        """Print the per-op table: calls, total, mean, max and min time, share of op time."""
        print(self._summary_text(sorted_by, time_unit))

    def _summary_text(self, sorted_by=SortedKeys.CPUTotal, time_unit="ms") -> str:
        scale = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0}
        if time_unit not in scale:
            raise ValueError(f"Profiler.summary: time_unit must be one of {list(scale)}, got {time_unit!r}")
        div = scale[time_unit]
        key = {0: 2, 1: 3, 2: 4, 3: 5}[SortedKeys(sorted_by).value % 4]
        lines = []
        for title, category in (("Operator Summary", "Operator"), ("UserDefined Summary", "UserDefined")):
            rows = sorted(self.op_table(category), key=lambda r: r[key], reverse=key != 5)
            if not rows and category != "Operator":
                continue
            grand = sum(r[2] for r in rows) or 1
            head = (f"{'Name':<28}{'Calls':>8}"
                    + "".join(f"{c + '(' + time_unit + ')':>13}" for c in ("Total", "Avg", "Max", "Min"))
                    + f"{'Ratio(%)':>10}")
            lines += [title, "-" * len(head), head, "-" * len(head)]
            for name, n, total, mean, mx, mn in rows:
                lines.append(f"{name:<28}{n:>8}" + "".join(f"{v / div:>13.4f}" for v in (total, mean, mx, mn))
                             + f"{100 * total / grand:>10.2f}")
            lines.append("-" * len(head))
        return "\n".join(lines)

    def export(self, path: str, format: str = "json") -> None:
        """Write the recorded events as Chrome trace JSON (``chrome://tracing``, Perfetto)."""
        if format != "json":
            raise ValueError(f"Profiler.export: only format='json' (Chrome trace) is supported, "
                             f"got {format!r}")
        pid = os.getpid()
        trace = [{"name": name, "cat": cat, "ph": "X", "ts": start / 1e3, "dur": dur / 1e3,
                  "pid": pid, "tid": tid, **({"args": args} if args else {})}
                 for name, cat, start, dur, tid, args in self.events]
        with open(path, "w") as f:
            json.dump({"traceEvents": trace, "displayTimeUnit": "ms"}, f)


class RecordEvent:
    """A named span of user code in the recording (``begin()``/``end()`` or ``with``)."""

    def __init__(self, name: str, event_type=None):
        self.name = name
        self.event_type = event_type
        self._start = None

    def begin(self) -> None:
        self._start = time.perf_counter_ns()

    def end(self) -> None:
        if self._start is None:
            return
        dur = time.perf_counter_ns() - self._start
        for prof in _recording:
            prof.events.append((self.name, "UserDefined", self._start, dur, threading.get_ident(), None))
        self._start = None

    def __enter__(self):
        self.begin()
        return self

    def __exit__(self, *exc):
        self.end()
        return False
