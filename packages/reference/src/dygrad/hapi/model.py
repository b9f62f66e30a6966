"""paddle.Model: training, evaluation and prediction loops around a Layer.

``Model(network)`` wraps a network; ``prepare(optimizer, loss, metrics)`` configures it;
``fit`` / ``evaluate`` / ``predict`` run whole datasets through the ``*_batch`` methods with
callbacks (progress bar, checkpoints, early stopping, ...). A batch from the data is a flat
list of fields: the first ``len(inputs)`` go to the network, the rest are the labels given
to the loss and metrics after the network's outputs.

Only dynamic-graph mode exists in dygrad, so this is Paddle's dynamic-graph adapter:
no multi-device data parallelism, no automatic mixed precision (``amp_configs`` must be
None or 'O0'), and ``save(path, training=False)`` (an inference program) is not available.
"""

from __future__ import annotations

import inspect
import os
import warnings

import numpy as np

from .._core.autograd import no_grad
from .._core.creation import to_tensor
from .._core.tensor import Tensor
from ..framework import load as _load
from ..framework import save as _save
from ..io import DataLoader, Dataset
from ..metric import Metric
from ..nn.layer import Layer
from .callbacks import EarlyStopping, config_callbacks
from .model_summary import summary

__all__ = ["Model"]


def _to_list(value):
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _flatten(data):
    """A (nested) batch as a flat list of fields: lists and tuples are unpacked, dicts give
    their values in key order."""
    if isinstance(data, (list, tuple)):
        return [x for item in data for x in _flatten(item)]
    if isinstance(data, dict):
        return [x for key in sorted(data) for x in _flatten(data[key])]
    return [data]


def _as_tensor(x):
    return x if isinstance(x, Tensor) else to_tensor(x)


def _to_numpy(x):
    return x.numpy() if isinstance(x, Tensor) else np.asarray(x)


