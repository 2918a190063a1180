"""Two parts of SymPy that the `autodiff` command never uses but would import, answered with placeholders.

`sympy.simplify()` and `sympy.solve()` import `sympy.physics.units` on every call (to simplify physical
quantities: 1.1 s, half of `autodiff diff`'s start-up, most of it building the SI unit system), and
`Add` imports `sympy.tensor.tensor` (with `sympy.combinatorics`, 80 ms) to look for tensor expressions.
autodiff builds neither kind of expression, so in the command's own process (never in a program that
imports autodiff) these two modules are placeholders holding the classes SymPy asks them for: SymPy
subclasses that no expression is an instance of, so `expr.has(Quantity)` and `isinstance(x, TensExpr)`
answer False exactly as the real classes do for autodiff's expressions.

The placeholders are made when SymPy first asks for the module (a finder on sys.meta_path), so installing
them costs nothing to a command that never imports SymPy; a module already imported is left alone.
"""

from __future__ import annotations

import sys
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

# module -> the names SymPy imports from it (sympy/simplify/simplify.py, sympy/solvers/solvers.py,
# sympy/core/add.py)
PLACEHOLDERS: dict[str, tuple[str, ...]] = {
    "sympy.physics.units": ("Quantity", "Unit"),
    "sympy.tensor.tensor": ("TensExpr", "TensAdd"),
}


class Placeholders:
    """Finds and makes the placeholder modules (a finder and loader of sys.meta_path; not derived from
    importlib.abc, whose import costs more than the rest of this module)."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> ModuleSpec | None:
        return ModuleSpec(fullname, self, is_package=False) if fullname in PLACEHOLDERS else None

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return None  # the default module

    def exec_module(self, module: ModuleType) -> None:
        from sympy.core.basic import Basic

        module.__doc__ = f"autodiff's placeholder for {module.__name__} (see autodiff.app.sympy_parts)"
        for name in PLACEHOLDERS[module.__name__]:
            setattr(module, name, type(name, (Basic,), {"__module__": module.__name__}))
        module.__getattr__ = _from_the_real_module(module.__name__)  # type: ignore[attr-defined]


def _from_the_real_module(dotted: str) -> Any:
    """A name the placeholder lacks (a newer SymPy may ask for more): SymPy's own module replaces the
    placeholder (imported then: slow, but never wrong) and answers it."""

    def attribute(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        import importlib

        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, Placeholders)]
        sys.modules.pop(dotted, None)
        return getattr(importlib.import_module(dotted), name)

    return attribute


def install() -> None:
    """Put the finder first on sys.meta_path (once), unless SymPy's own modules are already imported; and
    `import sympy` runs only the part of SymPy's __init__ that the commands use (app/sympy_lazy.py)."""
    from autodiff.app import sympy_lazy

    sympy_lazy.install()
    if any(isinstance(finder, Placeholders) for finder in sys.meta_path):
        return
    if any(name in sys.modules for name in PLACEHOLDERS):
        return
    sys.meta_path.insert(0, Placeholders())
