"""The callbacks of Model.fit / evaluate / predict (paddle.callbacks).

A :class:`Callback` has one method per moment of a run (``on_train_begin``,
``on_epoch_end``, ``on_eval_batch_end``, ...). ``Model.fit`` calls them in order through a
:class:`CallbackList`, which ``config_callbacks`` builds as Paddle does: a ProgBarLogger
first (unless ``verbose=0`` or one is given), a ModelCheckpoint and an LRScheduler last
(unless given). A callback stops training by setting ``model.stop_training = True``.
"""

from __future__ import annotations

import json
import numbers
import os
import time
import warnings

import numpy as np

from .progressbar import ProgressBar

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler",
           "EarlyStopping", "ReduceLROnPlateau"]

_MODES = ("train", "eval", "predict")


def config_callbacks(callbacks=None, model=None, batch_size=None, epochs=None, steps=None,
                     log_freq=2, verbose=2, save_freq=1, save_dir=None, metrics=None,
                     mode="train"):
    """The CallbackList for a run: the given callbacks plus Paddle's default ones."""
    cbks = list(callbacks) if isinstance(callbacks, (list, tuple)) else (
        [callbacks] if callbacks else [])
    for c in cbks:
        if not isinstance(c, Callback):
            raise TypeError(f"Model: callbacks must be paddle.callbacks.Callback instances, got "
                            f"{type(c).__name__}")
    if verbose and not any(isinstance(c, ProgBarLogger) for c in cbks):
        cbks = [ProgBarLogger(log_freq, verbose=verbose), *cbks]
    if not any(isinstance(c, ModelCheckpoint) for c in cbks):
        cbks = [*cbks, ModelCheckpoint(save_freq, save_dir)]
    for c in cbks:
        if isinstance(c, EarlyStopping):
            c.save_dir = save_dir
    if not any(isinstance(c, LRScheduler) for c in cbks):
        cbks = [*cbks, LRScheduler()]
    cbk_list = CallbackList(cbks)
    cbk_list.set_model(model)
    cbk_list.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps,
                         "verbose": verbose,
                         "metrics": (metrics or []) if mode != "test" else []})
    return cbk_list


class CallbackList:
    """Calls every callback of a list, in order."""

    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def __iter__(self):
        return iter(self.callbacks)

    def append(self, callback):
        self.callbacks.append(callback)

    def set_params(self, params):
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model):
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name, *args):
        for c in self.callbacks:
            getattr(c, name)(*args)

    @staticmethod
    def _check_mode(mode):
        if mode not in _MODES:
            raise ValueError(f"callbacks: mode should be train, eval or predict, got {mode!r}")

    def on_begin(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch=None, logs=None):
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch=None, logs=None):
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_end", step, logs)


class Callback:
    """Base class of the callbacks: override the hooks you need; every hook does nothing.

    ``self.model`` is the paddle.Model being run; ``self.params`` holds 'batch_size',
    'epochs', 'steps' (per epoch), 'verbose' and 'metrics' (names: 'loss' and the metrics').
    ``logs`` at the end of a batch or epoch hold 'loss' (a list, one value per loss), each
    metric's value, 'step' and 'batch_size'; at eval/predict begin, 'steps' and 'metrics'.
    """

    def __init__(self):
        self.model = None
        self.params = {}

    def set_params(self, params):
        """Set the run's parameters (see the class docstring)."""
        self.params = params

    def set_model(self, model):
        """Set the paddle.Model being run."""
        self.model = model

    def on_train_begin(self, logs=None):
        """Called at the start of fit."""

    def on_train_end(self, logs=None):
        """Called at the end of fit, with the last training batch's logs."""

    def on_eval_begin(self, logs=None):
        """Called at the start of an evaluation."""

    def on_eval_end(self, logs=None):
        """Called at the end of an evaluation, with its last batch's logs."""

    def on_predict_begin(self, logs=None):
        """Called at the start of predict."""

    def on_predict_end(self, logs=None):
        """Called at the end of predict."""

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of each training epoch (``epoch`` counts from 0)."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of each training epoch, with its last batch's logs."""

    def on_train_batch_begin(self, step, logs=None):
        """Called before each training batch."""

    def on_train_batch_end(self, step, logs=None):
        """Called after each training batch, with its logs."""

    def on_eval_batch_begin(self, step, logs=None):
        """Called before each evaluation batch."""

    def on_eval_batch_end(self, step, logs=None):
        """Called after each evaluation batch, with its logs."""

    def on_predict_batch_begin(self, step, logs=None):
        """Called before each prediction batch."""

    def on_predict_batch_end(self, step, logs=None):
        """Called after each prediction batch."""