class Model:
    """Train, evaluate and predict with ``network`` (a paddle.nn.Layer).

    Args:
        network: the Layer to run.
        inputs: the inputs' specifications (paddle.static.InputSpec or anything with
            ``shape``, ``dtype`` and ``name``), one per input of ``forward``; they give the
            number of inputs in a batch and the shapes ``summary()`` uses. When None, the
            number of inputs is the number of named arguments of ``network.forward``.
        labels: the labels' specifications (only their number matters in dynamic mode).
    """

    def __init__(self, network, inputs=None, labels=None):
        if not isinstance(network, Layer):
            raise TypeError(f"paddle.Model: network must be a paddle.nn.Layer, got "
                            f"{type(network).__name__}")
        self.mode = "train"
        self.network = network
        self._inputs = self._verify_spec(inputs, "inputs")
        self._labels = self._verify_spec(labels, "labels")
        self._seen_shapes = None  # the input shapes of the first batch run (for summary)
        self._loss = None
        self._optimizer = None
        self._metrics = []
        self._test_dataloader = None
        self.stop_training = False
        self.num_iters = None

    @staticmethod
    def _verify_spec(specs, what):
        if specs is None:
            return None
        specs = list(specs.values()) if isinstance(specs, dict) else _to_list(specs)
        for i, spec in enumerate(specs):
            if not hasattr(spec, "shape"):
                raise TypeError(f"paddle.Model: {what}[{i}] must be an InputSpec (with shape, "
                                f"dtype and name), got {type(spec).__name__}")
            if getattr(spec, "name", "") is None:
                raise ValueError(f"Requires Input[{i}].name != None, but receive `None` with "
                                 f"{spec}.")
        return specs

    def _num_inputs(self):
        if self._inputs is not None:
            return len(self._inputs)
        network = self.network
        network = getattr(network, "_layers", network)  # a DataParallel: the wrapped layer's
        return len(inspect.getfullargspec(network.forward).args) - 1

    def _record_inputs(self, inputs):
        if self._seen_shapes is None:
            self._seen_shapes = [tuple(x.shape) for x in inputs]

    # -- configuration -----------------------------------------------------------------
    def prepare(self, optimizer=None, loss=None, metrics=None, amp_configs=None):
        """Set the optimizer (needed by fit / train_batch), the loss (a Layer or a callable
        ``loss(*outputs, *labels)``) and the metrics (paddle.metric.Metric instances)."""
        if loss is not None and not isinstance(loss, Layer) and not callable(loss):
            raise TypeError("'loss' must be sub classes of `paddle.nn.Layer` or any callable "
                            "function.")
        metrics = _to_list(metrics)
        for m in metrics:
            if not isinstance(m, Metric):
                raise TypeError(f"{type(m).__name__} is not sub class of Metric")
        amp_level = amp_configs.get("level", "O0") if isinstance(amp_configs, dict) \
            else amp_configs
        if amp_level not in (None, "O0"):
            raise NotImplementedError(f"Model.prepare: automatic mixed precision "
                                      f"(amp_configs={amp_configs!r}) is not available in "
                                      f"dygrad; use amp_configs=None")
        self._optimizer = optimizer
        self._loss = loss
        self._metrics = metrics

    def parameters(self, *args, **kwargs):
        """The network's parameters."""
        return self.network.parameters(*args, **kwargs)

    # -- one batch ---------------------------------------------------------------------
    def _split(self, inputs, labels):
        inputs = [_as_tensor(x) for x in _to_list(inputs)]
        labels = [_as_tensor(y) for y in _to_list(labels)]
        self._record_inputs(inputs)
        return inputs, labels

    @no_grad()
    def _update_metrics(self, outputs, labels):
        results = []
        for metric in self._metrics:
            args = metric.compute(*(outputs + labels))
            results.append(metric.update(*[_to_numpy(a) for a in _to_list(args)]))
        return results

    def train_batch(self, inputs, labels=None, update=True):
        """Run one training step on a batch: forward, loss, backward and (with ``update``)
        the optimizer step. Returns the losses as NumPy arrays ([loss, ...]), with the
        metrics' batch values when metrics are set: ([loss, ...], [metric, ...])."""
        if self._optimizer is None:
            raise AssertionError("model not ready, please call `model.prepare()` first")
        if self._loss is None:
            raise AssertionError("Model.train_batch: no loss; pass one to model.prepare()")
        self.network.train()
        self.mode = "train"
        inputs, labels = self._split(inputs, labels)
        outputs = _to_list(self.network(*inputs))
        losses = _to_list(self._loss(*(outputs + labels)))
        final_loss = losses[0]
        for extra in losses[1:]:
            final_loss = final_loss + extra
        final_loss.backward()
        if update:
            self._optimizer.minimize(final_loss)
            self.network.clear_gradients()
        metrics = self._update_metrics(outputs, labels)
        losses = [_to_numpy(loss) for loss in losses]
        return (losses, metrics) if metrics else losses

    @no_grad()
    def eval_batch(self, inputs, labels=None):
        """Run one evaluation step (no gradients). Returns the losses (when a loss is set)
        and the metrics' batch values, as train_batch."""
        self.network.eval()
        self.mode = "eval"
        inputs, labels = self._split(inputs, labels)
        outputs = _to_list(self.network(*inputs))
        losses = _to_list(self._loss(*(outputs + labels))) if self._loss else []
        metrics = self._update_metrics(outputs, labels)
        losses = [_to_numpy(loss) for loss in losses]
        if self._loss:
            return (losses, metrics) if metrics else losses
        return metrics

    @no_grad()
    def predict_batch(self, inputs):
        """The network's outputs on a batch, as a list of NumPy arrays."""
        self.network.eval()
        self.mode = "test"
        inputs, _ = self._split(inputs, None)
        return [_to_numpy(o) for o in _to_list(self.network(*inputs))]

    # -- saving ------------------------------------------------------------------------
    @no_grad()
    def save(self, path, training=True):
        """Save the parameters to ``path.pdparams`` and, when an optimizer with state is
        set, its state to ``path.pdopt`` (with paddle.save)."""
        if not training:
            raise NotImplementedError("Model.save(training=False) writes an inference "
                                      "program, which needs paddle.jit; dygrad has no jit yet")
        _save(self.network.state_dict(), path + ".pdparams")
        if self._optimizer is not None:
            state = self._optimizer.state_dict()
            if state:
                _save(state, path + ".pdopt")

    def load(self, path, skip_mismatch=False, reset_optimizer=False):
        """Load parameters from ``path.pdparams`` (matched by structured name) and, unless
        ``reset_optimizer``, the optimizer's state from ``path.pdopt`` when it exists.
        With ``skip_mismatch`` a parameter missing from the file or of another shape is
        left as it is (with a warning) instead of raising ValueError."""
        base, ext = os.path.splitext(path)
        if ext not in ("", ".pdparams", ".pdopt", ".pdmodel"):
            raise AssertionError(f"Unknown postfix {ext} from weights")
        path = base if ext else path
        if not os.path.exists(path + ".pdparams"):
            raise AssertionError(f"Failed to load parameters, please check path: "
                                 f"{path}.pdparams does not exist")
        param_state = _load(path + ".pdparams", return_numpy=True)
        pairs = []
        for key, param in self.network.state_dict().items():
            try:
                pairs.append((param, self._matching_state(param_state, key, param)))
            except ValueError as err:
                if not skip_mismatch:
                    raise
                warnings.warn(f"Skip loading for {key}. {err}", stacklevel=2)
                reset_optimizer = True
        for param, state in pairs:
            param.set_value(state)
        if self._optimizer is not None and not reset_optimizer and \
                os.path.exists(path + ".pdopt"):
            self._optimizer.set_state_dict(_load(path + ".pdopt"))

    @staticmethod
    def _matching_state(param_state, key, param):
        state = param_state.get(key)
        if state is None:
            raise ValueError(f"{key} is not found in the providing file.")
        if list(state.shape) != list(param.shape):
            raise ValueError(f"{key} receives a shape {list(state.shape)}, but the expected "
                             f"shape is {list(param.shape)}.")
        return state

    # -- whole datasets ----------------------------------------------------------------
    @staticmethod
    def _loader(data, batch_size, shuffle, drop_last, num_workers):
        if isinstance(data, Dataset):
            return DataLoader(data, batch_size=batch_size, shuffle=shuffle,
                              drop_last=drop_last, num_workers=num_workers)
        return data

    @staticmethod
    def _len_data_loader(loader):
        try:
            return len(loader)
        except (TypeError, ValueError):
            return None

    def fit(self, train_data=None, eval_data=None, batch_size=1, epochs=1, eval_freq=1,
            log_freq=10, save_dir=None, save_freq=1, verbose=2, drop_last=False, shuffle=True,
            num_workers=0, callbacks=None, accumulate_grad_batches=1, num_iters=None):
        """Train for ``epochs`` epochs on ``train_data`` (a Dataset, batched here with
        ``batch_size``, ``shuffle`` and ``drop_last``, or a DataLoader / iterable of
        batches), evaluating on ``eval_data`` every ``eval_freq`` epochs and saving to
        ``save_dir`` every ``save_freq`` epochs. ``batch_size`` may be [train, eval].
        Gradients are accumulated over ``accumulate_grad_batches`` batches per update;
        ``num_iters`` stops after that many training steps."""
        if train_data is None:
            raise AssertionError("train_data must be given!")
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 2:
                raise AssertionError("batch_size length error, expected train_batch_size and "
                                     "eval_batch_size.")
            train_batch_size, eval_batch_size = batch_size
        else:
            train_batch_size = eval_batch_size = batch_size
        train_loader = self._loader(train_data, train_batch_size, shuffle, drop_last,
                                    num_workers)
        eval_loader = None if eval_data is None else self._loader(
            eval_data, eval_batch_size, False, False, num_workers)
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        self.stop_training = False
        steps = self._len_data_loader(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and steps is not None:
            if num_iters <= 0:
                raise AssertionError("num_iters must be greater than 0!")
            epochs = num_iters // steps + 1
            steps = min(num_iters, steps)
        cbks = config_callbacks(callbacks, model=self, epochs=epochs, steps=steps,
                                log_freq=log_freq, save_freq=save_freq, save_dir=save_dir,
                                verbose=verbose, metrics=self._metrics_name())
        if eval_loader is None and any(isinstance(c, EarlyStopping) for c in cbks):
            warnings.warn("EarlyStopping needs validation data.", stacklevel=2)
        logs = {}
        cbks.on_begin("train")
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            cbks.on_epoch_end(epoch, logs)
            if eval_loader is not None and epoch % eval_freq == 0:
                cbks.on_begin("eval", {"steps": self._len_data_loader(eval_loader),
                                       "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, cbks, "eval")
                cbks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        cbks.on_end("train", logs)
        self._test_dataloader = None

    def evaluate(self, eval_data, batch_size=1, log_freq=10, verbose=2, num_workers=0,
                 callbacks=None, num_iters=None):
        """The loss and metrics on ``eval_data`` (a Dataset or DataLoader): a dict with
        'loss' (the last batch's losses, a list) and each metric's value over all batches."""
        loader = self._loader(eval_data, batch_size, False, False, num_workers)
        self._test_dataloader = loader
        cbks = config_callbacks(callbacks, model=self, log_freq=log_freq, verbose=verbose,
                                metrics=self._metrics_name())
        eval_steps = self._len_data_loader(loader)
        self.num_iters = num_iters
        if num_iters is not None and eval_steps is not None:
            if num_iters <= 0:
                raise AssertionError("num_iters must be greater than 0!")
            eval_steps = self.num_iters = min(num_iters, eval_steps)
        cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(loader, cbks, "eval")
        cbks.on_end("eval", logs)
        self._test_dataloader = None
        return {k: logs[k] for k in self._metrics_name() if k in logs}

    def predict(self, test_data, batch_size=1, num_workers=0, stack_outputs=False, verbose=1,
                callbacks=None):
        """The network's outputs on ``test_data``: a list with one entry per output, each a
        tuple of per-batch NumPy arrays, or (``stack_outputs``) one array stacked over the
        batches. Samples whose fields outnumber the network's inputs (labels) have the extra
        fields ignored."""
        loader = self._loader(test_data, batch_size, False, False, num_workers)
        self._test_dataloader = loader
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        cbks.on_begin("predict", {"steps": self._len_data_loader(loader)})
        logs, outputs = self._run_one_epoch(loader, cbks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(outs) for outs in outputs]
        self._test_dataloader = None
        cbks.on_end("predict", logs)
        return outputs

    def _run_one_epoch(self, data_loader, callbacks, mode):
        logs, outputs = {}, []
        n_inputs = self._num_inputs()
        steps = self._len_data_loader(data_loader)
        for step, data in enumerate(data_loader):
            data = _flatten(data)
            callbacks.on_batch_begin(mode, step, logs)
            if mode == "predict":
                outputs.append(self.predict_batch(data[:n_inputs]))
            else:
                args = [data[:n_inputs], data[n_inputs:]]
                if mode == "train":
                    args.append((step + 1) % self._accumulate == 0 or step + 1 == steps)
                outs = getattr(self, mode + "_batch")(*args)
                values = []
                if self._loss:
                    losses = outs[0] if self._metrics else outs
                    values.append([float(loss) for loss in losses])
                values += [v for m in self._metrics for v in _to_list(m.accumulate())]
                logs.update(zip(self._metrics_name(), values))
            logs["step"] = step
            logs["batch_size"] = int(data[0].shape[0])
            callbacks.on_batch_end(mode, step, logs)
            if self.num_iters is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    self.num_iters = None
                    break
        self._reset_metrics()
        return (logs, outputs) if mode == "predict" else logs

    def _reset_metrics(self):
        for metric in self._metrics:
            metric.reset()

    def _metrics_name(self):
        names = ["loss"] if self._loss else []
        for m in self._metrics:
            names.extend(_to_list(m.name()))
        return names

    # -- description -------------------------------------------------------------------
    def summary(self, input_size=None, dtype=None):
        """Print the network's table of layers (see paddle.summary) for inputs of
        ``input_size`` (default: the Model's input specifications, else the shapes of the
        inputs of the batches run so far); returns {'total_params', 'trainable_params'}."""
        if input_size is None:
            if self._inputs is not None:
                input_size = [tuple(spec.shape) for spec in self._inputs]
            elif self._seen_shapes is not None:
                input_size = self._seen_shapes
            else:
                raise AssertionError("'input_size' or 'self._input' must be set")
            input_size = input_size[0] if len(input_size) == 1 else input_size
        return summary(self.network, input_size, dtypes=dtype)
