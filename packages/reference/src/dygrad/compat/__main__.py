"""``python -m dygrad.compat script.py [args...]``: run a Paddle script unmodified on dygrad."""

import os
import sys

from . import run_path


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m dygrad.compat SCRIPT.py [ARGS...]\n\n"
              "Runs a PaddlePaddle program unmodified: every `import paddle...` resolves to "
              "dygrad.", file=sys.stderr)
        return 2
    script = argv[0]
    if not os.path.isfile(script):
        print(f"dygrad.compat: no such file: {script}", file=sys.stderr)
        return 2
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    run_path(script, argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
