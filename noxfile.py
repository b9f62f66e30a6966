"""Sessions: tests (unit tests + conformance), conformance, lint, demo (the main job), compare
(dygrad against its peers), bench (the asv benchmarks).

Each session builds its own virtual environment and installs dygrad from this checkout,
so a fresh machine needs only Python and nox.
"""

import nox

nox.options.sessions = ["lint", "tests"]
nox.options.reuse_existing_virtualenvs = False

REFERENCE = "./packages/reference"
ACCELERATED = "./packages/accelerated"  # built from source here (meson-python + Cython)
TESTS = ["packages/reference/tests", "packages/accelerated/tests", "conformance"]


def _install(session, extras="test"):
    """dygrad and dygrad-accelerated from this checkout, in one pip call (so the engine's
    dependency on dygrad is this checkout's)."""
    session.install(f"{REFERENCE}[{extras}]", ACCELERATED)


@nox.session
def tests(session):
    """The whole test suite: unit tests and the conformance suite, on every installed engine.
    The distributed extra brings mpi4py and MPICH's mpiexec (PyPI wheels), so the
    distributed tests run their 2-rank jobs here."""
    _install(session, "test,distributed")
    session.run("python", "-m", "pytest", "-q", *TESTS, *session.posargs)


@nox.session
def conformance(session):
    """The conformance suite alone: op database and seed tutorials, every installed engine."""
    _install(session)
    session.run("python", "-m", "pytest", "-q", "conformance", *session.posargs)


@nox.session
def lint(session):
    """ruff over the project (the seed tutorials are verbatim and excluded)."""
    session.install("ruff")
    session.run("ruff", "check", ".")


@nox.session
def demo(session):
    """The main job: LeNet trained on MNIST (real IDX files when --data-dir has them, else the
    shipped 5,000-digit subset) with a progress bar, the test accuracy, a checkpoint and a PNG
    of the curves in demo-output/. Options after --: dygrad-demo mnist --help."""
    session.install(f"{REFERENCE}[plot]", ACCELERATED)
    session.run("dygrad-demo", "mnist", "--output-dir", "demo-output", *session.posargs)


@nox.session
def compare(session):
    """dygrad's engines against PyTorch and PaddlePaddle on the seed workloads, in one run
    (benchmarks/compare.py; the peers' versions are those of benchmarks/peers.txt)."""
    session.install(REFERENCE)
    session.install("-r", "benchmarks/peers.txt")
    session.run("python", "benchmarks/compare.py", *session.posargs)


@nox.session
def bench(session):
    """The asv benchmarks of benchmarks/bench_*.py (per-op overhead, seed workloads, hot kernels,
    on each engine) in this session's environment: asv builds nothing, the results go to
    .asv/results under this checkout's HEAD (asv publish + asv preview show them).
    `-- quick` runs each benchmark once; other arguments go to asv run (`-- -b Conv2D`)."""
    _install(session)
    session.install("asv")
    args = list(session.posargs)
    if "quick" in args:
        args[args.index("quick")] = "--quick"
    env = {"OPENBLAS_CORETYPE": None, "OPENBLAS_L2_SIZE": None}  # they slow NumPy down
    session.run("asv", "machine", "--yes", env=env)
    session.run("asv", "run", "--python=same", "--set-commit-hash=HEAD", "--show-stderr", *args,
                env=env)
