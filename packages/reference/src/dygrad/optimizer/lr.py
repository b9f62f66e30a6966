"""paddle.optimizer.lr: learning-rate schedulers.

A scheduler is a learning rate that changes as training goes on. Give one to an optimizer
as ``learning_rate`` and call ``scheduler.step()`` once per epoch (or per batch): it counts
``last_epoch`` up and sets ``last_lr = get_lr()``, the rate the optimizer reads by calling
the scheduler. ``step(epoch)`` jumps to an epoch. The constructor takes the first step, so a
new scheduler is at epoch ``last_epoch + 1`` (0 by default). ``state_dict()`` holds what a
resumed run needs (``last_epoch``, ``last_lr`` and the scheduler's own counters).

Arguments are checked as Paddle checks them, with Paddle's error types (some of Paddle's
checks are assertions: those raise AssertionError here too).
"""

from __future__ import annotations

import math
import warnings
from typing import Callable

import numpy as np

__all__ = ["LRScheduler", "NoamDecay", "PiecewiseDecay", "NaturalExpDecay", "InverseTimeDecay",
           "PolynomialDecay", "LinearWarmup", "ExponentialDecay", "MultiStepDecay", "StepDecay",
           "LambdaDecay", "ReduceOnPlateau", "CosineAnnealingDecay", "MultiplicativeDecay",
           "OneCycleLR", "CyclicLR"]


def _require(condition, message):
    """Paddle's ``assert`` checks, kept as AssertionError (and kept under ``python -O``)."""
    if not condition:
        raise AssertionError(message)


def _positive_int(value, name):
    _require(isinstance(value, int) and not isinstance(value, bool) and value > 0,
             f" '{name}' must be a positive integer, got {value!r}.")


class LRScheduler:
    """Base class: subclasses define ``get_lr()``, the rate at epoch ``self.last_epoch``
    (``self.base_lr`` is the initial rate, ``self.last_lr`` the previous one)."""

    def __init__(self, learning_rate=0.1, last_epoch=-1, verbose=False):
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, (float, int)):
            raise TypeError(f"The type of learning rate must be float, but received "
                            f"{type(learning_rate)}")
        if learning_rate < 0:
            raise ValueError(f"Invalid learning rate: {learning_rate}")
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self.step()

    def __call__(self) -> float:
        """The current learning rate."""
        return self.last_lr

    def step(self, epoch=None):
        """Go to the next epoch, or to ``epoch``, and update ``last_lr``."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            self.last_lr = self._closed_form_lr()
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                  f"{self.last_lr}.")

    def get_lr(self) -> float:
        """The learning rate at epoch ``self.last_epoch``."""
        raise NotImplementedError(f"{type(self).__name__} does not define get_lr()")

    def _closed_form_lr(self):
        """The rate at an arbitrary epoch (``step(epoch)``); schedulers whose ``get_lr``
        goes from the previous rate override it."""
        return self.get_lr()

    def state_keys(self):
        """Set ``self.keys``, the attributes ``state_dict`` saves."""
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self) -> dict:
        """{name: value} of the scheduler's state."""
        self.state_keys()
        return {k: self.__dict__[k] for k in self.keys if k in self.__dict__}

    def set_state_dict(self, state_dict):
        """Restore a state saved by ``state_dict()``."""
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError(f"Please check whether state_dict is correct for optimizer. "
                                   f"Can't find [ {key} ] in state_dict")
            self.__dict__[key] = state_dict[key]
        if len(state_dict) > len(self.keys):
            warnings.warn("There are some unused values in state_dict. Maybe the optimizer "
                          "have different 'LearningRateDecay' when invoking state_dict and "
                          "set_dict", stacklevel=2)

    set_dict = set_state_dict


