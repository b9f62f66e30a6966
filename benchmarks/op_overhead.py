"""Per-op overhead of ``c = a + b`` on [4, 2] float32 tensors with gradients required, as a
ratio to plain NumPy ``a + b``, measured in one run (median of repeats).

    python benchmarks/op_overhead.py [--engine reference]
"""

import argparse
import statistics
import timeit

import numpy as np

import dygrad


def per_call_us(fn, number=20000, repeat=7):
    times = timeit.repeat(fn, number=number, repeat=repeat)
    return statistics.median(times) / number * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--engine", default=None)
    args = ap.parse_args()
    if args.engine:
        dygrad.set_engine(args.engine)
    rng = np.random.default_rng(0)
    an, bn = rng.random((4, 2), dtype=np.float32), rng.random((4, 2), dtype=np.float32)
    a = dygrad.to_tensor(an, stop_gradient=False)
    b = dygrad.to_tensor(bn, stop_gradient=False)
    t_np = per_call_us(lambda: an + bn)
    t_dy = per_call_us(lambda: a + b)
    with dygrad.no_grad():
        t_ng = per_call_us(lambda: a + b)
    print(f"engine: {dygrad.get_engine()}")
    print(f"numpy a + b:                     {t_np:7.3f} us")
    print(f"dygrad a + b (gradients needed): {t_dy:7.3f} us   ratio {t_dy / t_np:5.1f}x")
    print(f"dygrad a + b (no_grad):          {t_ng:7.3f} us   ratio {t_ng / t_np:5.1f}x")


if __name__ == "__main__":
    main()
