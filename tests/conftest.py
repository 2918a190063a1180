"""The tests' processes import SymPy as the `autodiff` command's own process does (app/sympy_lazy.py: the steps of
SymPy's __init__ through `simplify`, the rest on demand), so that the exact-output tests of diff, critical, tangent,
limit and check judge that package. AUTODIFF_TESTS_REAL_SYMPY=1 runs them on SymPy's own package instead."""

from __future__ import annotations

import os

if os.environ.get("AUTODIFF_TESTS_REAL_SYMPY") != "1":
    from autodiff.app import sympy_lazy

    sympy_lazy.install()
