"""Terminal conventions shared by every renderer: one colour decision, widths from the terminal, Rich tables
for pretty output, and an exact 0 printed as 0."""

from __future__ import annotations

import io

import pytest
from tolerance import close

from autodiff.cli.output.text import colour, columns


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(("env", "tty", "expected"), [
    ({}, True, True), ({}, False, False), ({"NO_COLOR": "1"}, True, False), ({"NO_COLOR": ""}, True, True),
    ({"FORCE_COLOR": "1"}, False, True), ({"TERM": "dumb"}, True, False), ({"TERM": "dumb", "FORCE_COLOR": "1"}, False,
                                                                           True),
    ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),
])
def test_one_colour_decision(monkeypatch, env, tty, expected):
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert colour(_Stream(tty)) is expected


@pytest.mark.parametrize(("value", "expected"), [("40", 40), ("132", 132), ("0", None), ("-3", None), ("wide", None)])
def test_columns_follow_columns(monkeypatch, value, expected):
    monkeypatch.setenv("COLUMNS", value)
    assert columns() == expected if expected is not None else columns() > 0  # else the terminal's, or 80


def test_an_exact_zero_prints_as_zero(cli):
    out = cli("diff", "cos(x)", "x=pi", "--format", "plain")
    assert out.stdout == "d/dx cos(x) = -sin(x)\n  at the point: 0  (autograd: -1.224646799e-16)\n"
    assert cli("diff", "cos(x)", "x=pi", "--format", "json").json()["derivatives"][0]["value"] == 0.0
    out = cli("diff", "x**2", "x=-0.0", "--format", "plain")
    assert out.stdout == "d/dx x**2 = 2*x\n  at the point: 0  (autograd: 0)\n"
    out = cli("table", "-x", "x=0:1", "--format", "plain")
    assert out.stdout.splitlines()[:2] == ["  x  value  d1", "  0      0  -1"]


def test_rounding_residues_of_0_print_as_0_in_every_command(cli):
    """app/residue.py's rule, in pretty and plain output; JSON keeps the raw numbers."""
    out = cli("table", "cos(x)", "x=0:pi:pi/2", "--format", "plain")
    assert out.stdout == ("      x  value  d1\n"
                          "      0      1   0\n"
                          " 1.5708      0  -1\n"
                          "3.14159     -1   0\n")
    rows = cli("table", "cos(x)", "x=0:pi:pi/2", "--format", "json").json()["rows"]
    assert 0 < -rows[1]["value"] < 1e-14 and 0 < -rows[2]["d1"] < 1e-14  # the raw residues (their digits: libm's)
    out = cli("table", "exp(x)", "x=-40:0:20", "--format", "plain")  # tiny, but no residue: kept
    assert out.stdout.splitlines()[1] == "-40  4.24835e-18  4.24835e-18"
    out = cli("jacobian", "x*cos(y)", "x=1", "y=pi/2", "--format", "plain")
    assert out.stdout.splitlines()[1:3] == ["        x", "  root  0"]
    out = cli("hessian", "sin(x)*y", "x=pi", "y=1", "--format", "plain")
    assert out.stdout == ("hessian of root over x, y: 2 x 2 (symmetric)\n"
                          "      x   y\n"
                          "  x   0  -1\n"
                          "  y  -1   0\n")
    out = cli("gradient", "x*cos(y)", "x=1", "y=pi/2", "--format", "plain")
    assert out.stdout.splitlines()[1:6] == ["  f = 0", "  df/dx = 0", "  df/dy = -1", "  gradient = (0, -1), norm 1",
                                            "  steepest ascent along (0, -1) (the gradient / its norm), at rate 1"]
    value = cli("gradient", "x*cos(y)", "x=1", "y=pi/2", "--format", "json").json()["value"]
    assert value != 0 and close(value, 6.123233995736766e-17)  # cos(pi/2): JSON keeps the raw number
    out = cli("tangent", "sin(x)*cos(y)", "x=pi", "y=pi/2", "--no-exact", "--format", "plain")
    assert out.stdout.splitlines()[1:5] == ["  f(pi, pi/2) = 0", "  f_x(pi, pi/2) = 0", "  f_y(pi, pi/2) = 0",
                                            "  z = 0"]
    out = cli("tangent", "cos(x)", "x=pi/2", "--order", "2", "--no-exact", "--format", "plain")
    assert out.stdout.splitlines()[1:5] == ["  f(pi/2) = 0", "  f'(pi/2) = -1", "  f''(pi/2) = 0",
                                            "  y = 1.57079632679 - x"]
    pretty = cli("table", "cos(x)", "x=0:pi:pi/2", "--format", "pretty", env={"COLUMNS": "40", "NO_COLOR": "1"})
    assert [line.split() for line in pretty.stdout.splitlines()[2:]] == [["0", "1", "0"], ["1.5708", "0", "-1"],
                                                                          ["3.14159", "-1", "0"]]


