"""dygrad and its peers on the seed workloads, side by side in one run.

    python benchmarks/compare.py [--threads 1 2] [--repeats 3] [--frameworks reference torch paddle]
                                 [--torch-python PY] [--paddle-python PY] [--workloads W1 W2 W3 W4]

Every (framework, workload, thread count) runs in a fresh process; the frameworks alternate
within each repeat, and the table gives medians and ratios (dygrad / peer: above 1 is
faster than the peer). The peers are run with their own interpreters when given (PyTorch and
PaddlePaddle are never dependencies of dygrad); a peer that is missing is skipped and said so.

Workloads (defined in workloads.py; ../shared/ANCHORS.md):
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

if __package__:   # imported as benchmarks.compare (asv imports every module of benchmarks/)
    from . import workloads
else:             # run as a script: benchmarks/ is on sys.path
    import workloads

HIGHER_IS_BETTER = {"W1 a+b us/op": False, "W2 steps/s": True, "W3 steps/s": True,
                    "W4 train img/s": True, "W4 eval img/s": True, "W4 peak RSS MB": False}
WORKLOAD_KEYS = {"W1": ["W1 a+b us/op"], "W2": ["W2 steps/s"], "W3": ["W3 steps/s"],
                 "W4": ["W4 train img/s", "W4 eval img/s", "W4 peak RSS MB"]}


# ---------------------------------------------------------------------------
# workers: one workload in this process, result printed as JSON
# ---------------------------------------------------------------------------

def w1(framework, threads):
    module = workloads.framework(framework)
    a, b = (workloads.w1_torch if framework == "torch" else workloads.w1_paddle)(module)
    n = 20000
    best = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(n):
            a + b
        best.append((time.perf_counter() - t0) / n * 1e6)
    return {"W1 a+b us/op": statistics.median(best)}


def w2(framework, threads, steps=3000):
    module = workloads.framework(framework)
    step = (workloads.w2_torch if framework == "torch" else workloads.w2_paddle)(module, steps)
    t0 = time.perf_counter()
    for t in range(steps):
        loss = step(t)
    dt = time.perf_counter() - t0
    return {"W2 steps/s": steps / dt, "final loss": float(loss)}


def w3(framework, threads, steps=2000):
    module = workloads.framework(framework)
    step = (workloads.w3_torch if framework == "torch" else workloads.w3_paddle)(module)
    t0 = time.perf_counter()
    for _ in range(steps):
        loss = step()
    dt = time.perf_counter() - t0
    return {"W3 steps/s": steps / dt, "final loss": float(loss)}


def w4(framework, threads, data_file):
    data = np.load(data_file)
    xtr, ytr, xte, yte = data["xtr"], data["ytr"], data["xte"], data["yte"]
    batches = workloads.w4_batches(len(xtr))
    module = workloads.framework(framework)
    model, train, predict = (workloads.w4_torch if framework == "torch"
                             else workloads.w4_paddle)(module)
    t0 = time.perf_counter()
    for ix in batches:
        train(xtr[ix], ytr[ix])
    train_rate = len(batches) * workloads.W4_BATCH / (time.perf_counter() - t0)
    model.eval()
    t0 = time.perf_counter()
    correct = 0
    for i in range(0, len(xte), workloads.W4_EVAL_BATCH):
        pred = predict(xte[i:i + workloads.W4_EVAL_BATCH])
        correct += int((pred == yte[i:i + workloads.W4_EVAL_BATCH]).sum())
    evals = len(xte) / (time.perf_counter() - t0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"W4 train img/s": train_rate, "W4 eval img/s": evals, "W4 peak RSS MB": peak,
            "accuracy": correct / len(xte)}


def worker(framework, workload, threads, data_file):
    if framework == "torch":
        import torch
        torch.set_num_threads(threads)
    elif framework in ("reference", "accelerated"):  # dygrad's default is every core
        import dygrad
        dygrad.set_num_threads(threads)
    fn = {"W1": w1, "W2": w2, "W3": w3, "W4": w4}[workload]
    args = (data_file,) if workload == "W4" else ()
    print(json.dumps(fn(framework, threads, *args)))


# ---------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------

def mnist_file() -> str:
    """The seed's MNIST split (workloads.mnist_split) saved for the workers, who may not have
    dygrad."""
    xtr, ytr, xte, yte = workloads.mnist_split()
    path = os.path.join(tempfile.mkdtemp(prefix="dygrad-compare-"), "mnist.npz")
    np.savez(path, xtr=xtr, ytr=ytr, xte=xte, yte=yte)
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