class _Timer:
    """Time spent waiting for data and computing batches, and the samples seen."""

    def __init__(self):
        self.data_time = self.batch_time = 0.0
        self.count = self.samples = 0
        self.batch_start = self.data_end = time.time()

    def batch_begin(self):
        self.data_end = time.time()
        self.data_time += self.data_end - self.batch_start

    def batch_end(self, samples):
        now = time.time()
        self.batch_time += now - self.data_end
        self.count += 1
        self.samples += samples
        self.batch_start = now

    def report(self):
        """Paddle's verbose=3 values (per batch and samples/s), then start counting anew."""
        count = self.count or 1
        elapsed = self.data_time + self.batch_time
        values = [("avg_reader_cost", f"{self.data_time / count:.5f} sec"),
                  ("avg_batch_cost", f"{self.batch_time / count:.5f} sec"),
                  ("ips", f"{self.samples / elapsed if elapsed else 0.0:.5f} samples/sec")]
        self.data_time = self.batch_time = 0.0
        self.count = self.samples = 0
        return values


class ProgBarLogger(Callback):
    """Print the loss and metrics while a model runs.

    Args:
        log_freq: print every ``log_freq`` steps (and at the end of each epoch).
        verbose: 0 silent, 1 a progress bar (redrawn in place on a terminal), 2 one line per
            print, 3 as 2 plus the average data and batch times and the samples per second.
    """

    def __init__(self, log_freq=1, verbose=2):
        super().__init__()
        self.log_freq = log_freq
        self.verbose = verbose
        self.epochs = None
        self.steps = None

    def _is_print(self):
        return bool(self.verbose)

    def _updates(self, logs, mode):
        metrics = getattr(self, f"{mode}_metrics")
        values = [(k, logs[k]) for k in metrics if k in logs]
        if self.verbose == 3:
            values += getattr(self, f"_{mode}_timer").report()
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._train_timer = _Timer()
        if self._is_print():
            print("The loss value printed in the log is the current step, and the metric is "
                  "the average value of previous steps.")

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer.batch_start = time.time()

    def on_train_batch_begin(self, step, logs=None):
        self._train_timer.batch_begin()

    def on_train_batch_end(self, step, logs=None):
        logs = logs or {}
        self.train_step += 1
        self._train_timer.batch_end(logs.get("batch_size", 1))
        if self._is_print() and self.train_step % self.log_freq == 0:
            if self.steps is None or self.train_step < self.steps:
                self._updates(logs, "train")

    def on_epoch_end(self, epoch, logs=None):
        if self._is_print() and self.steps is not None:
            self._updates(logs or {}, "train")

    def _begin(self, mode, logs, title):
        logs = logs or {}
        setattr(self, f"{mode}_steps", logs.get("steps"))
        setattr(self, f"{mode}_metrics", logs.get("metrics", []))
        setattr(self, f"{mode}_step", 0)
        setattr(self, f"{mode}_samples", 0)
        setattr(self, f"_{mode}_timer", _Timer())
        setattr(self, f"{mode}_progbar", ProgressBar(num=logs.get("steps"), verbose=self.verbose))
        if self._is_print():
            print(title)

    def _batch_end(self, mode, logs):
        logs = logs or {}
        step = getattr(self, f"{mode}_step") + 1
        setattr(self, f"{mode}_step", step)
        samples = logs.get("batch_size", 1)
        setattr(self, f"{mode}_samples", getattr(self, f"{mode}_samples") + samples)
        getattr(self, f"_{mode}_timer").batch_end(samples)
        steps = getattr(self, f"{mode}_steps")
        if self._is_print() and step % self.log_freq == 0 and (steps is None or step < steps):
            self._updates(logs, mode)

    def on_eval_begin(self, logs=None):
        self._begin("eval", logs, "Eval begin...")

    def on_eval_batch_begin(self, step, logs=None):
        self._eval_timer.batch_begin()

    def on_eval_batch_end(self, step, logs=None):
        self._batch_end("eval", logs)

    def on_eval_end(self, logs=None):
        if self._is_print() and self.eval_steps is not None:
            self._updates(logs or {}, "eval")
            print(f"Eval samples: {self.eval_samples}")

    def on_predict_begin(self, logs=None):
        self._begin("test", logs, "Predict begin...")

    def on_predict_batch_begin(self, step, logs=None):
        self._test_timer.batch_begin()

    def on_predict_batch_end(self, step, logs=None):
        self._batch_end("test", logs)

    def on_predict_end(self, logs=None):
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs or {}, "test")
            print(f"Predict samples: {self.test_samples}")