class NoamDecay(LRScheduler):
    """lr * d_model^-0.5 * min(epoch^-0.5, epoch * warmup_steps^-1.5) (epoch 0: the second)."""

    def __init__(self, d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False):
        if d_model <= 0:
            raise ValueError("d_model should be grater than 0")
        self.d_model = d_model
        self.warmup_steps = warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        t = self.last_epoch
        decay = 1 if t == 0 else t ** -0.5
        warmup = self.warmup_steps ** -1.5 * t
        return self.base_lr * self.d_model ** -0.5 * min(decay, warmup)


class PiecewiseDecay(LRScheduler):
    """values[i] while epoch < boundaries[i]; values[-1] after the last boundary."""

    def __init__(self, boundaries, values, last_epoch=-1, verbose=False):
        if len(boundaries) == 0:
            raise ValueError("The boundaries cannot be empty.")
        if len(values) <= len(boundaries):
            raise ValueError(f"The values have one more element than boundaries, but received "
                             f"len(values) [{len(values)}] < len(boundaries) + 1 "
                             f"[{len(boundaries) + 1}].")
        self.boundaries = boundaries
        self.values = values
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        for boundary, value in zip(self.boundaries, self.values):
            if self.last_epoch < boundary:
                return value
        return self.values[-1]


class NaturalExpDecay(LRScheduler):
    """lr * exp(-gamma * epoch)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        _require(gamma > 0.0, " 'gamma' must be a positive number so that the learning rate "
                              "will decay.")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * math.exp(-self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """lr / (1 + gamma * epoch)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    """(lr - end_lr) * (1 - t / T)^power + end_lr with t = min(epoch, decay_steps) and
    T = decay_steps; with ``cycle``, t = epoch and T = decay_steps * ceil(epoch /
    decay_steps) (at least decay_steps)."""

    def __init__(self, learning_rate, decay_steps, end_lr=0.0001, power=1.0, cycle=False,
                 last_epoch=-1, verbose=False):
        _positive_int(decay_steps, "decay_steps")
        _require(power > 0.0, " 'power' must be greater than 0.0 so that the learning rate "
                              "will decay.")
        self.decay_steps = decay_steps
        self.end_lr = end_lr
        self.power = power
        self.cycle = cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        t, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            steps *= max(1, math.ceil(t / self.decay_steps))
        else:
            t = min(t, steps)
        return (self.base_lr - self.end_lr) * (1 - t / steps) ** self.power + self.end_lr


