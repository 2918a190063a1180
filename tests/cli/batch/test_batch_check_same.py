"""`check --batch` answers every line as `check --format json` answers it alone: right answers, every kind of
wrong one (with its mistake named), programs that are not elementwise, tensors, both dtypes and orders, and
lines that fail, each in its place. The batch remembers programs, readings and SymPy's steps between lines
and runs a line's points as one vector; none of that may change an answer."""

from __future__ import annotations

import json

import pytest

LINES = [
    {"program": "x/(1 + 0.561*x**2)", "x": 1.377687, "expect": {"x": "(1 - 0.561*x**2)/(1 + 0.561*x**2)**2"}},
    {"program": "x/(1 + 0.561*x**2)", "x": -0.4, "expect": {"x": "2*x + 0.561"}},
    {"program": "x/(1 + 0.561*x**2)", "x": 0.9, "expect": {"x": "1/(1.122*x)"}},
    {"program": "sin(x**2)", "x": 1.0, "expect": {"x": "cos(x**2)"}},
    {"program": "sin(x**2)", "x": 0.3, "expect": {"x": "2x cos(x^2)"}},
    {"program": "sin(x**2)", "x": 0.3, "expect": {"x": "sin(x**2)"}},
    {"program": "x**2*sin(x)", "x": 1.5, "expect": {"x": "2*x*cos(x)"}},
    {"program": "x**2*sin(x)", "x": 1.5, "expect": {"x": "-(2*x*sin(x) + x**2*cos(x))"}},
    {"program": "x**2*sin(x)", "x": 1.5, "expect": {"x": "3*(2*x*sin(x) + x**2*cos(x))"}},
    {"program": "x**4", "x": 1.1, "expect": {"x": "12*x**2"}},
    {"program": "x**3", "x": 1.5, "expect": {"x": "3*x**2"}, "order": 2},
    {"program": "x**3", "x": 1.5, "expect": {"x": "6*x"}, "order": 2, "dtype": "float64"},
    {"program": "log(x)", "x": -1.0, "expect": {"x": "1/x"}, "samples": 1},
    {"program": "log(x)", "x": 2.0, "expect": {"x": "1/x"}, "samples": 20},
    {"program": "x**x", "x": 0.7, "expect": {"x": "x**x*(log(x) + 1)"}},
    {"program": "x*y + sin(y)", "x": 0.5, "y": 2.0, "expect": {"x": "y", "y": "x + cos(y)"}},
    {"program": "(x*x).sum()", "x": [1.0, 2.0], "expect": {"x": "2*x"}},
    {"program": "x.sum()", "x": 1.5, "expect": {"x": "1"}},
    {"program": "x**2", "x": 0.5, "expect": {"x": "2*z"}},
    {"program": "x**2 +", "x": 0.5, "expect": {"x": "2*x"}},
    {"program": "x**2", "x": 0.5, "expect": {"x": "[1, 2, 3]"}},
    {"program": "x**2", "x": 0.5},
    {"program": "exp(-0.8*x**2)", "x": 0.25, "expect": {"x": "-1.6*x*exp(-0.8*x**2)"}, "rtol": 0.0, "atol": 0.0},
    {"program": "sigmoid(1.7*x)", "x": 0.1, "expect": {"x": "sigmoid(1.7*x)*(1 - sigmoid(1.7*x))"}},
    {"program": "atan(1.2*x)", "x": 2.0, "expect": {"x": "1.2/(1 + 1.44*x**2)"}, "dtype": "float64"},
    {"program": "x**(1/3)", "x": -8.0, "expect": {"x": "1/(3*x**(2/3))"}},
]


def _single_args(line: dict) -> list[str]:
    """The `check` command line that asks what the batch line asks."""
    args = ["check", line["program"]]
    for key, value in line.items():
        if key in ("program", "expect", "samples", "dtype", "order", "rtol", "atol", "seed"):
            continue
        text = json.dumps(value) if isinstance(value, list) else repr(value)
        args.append(f"{key}={text}")
    for name, expr in line.get("expect", {}).items():
        args += ["--expect", f"{name}={expr}"]
    for key in ("samples", "dtype", "order", "rtol", "atol", "seed"):
        if key in line:
            args += [f"--{key}", str(line[key])]
    return [*args, "--format", "json"]


@pytest.mark.parametrize("rounds", [1, 2])
def test_every_line_is_answered_as_check_alone(cli, rounds):
    lines = [{**line, "seed": 100 + i} for i, line in enumerate(LINES * rounds)]
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    batch = cli("check", "--batch", "-", input=text)
    answers = [json.loads(a) for a in batch.stdout.splitlines()]
    assert [a["line"] for a in answers] == list(range(1, len(lines) + 1))
    failed = 0
    for line, answer in zip(lines, answers):
        alone = cli(*_single_args(line))
        del answer["line"]
        assert answer == json.loads(alone.stdout), line
        failed += "error" in answer or not answer["ok"]
    assert batch.code == 1 and failed > 10


def test_a_line_that_is_not_json_is_answered_in_its_place(cli):
    good = json.dumps({"program": "x**2", "x": 1.5, "expect": {"x": "2*x"}, "seed": 1})
    bad = json.dumps({"program": "x**2", "x": 1.5, "expect": {"x": "2*x"}, "samples": 0})
    out = cli("check", "--batch", "-", input=f"{good}\n{{not json\n{good}\n{bad}\n{good}\n")
    answers = [json.loads(a) for a in out.stdout.splitlines()]
    assert [a["line"] for a in answers] == [1, 2, 3, 4, 5]
    assert answers[0] == answers[2] | {"line": 1} == answers[4] | {"line": 1}
    assert answers[1]["error"]["kind"] == "syntax" and answers[3]["error"]["kind"] == "usage"


SHAPES = [("{a}*x**3*sin({b}*x)", "{a}*(3*x**2*sin({b}*x) + {b}*x**3*cos({b}*x))"),
          ("exp(-{a}*x**2)", "-2*{a}*x*exp(-{a}*x**2)"), ("x/(1 + {a}*x**2)", "(1 - {a}*x**2)/(1 + {a}*x**2)**2"),
          ("(x + {a})**3 - {b}/x", "3*(x + {a})**2 + {b}/x**2"), ("{a}*x**(1/3)", "{a}/(3*x**(2/3))")]


def test_formulas_of_one_shape_are_answered_as_check_alone(cli, monkeypatch):
    """Lines whose programs differ in their numbers only run together, their numbers in lanes (app/together.py)."""
    from autodiff.app import checking

    groups: list[int] = []
    real = checking.run_together
    monkeypatch.setattr(checking, "run_together", lambda group: groups.append(len(group)) or real(group))
    lines = [{"program": p.format(a=a, b=b), "x": x, "expect": {"x": e.format(a=a, b=b)}, "seed": 10 + i}
             for i, ((p, e), (a, b, x)) in enumerate((shape, numbers) for numbers in
                                                      ((1.742, 0.5, -1.2), (0.9, -2.25, 0.75), (1.5, 1.5, 2.0))
                                                      for shape in SHAPES)]
    lines[3] = {**lines[3], "expect": {"x": "2*x + 1.5"}}  # a wrong one among them
    batch = cli("check", "--batch", "-", input="".join(json.dumps(line) + "\n" for line in lines))
    answers = [json.loads(a) for a in batch.stdout.splitlines()]
    for line, answer in zip(lines, answers):
        del answer["line"]
        assert answer == json.loads(cli(*_single_args(line)).stdout), line
    assert [a["ok"] for a in answers].count(False) == 1 and max(groups) >= 3
