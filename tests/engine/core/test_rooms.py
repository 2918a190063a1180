"""The rooms of the less common built-ins are imported on first use (engine/__init__.py, registry.Table): a process
that has not needed them (a one-shot `autodiff eval '(2*x)**3'`) never imports them, and every reader of the table
of built-ins, of the Tensor's methods or of the package still sees every built-in. Each case runs in a fresh
interpreter: the suite itself imports every room (tests/conftest.py)."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from autodiff import engine
from autodiff.grammar.interpreter import CONSTANTS

ROOM = "autodiff.engine.ops.cumulative"  # one of the rooms imported on first use


def _fresh(code: str) -> dict:
    """Run `code` in a new interpreter after `import autodiff.engine`; it sets `out`, printed as JSON."""
    script = f"import json, sys\nimport autodiff.engine as engine\nout = {{}}\n{code}\nprint(json.dumps(out))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_importing_the_engine_leaves_the_rooms_of_less_common_builtins():
    out = _fresh(f"out['room'] = {ROOM!r} in sys.modules\n"
                 "out['waiting'] = engine.BUILTINS.completing is not None\n"
                 "out['sin'] = 'sin' in engine.BUILTINS\n"
                 f"out['still'] = {ROOM!r} in sys.modules")
    assert out == {"room": False, "waiting": True, "sin": True, "still": False}


@pytest.mark.parametrize("reader", [
    "out['seen'] = 'cumsum' in engine.BUILTINS",
    "out['seen'] = engine.BUILTINS.get('cumsum') is not None",
    "out['seen'] = engine.BUILTINS['cumsum'].name == 'cumsum'",
    "out['seen'] = 'cumsum' in list(engine.BUILTINS)",
    "out['seen'] = 'cumsum' in dict(engine.BUILTINS.items())",
    "out['seen'] = len(engine.BUILTINS) == len(list(engine.BUILTINS)) > 200",
    "out['seen'] = 'cumsum' in engine.TENSOR_METHODS",
    "out['seen'] = 'cumsum' in sorted(engine.TENSOR_METHODS)",
    "out['seen'] = engine.cumsum(engine.tensor([1.0, 2.0]), 0).tolist() == [1.0, 3.0]",
    "from autodiff.engine import CustomNode, linalg_svd\nout['seen'] = callable(linalg_svd)",
])
def test_every_reader_sees_every_builtin(reader):
    out = _fresh(f"{reader}\nout['room'] = {ROOM!r} in sys.modules\n"
                 "out['method'] = engine.tensor([1.0, 2.0]).cumsum(0).tolist()")
    assert out == {"seen": True, "room": True, "method": [1.0, 3.0]}


def test_a_name_no_room_has_stays_missing():
    out = _fresh("out['in'] = 'no_such_builtin' in engine.BUILTINS\n"
                 "out['get'] = engine.BUILTINS.get('no_such_builtin', 'none')\n"
                 "out['attr'] = hasattr(engine, 'no_such_builtin')\n"
                 "out['method'] = 'no_such_builtin' in engine.TENSOR_METHODS")
    assert out == {"in": False, "get": "none", "attr": False, "method": False}


def test_the_table_once_complete_is_the_whole_table_in_the_order_autodiff_ops_lists():
    out = _fresh("out['names'] = list(engine.BUILTINS)")
    assert out["names"] == list(engine.BUILTINS)


def _eval(program: str, *bindings: str) -> dict:
    code = ("import io, contextlib\nfrom autodiff.cli.main import main\n"
            f"sys.argv = ['autodiff', 'eval', {program!r}, *{list(bindings)!r}, '--format', 'json']\n"
            "text = io.StringIO()\n"
            "try:\n    with contextlib.redirect_stdout(text):\n        main()\nexcept SystemExit as e:\n"
            "    out['code'] = e.code\n"
            f"out['room'] = {ROOM!r} in sys.modules\nout['doc'] = json.loads(text.getvalue())")
    return _fresh(code)


@pytest.mark.parametrize("program", ["(2*x)**3", "sin(pi*x) + e**x", "y = x**2; y.backward(); x.grad",
                                     "tanh(x).item()", "x.sum(axis=0)", "relu(x) * softmax(x, 0)"])
def test_a_one_shot_eval_of_common_functions_imports_no_other_room(program):
    out = _eval(program, "x=1.5")
    assert out["code"] in (0, None) and out["room"] is False, out


def test_a_program_calling_a_builtin_of_another_room_runs_in_a_fresh_process():
    out = _eval("(x.sort().values.cumsum(0) * softmin(x, 0)).sum()", "x=[3.0, 1.0]")
    assert out["room"] is True
    e2 = math.exp(2)
    assert out["doc"]["root"]["value"] == pytest.approx(1 / (1 + e2) + 4 / (1 + 1 / e2), rel=1e-6)


def test_a_misspelt_builtin_of_another_room_is_still_suggested():
    out = _eval("cumsun(x, 0)", "x=[3.0, 1.0]")
    assert out["code"] != 0
    assert "did you mean 'cumsum'?" in out["doc"]["error"]["message"]


def test_no_builtin_has_the_name_of_a_constant():
    # the interpreter looks a name up among the constants before the built-ins (so that `pi` never imports a room)
    assert not set(CONSTANTS) & set(engine.BUILTINS)
