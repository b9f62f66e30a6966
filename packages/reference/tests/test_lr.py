"""paddle.optimizer.lr: every scheduler's rates against its formula, step(epoch), state
dicts, argument errors with Paddle's types, and schedulers driving optimizers."""

import math

import numpy as np
import pytest

import dygrad as paddle

L = paddle.optimizer.lr


def cosine(t, lr=0.5, T=4, eta=0.05):
    return eta + (lr - eta) * (1 + math.cos(math.pi * t / T)) / 2


def one_cycle(t, top=1.0, total=20, pct=0.3, div=25.0, end=1e-4):
    """Cosine up from top/div to top until step pct*total - 1, then down to end."""
    start, peak = top / div, pct * total - 1

    def anneal(a, b, x):
        return b + (a - b) / 2 * (math.cos(math.pi * x) + 1)
    if t <= peak:
        return anneal(start, top, t / peak)
    return anneal(top, end, (t - peak) / (total - 1 - peak))


def cyclic(t, base=0.1, top=1.0, up=3, down=5):
    cycle = t // (up + down)
    x = t - cycle * (up + down)
    frac = x / up if x <= up else 1 - (x - up) / down
    return base + (top - base) * frac


# (id, make(), rate(epoch)) for epochs 0..24
FORMULAS = [
    ("StepDecay", lambda: L.StepDecay(0.5, step_size=3, gamma=0.5),
     lambda t: 0.5 * 0.5 ** (t // 3)),
    ("MultiStepDecay", lambda: L.MultiStepDecay(0.5, milestones=[2, 5, 9], gamma=0.3),
     lambda t: 0.5 * 0.3 ** sum(t >= m for m in (2, 5, 9))),
    ("ExponentialDecay", lambda: L.ExponentialDecay(0.5, gamma=0.9), lambda t: 0.5 * 0.9 ** t),
    ("NaturalExpDecay", lambda: L.NaturalExpDecay(0.5, gamma=0.1),
     lambda t: 0.5 * math.exp(-0.1 * t)),
    ("InverseTimeDecay", lambda: L.InverseTimeDecay(0.5, gamma=0.1),
     lambda t: 0.5 / (1 + 0.1 * t)),
    ("PolynomialDecay", lambda: L.PolynomialDecay(0.5, decay_steps=5, end_lr=0.01, power=2.0),
     lambda t: 0.49 * (1 - min(t, 5) / 5) ** 2 + 0.01),
    ("PolynomialDecay-cycle",
     lambda: L.PolynomialDecay(0.5, decay_steps=5, end_lr=0.01, power=1.5, cycle=True),
     lambda t: 0.49 * (1 - t / (5 * max(1, math.ceil(t / 5)))) ** 1.5 + 0.01),
    ("PiecewiseDecay", lambda: L.PiecewiseDecay([3, 6], [0.1, 0.05, 0.01]),
     lambda t: 0.1 if t < 3 else 0.05 if t < 6 else 0.01),
    ("CosineAnnealingDecay", lambda: L.CosineAnnealingDecay(0.5, T_max=4, eta_min=0.05), cosine),
    ("LinearWarmup", lambda: L.LinearWarmup(0.5, warmup_steps=4, start_lr=0.0, end_lr=0.5),
     lambda t: 0.5 * min(t, 4) / 4),
    ("LinearWarmup-of-StepDecay",
     lambda: L.LinearWarmup(L.StepDecay(0.5, 2, 0.5), warmup_steps=3, start_lr=0.1, end_lr=0.5),
     lambda t: 0.1 + 0.4 * t / 3 if t < 3 else 0.5 * 0.5 ** ((t - 3) // 2)),
    ("NoamDecay", lambda: L.NoamDecay(d_model=64, warmup_steps=5, learning_rate=2.0),
     lambda t: 2.0 / 8 * (5 ** -1.5 * t if t < 5 else t ** -0.5) if t else 0.0),
    ("OneCycleLR", lambda: L.OneCycleLR(1.0, total_steps=25), lambda t: one_cycle(t, total=25)),
    ("CyclicLR", lambda: L.CyclicLR(0.1, 1.0, step_size_up=3, step_size_down=5), cyclic),
    ("CyclicLR-triangular2", lambda: L.CyclicLR(0.1, 1.0, step_size_up=2, mode="triangular2"),
     lambda t: 0.1 + (cyclic(t, up=2, down=2) - 0.1) / 2 ** (t // 4)),
    ("CyclicLR-exp_range",
     lambda: L.CyclicLR(0.1, 1.0, step_size_up=2, mode="exp_range", exp_gamma=0.9),
     lambda t: 0.1 + (cyclic(t, up=2, down=2) - 0.1) * 0.9 ** t),
    ("LambdaDecay", lambda: L.LambdaDecay(0.5, lambda e: 0.9 ** e), lambda t: 0.5 * 0.9 ** t),
    ("MultiplicativeDecay", lambda: L.MultiplicativeDecay(0.5, lambda e: 0.95),
     lambda t: 0.5 * 0.95 ** t),
]


@pytest.mark.parametrize("case", FORMULAS, ids=[c[0] for c in FORMULAS])
def test_rates_follow_the_formula(case):
    _, make, rate = case
    sched = make()
    assert sched.last_epoch == 0
    got = [sched()]
    for _ in range(24):
        sched.step()
        got.append(sched.last_lr)
    assert sched.last_epoch == 24
    np.testing.assert_allclose(got, [rate(t) for t in range(25)], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("case", FORMULAS, ids=[c[0] for c in FORMULAS])
def test_step_to_an_epoch_and_state_dict_round_trip(case):
    _, make, rate = case
    sched = make()
    sched.step(7)
    assert sched.last_epoch == 7 and sched() == pytest.approx(rate(7), rel=1e-12, abs=1e-15)
    for _ in range(3):
        sched.step()
    state = sched.state_dict()
    assert state["last_epoch"] == 10 and state["last_lr"] == sched()
    fresh = make()
    fresh.set_state_dict(state)
    for _ in range(4):
        sched.step()
        fresh.step()
        assert fresh() == sched()  # bit for bit


def test_cosine_annealing_carries_a_changed_rate_on():
    """step() goes from the previous rate (as Paddle), step(epoch) is the closed form."""
    sched = L.CosineAnnealingDecay(1.0, T_max=10)
    sched.last_lr = 0.5
    sched.step()
    assert sched() == pytest.approx(0.5 * (1 + math.cos(math.pi / 10)) / 2)
    sched.step(1)
    assert sched() == pytest.approx((1 + math.cos(math.pi / 10)) / 2)


def test_reduce_on_plateau():
    sched = L.ReduceOnPlateau(1.0, patience=2, factor=0.5, cooldown=1, threshold=0.1)
    rates = []
    for metric in [5, 4, 4, 4, 4, 4, 3.0, 3, 3, 3]:
        sched.step(metric)
        rates.append(sched())
    # 4 is the best from epoch 2; epochs 3-5 are bad, the third (> patience) halves the
    # rate; epoch 6 is cooldown; 3.0 at epoch 7 is ignored by cooldown, ...
    assert rates == [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.25]
    state = sched.state_dict()
    assert state == {"cooldown_counter": 1, "best": 3.0, "num_bad_epochs": 0,
                     "last_epoch": 10, "last_lr": 0.25}
    sched.step(paddle.to_tensor([1.0]))  # cooldown: not looked at
    assert (sched.best, sched.cooldown_counter) == (3.0, 0)
    sched.step(paddle.to_tensor([1.0]))  # a one-element Tensor as the metric
    assert sched.best == 1.0 and sched.num_bad_epochs == 0
    with pytest.raises(AssertionError, match="size of metrics must be 1"):
        sched.step(paddle.to_tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="metrics must be"):
        sched.step("bad")
    mx = L.ReduceOnPlateau(1.0, mode="max", patience=0, threshold=1.0, threshold_mode="abs")
    for metric in [1.0, 2.5, 3.0]:
        mx.step(metric)
    assert mx() == 0.1  # 3.0 is not above 2.5 + 1.0


def test_verbose_prints(capsys):
    sched = L.StepDecay(0.5, step_size=1, verbose=True)
    sched.step()
    assert capsys.readouterr().out.splitlines() == [
        "Epoch 0: StepDecay set learning rate to 0.5.",
        "Epoch 1: StepDecay set learning rate to 0.05."]


def test_last_epoch_starts_later():
    sched = L.ExponentialDecay(1.0, gamma=0.5, last_epoch=3)
    assert sched.last_epoch == 4 and sched() == 0.5 ** 4


@pytest.mark.parametrize("make,exc,match", [
    (lambda: L.StepDecay("0.1", 2), TypeError, "learning rate must be float"),
    (lambda: L.StepDecay(-0.1, 2), ValueError, "Invalid learning rate"),
    (lambda: L.StepDecay(0.1, 2.0), TypeError, "step_size"),
    (lambda: L.StepDecay(0.1, 2, gamma=1.0), ValueError, "gamma should be < 1.0"),
    (lambda: L.StepDecay(0.1, 0), AssertionError, "positive integer"),
    (lambda: L.MultiStepDecay(0.1, 3), TypeError, "milestones"),
    (lambda: L.MultiStepDecay(0.1, [3, 2]), ValueError, "incremented"),
    (lambda: L.ExponentialDecay(0.1, 1.5), AssertionError, "gamma"),
    (lambda: L.NaturalExpDecay(0.1, -1.0), AssertionError, "gamma"),
    (lambda: L.PolynomialDecay(0.1, decay_steps=0), AssertionError, "decay_steps"),
    (lambda: L.PiecewiseDecay([], [0.1]), ValueError, "boundaries cannot be empty"),
    (lambda: L.PiecewiseDecay([1, 2], [0.1, 0.2]), ValueError, "one more element"),
    (lambda: L.CosineAnnealingDecay(0.1, T_max=2.0), TypeError, "T_max"),
    (lambda: L.LinearWarmup("x", 2, 0.0, 0.1), TypeError, "learning_rate"),
    (lambda: L.LinearWarmup(0.1, 2, 0.5, 0.1), AssertionError, "end_lr"),
    (lambda: L.NoamDecay(0, 10), ValueError, "d_model"),
    (lambda: L.OneCycleLR(0.1, total_steps=0), ValueError, "total_step"),
    (lambda: L.OneCycleLR(0.1, 10, phase_pct=1), TypeError, "phase_pct"),
    (lambda: L.OneCycleLR(0.1, 10, anneal_strategy="exp"), ValueError, "anneal_strategy"),
    (lambda: L.OneCycleLR(0.1, 10, phase_pct=0.5, three_phase=True), ValueError, "0.5"),
    (lambda: L.CyclicLR(0.1, 1.0, step_size_up=0), ValueError, "step_size_up"),
    (lambda: L.CyclicLR(0.1, 1.0, 2, mode="sine"), ValueError, "mode"),
    (lambda: L.CyclicLR(0.1, 1.0, 2, exp_gamma=1), TypeError, "exp_gamma"),
    (lambda: L.LambdaDecay(0.1, 0.9), TypeError, "lr_lambda"),
    (lambda: L.MultiplicativeDecay(0.1, 0.9), TypeError, "lr_lambda"),
    (lambda: L.ReduceOnPlateau(0.1, mode="median"), ValueError, "mode"),
    (lambda: L.ReduceOnPlateau(0.1, factor=1.0), ValueError, "gamma should be < 1.0"),
    (lambda: L.ReduceOnPlateau(0.1, threshold_mode="pct"), ValueError, "threshold mode"),
])
def test_argument_errors(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


def test_one_cycle_refuses_to_step_past_total_steps():
    sched = L.OneCycleLR(0.1, total_steps=2)
    sched.step()
    sched.step()
    with pytest.raises(ValueError, match="Tried to step 3 times"):
        sched.step()


def test_set_state_dict_errors():
    with pytest.raises(RuntimeError, match="last_lr"):
        L.StepDecay(0.1, 2).set_state_dict({"last_epoch": 3})
    with pytest.warns(UserWarning, match="unused values"):
        L.StepDecay(0.1, 2).set_state_dict({"last_epoch": 3, "last_lr": 0.1, "x": 1})


# ---------------------------------------------------------------------------
# schedulers in optimizers
# ---------------------------------------------------------------------------

def test_optimizer_reads_the_scheduler():
    w = paddle.Parameter(np.array([1.0, 2.0]), name="w")
    sched = L.StepDecay(0.5, step_size=1, gamma=0.5)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=[w])
    expected = w.numpy().copy()
    for epoch in range(3):
        assert opt.get_lr() == 0.5 * 0.5 ** epoch
        w.grad = paddle.to_tensor(np.array([1.0, -1.0]))
        opt.step()
        expected -= 0.5 * 0.5 ** epoch * np.array([1.0, -1.0])
        np.testing.assert_array_equal(w.numpy(), expected)
        sched.step()
    assert opt.state_dict()["LR_Scheduler"] == {"last_epoch": 3, "last_lr": 0.0625}
    with pytest.raises(RuntimeError, match="can't be LRScheduler"):
        opt.set_lr(0.1)


def test_optimizer_set_state_dict_restores_the_scheduler():
    w = paddle.Parameter(np.array([1.0]), name="w")
    sched = L.ExponentialDecay(1.0, gamma=0.5)
    opt = paddle.optimizer.Adam(sched, parameters=[w])
    opt.set_state_dict({"LR_Scheduler": {"last_epoch": 3, "last_lr": 0.125}})
    assert sched.last_epoch == 3 and opt.get_lr() == 0.125
    with pytest.raises(AssertionError, match="LR_Scheduler state must be included"):
        opt.set_state_dict({})
    lam = paddle.optimizer.Adam(L.LambdaDecay(1.0, lambda e: 1.0), parameters=[w])
    lam.set_state_dict({})  # LambdaDecay may be left out, as in Paddle


def test_set_lr_scheduler():
    w = paddle.Parameter(np.array([1.0]), name="w")
    opt = paddle.optimizer.SGD(0.1, parameters=[w])
    with pytest.raises(TypeError, match="must be LRScheduler"):
        opt.set_lr_scheduler(0.2)
    opt.set_lr_scheduler(L.StepDecay(0.3, 2))
    assert opt.get_lr() == 0.3