def test_table_and_eval_do_not_import_sympy():
    import subprocess
    import sys

    # (gradient gives exact values by default since issue 43, as tangent does: with --no-exact it needs no SymPy)
    for args in (["table", "cos(x)", "x=0:pi:pi/2"], ["eval", "sin(x)", "x=3"], ["jacobian", "x*cos(y)", "x=1", "y=2"],
                 ["gradient", "x*cos(y)", "x=1", "y=2", "--no-exact"]):
        code = (f"import sys\nfrom autodiff.cli.main import main\ntry:\n    main({args!r})\nexcept SystemExit:\n"
                "    pass\nprint('sympy' in sys.modules, file=sys.stderr)")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert done.stderr.splitlines()[-1:] == ["False"], (args, done.stderr)


def test_pretty_tables_are_rich_tables(cli):
    out = cli("newton", "x**2 - 10", "x=3", "--format", "pretty", env={"COLUMNS": "60", "NO_COLOR": "1"})
    lines = out.stdout.splitlines()
    assert lines[1].split() == ["n", "x_n", "f(x_n)", "f'(x_n)"] and set(lines[2]) == {"─"}
    plain = cli("newton", "x**2 - 10", "x=3", "--format", "plain").stdout.splitlines()
    assert plain[1] == "n               x_n       f(x_n)  f'(x_n)"


def test_a_program_from_standard_input_keeps_no_newline():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "autodiff.cli", "diff", "-"], input="x**3\n", capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "d/dx x**3 = 3*x**2\n", "")


def test_a_pole_of_the_derivative_is_explained_not_reported_as_a_bug(cli):
    out = cli("diff", "sqrt(x)", "x=0", "--format", "plain")
    assert (out.code, out.stdout) == (0, "d/dx sqrt(x) = 1/(2*sqrt(x))\n  at the point: nan  (autograd: inf)\n")
    assert out.stderr == ("autodiff: warning: the derivative 1/(2*sqrt(x)) is not defined at x = 0 (it divides by "
                          "zero there: a pole), so the function is not differentiable at that point; the formula "
                          "gives nan and autograd inf, two spellings of 'no value'\n")


NARROW = [
    ["jacobian", "x*1e10 + y", "--var", "x=[1, 2, 3, 4, 5]", "y=2"],
    ["hessian", "(x**3).sum() * y", "--var", "x=[1, 2, 3]", "y=2"],
    ["limit", "sin(x)/x", "x=0", "--values"],
    ["check", "x * y**2", "x=2", "y=3", "--expect", "x=y**2", "--expect", "y=x*y", "--seed", "2"],
    ["gradcheck", "sin(x) * y", "x=0.5", "y=[1, 2]"],
    ["eval", "(x*W).sum()", "--var", "x=[[1, 2], [3, 4]]", "--var", "W=[[1, 2], [3, 4]]"],
    ["table", "sin(x)", "x=0:1:0.5", "--order", "3"],
]


@pytest.mark.parametrize("args", NARROW, ids=[a[0] for a in NARROW])
def test_pretty_tables_fit_a_40_column_terminal(cli, args):
    """Every renderer's tables are Rich tables: a rule under the header (box drawing), fitted to COLUMNS (a wide
    matrix is split by columns, as numpy splits a wide array), coloured only when colour is on."""
    out = cli(*args, "--format", "pretty", env={"COLUMNS": "40", "NO_COLOR": "1"})
    assert out.code in (0, 1), out.stderr
    tables = [line for line in out.stdout.splitlines() if set(line.strip()) == {"─"}]
    assert tables or args[0] == "eval", out.stdout
    plain = cli(*args, "--format", "plain", env={"COLUMNS": "40"}).stdout.splitlines()
    wide = [line for line in out.stdout.splitlines() if len(line) > 40 and line not in plain
            and not line.startswith(("  x: ", "  y: "))]  # gradcheck's sentences, under its table
    assert wide == [], out.stdout  # only text lines (the terminal wraps them) may be wider: the tables fit
    assert "\x1b[" not in out.stdout
    coloured = cli(*args, "--format", "pretty", env={"COLUMNS": "40", "FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b[" in coloured.stdout


def test_a_wide_matrix_is_split_by_columns(cli):
    out = cli("jacobian", "x*1e10", "--var", "x=[1, 2, 3, 4, 5]", "--format", "pretty",
              env={"COLUMNS": "40", "NO_COLOR": "1"})
    assert out.stdout.splitlines()[1].split() == ["x[0]", "x[1]", "x[2]"]
    assert [line.split() for line in out.stdout.splitlines()[9:11]] == [["x[3]", "x[4]"], ["─" * 23]]
    plain = cli("jacobian", "x*1e10", "--var", "x=[1, 2, 3, 4, 5]", "--format", "plain", env={"COLUMNS": "40"})
    assert plain.stdout.splitlines()[1] == "            x[0]   x[1]   x[2]   x[3]   x[4]"  # plain: one stable layout
