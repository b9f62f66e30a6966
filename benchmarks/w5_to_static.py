"""W5 of ../shared/ANCHORS.md: seed 000's MyModel without its random branch (Linear
128-256, ReLU, Linear 256-256, ReLU, Linear 256-1, MSE, SGD lr 0.01, batch 64), trained
eagerly and through ``paddle.jit.to_static``, on each installed engine.

Both models are built in one process from the same initial parameters and warmed up; then
the two training loops alternate (eager, to_static, eager, to_static, ...), ``ROUNDS``
short rounds of ``STEPS`` steps each (3,000 steps of each in all, the seed's count), as
ANCHORS' method notes advise: repeats in one process drift less than fresh processes, and
short alternating rounds see nearly the same load on a busy machine. Prints each round's
steps/s and ratio (to_static / eager) and the median ratio. Run it as a script:
``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=1 python benchmarks/w5_to_static.py``
"""

from __future__ import annotations

import statistics
import time

import numpy as np

WARMUP, STEPS, ROUNDS, BATCH, TOTAL = 100, 200, 15, 64, 1000


def trainer(paddle, static: bool):
    """A function ``run(steps)`` that trains a fresh model for ``steps`` steps (on its own
    fixed batches) and returns steps per second."""
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
    if static:
        loss_of = paddle.jit.to_static(loss_of)

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


def main():
    import dygrad as paddle
    for engine in paddle.available_engines():
        paddle.set_engine(engine)
        eager, static = trainer(paddle, False), trainer(paddle, True)
        eager(WARMUP)
        static(WARMUP)
        ratios = []
        for r in range(ROUNDS):
            e, s = eager(STEPS), static(STEPS)
            ratios.append(s / e)
            print(f"{engine:12s} round {r + 1}: eager {e:8.1f} steps/s   to_static {s:8.1f} "
                  f"steps/s   ratio {s / e:.2f}")
        print(f"{engine:12s} median ratio {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
