"""The asv benchmarks (benchmarks/bench_*.py) work: every module of benchmarks/ imports as asv
imports it (as the package ``benchmarks``), and each benchmark's setup and body run once on the
engine under test with the fewest steps, so a broken benchmark fails here, without asv."""

import importlib
import importlib.util
import inspect
import itertools
import pkgutil
import re
import sys
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parents[3] / "benchmarks"
BENCHMARK = re.compile(r"^(time|timeraw|peakmem|mem|track)_")
SMALL = {"steps": 1, "batch": 2}   # class attributes that size a benchmark's work


def _import_suite():
    """benchmarks/ as the package ``benchmarks`` (not through sys.path, as asv does) and all
    its modules."""
    spec = importlib.util.spec_from_file_location(
        "benchmarks", SUITE / "__init__.py", submodule_search_locations=[str(SUITE)])
    package = importlib.util.module_from_spec(spec)
    sys.modules["benchmarks"] = package
    spec.loader.exec_module(package)
    return {name: importlib.import_module(name)
            for _, name, _ in pkgutil.iter_modules(package.__path__, "benchmarks.")}


MODULES = _import_suite()
CLASSES = [cls for name, module in MODULES.items() if name.startswith("benchmarks.bench_")
           for _, cls in inspect.getmembers(module, inspect.isclass)
           if cls.__module__ == name and any(BENCHMARK.match(m) for m in dir(cls))]


def test_suite_has_the_benchmarks():
    assert {"benchmarks.bench_overhead", "benchmarks.bench_workloads", "benchmarks.bench_kernels",
            "benchmarks.workloads", "benchmarks.compare"} <= set(MODULES)
    names = {cls.__name__ for cls in CLASSES}
    assert {"OpOverhead", "W2MyModel", "W3Autoencoder", "W4LeNetTrain", "W4LeNetEval",
            "Conv2D", "MaxPool2D", "SoftmaxWithCrossEntropy", "BatchNorm", "AdamUpdate"} <= names


def test_missing_engine_is_skipped_for_asv():
    with pytest.raises(NotImplementedError, match="not installed"):
        MODULES["benchmarks.workloads"].framework("no-such-engine")


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__[11:]}.{c.__name__}")
def test_benchmark_runs(cls, engine):
    assert cls.params[0] == MODULES["benchmarks.workloads"].ENGINES
    combos = [c for c in itertools.product(*cls.params) if c[0] == engine]
    methods = [m for m in dir(cls) if BENCHMARK.match(m)]
    for combo, method in itertools.product(combos, methods):
        bench = cls()
        for attr, value in SMALL.items():
            if hasattr(bench, attr):
                setattr(bench, attr, value)
        bench.setup(*combo)
        try:
            getattr(bench, method)(*combo)
        finally:
            if hasattr(bench, "teardown"):
                bench.teardown(*combo)