class LinearWarmup(LRScheduler):
    """From start_lr up to end_lr linearly over warmup_steps epochs, then ``learning_rate``
    (a float, or a scheduler run from its epoch 0 on)."""

    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch=-1,
                 verbose=False):
        if isinstance(learning_rate, bool) or not isinstance(learning_rate,
                                                             (float, int, LRScheduler)):
            raise TypeError(f"the type of learning_rate should be [int, float or LRScheduler], "
                            f"the current type is {learning_rate}")
        _positive_int(warmup_steps, "warmup_steps")
        _require(end_lr > start_lr, f"end_lr {end_lr} must be greater than start_lr {start_lr}")
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps
        self.start_lr = start_lr
        self.end_lr = end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self):
        state = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            state["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict):
        state = dict(state_dict)
        inner = state.pop("LinearWarmup_LR", None)
        super().set_state_dict(state)
        if isinstance(self.learning_rate, LRScheduler):
            if inner is None:
                raise RuntimeError("Please check whether state_dict is correct for optimizer. "
                                   "Can't find [ LinearWarmup_LR ] in state_dict")
            self.learning_rate.set_state_dict(inner)

    def get_lr(self):
        if self.last_epoch < self.warmup_steps:
            return ((self.end_lr - self.start_lr) * self.last_epoch / self.warmup_steps
                    + self.start_lr)
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate


class ExponentialDecay(LRScheduler):
    """lr * gamma^epoch."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        _require(0.0 < gamma < 1.0, " 'gamma' must be in interval (0.0, 1.0) so that the "
                                    "learning rate will decay.")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** self.last_epoch


class MultiStepDecay(LRScheduler):
    """lr * gamma^(number of milestones <= epoch)."""

    def __init__(self, learning_rate, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(milestones, (tuple, list)):
            raise TypeError(f"The type of 'milestones' in 'MultiStepDecay' must be 'tuple, "
                            f"list', but received {type(milestones)}.")
        if any(a >= b for a, b in zip(milestones, milestones[1:])):
            raise ValueError("The elements of milestones must be incremented")
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        self.milestones = milestones
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        passed = sum(1 for m in self.milestones if self.last_epoch >= m)
        return self.base_lr * self.gamma ** passed


class StepDecay(LRScheduler):
    """lr * gamma^(epoch // step_size)."""

    def __init__(self, learning_rate, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(step_size, int):
            raise TypeError(f"The type of 'step_size' must be 'int', but received "
                            f"{type(step_size)}.")
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        _positive_int(step_size, "step_size")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)


class LambdaDecay(LRScheduler):
    """lr * lr_lambda(epoch)."""

    def __init__(self, learning_rate, lr_lambda: Callable, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError(f"The type of 'lr_lambda' in 'LambdaDecay' must be 'function', but "
                            f"received {type(lr_lambda)}.")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    """lr * lr_lambda(1) * lr_lambda(2) * ... * lr_lambda(epoch)."""

    def __init__(self, learning_rate, lr_lambda: Callable, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError(f"The type of 'lr_lambda' in 'MultiplicativeDecay' must be "
                            f"'function', but received {type(lr_lambda)}.")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        lr = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            lr = lr * self.lr_lambda(epoch)
        return lr


class CosineAnnealingDecay(LRScheduler):
    """Cosine annealing from lr down to eta_min over T_max epochs (and back up over the next
    T_max, and so on): eta_min + (lr - eta_min) (1 + cos(pi epoch / T_max)) / 2.
    ``step()`` computes it from the previous rate, as Paddle (and SGDR) do, so a rate changed
    from outside carries on; ``step(epoch)`` uses the closed form."""

    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1, verbose=False):
        if not isinstance(T_max, int):
            raise TypeError(f"The type of 'T_max' in 'CosineAnnealingDecay' must be 'int', but "
                            f"received {type(T_max)}.")
        if isinstance(eta_min, bool) or not isinstance(eta_min, (float, int)):
            raise TypeError(f"The type of 'eta_min' in 'CosineAnnealingDecay' must be 'float, "
                            f"int', but received {type(eta_min)}.")
        _positive_int(T_max, "T_max")
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        t, T = self.last_epoch, self.T_max
        if t == 0:
            return self.base_lr
        if (t - 1 - T) % (2 * T) == 0:  # at the bottom: the first step back up
            return self.last_lr + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / T)) / 2
        return ((1 + math.cos(math.pi * t / T)) / (1 + math.cos(math.pi * (t - 1) / T))
                * (self.last_lr - self.eta_min) + self.eta_min)

    def _closed_form_lr(self):
        return (self.eta_min + (self.base_lr - self.eta_min)
                * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2)


class OneCycleLR(LRScheduler):
    """The one-cycle policy: from max_learning_rate / divide_factor up to max_learning_rate
    over the first phase_pct of total_steps, then down to end_learning_rate (with
    ``three_phase``: back to the initial rate over the same number of steps, then down to
    end_learning_rate), each phase annealed by a cosine or linearly."""

    def __init__(self, max_learning_rate, total_steps, divide_factor=25.0,
                 end_learning_rate=0.0001, phase_pct=0.3, anneal_strategy="cos",
                 three_phase=False, last_epoch=-1, verbose=False):
        for name, v in (("max_learning_rate", max_learning_rate),
                        ("end_learning_rate", end_learning_rate)):
            if isinstance(v, bool) or not isinstance(v, (float, int)):
                raise TypeError(f"'{name}' must be 'float' or 'int', but received {type(v)}")
            if v < 0:
                raise ValueError(f"'{name}' must be a positive integer.")
        if not isinstance(total_steps, int):
            raise TypeError(f"'total_step' must be 'int', but received {type(total_steps)}")
        if total_steps <= 0:
            raise ValueError("'total_step' must be a positive integer.")
        if not isinstance(phase_pct, float):
            raise TypeError(f"'phase_pct' must be 'float', but received {type(phase_pct)}")
        if not 0 <= phase_pct <= 1:
            raise ValueError(f"'phase_pct' must be between 0 and 1, but received {phase_pct}")
        if not isinstance(divide_factor, (float, int)):
            raise TypeError(f"'divide_factor' must be 'float' or 'int', but received "
                            f"{type(divide_factor)}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"'anneal_strategy' must by one of 'cos' or 'linear', but received "
                             f"{anneal_strategy}")
        if three_phase and phase_pct >= 0.5:
            raise ValueError("When three_phase is True, 'phase_pct' must be less than 0.5")
        self.total_steps = total_steps
        initial_lr = max_learning_rate / float(divide_factor)
        up_end = phase_pct * total_steps - 1
        last = total_steps - 1
        # (first step, last step, start rate, end rate) of each phase
        if three_phase:
            down_end = 2 * phase_pct * total_steps - 2
            self._phases = [(0, up_end, initial_lr, max_learning_rate),
                            (up_end, down_end, max_learning_rate, initial_lr),
                            (down_end, last, initial_lr, float(end_learning_rate))]
        else:
            self._phases = [(0, up_end, initial_lr, max_learning_rate),
                            (up_end, last, max_learning_rate, float(end_learning_rate))]
        self.anneal_func = self._cos_annealing if anneal_strategy == "cos" else \
            self._linear_annealing
        super().__init__(initial_lr, last_epoch, verbose)

    @staticmethod
    def _cos_annealing(start_lr, end_lr, pct):
        return end_lr + (start_lr - end_lr) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _linear_annealing(start_lr, end_lr, pct):
        return (end_lr - start_lr) * pct + start_lr

    def get_lr(self):
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. However the number of total steps "
                             f"is {self.total_steps}")
        for i, (first, end, start_lr, end_lr) in enumerate(self._phases):
            if step <= end or i == len(self._phases) - 1:
                return self.anneal_func(start_lr, end_lr, (step - first) / (end - first))