class ModelCheckpoint(Callback):
    """Save the model every ``save_freq`` epochs to ``save_dir/<epoch>`` and at the end of
    training to ``save_dir/final`` (``.pdparams`` and ``.pdopt``); nothing when
    ``save_dir`` is None."""

    def __init__(self, save_freq=1, save_dir=None):
        super().__init__()
        self.save_freq = save_freq
        self.save_dir = save_dir

    def _is_save(self):
        return self.model is not None and bool(self.save_dir)

    def on_epoch_begin(self, epoch=None, logs=None):
        self.epoch = epoch

    def _save(self, name):
        path = f"{self.save_dir}/{name}"
        print(f"save checkpoint at {os.path.abspath(path)}")
        self.model.save(path)

    def on_epoch_end(self, epoch, logs=None):
        if self._is_save() and self.epoch % self.save_freq == 0:
            self._save(epoch)

    def on_train_end(self, logs=None):
        if self._is_save():
            self._save("final")


def _scheduler(model):
    """The optimizer's learning-rate scheduler (anything with a ``step`` method), or None."""
    optimizer = getattr(model, "_optimizer", None)
    lr = getattr(optimizer, "_learning_rate", None)
    return lr if callable(getattr(lr, "step", None)) else None


class LRScheduler(Callback):
    """Step the optimizer's learning-rate scheduler after every batch (``by_step``) or
    every epoch (``by_epoch``); nothing when the learning rate is a plain number."""

    def __init__(self, by_step=True, by_epoch=False):
        super().__init__()
        if by_step and by_epoch:
            raise ValueError("by_step option is mutually exclusive with by_epoch")
        self.by_step = by_step
        self.by_epoch = by_epoch

    def on_epoch_end(self, epoch, logs=None):
        scheduler = _scheduler(self.model)
        if self.by_epoch and scheduler is not None:
            scheduler.step()

    def on_train_batch_end(self, step, logs=None):
        scheduler = _scheduler(self.model)
        if self.by_step and scheduler is not None:
            scheduler.step()


def _monitored(logs, monitor, who):
    """The first value of ``logs[monitor]`` as a number, or None (with a warning when absent)."""
    if logs is None or monitor not in logs:
        warnings.warn(f"Monitor of {who} should be loss or metric name.", stacklevel=2)
        return None
    current = logs[monitor]
    if isinstance(current, (list, tuple)):
        return current[0]
    return current if isinstance(current, numbers.Number) else None


def _monitor_mode(mode, monitor, who):
    """'min' or 'max': ``mode``, or for 'auto' 'max' when the name contains 'acc'."""
    if mode not in ("auto", "min", "max"):
        warnings.warn(f"{who} mode {mode} is unknown, fallback to auto mode.", stacklevel=2)
        mode = "auto"
    if mode == "auto":
        mode = "max" if "acc" in monitor else "min"
    return mode


