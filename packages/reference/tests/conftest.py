"""Every unit test runs once per installed engine, and leaves global state as it found it."""

import pytest

import dygrad

ENGINES = dygrad.available_engines()


@pytest.fixture(autouse=True, params=ENGINES)
def engine(request):
    before_engine = dygrad.get_engine()
    before_dtype = dygrad.get_default_dtype()
    dygrad.set_engine(request.param)
    yield request.param
    dygrad.set_engine(before_engine)
    dygrad.set_default_dtype(before_dtype)
    assert dygrad.is_grad_enabled(), "a test left grad mode off"


@pytest.fixture
def static():
    """Static mode with fresh programs and scope; the pass switches restored afterwards."""
    main, startup = dygrad.static.Program(), dygrad.static.Program()
    previous = dygrad.static.set_passes()
    dygrad.enable_static()
    try:
        with dygrad.static.scope_guard(dygrad.static.Scope()), \
                dygrad.static.program_guard(main, startup):
            yield main, startup
    finally:
        dygrad.disable_static()
        dygrad.static.set_passes(**previous)
