"""Where each op's kernel comes from in the accelerated engine.

    python -m dygrad_accelerated.coverage [--all]

Prints the count of ops per source ('cython', 'numpy', 'reference') and, with ``--all``,
the table op by op. An op marked 'reference' runs the reference engine's NumPy kernel.
"""

from __future__ import annotations

import argparse
from collections import Counter

from .engine import SOURCES
from .gpu_kernels import CUDA_KERNELS


def report(show_all: bool = False) -> str:
    counts = Counter(SOURCES.values())
    lines = [f"dygrad-accelerated: {len(SOURCES)} ops"]
    lines += [f"  {src:<10} {counts.get(src, 0):4d}" for src in ("cython", "numpy", "reference")]
    lines.append(f"  on CUDA devices: all {len(SOURCES)} ops run their reference kernel on CuPy "
                 f"(gpu_kernels); hand-written CUDA kernels: "
                 f"{', '.join(CUDA_KERNELS) or 'none'}")
    if show_all:
        lines.append("")
        lines += [f"  {name:<28} {SOURCES[name]}" for name in sorted(SOURCES)]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--all", action="store_true", help="list every op and its kernel's source")
    print(report(ap.parse_args(argv).all))


if __name__ == "__main__":
    main()