class CyclicLR(LRScheduler):
    """Cyclical learning rates: up from base_learning_rate to max_learning_rate over
    step_size_up steps, down over step_size_down (default: the same), the height scaled by
    the mode: 'triangular' (1), 'triangular2' (halved each cycle), 'exp_range'
    (exp_gamma^iterations), or by ``scale_fn`` of the cycle or the iteration
    (``scale_mode``)."""

    def __init__(self, base_learning_rate, max_learning_rate, step_size_up, step_size_down=None,
                 mode="triangular", exp_gamma=1.0, scale_fn=None, scale_mode="cycle",
                 last_epoch=-1, verbose=False):
        if isinstance(max_learning_rate, bool) or not isinstance(max_learning_rate,
                                                                 (float, int)):
            raise TypeError(f"'max_learning_rate' must be 'float' or 'int', but received "
                            f"{type(max_learning_rate)}")
        if max_learning_rate < 0:
            raise ValueError(f"'max_learning_rate' must be a positive integer, but received "
                             f"{max_learning_rate}")
        for name, v in (("step_size_up", step_size_up), ("step_size_down", step_size_down)):
            if v is None:
                continue
            if not isinstance(v, int):
                raise TypeError(f"The type of '{name}' must be int, but received {type(v)}")
            if v <= 0:
                raise ValueError(f"'{name}' must be a positive integer, but received {v}")
        if not isinstance(exp_gamma, float):
            raise TypeError(f"The type of 'exp_gamma' must be float, but received "
                            f"{type(exp_gamma)}")
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("'mode' is invalid and 'scale_fn' is not specified, make sure one "
                             "of 'mode' or 'scale_fn' is valid")
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError("'scale_mode' must be one of 'cycle' or 'iterations")
        up = float(step_size_up)
        down = up if step_size_down is None else float(step_size_down)
        self.cycle_size = up + down
        self.step_up_pct = up / self.cycle_size
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        self.mode = mode
        self.gamma = exp_gamma
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        elif mode == "triangular":
            self.scale_fn, self.scale_mode = (lambda x: 1.0), "cycle"
        elif mode == "triangular2":
            self.scale_fn, self.scale_mode = (lambda x: 1 / 2.0 ** (x - 1)), "cycle"
        else:
            self.scale_fn, self.scale_mode = (lambda x: self.gamma ** x), "iterations"
        super().__init__(base_learning_rate, last_epoch, verbose)

    def get_lr(self):
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        pct = 1.0 + iterations / self.cycle_size - cycle  # position in the cycle, [0, 1)
        if pct <= self.step_up_pct:
            height = pct / self.step_up_pct
        else:
            height = (1 - pct) / (1 - self.step_up_pct)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else iterations)
        return self.base_lr + self.amplitude * height * scale


