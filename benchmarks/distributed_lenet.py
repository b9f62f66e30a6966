"""Data-parallel LeNet (the seed workload W4: batch 64 per rank, Adam) on 1 and 2 ranks of
this machine: training samples/s over all ranks, and the time per step that backward waits
for the gradient all-reduce, next to a bare all_reduce of the same number of floats.

    python benchmarks/distributed_lenet.py [--steps 40] [--engine accelerated] [--ranks 1 2]

Each rank count runs as its own MPI job (``dygrad.distributed.launch``); rank 0 reports.
Needs ``pip install 'dygrad[distributed]'``. Ranks use one kernel thread each.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


def rank_main(steps, out):
    """One rank: time ``steps`` training steps after 5 warm-up steps."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from workloads import W4_BATCH, mnist_split

    import dygrad as paddle
    import dygrad.distributed as dist

    paddle.set_num_threads(1)
    dist.init_parallel_env()
    rank, nranks = dist.get_rank(), dist.get_world_size()
    paddle.seed(0)
    nn = paddle.nn
    net = nn.Sequential(nn.Conv2D(1, 20, 5), nn.ReLU(), nn.MaxPool2D(2, 2),
                        nn.Conv2D(20, 50, 5), nn.ReLU(), nn.MaxPool2D(2, 2),
                        nn.Flatten(), nn.Linear(800, 10))
    model = paddle.DataParallel(net)
    opt = paddle.optimizer.Adam(learning_rate=0.001, parameters=model.parameters())
    loss_fn = nn.CrossEntropyLoss()
    x, y, _, _ = mnist_split()
    batches = [(x[i:i + W4_BATCH], y[i:i + W4_BATCH])
               for i in range(rank * W4_BATCH, len(x) - W4_BATCH * nranks + 1, W4_BATCH * nranks)]

    def step(i):
        xb, yb = batches[i % len(batches)]
        loss = loss_fn(model(paddle.to_tensor(xb)), paddle.to_tensor(yb))
        loss.backward()
        opt.step()
        opt.clear_grad()

    for i in range(5):
        step(i)
    reducer = model._reducer
    if reducer is not None:
        reducer.wait_seconds = 0.0
    dist.barrier()
    start = time.perf_counter()
    for i in range(steps):
        step(i)
    seconds = time.perf_counter() - start
    n_floats = sum(p.size for p in net.parameters())
    bare = 0.0
    if nranks > 1:
        buffer = paddle.zeros([n_floats])
        dist.all_reduce(buffer)
        start = time.perf_counter()
        for _ in range(steps):
            dist.all_reduce(buffer)
        bare = (time.perf_counter() - start) / steps
    if rank == 0:
        result = {"ranks": nranks, "engine": paddle.get_engine(), "steps": steps,
                  "samples_per_s": nranks * W4_BATCH * steps / seconds,
                  "step_ms": 1e3 * seconds / steps,
                  "allreduce_wait_ms": 1e3 * (reducer.wait_seconds / steps if reducer else 0.0),
                  "bare_allreduce_ms": 1e3 * bare, "gradient_floats": n_floats}
        with open(out, "w") as f:
            json.dump(result, f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--engine", default=None)
    ap.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rank-main", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rank_main:
        return rank_main(args.steps, args.rank_main)
    from dygrad.distributed.launch import mpiexec_command
    env_extra = {"OMP_NUM_THREADS": "1"}
    if args.engine:
        env_extra["DYGRAD_ENGINE"] = args.engine
    print(f"{'ranks':>5} {'engine':>12} {'samples/s':>10} {'step ms':>8} "
          f"{'all-reduce wait ms/step':>24} {'bare all_reduce ms':>19}")
    for n in args.ranks:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "result.json")
            command, env = mpiexec_command(n, [os.path.abspath(__file__), "--steps",
                                               str(args.steps), "--rank-main", out])
            env.update(env_extra)
            subprocess.run(command, env=env, check=True)
            r = json.load(open(out))
        print(f"{r['ranks']:>5} {r['engine']:>12} {r['samples_per_s']:>10.1f} "
              f"{r['step_ms']:>8.2f} {r['allreduce_wait_ms']:>24.3f} "
              f"{r['bare_allreduce_ms']:>19.3f}")
    print(f"(gradients: {r['gradient_floats']} floats per step, one bucket)")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
