"""dygrad and its peers on the seed workloads, side by side in one run.

    python benchmarks/compare.py [--threads 1 2] [--repeats 3] [--frameworks reference torch paddle]
                                 [--torch-python PY] [--paddle-python PY] [--workloads W1 W2 W3 W4]

Every (framework, workload, thread count) runs in a fresh process; the frameworks alternate
within each repeat, and the table gives medians and ratios (dygrad / peer: above 1 is
faster than the peer). The peers are run with their own interpreters when given (PyTorch and
PaddlePaddle are never dependencies of dygrad); a peer that is missing is skipped and said so.

Workloads (../shared/ANCHORS.md):
  W1   ``c = a + b`` on [4, 2] float32 tensors that require gradients: microseconds per op
  W2   seed 000's MyModel with its random branch, SGD, 3,000 steps of batch 64: steps/s
  W3   seed 000's shared-weight autoencoder, Adam, 2,000 steps: steps/s
  W4   seed 002's MNIST network (conv 5x5 20, pool, conv 5x5 50, pool, fc 10), Adam, batch
       64, one epoch of 4,000 digits: training images/s; eval with batch 1,000: images/s;
       and the peak resident memory of the process
The machine's OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE are unset for the workers and the thread
count is pinned the same way for every framework.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HIGHER_IS_BETTER = {"W1 a+b us/op": False, "W2 steps/s": True, "W3 steps/s": True,
                    "W4 train img/s": True, "W4 eval img/s": True, "W4 peak RSS MB": False}
WORKLOAD_KEYS = {"W1": ["W1 a+b us/op"], "W2": ["W2 steps/s"], "W3": ["W3 steps/s"],
                 "W4": ["W4 train img/s", "W4 eval img/s", "W4 peak RSS MB"]}


# ---------------------------------------------------------------------------
# workers: one workload in this process, result printed as JSON
# ---------------------------------------------------------------------------

def _paddle_like(framework):
    """The Paddle-API module: dygrad (with the engine chosen) or PaddlePaddle itself."""
    if framework == "paddle":
        import paddle
        paddle.set_device("cpu")
        return paddle
    import dygrad
    dygrad.set_engine(framework)
    return dygrad


def w1(framework, threads):
    rng = np.random.default_rng(0)
    an, bn = rng.random((4, 2), dtype=np.float32), rng.random((4, 2), dtype=np.float32)
    if framework == "torch":
        import torch
        a, b = torch.tensor(an, requires_grad=True), torch.tensor(bn, requires_grad=True)
    else:
        paddle = _paddle_like(framework)
        a = paddle.to_tensor(an, stop_gradient=False)
        b = paddle.to_tensor(bn, stop_gradient=False)
    n = 20000
    best = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(n):
            a + b
        best.append((time.perf_counter() - t0) / n * 1e6)
    return {"W1 a+b us/op": statistics.median(best)}


def w2(framework, threads, steps=3000):
    total_data, batch_size, input_size, hidden_size = 1000, 64, 128, 256
    rs = np.random.RandomState(0)
    x_data = rs.randn(total_data, input_size).astype(np.float32)
    y_data = rs.randn(total_data, 1).astype(np.float32)
    idx = [rs.choice(total_data, batch_size, replace=False) for _ in range(steps)]
    branch = rs.rand(steps) > 0.5
    if framework == "torch":
        import torch
        torch.manual_seed(0)

        class MyModel(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.linear1 = torch.nn.Linear(input_size, hidden_size)
                self.linear2 = torch.nn.Linear(hidden_size, hidden_size)
                self.linear3 = torch.nn.Linear(hidden_size, 1)

            def forward(self, x, take):
                x = torch.relu(self.linear1(x))
                if take:
                    x = torch.relu(self.linear2(x))
                return self.linear3(x)

        model = MyModel()
        loss_fn = torch.nn.MSELoss()
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        to = torch.from_numpy
    else:
        paddle = _paddle_like(framework)
        paddle.seed(0)
        F = paddle.nn.functional

        class MyModel(paddle.nn.Layer):
            def __init__(self):
                super().__init__()
                self.linear1 = paddle.nn.Linear(input_size, hidden_size)
                self.linear2 = paddle.nn.Linear(hidden_size, hidden_size)
                self.linear3 = paddle.nn.Linear(hidden_size, 1)

            def forward(self, x, take):
                x = F.relu(self.linear1(x))
                if take:
                    x = F.relu(self.linear2(x))
                return self.linear3(x)

        model = MyModel()
        loss_fn = paddle.nn.MSELoss(reduction="mean")
        opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=model.parameters())
        to = paddle.to_tensor
    t0 = time.perf_counter()
    for t in range(steps):
        x, y = to(x_data[idx[t]]), to(y_data[idx[t]])
        loss = loss_fn(model(x, branch[t]), y)
        loss.backward()
        opt.step()
        if framework == "torch":
            opt.zero_grad()
        else:
            opt.clear_grad()
    dt = time.perf_counter() - t0
    return {"W2 steps/s": steps / dt, "final loss": float(loss)}


def w3(framework, threads, steps=2000):
    inputs_np = np.random.RandomState(0).rand(256, 64).astype(np.float32)
    if framework == "torch":
        import torch
        torch.manual_seed(0)
        inputs = torch.from_numpy(inputs_np)
        linear = torch.nn.Linear(64, 8, bias=False)
        loss_fn = torch.nn.MSELoss()
        opt = torch.optim.Adam(linear.parameters(), lr=0.01)
        t0 = time.perf_counter()
        for _ in range(steps):
            hidden = linear(inputs)
            outputs = torch.matmul(hidden, linear.weight)
            loss = loss_fn(outputs, inputs)
            loss.backward()
            opt.step()
            opt.zero_grad()
    else:
        paddle = _paddle_like(framework)
        paddle.seed(0)
        inputs = paddle.to_tensor(inputs_np)
        linear = paddle.nn.Linear(64, 8, bias_attr=False)
        loss_fn = paddle.nn.MSELoss()
        opt = paddle.optimizer.Adam(0.01, parameters=linear.parameters())
        t0 = time.perf_counter()
        for _ in range(steps):
            hidden = linear(inputs)
            outputs = paddle.matmul(hidden, linear.weight, transpose_y=True)
            loss = loss_fn(outputs, inputs)
            loss.backward()
            opt.step()
            opt.clear_grad()
    dt = time.perf_counter() - t0
    return {"W3 steps/s": steps / dt, "final loss": float(loss)}


def w4(framework, threads, data_file):
    data = np.load(data_file)
    xtr, ytr, xte, yte = data["xtr"], data["ytr"], data["xte"], data["yte"]
    batch = 64
    order = np.random.RandomState(0).permutation(len(xtr))
    batches = [order[i:i + batch] for i in range(0, len(order) - batch + 1, batch)]
    if framework == "torch":
        import torch
        torch.manual_seed(0)
        nn = torch.nn
        model = nn.Sequential(nn.Conv2d(1, 20, 5), nn.ReLU(), nn.MaxPool2d(2, 2),
                              nn.Conv2d(20, 50, 5), nn.ReLU(), nn.MaxPool2d(2, 2),
                              nn.Flatten(), nn.Linear(800, 10))
        opt = torch.optim.Adam(model.parameters(), lr=0.001)
        loss_fn = nn.CrossEntropyLoss()
        to = torch.from_numpy
        no_grad = torch.no_grad

        def clear():
            opt.zero_grad()
    else:
        paddle = _paddle_like(framework)
        paddle.seed(0)
        nn = paddle.nn
        model = nn.Sequential(nn.Conv2D(1, 20, 5), nn.ReLU(), nn.MaxPool2D(2, 2),
                              nn.Conv2D(20, 50, 5), nn.ReLU(), nn.MaxPool2D(2, 2),
                              nn.Flatten(), nn.Linear(800, 10))
        opt = paddle.optimizer.Adam(learning_rate=0.001, parameters=model.parameters())
        loss_fn = nn.CrossEntropyLoss()
        to = paddle.to_tensor
        no_grad = paddle.no_grad

        def clear():
            opt.clear_grad()
    t0 = time.perf_counter()
    for ix in batches:
        loss = loss_fn(model(to(xtr[ix])), to(ytr[ix]))
        loss.backward()
        opt.step()
        clear()
    train = len(batches) * batch / (time.perf_counter() - t0)
    model.eval()
    t0 = time.perf_counter()
    correct = 0
    with no_grad():
        for i in range(0, len(xte), 1000):
            pred = model(to(xte[i:i + 1000])).numpy().argmax(axis=1)
            correct += int((pred == yte[i:i + 1000]).sum())
    evals = len(xte) / (time.perf_counter() - t0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"W4 train img/s": train, "W4 eval img/s": evals, "W4 peak RSS MB": peak,
            "accuracy": correct / len(xte)}


def worker(framework, workload, threads, data_file):
    if framework == "torch":
        import torch
        torch.set_num_threads(threads)
    fn = {"W1": w1, "W2": w2, "W3": w3, "W4": w4}[workload]
    args = (data_file,) if workload == "W4" else ()
    print(json.dumps(fn(framework, threads, *args)))


# ---------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------

def mnist_file() -> str:
    """The shipped 5,000-digit subset, shuffled with a fixed seed: 4,000 training and 1,000
    test digits scaled to [0, 1], saved for the workers (who may not have dygrad)."""
    from dygrad.vision.datasets.mnist import _shipped_subset
    images, labels = _shipped_subset()
    order = np.random.RandomState(0).permutation(len(images))
    x = (images[order].astype(np.float32) / 255.0).reshape(-1, 1, 28, 28)
    y = labels[order].astype(np.int64)
    path = os.path.join(tempfile.mkdtemp(prefix="dygrad-compare-"), "mnist.npz")
    np.savez(path, xtr=x[:4000], ytr=y[:4000], xte=x[4000:], yte=y[4000:])
    return path


def run_worker(python, framework, workload, threads, data_file):
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    env.update(OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads), FLAGS_paddle_num_threads=str(threads),
               DYGRAD_NUM_THREADS=str(threads), GLOG_minloglevel="2")
    cmd = [python, os.path.abspath(__file__), "--worker", framework, workload, str(threads),
           data_file]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def available(python, module) -> bool:
    return subprocess.run([python, "-c", f"import {module}"], capture_output=True).returncode == 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        framework, workload, threads, data_file = sys.argv[2:6]
        worker(framework, workload, int(threads), data_file)
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--frameworks", nargs="+", default=["reference", "accelerated", "torch", "paddle"])
    ap.add_argument("--workloads", nargs="+", default=["W1", "W2", "W3", "W4"])
    ap.add_argument("--torch-python", default=sys.executable)
    ap.add_argument("--paddle-python", default=sys.executable)
    args = ap.parse_args()

    import dygrad
    pythons, frameworks = {}, []
    for fw in args.frameworks:
        python = {"torch": args.torch_python, "paddle": args.paddle_python}.get(fw, sys.executable)
        if fw in ("torch", "paddle"):
            ok = available(python, fw)
        else:
            ok = fw in dygrad.available_engines()
        if ok:
            pythons[fw] = python
            frameworks.append(fw)
        else:
            print(f"skipped {fw}: not installed for {python}")
    data_file = mnist_file()
    results = {}  # (fw, threads, key) -> [values]
    for threads in args.threads:
        for rep in range(args.repeats):
            for workload in args.workloads:
                order = frameworks if rep % 2 == 0 else frameworks[::-1]
                for fw in order:
                    out = run_worker(pythons[fw], fw, workload, threads, data_file)
                    if "error" in out:
                        print(f"{fw} {workload} {threads} thread(s): {out['error']}")
                        continue
                    for key in WORKLOAD_KEYS[workload]:
                        results.setdefault((fw, threads, key), []).append(out[key])
    print_table(results, frameworks, args.threads, args.workloads)


def print_table(results, frameworks, thread_counts, workloads):
    dygrads = [f for f in frameworks if f not in ("torch", "paddle")]
    peers = [f for f in frameworks if f in ("torch", "paddle")]
    keys = [k for w in workloads for k in WORKLOAD_KEYS[w]]
    for threads in thread_counts:
        print(f"\n{threads} thread(s): medians" + "".join(f" | {f:>11}" for f in frameworks)
              + "".join(f" | {d[:3]}/{p}" for d in dygrads for p in peers))
        for key in keys:
            med = {f: statistics.median(results[(f, threads, key)])
                   for f in frameworks if (f, threads, key) in results}
            row = f"{key:<22}" + "".join(f" | {med[f]:11.2f}" if f in med else f" | {'-':>11}"
                                         for f in frameworks)
            for d in dygrads:
                for p in peers:
                    if d in med and p in med:
                        r = med[d] / med[p] if HIGHER_IS_BETTER[key] else med[p] / med[d]
                        row += f" | {r:8.2f}x"
                    else:
                        row += f" | {'-':>9}"
            print(row)
    print("\nratios: dygrad engine against the peer, above 1 means dygrad is faster (or uses "
          "less memory)")


if __name__ == "__main__":
    main()
