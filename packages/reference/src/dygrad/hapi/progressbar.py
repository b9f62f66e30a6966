"""The progress bar that ProgBarLogger draws: step/total, the logged values, time per step."""

from __future__ import annotations

import shutil
import sys
import time

import numpy as np


def format_value(value) -> str:
    """A logged value as Paddle prints it: floats with 4 decimals (small ones in e-notation)."""
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.item()
    if isinstance(value, (float, np.floating)):
        return f"{value:.4f}" if abs(value) > 1e-3 else f"{value:.4e}"
    return str(value)


def _format_eta(seconds: int) -> str:
    if seconds > 3600:
        return f"{seconds // 3600}:{(seconds % 3600) // 60:02}:{seconds % 60:02}"
    if seconds > 60:
        return f"{seconds // 60}:{seconds % 60:02}"
    return f"{seconds}s"


class ProgressBar:
    """Draw the progress of ``num`` steps (None: unknown) on ``file`` (default: sys.stdout).

    ``verbose=1`` draws one bar that each update rewrites with ``\\r`` when ``file`` is a
    terminal (or a Jupyter kernel runs), and prints one bar per update otherwise;
    ``verbose=2`` or ``3`` prints one plain line per update.
    """

    def __init__(self, num=None, width=30, verbose=1, start=True, file=None, name="step"):
        if isinstance(num, int) and num <= 0:
            raise TypeError("num should be None or integer (> 0)")
        self._num = num
        terminal_width = shutil.get_terminal_size().columns or 80
        self._width = max(1, min(width, int(terminal_width * 0.6), terminal_width - 50))
        self._verbose = verbose
        self.file = file
        self.name = name
        self._total_width = 0
        self._start = time.time() if start else None

    def _out(self):
        return self.file if self.file is not None else sys.stdout

    def _dynamic(self) -> bool:
        out = self._out()
        return bool(getattr(out, "isatty", lambda: False)()) or "ipykernel" in sys.modules

    def start(self):
        """Restart the clock."""
        self._out().flush()
        self._start = time.time()

    def _time_per_step(self, current):
        per_step = (time.time() - self._start) / current if current and self._start else 0.0
        if per_step >= 1 or per_step == 0:
            text = f"{per_step:.0f}s/{self.name}"
        elif per_step >= 1e-3:
            text = f"{per_step * 1e3:.0f}ms/{self.name}"
        else:
            text = f"{per_step * 1e6:.0f}us/{self.name}"
        return per_step, text

    def _count(self, current):
        if self._num is None:
            return f"{self.name} {current:3}"
        digits = int(np.log10(self._num)) + 1
        return f"{self.name} {current:{digits}d}/{self._num}"

    @staticmethod
    def _values(values):
        info = ""
        for key, val in values:
            info += f" - {key}:"
            for v in (val if isinstance(val, list) else [val]):
                info += " " + format_value(v)
        return info

    def update(self, current_num, values=()):
        """Show step ``current_num`` with ``values``: a list of (name, value or list of
        values)."""
        per_step, speed = self._time_per_step(current_num)
        out = self._out()
        if self._verbose == 1:
            bar = self._count(current_num)
            if self._num is not None:
                filled = int(self._width * current_num / self._num)
                arrow = ">" if current_num < self._num else "="
                bar += " [" + ("=" * (filled - 1) + arrow if filled > 0 else "")
                bar += "." * (self._width - filled) + "]"
            info = self._values(values)
            if self._num is not None and current_num < self._num:
                info += f" - ETA: {_format_eta(int(per_step * (self._num - current_num)))}"
            info += f" - {speed}"
            line = bar + info
            done = self._num is None or current_num >= self._num
            if self._dynamic():
                padding = " " * max(0, self._total_width - len(line))
                out.write("\r" + line + padding + ("\n" if done else ""))
            else:
                out.write(line + "\n")
            self._total_width = len(line)
        elif self._verbose in (2, 3):
            out.write(self._count(current_num) + self._values(values) + f" - {speed}\n")
        out.flush()