class ReduceOnPlateau(LRScheduler):
    """Multiply the rate by ``factor`` (not below ``min_lr``) when the metric given to
    ``step(metrics)`` has not improved for more than ``patience`` epochs, then wait
    ``cooldown`` epochs. Improving means below (mode 'min') or above ('max') the best so far
    by more than ``threshold`` (relative, or absolute with threshold_mode 'abs'). Changes
    smaller than ``epsilon`` are skipped."""

    def __init__(self, learning_rate, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, epsilon=1e-8, verbose=False):
        mode = mode.lower()
        if mode not in ("min", "max"):
            raise ValueError("mode: " + mode + " is unknown!")
        if factor >= 1.0:
            raise ValueError("new_lr = origin_lr * gamma and gamma should be < 1.0.")
        threshold_mode = threshold_mode.lower()
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode: " + threshold_mode + " is unknown!")
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, (float, int)):
            raise TypeError(f"The type of 'learning_rate' in 'ReduceOnPlateau' must be 'float', "
                            f"but received {type(learning_rate)}.")
        self.mode, self.factor, self.patience = mode, factor, patience
        self.threshold, self.threshold_mode = threshold, threshold_mode
        self.cooldown, self.min_lr, self.epsilon = cooldown, min_lr, epsilon
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        self.base_lr = self.last_lr = float(learning_rate)
        self.last_epoch = 0
        self.verbose = verbose

    def state_keys(self):
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def step(self, metrics, epoch=None):
        """Count an epoch whose metric (a number, or a one-element Tensor or array) is
        ``metrics``, and reduce the rate if it has stopped improving."""
        from .._core.tensor import Tensor
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if isinstance(metrics, (Tensor, np.ndarray)):
            size = int(np.prod(metrics.shape))
            _require(size == 1, f"the size of metrics must be 1, but the current metrics.size "
                                f"is {size}. Maybe that you should call paddle.mean to process "
                                f"it first.")
            metrics = float((metrics.numpy() if isinstance(metrics, Tensor) else metrics)
                            .reshape(()))
        elif isinstance(metrics, bool) or not isinstance(metrics, (int, float, np.floating)):
            raise TypeError(f"metrics must be 'int', 'float', 'np.float64', 'numpy.ndarray' or "
                            f"'paddle.Tensor', but receive {type(metrics)}")
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(metrics, self.best):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                if self.verbose:
                    print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate "
                          f"to {self.last_lr}.")

    def _is_better(self, current, best):
        margin = best * self.threshold if self.threshold_mode == "rel" else self.threshold
        return current < best - margin if self.mode == "min" else current > best + margin
