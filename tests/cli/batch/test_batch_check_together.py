"""`check --batch` runs the points of the waiting lines that check one program the same way as one vector
(cli/commands/check_batch.py, app/checking.py's run_together). Every answer must be the one the line gets alone:
right and wrong answers (mistakes named), bad lines between good ones, the same program with other settings or
expectations in the same chunk, and a chunk that must be answered line by line."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodiff.app import checking
from autodiff.cli.commands import check_batch

CLASS = [  # (program, a right answer, wrong answers)
    ("x/(1 + 0.561*x**2)", "(1 - 0.561*x**2)/(1 + 0.561*x**2)**2",
     ["2*x + 0.561", "1/(1.122*x)", "x/(1 + 0.561*x**2)"]),
    ("x**2*sin(x)", "2*x*sin(x) + x**2*cos(x)", ["2*x*cos(x)", "-(2*x*sin(x) + x**2*cos(x))", "x**2*sin(x)"]),
    ("log(1 + 1.3*x**2)", "2.6*x/(1 + 1.3*x**2)", ["1/(1 + 1.3*x**2)", "3*(2.6*x/(1 + 1.3*x**2))"]),
    ("sqrt(x**2 + 1.5)", "x/sqrt(x**2 + 1.5)", ["1/(2*sqrt(x**2 + 1.5))"]),
]


def _single_args(line: dict) -> list[str]:
    """The `check` command line that asks what the batch line asks."""
    args = ["check", line["program"]]
    for key, value in line.items():
        if key not in ("program", "expect", "samples", "dtype", "order", "rtol", "atol", "seed"):
            args.append(f"{key}={json.dumps(value) if isinstance(value, list) else repr(value)}")
    for name, expr in line.get("expect", {}).items():
        args += ["--expect", f"{name}={expr}"]
    for key in ("samples", "dtype", "order", "rtol", "atol", "seed"):
        if key in line:
            args += [f"--{key}", str(line[key])]
    return [*args, "--format", "json"]


def _class_lines() -> list[dict | str]:
    lines: list[dict | str] = []
    for i in range(48):
        program, right, wrong = CLASS[i % len(CLASS)]
        answers = [right, *wrong]
        lines.append({"program": program, "x": round(-1.9 + 0.083 * i, 4), "expect": {"x": answers[i % len(answers)]},
                      "seed": 1000 + i})
    lines[5] = "{not json"
    lines[9] = {**lines[9], "samples": 0}
    lines[14] = {**lines[14], "expect": {"x": "2*z"}}  # a name nothing binds
    lines[19] = {**lines[19], "expect": {"x": "2*x +"}}  # does not parse
    lines[22] = {**lines[22], "x": 0}  # the fixed value 0: its points are random from the second on
    lines[23] = {**lines[23], "dtype": "float64"}  # the same program with settings of its own
    lines[27] = {**lines[27], "order": 2, "expect": {"x": "2"}}
    lines[31] = {**lines[31], "rtol": 0.5, "atol": 0.0}
    lines[35] = {**lines[35], "samples": 12}
    lines[39] = {**lines[39], "x": -1.0, "program": "log(x)", "expect": {"x": "1/x"}}  # not defined at x = -1
    lines[40] = {**lines[40], "x": 3, "program": "x**x", "expect": {"x": "x**x*(log(x) + 1)"}}
    lines[41] = {**lines[41], "x": 1e-300}
    lines[43] = {**lines[43], "program": "(x*x).sum()", "x": [1.5, -0.5], "expect": {"x": "2*x"}}  # not elementwise
    lines[44] = {**lines[44], "x": [0.5, 1.5, 2.5]}  # an array: its points are drawn as it runs
    lines[45] = {**lines[45], "samples": 1}  # one sample (seeded): at the bound point only
    lines[46] = {**lines[46], "program": "x if x > 0 else -x", "expect": {"x": "1"}}
    return lines


def _text(lines: list[dict | str]) -> str:
    return "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)


@pytest.fixture
def runs(monkeypatch):
    """How many lines run_together ran as one vector."""
    counted = [0]
    real = checking.run_together

    def counting(group):
        counted[0] += len(group)
        return real(group)

    monkeypatch.setattr(checking, "run_together", counting)
    return counted


def test_a_class_answered_together_is_answered_as_each_line_alone(cli, runs):
    lines = _class_lines()
    batch = cli("check", "--batch", "-", input=_text(lines))
    answers = [json.loads(a) for a in batch.stdout.splitlines()]
    assert [a["line"] for a in answers] == list(range(1, len(lines) + 1))
    assert runs[0] >= 30  # most lines went together
    named = 0
    for line, answer in zip(lines, answers):
        del answer["line"]
        if isinstance(line, str):
            assert answer["error"]["kind"] == "syntax"
            continue
        alone = json.loads(cli(*_single_args(line)).stdout)
        if "error" in answer:  # (the batch names a line's own setting as the line's, the command as an option)
            assert answer["error"]["kind"] == alone["error"]["kind"], line
            continue
        assert answer == alone, line
        named += any("mistake" in c for c in answer.get("checks", []))
    assert named >= 10 and batch.code == 1


def _alone(monkeypatch) -> None:
    monkeypatch.setattr(check_batch.Together, "__call__", lambda self, chunk: {})


def test_the_same_lines_line_by_line_give_the_same_bytes(cli, runs, monkeypatch):
    text = _text(_class_lines())
    together = cli("check", "--batch", "-", "--seed", "5", input=text)
    assert runs[0] >= 30
    _alone(monkeypatch)
    alone = cli("check", "--batch", "-", "--seed", "5", input=text)
    assert together.stdout == alone.stdout and together.stderr == alone.stderr and together.code == alone.code


def test_a_chunk_with_a_line_that_could_draw_unseeded_goes_line_by_line(cli, runs):
    lines = [{"program": "x**2", "x": 0.5 + i, "expect": {"x": "2*x"}, "seed": i} for i in range(6)]
    lines.insert(3, {"program": "x*y", "x": 1.5, "expect": {"y": "x"}, "samples": 1})  # y: a random point
    out = cli("check", "--batch", "-", input=_text(lines))
    assert runs[0] == 0 and len(out.stdout.splitlines()) == 7 and out.code == 0


def test_a_binding_of_the_command_line_that_is_not_a_number_goes_line_by_line(cli, runs):
    lines = [{"program": "x**2*y", "x": 0.5 + i, "expect": {"x": "2*x*y"}, "seed": i} for i in range(6)]
    cli("check", "--batch", "-", "--var", "y=rand()", input=_text(lines))
    assert runs[0] == 0
    cli("check", "--batch", "-", "--var", "y=1.25", input=_text(lines))
    assert runs[0] == 6


PROGRAMS = st.sampled_from(["0.7*x**3 - x", "exp(-0.5*x**2)", "x/(1 + x**2)", "tanh(1.2*x)", "sin(x)*cos(2*x)"])
ANSWERS = st.sampled_from(["3*0.7*x**2 - 1", "-x*exp(-0.5*x**2)", "(1 - x**2)/(1 + x**2)**2",
                           "1.2*(1 - tanh(1.2*x)**2)", "cos(x)*cos(2*x) - 2*sin(x)*sin(2*x)", "2*x", "1"])
POINTS = st.floats(-50, 50, allow_nan=False) | st.sampled_from([0.0, -0.0, 1e-30, 3.0, -2.0])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(PROGRAMS, ANSWERS, POINTS, st.integers(0, 2**31), st.sampled_from([None, 2, 7])),
                min_size=2, max_size=25))
def test_lines_run_together_give_what_lines_run_alone_give(cli, monkeypatch, lines):
    text = _text([{"program": p, "x": x, "expect": {"x": e}, "seed": seed, **({"samples": n} if n else {})}
                  for p, e, x, seed, n in lines])
    together = cli("check", "--batch", "-", input=text)
    with monkeypatch.context() as patched:
        _alone(patched)
        alone = cli("check", "--batch", "-", input=text)
    assert together.stdout == alone.stdout and together.code == alone.code


def test_lines_of_many_samples_run_in_vectors_of_at_most_so_many_points(cli, runs, monkeypatch):
    monkeypatch.setattr(check_batch, "MOST_POINTS", 40)
    lines = [{"program": "x**3", "x": 0.25 * i, "expect": {"x": "3*x**2"}, "seed": i, "samples": 15} for i in range(7)]
    sizes = []
    real = checking.run_together
    monkeypatch.setattr(checking, "run_together", lambda group: sizes.append(len(group)) or real(group))
    together = cli("check", "--batch", "-", input=_text(lines))
    assert sizes == [2, 2, 2] and together.code == 0  # 7 lines: 2 + 2 + 2 together, the last alone
    _alone(monkeypatch)
    assert cli("check", "--batch", "-", input=_text(lines)).stdout == together.stdout


SHAPES = [("{a}*x**3 - {b}*x", "3*{a}*x**2 - {b}"), ("exp(-{a}*x**2)", "-2*{a}*x*exp(-{a}*x**2)"),
          ("x/({a} + x**2)", "({a} - x**2)/({a} + x**2)**2"),
          ("sigmoid({a}*x)", "{a}*sigmoid({a}*x)*(1 - sigmoid({a}*x))"),
          ("(x + {a})**3/{b}", "3*(x + {a})**2/{b}"), ("{a}/x", "-{a}/x**2")]
COEFFICIENTS = st.floats(-3, 3, allow_nan=False).map(lambda v: round(v, 3))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(SHAPES), COEFFICIENTS, COEFFICIENTS, POINTS, st.integers(0, 2**31),
                          st.sampled_from([None, "float32"])), min_size=2, max_size=30))
def test_formulas_of_one_shape_run_together_give_what_lines_alone_give(cli, monkeypatch, lines):
    text = _text([{"program": p.format(a=a, b=b), "x": x, "expect": {"x": e.format(a=a, b=b)}, "seed": seed,
                   **({"dtype": dtype} if dtype else {})} for (p, e), a, b, x, seed, dtype in lines])
    together = cli("check", "--batch", "-", input=text)
    with monkeypatch.context() as patched:
        _alone(patched)
        alone = cli("check", "--batch", "-", input=text)
    assert together.stdout == alone.stdout and together.code == alone.code
