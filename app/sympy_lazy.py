"""`import sympy` without all of SymPy: the package's own __init__ in the same order, stopped after `simplify`.

sympy/__init__.py is a list of 23 steps, `from .core import (...)`, `from .logic import (...)`, ... through
`.interactive`, each importing one subpackage and binding its names on `sympy`. The symbolic commands use the
first ten (core through simplify: SymPy's expressions, functions, polynomials, printing, series and
simplification); the other thirteen (solvers, geometry, parsing, plotting, ...) are an eighth of the import
(benchmarks/README.md). The first ten cannot be fewer: SymPy's functions cannot be imported without its
polynomials (functions -> ntheory -> polys -> printing -> functions, a cycle that resolves in this order only).

In the command's own process (never in a program that imports autodiff), `import sympy` makes this module's
package object instead: its loader runs the first ten steps exactly as sympy/__init__.py does (same order, the
same names bound after each step, the same objects), and the rest on demand:

- a name of a later step (`sympy.solve`) runs the steps up to its own, in order, then answers it;
- SymPy's own imports of a later subpackage (`from sympy.solvers import solve` inside a function) run the steps
  before it first (a finder on sys.meta_path), so the subpackages load in sympy/__init__.py's order whatever
  asks for them. Each later step loads only its own subpackage (tests/app/test_sympy_lazy.py checks this on the
  installed SymPy), so the order is always a prefix of SymPy's own.

What differs from SymPy's own package: `vars(sympy)` and `dir(sympy)` hold a later step's names once it has run
(`sympy.__all__` is SymPy's, and `from sympy import *` runs every step).

The table of steps and names (app/sympy_names.py) is generated from the installed SymPy by
tests/make_sympy_names.py; with any other SymPy version the real package is imported, unchanged.
"""

from __future__ import annotations

import importlib
import sys
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType
from typing import Any

BASE = "simplify"  # the last step run at `import sympy`


class Tables:
    """app/sympy_names.py's table, read when SymPy is first imported (not at every command's start)."""

    def __init__(self) -> None:
        from autodiff.app import sympy_names

        self.names = sympy_names
        self.order = tuple(sympy_names.STEPS)
        self.steps = {step: tuple(names.split()) for step, names in sympy_names.STEPS.items()}
        self.step_of = {name: step for step, names in self.steps.items() for name in names}
        self.step_of.update({package: step for package, step in sympy_names.FIRST_LOADED_BY.items()
                             if package not in self.step_of})
        self.later = frozenset(self.order[self.order.index(BASE) + 1:])  # each loads only its own subpackage (tested)


_tables: list[Tables] = []


def tables() -> Tables:
    if not _tables:
        _tables.append(Tables())
    return _tables[0]


def __getattr__(name: str) -> Any:
    """ORDER (the steps), NAMES (step -> names), STEP_OF (name or subpackage -> step), LATER (the steps after BASE)."""
    found = {"ORDER": "order", "NAMES": "steps", "STEP_OF": "step_of", "LATER": "later"}.get(name)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(tables(), found)


class LazySympy(ModuleType):
    """The `sympy` package with the steps after BASE run on first use."""

    def __getattr__(self, name: str) -> Any:
        step = tables().step_of.get(name)
        if step is not None and not _importing():  # while SymPy imports, a name not bound yet is missing, as in SymPy
            run_step(self, step)
            if name in self.__dict__:
                return self.__dict__[name]
        raise AttributeError(f"module 'sympy' has no attribute {name!r}")


def run_step(module: ModuleType, step: str) -> None:
    """Bind a step's names on `sympy` (as `from .step import names` does), its subpackage imported first, after all
    the steps before it when it is not imported yet. (A step whose subpackage an earlier step imported only binds
    its names, which runs no code: sympy/__init__.py's import of it does nothing else either.) Idempotent: two
    threads running it at once bind the same objects."""
    done: set[str] = module.__dict__.setdefault("__autodiff_steps__", set())
    if step in done:
        return
    if f"sympy.{step}" not in sys.modules:
        import_steps_before(module, step)
    package = importlib.import_module(f"sympy.{step}")
    for name in tables().steps[step]:
        setattr(module, name, getattr(package, name))
    done.add(step)


