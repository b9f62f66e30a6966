"""dygrad's benchmarks: the asv suites (``bench_*.py``, run by ``nox -s bench``), the seed
workloads they share with ``compare.py`` (``workloads.py``), and stand-alone scripts."""
