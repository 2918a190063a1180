"""app/sympy_lazy.py: the `sympy` package of the command's own process runs sympy/__init__.py's steps through
`simplify` and the rest on demand, in SymPy's order, binding the very objects SymPy's own __init__ binds; its table
(app/sympy_names.py) is the installed SymPy's. Each check runs in a fresh interpreter (this one's SymPy is loaded)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autodiff.app import sympy_lazy, sympy_names

ROOT = Path(__file__).resolve().parent.parent.parent
BASE_PACKAGES = {"core", "external", "logic", "multipledispatch", "utilities", "assumptions", "functions", "matrices",
                 "ntheory", "polys", "printing", "sets", "strategies", "tensor", "calculus", "discrete", "series",
                 "concrete", "integrals", "simplify", "release"}


def _run(code: str) -> str:
    prelude = "import sys\nfrom autodiff.app import sympy_lazy\nsympy_lazy.install()\n"
    done = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _packages() -> str:
    return "sorted({k.split('.')[1] for k in sys.modules if k.startswith('sympy.')})"


def test_the_table_is_the_installed_sympys():
    """app/sympy_names.py is what tests/make_sympy_names.py makes from the installed SymPy (regenerate it after
    upgrading SymPy)."""
    spec = importlib.util.spec_from_file_location("make_sympy_names", ROOT / "tests" / "make_sympy_names.py")
    assert spec is not None and spec.loader is not None
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    assert maker.render() == (ROOT / "app" / "sympy_names.py").read_text(encoding="utf-8")


def test_each_later_step_loads_only_its_own_subpackage():
    """What makes running the later steps on demand keep SymPy's order: no step after BASE imports a subpackage of
    another step, so importing one directly is that step itself (the later steps whose subpackage an earlier step
    imports only bind names)."""
    base = sympy_lazy.ORDER[:sympy_lazy.ORDER.index(sympy_lazy.BASE) + 1]
    later = sympy_lazy.ORDER[len(base):]
    for step in later:
        assert {p for p, s in sympy_names.FIRST_LOADED_BY.items() if s == step} <= {step}, step
        assert sympy_names.FIRST_LOADED_BY[step] in (*base, step), step  # at `import sympy`, or by itself


def test_import_sympy_runs_the_steps_through_simplify_only():
    out = _run(f"import sympy\nprint(type(sympy).__name__, {_packages()})\n")
    kind, packages = out.split(" ", 1)
    assert kind == "LazySympy"
    assert set(eval(packages)) == BASE_PACKAGES


def test_the_bound_objects_are_the_ones_sympys_own_init_binds():
    """Every step run (on demand), then SymPy's own __init__ executed over the same subpackages: each name of
    sympy.__all__ is the same object on both (test and doctest: a new lazy function each time, named alike), and
    __all__ is the same list."""
    code = (
        "import sympy, importlib.util\n"
        "for step in sympy_lazy.ORDER:\n"
        "    sympy_lazy.run_step(sympy, step)\n"
        "spec = importlib.util.find_spec('sympy')\n"
        "ns = {'__name__': 'sympy', '__package__': 'sympy', '__path__': sympy.__path__, '__file__': spec.origin}\n"
        "exec(compile(open(spec.origin).read(), spec.origin, 'exec'), ns)\n"
        "same = lambda a, b: a is b or repr(a).split(': ')[-1] == repr(b).split(': ')[-1]\n"
        "wrong = [n for n in ns['__all__'] if not (getattr(sympy, n) is ns.get(n, sys.modules.get('sympy.' + n))\n"
        "         or n in ('test', 'doctest') and same(getattr(sympy, n), ns[n]))]\n"
        "print(json.dumps([wrong, ns['__all__'] == sympy.__all__, len(ns['__all__'])]))\n"
    )
    wrong, same_all, count = json.loads(_run("import json\n" + code))
    assert wrong == [] and same_all and count > 900


def test_a_later_name_or_subpackage_runs_the_steps_before_it_in_order():
    code = (
        "import sympy\nx = sympy.Symbol('x')\n"
        "print(sympy.solve(x**2 - 4, x), 'sympy.solvers' in sys.modules, 'sympy.geometry' in sys.modules)\n"
        "import sympy.plotting\n"
        "order = [k for k in sys.modules if k in ('sympy.solvers', 'sympy.geometry', 'sympy.parsing',"
        " 'sympy.algebras', 'sympy.plotting', 'sympy.interactive')]\n"
        "print(order)\n"
        "from sympy.geometry import Point\nprint(Point is sympy.Point, sympy.Point(1, 2), sympy.latex(x**2))\n"
        "from sympy import *\nprint(Quaternion is sympy.Quaternion, sympy.sqrt(8))\n"
    )
    lines = _run(code).splitlines()
    assert lines == ["[-2, 2] True False", "['sympy.solvers', 'sympy.geometry', 'sympy.parsing', 'sympy.algebras', "
                     "'sympy.plotting']", "True Point2D(1, 2) x^{2}", "True 2*sqrt(2)"]


def test_a_subpackage_imported_on_demand_finds_the_names_of_the_steps_before_it_bound():
    """As in sympy/__init__.py, where `from .geometry import ...` runs after every earlier step bound its names
    (the sets step's Interval, though `sets` itself was imported long before, by polys)."""
    code = ("import sympy\nbefore = 'Interval' in vars(sympy)\nimport sympy.geometry\n"
            "earlier = sympy_lazy.ORDER[:sympy_lazy.ORDER.index('geometry')]\n"
            "print(before, all(n in vars(sympy) for s in earlier for n in sympy_lazy.NAMES[s]),"
            " 'Parabola' in vars(sympy), 'latex' in vars(sympy))\n")
    assert _run(code).strip() == "False True False False"


def test_sympys_own_import_of_a_later_subpackage_runs_the_steps_before_it():
    """SymPy's functions import later subpackages themselves (here: the geometry module, as a function of SymPy
    would inside its body): the finder runs the steps before it first."""
    code = ("import sympy\nimport sympy.geometry.point\n"
            "print([k for k in sys.modules if k in ('sympy.solvers', 'sympy.geometry', 'sympy.plotting')])\n")
    assert _run(code).strip() == "['sympy.solvers', 'sympy.geometry']"


def test_another_sympy_version_gets_the_real_package():
    code = ("from autodiff.app import sympy_names\nsympy_names.VERSION = '0.0'\nimport sympy\n"
            "print(type(sympy).__name__, 'sympy.plotting' in sys.modules)\n")
    assert _run(code).strip() == "module True"


def test_sympy_already_imported_is_left_alone():
    code = ("import sympy\nprint(type(sympy).__name__)\n")
    prelude = "import sys, sympy\nfrom autodiff.app import sympy_lazy\nsympy_lazy.install()\n"
    done = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "module" and not any("Finder" in line for line in done.stderr.splitlines())


CASES = [
    ["diff", "x**3 * sin(x)", "x=1.2", "--steps", "--format", "plain"],
    ["diff", "asin(x)*exp(-x**2)", "--format", "latex"],
    ["diff", "x**2*y**3", "--wrt", "x,y", "--format", "json"],
    ["critical", "x**4 - 2*x**2", "--format", "plain"],
    ["critical", "x**2 + y**2 - x*y", "--format", "json"],
    ["tangent", "sqrt(x)", "x=4", "--format", "plain"],
    ["limit", "(1 - cos(x))/x**2", "x=0", "--format", "plain"],
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(a[:2]) for a in CASES])
def test_the_command_prints_what_sympys_own_package_gives(args):
    """The installed command (its own process: the lazily completed package and the placeholders) against
    main() in a process that imports SymPy's own package (main(argv) installs neither)."""
    beside = Path(sys.executable).parent / "autodiff"
    if not beside.exists():
        pytest.skip("the autodiff command is not installed beside this interpreter")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    command = subprocess.run([str(beside), *args], capture_output=True, text=True, timeout=300, env=env)
    code = ("import sys\nfrom autodiff.cli.main import main\nmain(sys.argv[1:])\n")
    real = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300, env=env)
    assert (command.returncode, command.stdout, command.stderr) == (real.returncode, real.stdout, real.stderr)
    assert command.stdout
