"""Resident memory over a long training loop of the seed's shared-weight autoencoder
(seed 000, section 五): the graph must be freed after every backward, so memory stays flat.

    python benchmarks/memory_autoencoder.py [--steps 10000] [--engine reference]
"""

import argparse
import os

import dygrad as paddle


def rss_mb() -> float:
    """Current resident set size of this process in MB (Linux /proc)."""
    with open(f"/proc/{os.getpid()}/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--steps", type=int, default=10000)
    ap.add_argument("--engine", default=None)
    args = ap.parse_args()
    if args.engine:
        paddle.set_engine(args.engine)
    paddle.seed(0)
    inputs = paddle.rand((256, 64))
    linear = paddle.nn.Linear(64, 8, bias_attr=False)
    loss_fn = paddle.nn.MSELoss()
    optimizer = paddle.optimizer.Adam(0.01, parameters=linear.parameters())
    marks = {}
    for i in range(args.steps):
        hidden = linear(inputs)
        outputs = paddle.matmul(hidden, linear.weight, transpose_y=True)
        loss = loss_fn(outputs, inputs)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        if i + 1 in (100, args.steps // 2, args.steps):
            marks[i + 1] = rss_mb()
    first, last = marks[100], marks[args.steps]
    print(f"engine {paddle.get_engine()}: RSS after 100 steps {first:.1f} MB, after "
          f"{args.steps} steps {last:.1f} MB, growth {last - first:+.2f} MB; final loss "
          f"{float(loss):.5f}")


if __name__ == "__main__":
    main()