def import_steps_before(module: ModuleType, step: str) -> None:
    """Run the steps before `step` not run yet, in sympy/__init__.py's order: a subpackage imported on demand
    finds every name of the steps before it bound (`from sympy import Interval` in its module code works as in
    SymPy)."""
    order = tables().order
    for earlier in order[:order.index(step)]:
        run_step(module, earlier)


class Loader:
    """Makes and runs the `sympy` package object: what sympy/__init__.py does before its first step, then the
    steps through BASE."""

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return LazySympy(spec.name)

    def exec_module(self, module: ModuleType) -> None:
        from sympy.core.cache import lazy_function
        from sympy.release import __version__

        module.__version__ = __version__
        module.lazy_function = lazy_function  # type: ignore[attr-defined]
        module.SYMPY_DEBUG = _debug()  # type: ignore[attr-defined]
        module.test = lazy_function("sympy.testing.runtests_pytest", "test")  # type: ignore[attr-defined]
        module.doctest = lazy_function("sympy.testing.runtests", "doctest")  # type: ignore[attr-defined]
        module.__all__ = tables().names.ALL.split()
        order = tables().order
        for step in order[:order.index(BASE) + 1]:
            run_step(module, step)
        # (sympy/__init__.py then builds evalf's table, which evalf builds on its first use anyway)


def _debug() -> bool:
    """SYMPY_DEBUG as sympy/__init__.py reads it from the environment."""
    import os

    text = os.getenv("SYMPY_DEBUG", "False")
    if text not in ("True", "False"):
        raise RuntimeError(f"unrecognized value for SYMPY_DEBUG: {text}")
    return text == "True"


class Finder:
    """On sys.meta_path: answers `import sympy` with the package object (when the installed SymPy is the version of
    the table), and runs the steps before a later subpackage that something imports directly."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> ModuleSpec | None:
        if not fullname.startswith("sympy"):
            return None
        if fullname == "sympy":
            return _package_spec()
        parts = fullname.split(".")
        module = sys.modules.get("sympy")
        if (len(parts) == 2 and parts[0] == "sympy" and isinstance(module, LazySympy) and parts[1] in tables().later
                and not _importing()):
            import_steps_before(module, parts[1])
        return None


def _importing() -> bool:
    """Whether `sympy` or one of its steps is being imported: the imports inside are SymPy's own, in its order."""
    names = ("sympy", *(f"sympy.{step}" for step in tables().order))
    return any(getattr(getattr(sys.modules.get(name), "__spec__", None), "_initializing", False) for name in names)


def _package_spec() -> ModuleSpec | None:
    """The spec of the package object, at the real package's location (its subpackages are found there), or None
    (the real package) when the installed SymPy is not the table's version."""
    import importlib.util

    real = PathFinder.find_spec("sympy")
    if real is None or real.origin is None or real.submodule_search_locations is None:
        return None
    version = tables().names.VERSION
    if _installed_version(real.origin) != version or "dev" in version:
        return None
    return importlib.util.spec_from_file_location("sympy", real.origin, loader=Loader(),
                                                  submodule_search_locations=list(real.submodule_search_locations))


def _installed_version(origin: str) -> str | None:
    """The version in sympy/release.py, read as text (importing it would import the package)."""
    import re
    from pathlib import Path

    try:
        text = (Path(origin).parent / "release.py").read_text(encoding="utf-8")
    except OSError:
        return None
    found = re.search(r"""^__version__\s*=\s*["']([^"']+)["']""", text, re.M)
    return found.group(1) if found else None


def install() -> None:
    """Put the finder on sys.meta_path (once), unless SymPy is already imported."""
    if "sympy" in sys.modules or any(isinstance(finder, Finder) for finder in sys.meta_path):
        return
    sys.meta_path.insert(0, Finder())
