"""Issue 26: eval and check start without click. cli/quick.py reads their common command lines as click would
(the same parameters, or it leaves the line to click), its table is the click declarations', the installed
command imports no click for them, and the answers are the same either way."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff.cli import quick
from autodiff.cli.group import COMMANDS
from autodiff.cli.quick_table import DEFAULTS, OPTIONS


def _maker():
    spec = importlib.util.spec_from_file_location("make_quick_table", Path(__file__).parents[1] / "make_quick_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _click_command(name: str):
    module = importlib.import_module(f"autodiff.cli.{COMMANDS[name][0]}")
    return next(c for c in module.COMMANDS if c.name == name)


def _click_params(name: str, args: list[str]) -> dict | None:
    """click's parameters for the command line, or None when click refuses it."""
    import click

    from autodiff.engine.errors import AutodiffError

    try:
        return dict(_click_command(name).make_context(name, list(args)).params)
    except (click.ClickException, click.exceptions.Exit, AutodiffError):
        return None


def test_the_table_is_the_click_declarations():
    """cli/quick_table.py is what tests/make_quick_table.py writes (regenerate it after changing an option)."""
    maker = _maker()
    assert maker.TARGET.read_text() == maker.table_source()
    assert sorted(OPTIONS) == sorted(DEFAULTS) == ["check", "eval"]


READ = [
    ("eval", ["(2*x)**3", "x=1.5"]),
    ("eval", ["-x**2 + 3*x", "x=2", "--format", "json"]),
    ("eval", ["-x", "--format=plain", "x=2"]),
    ("eval", ["y = 2*x; z = y**3", "--var", "x=[[1, 2], [3, 4]]", "--grad-tensor", "ones(2, 2)"]),
    ("eval", ["out = x.sum()", "--var=x=randn(2, 2)", "--seed", "0", "--retain-graph", "--repeat", "2"]),
    ("eval", ["sin(x)", "x=0.6", "--order", "3", "--wrt", "x", "--digits", "6", "--dtype", "float64"]),
    ("eval", ["-f", "prog.txt", "x=1"]),
    ("eval", ["-fprog.txt", "x=1", "--", "-3"]),
    ("eval", ["--file=prog.txt", "x=1", "--const", "c=2", "--gradient", "1", "--trace", "--explain"]),
    ("eval", ["x*y", "x=1", "y=2", "--retain-grad", "y", "--retain-grad", "x", "--zero-grad", "--detect-anomaly"]),
    ("eval", ["x", "--batch", "-", "--max-line-bytes", "1M", "--max-elements", "10"]),
    ("eval", []),
    ("eval", ["-"]),
    ("check", ["x**2", "x=1", "--expect", "2*x"]),
    ("check", ["x*y**2", "x=2", "y=3", "--expect", "x=y**2", "--expect", "y=2*x*y", "--samples", "20"]),
    ("check", ["-x**3", "--expect=-3x^2", "--rtol", "1e-6", "--atol", ".5", "--order", "1", "--seed", "+4"]),
    ("check", ["sin(x)", "--format", "json", "--dtype", "float32", "x=-2"]),
]


@pytest.mark.parametrize(("command", "args"), READ)
def test_quick_reads_the_common_command_lines_as_click_does(command, args):
    mine = quick.read([command, *args])
    assert mine is not None and mine.name == command
    assert mine.params == _click_params(command, args)


LEFT_TO_CLICK = [
    ["eval", "--help"], ["eval", "x", "-h"], ["--debug", "eval", "x"], ["eval", "x", "--debug"], ["diff", "x**2"],
    ["eval", "x", "--frmat", "json"], ["eval", "x", "--format", "yaml"], ["eval", "x", "--repeat", "two"],
    ["eval", "x", "--repeat"], ["eval", "x", "--trace=yes"], ["eval", "x", "--backward"],
    ["eval", "x", "--backward", "y"],
    ["eval", "x", "--order", "0"], ["eval", "x", "--digits", "31"], ["eval", "x", "--seed", "-1"],
    ["eval", "x", "--var", "x"], ["eval", "x", "--var", "1x=2"], ["eval", "x", "--max-elements", "1_000"],
    ["eval", "x", "-3"], ["check", "x", "--order", "3"], ["check", "x", "--rtol", "nan"], ["check", "x", "--eps", "1"],
    [], ["--version"],
]


@pytest.mark.parametrize("args", LEFT_TO_CLICK)
def test_quick_leaves_the_rest_to_click(args):
    assert quick.read(args) is None


def test_completion_is_left_to_click(monkeypatch):
    monkeypatch.setenv("_AUTODIFF_COMPLETE", "bash_complete")
    assert quick.read(["eval", "x"]) is None


_TOKENS = sorted({*OPTIONS["eval"], *OPTIONS["check"], "--", "-", "-h", "--fo", "-fx", "-x", "-x**2", "--var=y=1",
                  "x=1", "x=[1, 2]", "1x=2", "y=2,5", "x", "2*x", "0", "1", "2", "-1", "31", "1e-3", "json", "plain",
                  "float32", "float64", "nan", "3_0", " 2", ""})


@settings(max_examples=int(os.environ.get("AUTODIFF_FUZZ_EXAMPLES", "300")), deadline=None)
@given(st.sampled_from(["eval", "check"]), st.lists(st.sampled_from(_TOKENS), max_size=7))
def test_quick_and_click_agree_on_every_command_line(command, args):
    """Whatever quick reads, click reads the same; whatever click refuses, quick leaves to it."""
    mine = quick.read([command, *args])
    theirs = _click_params(command, args)
    if mine is not None:
        assert mine.params == theirs, (command, args)


def _installed_command() -> str:
    beside = os.path.join(os.path.dirname(sys.executable), "autodiff")
    if not os.path.exists(beside):
        pytest.skip("the autodiff command is not installed")
    return beside


SAME = [
    ["eval", "(2*x)**3", "x=1.5"],
    ["eval", "-x**2 + 3*x", "x=2", "--format", "json", "--trace"],
    ["eval", "out = x.mean()", "--var", "x=randn(2, 2)", "--seed", "0", "--retain-graph", "--repeat", "2"],
    ["eval", "x + y", "x=1", "--format", "json"],
    ["eval", "x", "x=1", "--var", "x=2"],
    ["check", "x**3", "x=1.2", "--expect", "3x^2", "--seed", "1"],
    ["check", "x**3", "x=1.2", "--expect", "x=2*x", "--seed", "1", "--format", "json"],
]


@pytest.mark.parametrize("args", SAME)
def test_the_installed_command_answers_the_same_without_click(args):
    """The same output and exit status with the quick reader (no click imported) as with click (--debug, a
    group option, sends the command line to click)."""
    command = _installed_command()
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1", "NO_COLOR": "1"}
    fast = subprocess.run([command, *args], capture_output=True, text=True, timeout=60, env=env)
    slow = subprocess.run([command, "--debug", *args], capture_output=True, text=True, timeout=60, env=env)

    def log(done):
        return [line for line in done.stderr.splitlines() if not line.startswith("import time:")]

    assert (fast.returncode, fast.stdout, log(fast)) == (slow.returncode, slow.stdout, log(slow))
    assert " click" not in fast.stderr and " click" in slow.stderr
