"""The tests' processes import SymPy as the `autodiff` command's own process does (app/sympy_lazy.py: the steps of
SymPy's __init__ through `simplify`, the rest on demand), so that the exact-output tests of diff, critical, tangent,
limit and check judge that package. AUTODIFF_TESTS_REAL_SYMPY=1 runs them on SymPy's own package instead.

tests/tolerance.py, the suite's one numeric tolerance and its comparisons, is registered as the module
`tolerance` (the tests folders are not packages), so any test can `from tolerance import assert_close`; likewise
tests/scripting.py as `scripting` (`from scripting import run_script`)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path


def _register(name: str) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)


_register("tolerance")
_register("scripting")

if os.environ.get("AUTODIFF_TESTS_REAL_SYMPY") != "1":
    from autodiff.app import sympy_lazy

    sympy_lazy.install()
