"""``python -m dygrad.compat [--seed N] script.py [args...]``: run a Paddle script unmodified
on dygrad. ``--seed N`` first seeds dygrad's generator (``paddle.seed(N)``), NumPy's global one
and Python's ``random``, so a script that draws its data with ``np.random`` is reproducible too."""

import os
import sys

from . import run_path

USAGE = ("usage: python -m dygrad.compat [--seed N] SCRIPT.py [ARGS...]\n\n"
         "Runs a PaddlePaddle program unmodified: every `import paddle...` resolves to dygrad.\n"
         "--seed N  seed dygrad's, NumPy's global and Python's random generators first")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    seed = None
    if argv and argv[0] == "--seed":
        if len(argv) < 2 or not argv[1].lstrip("-").isdigit():
            print(f"dygrad.compat: --seed needs an integer\n{USAGE}", file=sys.stderr)
            return 2
        seed, argv = int(argv[1]), argv[2:]
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 2
    script = argv[0]
    if not os.path.isfile(script):
        print(f"dygrad.compat: no such file: {script}", file=sys.stderr)
        return 2
    if seed is not None:
        import random

        import numpy as np

        import dygrad
        dygrad.seed(seed)
        np.random.seed(seed)
        random.seed(seed)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    run_path(script, argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
