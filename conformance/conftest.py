"""Every conformance test runs once per installed engine (``dygrad.engines`` entry points)."""

import pytest

import dygrad

ENGINES = dygrad.available_engines()


def pytest_generate_tests(metafunc):
    if "engine" in metafunc.fixturenames:
        metafunc.parametrize("engine", ENGINES, indirect=True)


@pytest.fixture
def engine(request):
    """Select the engine for the test, restoring the previous one afterwards."""
    before = dygrad.get_engine()
    dygrad.set_engine(request.param)
    yield request.param
    dygrad.set_engine(before)
