"""The error zoo: broken user programs (one file each under ``error_zoo/``), each run on
every installed engine. An error must keep Paddle's exception type and carry, in its
message, the shapes/dtypes involved, the layer path when raised inside a Layer, the user's
file:line (the line marked ``# ERROR``), and for backward errors the forward line that
recorded the op; every engine must raise the same type with the same text (each engine
records the forward line by default, so nothing is switched on here).
"""

import importlib.util
import pathlib
import warnings

import pytest

import dygrad

ZOO = pathlib.Path(__file__).parent / "error_zoo"
PROGRAMS = sorted(p.stem for p in ZOO.glob("*.py"))


@pytest.fixture(autouse=True)
def restore_engine():
    before = dygrad.get_engine()
    yield
    dygrad.set_engine(before)


def _load(name):
    spec = importlib.util.spec_from_file_location(f"error_zoo_{name}", ZOO / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _marked(path, marker="# ERROR"):
    """file:line of the line holding ``marker``."""
    lines = path.read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1)
                if marker in text and not text.startswith("EXPECT"))
    return f"{path}:{line}"


def _run(name, engine):
    """(exception or warning type, message, file:line it names) of program ``name``."""
    dygrad.set_engine(engine)
    module = _load(name)
    expected = module.EXPECT["type"]
    if issubclass(expected, Warning):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module.main()
        w = next(w for w in caught if issubclass(w.category, expected))
        return w.category, str(w.message), f"{w.filename}:{w.lineno}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(expected) as info:
            module.main()
    return info.type, str(info.value), None


def test_zoo_size():
    assert len(PROGRAMS) >= 40


@pytest.mark.parametrize("name", PROGRAMS)
def test_error_zoo(name):
    path = ZOO / f"{name}.py"
    expect = _load(name).EXPECT
    results = {engine: _run(name, engine) for engine in dygrad.available_engines()}
    kind, message, warned_at = results["reference"]
    assert kind is expect["type"] or issubclass(kind, expect["type"])
    site = _marked(path)
    if warned_at is not None:
        assert warned_at == site, message
    else:
        assert f"[at] {site} " in message, message
    for text in expect["has"]:
        assert text in message, (text, message)
    if "layer" in expect:
        assert f"[layer] {expect['layer']}" in message, message
    if "created" in expect:
        created = next(line for line in message.splitlines() if "[created at]" in line)
        assert created.startswith(f"  [created at] {_marked(path, expect['created'])} in ")
        assert created.endswith(f": {expect['created']}"), message
    for engine, result in results.items():  # every engine says the same
        assert result == results["reference"], (engine, result[1], message)
