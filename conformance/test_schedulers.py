"""Every learning-rate scheduler of dygrad.optimizer.lr against its formula.

Each entry gives a constructor and the rate at epoch t as a Python statement of Paddle's
formula (written here, independently of the schedulers' code). The test takes 30 steps
checking ``last_lr``, ``scheduler()`` and ``get_lr()``, and saves ``state_dict()`` at epoch
12 into a fresh scheduler whose continuation must be the same. Schedulers hold plain
Python floats, so these tests run once: no engine is involved.
"""

from __future__ import annotations

import math

import pytest

from dygrad.optimizer import lr

STEPS, SAVE_AT = 30, 12


def _onecycle(t, top=1.0, total=30, div=25.0, end=1e-4, pct=0.3, three=False, cos=True):
    """Phases end at pct*total - 1 (and 2*pct*total - 2 with three phases) and total - 1;
    each anneals from its start rate to its end rate."""
    lo = top / div
    if three:
        knots = [(0, lo), (pct * total - 1, top), (2 * pct * total - 2, lo), (total - 1, end)]
    else:
        knots = [(0, lo), (pct * total - 1, top), (total - 1, end)]
    for (t0, a), (t1, b) in zip(knots, knots[1:]):
        if t <= t1 or t1 == total - 1:
            frac = (t - t0) / (t1 - t0)
            return b + (a - b) * (1 + math.cos(math.pi * frac)) / 2 if cos else a + (b - a) * frac


def _cyclic(t, base=0.1, top=1.0, up=3, down=5, scale=lambda cycle, t: 1.0):
    """Triangle wave from base up to top in ``up`` steps and back in ``down``, its height
    times scale(cycle, t) (cycles counted from 1)."""
    cycle = 1 + t // (up + down)
    x = t - (cycle - 1) * (up + down)
    height = x / up if x <= up else 1 - (x - up) / down
    return base + (top - base) * height * scale(cycle, t)


def _cosine(t, lr0=0.5, T=7, eta=0.05):
    return eta + (lr0 - eta) * (1 + math.cos(math.pi * t / T)) / 2


