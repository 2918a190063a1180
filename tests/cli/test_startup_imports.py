"""What a command imports is what it uses: `eval` and `check` import neither SymPy nor matplotlib nor what only
scripts use (autodiff run's runner and the torch facade); `--help` imports no numpy (issue 42's bounds)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

SCRIPT_ONLY = ["sympy", "matplotlib", "autodiff.app.script", "autodiff.engine.facade"]

# argv[0] is not "autodiff": the probe runs main() and then reports the modules it finds in sys.modules
PROBE = """
import json, sys
sys.argv = ["probe"]
from autodiff.cli.main import main
try:
    main(%r)
except SystemExit:
    pass
sys.stdout.write("\\n" + json.dumps(sorted(m for m in %r if m in sys.modules)) + "\\n")
"""


def imported(args: list[str], modules: list[str]) -> tuple[str, list[str]]:
    """The output of `autodiff ARGS` in a fresh interpreter, and which of `modules` it imported."""
    done = subprocess.run([sys.executable, "-c", PROBE % (args, modules)], capture_output=True, text=True,
                          timeout=120, check=True)
    return done.stdout, json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("args, shown", [
    (["eval", "(2*x)**3", "x=1.5", "--format", "plain"], "x.grad  tensor(54.)"),
    (["eval", "x**2*sin(x) + exp(-x)", "x=1.5", "--trace", "--format", "plain"], "x.grad"),
    (["check", "x**2*sin(x)", "x=1.5", "--expect", "x=2*x*sin(x) + x**2*cos(x)", "--format", "plain"],
     "your derivative is right"),
])
def test_eval_and_check_import_nothing_only_other_commands_use(args: list[str], shown: str) -> None:
    out, modules = imported(args, SCRIPT_ONLY)
    assert shown in out
    assert modules == []


def test_help_imports_no_numpy() -> None:
    out, modules = imported(["--help"], ["numpy", "autodiff.engine", *SCRIPT_ONLY])
    assert "Usage:" in out
    assert modules == []


def test_diff_imports_sympy_and_eval_does_not() -> None:
    out, modules = imported(["diff", "x**3", "--format", "plain"], ["sympy"])
    assert "3*x**2" in out.replace(" ", "")
    assert modules == ["sympy"]


# The depth of Python calls below main() at which numpy and SymPy are first imported (importlib's own frames not
# counted). CPython before 3.13.13 allocates and frees a 16 KB chunk of its frame stack each time a call crosses a
# chunk's end (python/cpython#142183); the two libraries' imports, started ~20 calls deeper, did so ~1,000 times
# a start (20-25 ms). cli.memory.prepare and cli.calculus.sympy_first import them first, near the top.
DEPTH_PROBE = """
import json, sys
sys.argv = ["probe"]
depths = {}

def hook(event, args):
    if event == "import" and args[0] in ("numpy", "sympy") and args[0] not in depths:
        frame, names = sys._getframe(1), []
        while frame is not None:
            if not frame.f_code.co_filename.startswith("<frozen"):
                names.append(frame.f_code.co_name)
            frame = frame.f_back
        depths[args[0]] = names[:names.index("main")]

sys.addaudithook(hook)
from autodiff.cli.main import main
try:
    main(%r)
except SystemExit:
    pass
sys.stdout.write("\\n" + json.dumps(depths) + "\\n")
"""


@pytest.mark.parametrize("args, libraries", [
    (["eval", "(2*x)**3", "x=1.5", "--format", "json"], ["numpy"]),
    (["check", "x**2", "x=1.5", "--expect", "2*x", "--format", "json"], ["numpy"]),
    (["diff", "(2*x)**3", "--format", "json"], ["numpy", "sympy"]),
    (["critical", "x**3-3*x", "--format", "json"], ["numpy", "sympy"]),
    (["limit", "sin(x)/x", "x=0", "--format", "json"], ["numpy", "sympy"]),
])
def test_numpy_and_sympy_are_imported_near_the_top_of_the_command(args: list[str], libraries: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", DEPTH_PROBE % (args,)], capture_output=True, text=True,
                          timeout=120, check=True)
    depths = json.loads(done.stdout.strip().splitlines()[-1])
    assert sorted(depths) == libraries
    for library, calls in depths.items():
        assert calls[0] in ("prepare", "sympy_first"), (library, calls)
        assert len(calls) <= 12, (library, calls)


# A room of the less common built-ins (autodiff.engine.__init__): imported when the table of built-ins is asked
# for a name it does not hold, such as a free variable's. tangent and limit declare their variable (they bind it
# at a point), so their answers need none of those rooms; diff and critical read their variables from the
# program, where telling `x` from a built-in needs the whole table.
ROOM = "autodiff.engine.nn.activations"


@pytest.mark.parametrize("args, shown", [
    (["tangent", "x**2", "x=1", "--format", "plain"], "y = -1 + 2*x"),
    (["limit", "sin(x)/x", "x=0", "--format", "plain"], "= 1"),
    (["tangent", "t**2", "t=1", "--format", "plain"], "y = -1 + 2*t"),  # a built-in's name as the variable
])
def test_tangent_and_limit_at_a_point_import_no_room_of_the_less_common_built_ins(args: list[str], shown: str) -> None:
    out, modules = imported(args, [ROOM])
    assert shown in out
    assert modules == []


# critical declares the names it has an interval for (x=-1/2:4) when it reads its program on symbols, as --wrt does
# for diff; a name without one (critical 'x**3 - 3*x') is still told from the built-ins by the whole table.
@pytest.mark.parametrize("args, shown", [
    (["critical", "x**3-3*x**2+1", "x=-1/2:4", "--format", "plain"], "x = 2  f = -3  minimum"),
    (["critical", "4*(x+y)-(2*x**2+y**2)", "x=0:3", "y=0:3", "--format", "plain"], "maximum"),
    (["critical", "t**2-t", "t=0:1", "--format", "plain"], "t = 1/2 (0.5)"),  # a built-in's name as the variable
])
def test_critical_with_its_intervals_imports_no_room_of_the_less_common_built_ins(args: list[str], shown: str) -> None:
    out, modules = imported(args, [ROOM])
    assert shown in out
    assert modules == []