class EarlyStopping(Callback):
    """Stop training when ``monitor`` (a name in the evaluation logs) stopped improving.

    Args:
        monitor: 'loss' or a metric's name.
        mode: 'min', 'max', or 'auto' ('max' when the name contains 'acc', else 'min').
        patience: evaluations without improvement before stopping.
        verbose: 1 prints a line when stopping.
        min_delta: the smallest change that counts as an improvement.
        baseline: the value to improve on (None: the first evaluation's).
        save_best_model: save the best model to ``save_dir/best_model`` (save_dir is fit's).
    """

    def __init__(self, monitor="loss", mode="auto", patience=0, verbose=1, min_delta=0,
                 baseline=None, save_best_model=True):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.save_best_model = save_best_model
        self.save_dir = None  # set by fit
        self.wait_epoch = 0
        self.stopped_epoch = 0
        self.best_weights = None
        self.monitor_op = np.greater if _monitor_mode(mode, monitor, "EarlyStopping") == "max" \
            else np.less
        self.min_delta = abs(min_delta) if self.monitor_op is np.greater else -abs(min_delta)

    def on_train_begin(self, logs=None):
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op is np.less else -np.inf

    def on_eval_end(self, logs=None):
        current = _monitored(logs, self.monitor, "EarlyStopping")
        if current is None:
            return
        best_path = os.path.join(self.save_dir, "best_model") if self.save_dir else None
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and best_path:
                self.model.save(best_path)
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and best_path:
                    print(f"Best checkpoint has been saved at {os.path.abspath(best_path)}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` when ``monitor`` (in the evaluation logs)
    has not improved by ``min_delta`` for ``patience`` evaluations; then wait ``cooldown``
    evaluations; never go below ``min_lr``. Works with a float learning rate."""

    def __init__(self, monitor="loss", factor=0.1, patience=10, verbose=1, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__()
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.monitor = monitor
        self.factor = factor
        self.patience = patience
        self.verbose = verbose
        self.mode = _monitor_mode(mode, monitor, "Learning rate reduction")
        self.min_delta = min_delta
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epoch = 0
        self._reset()

    def _reset(self):
        self.best = np.inf if self.mode == "min" else -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def _improved(self, current):
        if self.mode == "min":
            return current < self.best - self.min_delta
        return current > self.best + self.min_delta

    def on_train_begin(self, logs=None):
        self._reset()

    def on_epoch_end(self, epoch, logs=None):
        self.epoch = epoch

    def on_eval_end(self, logs=None):
        current = _monitored(logs, self.monitor, "ReduceLROnPlateau")
        if current is None:
            return
        lr = getattr(self.model._optimizer, "_learning_rate", None)
        if not isinstance(lr, float):
            warnings.warn(f"Expected learning_rate be float, bug got {type(lr)}.", stacklevel=2)
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._improved(current):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = self.model._optimizer.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    self.model._optimizer.set_lr(new_lr)
                    if self.verbose > 0:
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning "
                              f"rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0


class VisualDL(Callback):
    """Log the training and evaluation scalars to ``log_dir/scalars.jsonl``.

    Paddle's VisualDL callback writes VisualDL's own record files; dygrad writes the same
    scalars as plain JSON lines instead, one per value: ``{"tag": "train/loss", "step": 12,
    "value": 0.31}``. Training values are logged after every batch (step = batches so far);
    evaluation values at the end of each evaluation (step = the epoch).
    """

    def __init__(self, log_dir):
        super().__init__()
        self.log_dir = log_dir
        self.epochs = None
        self.steps = None
        self.epoch = 0
        self._file = None
        self._is_fit = False

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._is_fit = True
        self.train_step = 0

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _updates(self, logs, mode):
        if self._file is None:
            os.makedirs(self.log_dir, exist_ok=True)
            self._file = open(os.path.join(self.log_dir, "scalars.jsonl"), "a")
        step = self.train_step if mode == "train" else self.epoch
        for k in getattr(self, f"{mode}_metrics"):
            value = _monitored(logs, k, "VisualDL") if k in logs else None
            if value is not None:
                record = {"tag": f"{mode}/{k}", "step": step, "value": float(value)}
                self._file.write(json.dumps(record) + "\n")
        self._file.flush()

    def _close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def on_train_batch_end(self, step, logs=None):
        self.train_step += 1
        self._updates(logs or {}, "train")

    def on_eval_begin(self, logs=None):
        self.eval_metrics = (logs or {}).get("metrics", [])

    def on_eval_end(self, logs=None):
        self._updates(logs or {}, "eval")
        if not self._is_fit:
            self._close()

    def on_train_end(self, logs=None):
        self._close()