# (id, make(), rate(t), get_lr() is a pure function of the epoch)
SCHEDULERS = [
    ("NoamDecay", lambda: lr.NoamDecay(d_model=16, warmup_steps=5, learning_rate=2.0),
     lambda t: 2.0 * 16 ** -0.5 * min(1.0 if t == 0 else t ** -0.5, t * 5 ** -1.5), True),
    ("PiecewiseDecay", lambda: lr.PiecewiseDecay([3, 8, 15], [1.0, 0.5, 0.1, 0.01]),
     lambda t: 1.0 if t < 3 else 0.5 if t < 8 else 0.1 if t < 15 else 0.01, True),
    ("NaturalExpDecay", lambda: lr.NaturalExpDecay(0.5, gamma=0.1),
     lambda t: 0.5 * math.exp(-0.1 * t), True),
    ("InverseTimeDecay", lambda: lr.InverseTimeDecay(0.5, gamma=0.2),
     lambda t: 0.5 / (1 + 0.2 * t), True),
    ("PolynomialDecay", lambda: lr.PolynomialDecay(0.5, decay_steps=10, end_lr=0.01, power=2.0),
     lambda t: (0.5 - 0.01) * (1 - min(t, 10) / 10) ** 2 + 0.01, True),
    ("PolynomialDecay-cycle",
     lambda: lr.PolynomialDecay(0.5, decay_steps=7, end_lr=0.01, power=1.0, cycle=True),
     lambda t: (0.5 - 0.01) * (1 - t / (7 * max(1, math.ceil(t / 7)))) + 0.01, True),
    ("LinearWarmup", lambda: lr.LinearWarmup(0.5, warmup_steps=5, start_lr=0.0, end_lr=0.4),
     lambda t: 0.4 * t / 5 if t < 5 else 0.5, True),
    ("LinearWarmup-scheduler",
     lambda: lr.LinearWarmup(lr.StepDecay(0.5, step_size=4, gamma=0.5), warmup_steps=6,
                             start_lr=0.1, end_lr=0.5),
     lambda t: 0.1 + 0.4 * t / 6 if t < 6 else 0.5 * 0.5 ** ((t - 6) // 4), True),
    ("ExponentialDecay", lambda: lr.ExponentialDecay(0.5, gamma=0.9),
     lambda t: 0.5 * 0.9 ** t, True),
    ("MultiStepDecay", lambda: lr.MultiStepDecay(0.5, milestones=[3, 7, 12], gamma=0.5),
     lambda t: 0.5 * 0.5 ** ((t >= 3) + (t >= 7) + (t >= 12)), True),
    ("StepDecay", lambda: lr.StepDecay(0.5, step_size=4, gamma=0.3),
     lambda t: 0.5 * 0.3 ** (t // 4), True),
    ("LambdaDecay", lambda: lr.LambdaDecay(0.5, lambda e: 0.95 ** e),
     lambda t: 0.5 * 0.95 ** t, True),
    ("MultiplicativeDecay",
     lambda: lr.MultiplicativeDecay(0.5, lambda e: 0.9 if e % 2 else 0.99),
     lambda t: 0.5 * math.prod(0.9 if e % 2 else 0.99 for e in range(1, t + 1)), True),
    # get_lr() goes on from the previous rate (SGDR's recursion), so calling it again is
    # not idempotent; the recursion equals the closed form
    ("CosineAnnealingDecay", lambda: lr.CosineAnnealingDecay(0.5, T_max=7, eta_min=0.05),
     _cosine, False),
    ("OneCycleLR", lambda: lr.OneCycleLR(1.0, total_steps=30), _onecycle, True),
    ("OneCycleLR-three-phase-linear",
     lambda: lr.OneCycleLR(1.0, total_steps=30, divide_factor=10.0, end_learning_rate=0.01,
                           phase_pct=0.2, anneal_strategy="linear", three_phase=True),
     lambda t: _onecycle(t, div=10.0, end=0.01, pct=0.2, three=True, cos=False), True),
    ("CyclicLR", lambda: lr.CyclicLR(0.1, 1.0, step_size_up=3, step_size_down=5), _cyclic, True),
    ("CyclicLR-triangular2",
     lambda: lr.CyclicLR(0.1, 1.0, step_size_up=4, mode="triangular2"),
     lambda t: _cyclic(t, up=4, down=4, scale=lambda c, t: 0.5 ** (c - 1)), True),
    ("CyclicLR-exp_range",
     lambda: lr.CyclicLR(0.1, 1.0, step_size_up=3, mode="exp_range", exp_gamma=0.9),
     lambda t: _cyclic(t, down=3, scale=lambda c, t: 0.9 ** t), True),
    ("CyclicLR-scale_fn",
     lambda: lr.CyclicLR(0.1, 1.0, step_size_up=2, step_size_down=3,
                         scale_fn=lambda x: 1 / (1 + x), scale_mode="iterations"),
     lambda t: _cyclic(t, up=2, down=3, scale=lambda c, t: 1 / (1 + t)), True),
]


def _rates(sched, start, stop, pure):
    """Rates at epochs start..stop-1 (the scheduler is at ``start``), stepping in between;
    checks that last_lr, sched() and (when pure) get_lr() agree."""
    out = []
    for t in range(start, stop):
        if t > start:
            sched.step()
        assert sched.last_epoch == t
        assert sched() == sched.last_lr
        if pure:
            assert sched.get_lr() == sched.last_lr
        out.append(sched.last_lr)
    return out


@pytest.mark.parametrize("make,rate,pure", [s[1:] for s in SCHEDULERS],
                         ids=[s[0] for s in SCHEDULERS])
def test_formula_and_resume(make, rate, pure):
    sched = make()
    rates = _rates(sched, 0, STEPS, pure)
    assert rates == pytest.approx([rate(t) for t in range(STEPS)], rel=1e-9, abs=1e-12)

    first = make()
    _rates(first, 0, SAVE_AT + 1, pure)
    state = first.state_dict()
    resumed = make()
    resumed.set_state_dict(state)
    assert _rates(resumed, SAVE_AT, STEPS, pure) == _rates(first, SAVE_AT, STEPS, pure)


# ReduceOnPlateau: rates follow the metric, not the epoch

def _plateau_rule(metrics, lr0, mode, factor, patience, threshold, threshold_mode, cooldown,
                  min_lr, eps=1e-8):
    """Paddle's rule: after more than ``patience`` epochs without improving on the best by
    more than the threshold, multiply the rate by factor (not below min_lr, skipped when the
    change is below eps) and sleep ``cooldown`` epochs (not counted)."""
    rate, best, bad, sleep, rates = lr0, None, 0, 0, []
    for m in metrics:
        if sleep:
            sleep -= 1
        else:
            if best is None:
                better = True
            else:
                margin = best * threshold if threshold_mode == "rel" else threshold
                better = m < best - margin if mode == "min" else m > best + margin
            best, bad = (m, 0) if better else (best, bad + 1)
            if bad > patience:
                new = max(rate * factor, min_lr)
                rate = new if rate - new > eps else rate
                bad, sleep = 0, cooldown
        rates.append(rate)
    return rates


METRICS = [1.0, 0.9, 0.95, 0.92, 0.91, 0.899, 0.9, 0.88, 0.9, 0.9, 0.9, 0.9, 0.85, 0.86, 0.87,
           0.9, 0.9, 0.84, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.83, 0.9, 0.9, 0.9, 0.9]

PLATEAUS = [
    dict(mode="min", factor=0.5, patience=2, threshold=1e-2, threshold_mode="rel", cooldown=1,
         min_lr=0.03),
    dict(mode="max", factor=0.3, patience=1, threshold=0.02, threshold_mode="abs", cooldown=0,
         min_lr=0.0),
]


@pytest.mark.parametrize("kw", PLATEAUS, ids=["min-rel-cooldown", "max-abs"])
def test_reduce_on_plateau(kw):
    metrics = METRICS if kw["mode"] == "min" else [-m for m in METRICS]
    expected = _plateau_rule(metrics, 0.5, **kw)
    assert len(set(expected)) > 2, "the metrics must make the rate drop more than once"

    def run(sched, ms):
        out = []
        for m in ms:
            sched.step(m)
            out.append(sched.last_lr)
            assert sched() == sched.last_lr
        return out
    sched = lr.ReduceOnPlateau(0.5, **kw)
    assert run(sched, metrics) == pytest.approx(expected, rel=1e-12)

    first = lr.ReduceOnPlateau(0.5, **kw)
    run(first, metrics[:SAVE_AT])
    resumed = lr.ReduceOnPlateau(0.5, **kw)
    resumed.set_state_dict(first.state_dict())
    assert resumed.last_epoch == SAVE_AT
    assert run(resumed, metrics[SAVE_AT:]) == run(first, metrics[SAVE_AT:]) == \
        pytest.approx(expected[SAVE_AT:], rel=1e-12)


def test_every_scheduler_has_an_entry():
    exported = {n for n in lr.__all__ if isinstance(getattr(lr, n), type)
                and issubclass(getattr(lr, n), lr.LRScheduler)}
    covered = {s[0].split("-")[0] for s in SCHEDULERS} | {"ReduceOnPlateau"}
    exempt = {"LRScheduler"}  # the abstract base: get_lr() is the subclasses' formula
    assert exported - covered - exempt == set()
