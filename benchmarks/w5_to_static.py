"""W5 of ../shared/ANCHORS.md: seed 000's MyModel without its random branch (Linear
128-256, ReLU, Linear 256-256, ReLU, Linear 256-1, MSE, SGD lr 0.01, batch 64), trained
eagerly and through ``paddle.jit.to_static``, on each installed engine.

The models are built in one process from the same initial parameters and warmed up; then
the training loops alternate (eager, to_static, floor, eager, ...), ``ROUNDS`` short
rounds of ``STEPS`` steps each (3,000 steps of each in all, the seed's count), as ANCHORS'
method notes advise: repeats in one process drift less than fresh processes, and short
alternating rounds see nearly the same load on a busy machine. The floor (see
:func:`trainer`) is the loop with nothing but the step's matrix products between making
the tensors and the optimizer's step. Prints each round's steps/s and ratios to eager, and
the median ratios. Run it as a script:
``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/w5_to_static.py [--threads 1 2]
[--engines accelerated reference]`` (each thread count in a fresh process, with
OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and ``dygrad.set_num_threads`` all set to it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

WARMUP, STEPS, ROUNDS, BATCH, TOTAL = 100, 200, 15, 64, 1000


def trainer(paddle, mode: str):
    """A function ``run(steps)`` that trains a fresh model for ``steps`` steps (on its own
    fixed batches) and returns steps per second: eagerly (``mode`` 'eager'), through
    to_static ('static'), or the floor ('floor'): the same loop (tensors made, SGD step,
    gradients cleared) whose forward and backward are only the eight matrix products
    of a step, by the engine's own matmul kernel on the arrays, with no bias, activation,
    loss, autograd or gradient accumulation. No conversion of the step can run faster than
    that on one thread, so eager / floor bounds the to_static ratio there."""
    rs = np.random.RandomState(0)
    x_data = rs.randn(TOTAL, 128).astype(np.float32)
    y_data = rs.randn(TOTAL, 1).astype(np.float32)
    idx = [rs.choice(TOTAL, BATCH, replace=False) for _ in range(STEPS)]
    paddle.seed(0)
    F = paddle.nn.functional

    class MyModel(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear1 = paddle.nn.Linear(128, 256)
            self.linear2 = paddle.nn.Linear(256, 256)
            self.linear3 = paddle.nn.Linear(256, 1)

        def forward(self, x):
            x = F.relu(self.linear1(x))
            x = F.relu(self.linear2(x))
            return self.linear3(x)

    model = MyModel()
    loss_fn = paddle.nn.MSELoss(reduction="mean")
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=model.parameters())

    def loss_of(x, y):
        return loss_fn(model(x), y)
    if mode == "static":
        loss_of = paddle.jit.to_static(loss_of)
    elif mode == "floor":
        from dygrad._core.engine import current
        mm = current().kernels["matmul"]
        w1, w2, w3 = (model.linear1.weight, model.linear2.weight, model.linear3.weight)
        loss_of(paddle.to_tensor(x_data[:BATCH]), paddle.to_tensor(y_data[:BATCH])).backward()

        def loss_of(x, y):  # noqa: F811 (the floor's stand-in)
            a1, a2, a3 = w1._data, w2._data, w3._data
            x = x._data
            h1 = mm(x, a1)
            h2 = mm(h1, a2)
            g = mm(h2, a3)
            mm(h2, g, transpose_x=True)  # dW3
            g2 = mm(g, a3, transpose_y=True)  # dh2
            mm(h1, g2, transpose_x=True)  # dW2
            g1 = mm(g2, a2, transpose_y=True)  # dh1
            mm(x, g1, transpose_x=True)  # dW1
            return _Done(g)

    class _Done:
        def __init__(self, a):
            self.a = a

        def backward(self):
            pass

        def __float__(self):
            return float(self.a[0, 0])

    def run(steps):
        start = time.perf_counter()
        for t in range(steps):
            i = idx[t % STEPS]
            x, y = paddle.to_tensor(x_data[i]), paddle.to_tensor(y_data[i])
            loss = loss_of(x, y)
            loss.backward()
            opt.step()
            opt.clear_grad()
        float(loss)
        return steps / (time.perf_counter() - start)
    return run


def measure(threads, engines):
    import dygrad as paddle
    paddle.set_num_threads(threads)
    for engine in engines or paddle.available_engines():
        paddle.set_engine(engine)
        eager, static, floor = (trainer(paddle, m) for m in ("eager", "static", "floor"))
        for run in (eager, static, floor):
            run(WARMUP)
        ratios, bounds = [], []
        for r in range(ROUNDS):
            e, s, f = eager(STEPS), static(STEPS), floor(STEPS)
            ratios.append(s / e)
            bounds.append(f / e)
            print(f"{engine:12s} {threads}t round {r + 1}: eager {e:8.1f} steps/s   to_static "
                  f"{s:8.1f}   floor {f:8.1f}   to_static/eager {s / e:.2f}   "
                  f"floor/eager {f / e:.2f}")
        print(f"{engine:12s} {threads}t median to_static/eager {statistics.median(ratios):.2f}"
              f"   floor/eager {statistics.median(bounds):.2f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--engines", nargs="+", default=None)
    ap.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker is not None:
        measure(args.worker, args.engines)
        return
    for n in args.threads:
        env = dict(os.environ, OMP_NUM_THREADS=str(n), OPENBLAS_NUM_THREADS=str(n),
                   MKL_NUM_THREADS=str(n))
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", str(n)]
        if args.engines:
            cmd += ["--engines", *args.engines]
        subprocess.run(cmd, env=env, check=True)


if __name__ == "__main__":
    main()
