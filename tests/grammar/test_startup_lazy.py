"""Issue 26 (start-up): `autodiff eval` does not load or build what only scripts use. The torch module, numpy's
subset and Python's built-ins of the language are built on first use; difflib (for misspelt names), string
(str.format), nnspace (torch.nn) and the interpreter's script-only modules (classes, decorators, numpy_subset,
pymodules, pytypes, nnmembers) are imported where they are used, and so are the engine's array operations
(indexing, joins, gathers, logic, linalg, tensormath: engine/lazy.py)."""

from __future__ import annotations

import subprocess
import sys

ARRAY_OPERATIONS = [f"autodiff.engine.{m}" for m in ("gathers", "indexing", "joins", "logic", "linalg", "tensormath")]
LAZY_MODULES = ["difflib", "string", "autodiff.grammar.interpreter.nnspace",
                *(f"autodiff.grammar.interpreter.{m}" for m in ("classes", "decorators", "numpy_subset", "pymodules",
                                                                "pytypes", "nnmembers")), *ARRAY_OPERATIONS]

# argv[0] is not "autodiff": the probe is not the command's own process, so main() ends in SystemExit (the
# command's own process would leave with os._exit, before the probe's last line)
PROBE = """
import json, sys
sys.argv = ["probe", "eval", "(2*x)**3", "x=1.5", "--format", "json"]
from autodiff.cli.main import main
try:
    main()
except SystemExit:
    pass
from autodiff.grammar.interpreter import prelude
print()
print(json.dumps({"modules": sorted(m for m in %r if m in sys.modules), "built": sorted(prelude._BUILT)}))
"""


def test_eval_loads_no_script_only_module() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE % (LAZY_MODULES,)], capture_output=True, text=True,
                          timeout=120, check=True)
    lines = done.stdout.strip().splitlines()
    assert '"grads": {"x": 54.0}' in lines[0]
    assert lines[-1] == '{"modules": [], "built": []}'


# What eval's and check's start no longer imports (benchmarks/README.md, "Written-out records, one stack chunk,
# paired runs"): dataclasses (their records are written-out classes), copy, threading, the SymPy placeholders'
# modules (installed when SymPy is first imported), and for text output Python's json.
NOT_IMPORTED = ["dataclasses", "copy", "threading", "json", "autodiff.app.sympy_parts", "autodiff.app.sympy_lazy",
                *ARRAY_OPERATIONS]
BARE_PROBE = """
import sys
sys.argv = ["probe"]
from autodiff.cli.main import main
try:
    main(%r)
except SystemExit:
    pass
sys.stdout.write("\\n" + repr(sorted(m for m in %r if m in sys.modules)) + "\\n")
"""


def test_eval_and_check_import_no_dataclasses_nor_json_for_text() -> None:
    lines = {"eval": ["eval", "(2*x)**3", "x=1.5", "--trace", "--format", "plain"],
             "check": ["check", "x**2*sin(x)", "x=1.5", "--expect", "x=2*x*sin(x) + x**2*cos(x)", "--format", "plain"]}
    for name, args in lines.items():
        done = subprocess.run([sys.executable, "-c", BARE_PROBE % (args, NOT_IMPORTED)], capture_output=True,
                              text=True, timeout=120, check=True)
        out = done.stdout.strip().splitlines()
        assert ("x.grad" if name == "eval" else "your derivative is right") in done.stdout, done.stdout
        assert out[-1] == "[]", (name, out[-1])


def test_the_python_builtin_names_are_the_table_s() -> None:
    """The interpreter tells a Python built-in's name from a function's (sin) without building the table."""
    from autodiff.grammar.interpreter.prelude import PYTHON_BUILTIN_NAMES, python_builtins_table

    assert set(python_builtins_table()) == PYTHON_BUILTIN_NAMES


def test_a_formula_with_functions_loads_no_script_only_module() -> None:
    args = ["eval", "x**2*sin(x) + exp(-x)", "x=1.5", "--format", "plain"]
    modules = [m for m in LAZY_MODULES if m.startswith("autodiff")]
    done = subprocess.run([sys.executable, "-c", BARE_PROBE % (args, modules)], capture_output=True, text=True,
                          timeout=120, check=True)
    assert "x.grad" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"
