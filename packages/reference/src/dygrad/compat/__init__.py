"""Run unmodified Paddle programs: an import hook that makes ``paddle`` and every
``paddle.X.Y`` resolve to ``dygrad`` and ``dygrad.X.Y`` (the same module objects, not
copies), so ``import paddle``, ``import paddle.nn.functional as F`` and
``from paddle.fluid.dygraph.base import to_variable`` all work.

Use ``python -m dygrad.compat script.py [args]``, or call :func:`install` in a program.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys

__all__ = ["install", "uninstall", "run_path"]

ALIAS = "paddle"
TARGET = "dygrad"


class _AliasLoader(importlib.abc.Loader):
    """Loads ``paddle.X`` by importing ``dygrad.X`` and handing back that module."""

    def __init__(self, target_name: str):
        self.target_name = target_name

    def create_module(self, spec):
        module = importlib.import_module(self.target_name)
        self._own_spec = module.__spec__
        return module

    def exec_module(self, module):
        # dygrad's module is already executed: only give it back its own spec, which the
        # import system replaced with the alias spec (``paddle.nn`` stays ``dygrad.nn``)
        module.__spec__ = self._own_spec


class PaddleAliasFinder(importlib.abc.MetaPathFinder):
    """Meta-path finder for the ``paddle`` namespace."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != ALIAS and not fullname.startswith(ALIAS + "."):
            return None
        target_name = TARGET + fullname[len(ALIAS):]
        try:
            found = importlib.util.find_spec(target_name)
        except ModuleNotFoundError:
            found = None
        if found is None:
            raise ModuleNotFoundError(
                f"No module named {fullname!r}: dygrad has no {target_name!r} (this part of "
                f"Paddle's API is not implemented)", name=fullname)
        spec = importlib.machinery.ModuleSpec(fullname, _AliasLoader(target_name),
                                              is_package=found.submodule_search_locations is not None)
        return spec


_finder = PaddleAliasFinder()


def install() -> None:
    """Make ``import paddle...`` resolve to dygrad from now on in this process."""
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def uninstall() -> None:
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in [n for n in sys.modules if n == ALIAS or n.startswith(ALIAS + ".")]:
        del sys.modules[name]


def run_path(path: str, argv=None) -> dict:
    """Run the Python file ``path`` as ``__main__`` with the paddle alias installed."""
    import runpy
    install()
    old_argv = sys.argv
    sys.argv = [path, *(argv or [])]
    try:
        return runpy.run_path(path, run_name="__main__")
    finally:
        sys.argv = old_argv
