"""One CLI: an option that several commands share means the same everywhere. Walks every command's click
parameters and fails when a shared option differs in its flags, type, default or help text, except for the
deliberate differences listed in ALLOWED, each with its reason."""

from __future__ import annotations

import click
import pytest

from autodiff.cli.group import COMMANDS, cli
from autodiff.cli.options import CALCULUS_COMMANDS, FORMAT_HELP, PYTORCH_COMMANDS, WRT_HELP


def _commands() -> dict[str, click.Command]:
    ctx = click.Context(cli)
    return {name: cli.get_command(ctx, name) for name in sorted(COMMANDS)}


def _type(param: click.Parameter) -> tuple:
    kind = param.type
    choices = tuple(getattr(kind, "choices", ()))
    bounds = (getattr(kind, "min", None), getattr(kind, "max", None), getattr(kind, "low", None),
              getattr(kind, "high", None))
    return type(kind).__name__, choices, bounds, param.multiple, getattr(param, "is_flag", False)


def _shown_opts(param: click.Option) -> tuple[str, ...]:
    return tuple(o for o in (*param.opts, *param.secondary_opts) if o not in getattr(param, "old", ()))


# (option name, attribute) -> {command: reason}: the commands whose value may differ from the others', and why
ALLOWED: dict[tuple[str, str], dict[str, str]] = {
    ("dtype", "default"): {c: "the principle: PyTorch-mirroring commands float32, calculus commands float64"
                           for c in ("check", "table", "plot")},
    ("max_elements", "default"): {c: "a script has no element limit unless asked, as PyTorch has none"
                                 for c in ("run", "repl")},
    ("max_elements", "help"): {c: "a script has no element limit unless asked, as PyTorch has none"
                              for c in ("run", "repl")},
    ("max_elements", "show_default"): {c: "a script has no element limit unless asked, as PyTorch has none"
                                      for c in ("run", "repl")},
    ("order", "help"): {c: "what N counts is the command's (the N-th derivative, up to N, a degree, 1 or 2)"
                        for c in ("check", "critical", "diff", "eval", "plot", "table", "tangent")},
    ("order", "type"): {c: "check and critical answer first and second derivatives only (1 or 2)"
                        for c in ("check", "critical")},
    ("output_format", "type"): {"diff": "adds latex", "table": "adds csv", "graph": "adds dot and mermaid",
                                "plot": "a drawing has no JSON"},
    ("wrt", "help"): {"diff": "adds x,y for a mixed derivative", "eval": "one leaf (--order N)",
                      "newton": "Newton's method in one variable"},
    ("wrt", "type"): {"eval": "one leaf (--order N)", "newton": "Newton's method in one variable"},
    ("wrt", "metavar"): {"diff": "NAME[,NAME...]: a mixed derivative"},
    ("rtol", "default"): {"gradcheck": "torch.autograd.gradcheck's defaults (finite differences are inexact); "
                                       "check's depend on --dtype"},
    ("atol", "default"): {"gradcheck": "torch.autograd.gradcheck's defaults (finite differences are inexact); "
                                       "check's depend on --dtype"},
    ("rtol", "show_default"): {"gradcheck": "a number; check's default is said in words (it depends on --dtype)"},
    ("atol", "show_default"): {"gradcheck": "a number; check's default is said in words (it depends on --dtype)"},
    ("batch", "help"): {c: "names what the command does per line (Evaluate, Check, Derive)"
                        for c in ("check", "diff", "eval")},
}


def _attributes(param: click.Option) -> dict[str, object]:
    return {"opts": _shown_opts(param), "type": _type(param), "default": param.default, "help": param.help,
            "metavar": param.metavar, "show_default": param.show_default}


def test_a_shared_option_is_the_same_everywhere():
    seen: dict[str, dict[str, dict[str, object]]] = {}
    for name, command in _commands().items():
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                seen.setdefault(param.name, {})[name] = _attributes(param)
    problems = []
    for option, where in seen.items():
        if len(where) < 2:
            continue
        for attribute in ("opts", "type", "default", "help", "metavar", "show_default"):
            allowed = ALLOWED.get((option, attribute), {})
            values = {command: a[attribute] for command, a in where.items() if command not in allowed}
            if len({repr(v) for v in values.values()}) > 1:
                problems.append(f"{option} {attribute}: {values}")
    assert problems == []


def test_every_allowed_difference_is_still_needed():
    commands = _commands()
    for (option, _), where in ALLOWED.items():
        for command in where:
            if command in commands:
                assert any(p.name == option for p in commands[command].params), (option, command)


def test_dtype_follows_the_principle():
    for name, command in _commands().items():
        dtype = next((p for p in command.params if p.name == "dtype"), None)
        if dtype is None:
            assert name in CALCULUS_COMMANDS or name == "ops", name  # these always compute in float64
            continue
        expected = "float32" if name in PYTORCH_COMMANDS else "float64"
        assert name in PYTORCH_COMMANDS + CALCULUS_COMMANDS
        assert dtype.default == expected, name


def test_shared_help_texts_start_the_same():
    for name, command in _commands().items():
        for param in command.params:
            if param.name == "wrt":
                assert param.help.startswith(WRT_HELP), name
            if param.name == "output_format":
                assert param.help == FORMAT_HELP, name
                assert {"pretty", "plain"} <= set(param.type.choices), name


@pytest.mark.parametrize("args", [["eval", "x**2", "x=1", "--order", "0"], ["diff", "x**2", "--order", "0"],
                                  ["check", "x**2", "--expect", "2*x", "--order", "3"]])
def test_order_is_refused_in_one_way(args, capsys):
    from autodiff.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(args)
    err = capsys.readouterr().err
    assert done.value.code == 2
    got = args[-1]
    words = "between 1 and 2" if args[0] == "check" else "at least 1"
    assert err == f"autodiff: usage error: --order must be {words}, got {got}\n"


# ---------------------------------------------------------------------------- the options made one
def _autodiff(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """A real `autodiff` process (standard input is process-level)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "autodiff.cli", *args], input=input, capture_output=True,
                          text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_file_dash_reads_standard_input_like_program_dash():
    assert _autodiff("eval", "-f", "-", "x=3", "--format", "json", input="x**2\n")[:2] == \
        _autodiff("eval", "-", "x=3", "--format", "json", input="x**2\n")[:2] == \
        (0, '{"root": {"name": null, "value": 9.0, "shape": [], "dtype": "float32", "requires_grad": true, '
            '"grad_fn": "PowBackward0"}, "passes": [{"root": null, "grads": {"x": 6.0}}], "grads": {"x": 6.0}}\n')
    code, _, err = _autodiff("eval", "-f", "-", "--batch", "-", input="x\n")
    assert (code, err) == (2, "autodiff: usage error: the program and --batch cannot both read standard input: give "
                              "the program as an argument or with --file, or in each line as \"program\"\n")


def test_eval_order_with_several_leaves_names_the_way_out(cli):
    out = cli("eval", "x*y", "x=1", "y=2", "--order", "2")
    assert (out.code, out.stderr) == (2, "autodiff: usage error: --order needs exactly one leaf that requires grad; "
                                         "the program has 2 (x, y): pick one with --wrt, e.g. --wrt x\n")
    out = cli("eval", "x**2*y", "x=1", "y=2", "--order", "2", "--wrt", "x", "--format", "json")
    assert (out.code, out.json()["passes"]) == (0, [{"root": None, "grads": {"x": 4.0}, "order": 1},
                                                     {"root": None, "grads": {"x": 4.0}, "order": 2}])
    out = cli("eval", "x*y", "x=1", "y=2", "--wrt", "z")
    assert (out.code, out.stderr) == (2, "autodiff: usage error: --wrt z: not a leaf that requires grad (the "
                                         "program's: x, y)\n")


def test_check_expect_without_name_and_without_a_point(cli):
    out = cli("check", "x**2", "--expect", "2*x", "--seed", "0", "--format", "json")
    document = out.json()
    assert (out.code, document["ok"], document["notes"]) == (0, True, [
        "x: not bound, so every point is random in [-2, 2) (a value rand()*4-2); bind x=VALUE to start from a "
        "point of your own"])
    out = cli("check", "x**2", "x=1", "--expect", "2*x", "--samples", "1", "--format", "json")
    assert (out.code, out.json()["ok"]) == (0, True)
    out = cli("check", "x*y", "x=1", "y=2", "--expect", "y")
    assert (out.code, out.stderr) == (2, "autodiff: usage error: --expect 'y': which variable is it the derivative "
                                         "for? The program has 2 (x, y): write NAME=EXPR, e.g. --expect 'x=y'\n")


def test_backward_takes_an_optional_name_in_eval_and_graph(cli):
    out = cli("graph", "c = a*b; d = c + a", "a=2", "b=3", "--backward", "c", "--format", "plain")
    assert (out.code, out.stdout) == (0, "AddBackward0  -> d  grad: None\n|-- MulBackward0  -> c  grad: 1.\n"
                                         "|   |-- AccumulateGrad  a  [2]  grad: 3.\n"
                                         "|   `-- AccumulateGrad  b  grad: 2.\n`-- AccumulateGrad  [2] (shown above)\n")
    flag = cli("graph", "c = a*b", "--backward", "a=2", "b=3", "--format", "plain")
    assert (flag.code, flag.stdout) == (0, "MulBackward0  -> c  grad: 1.\n|-- AccumulateGrad  a  grad: 3.\n"
                                           "`-- AccumulateGrad  b  grad: 2.\n")
    out = cli("eval", "y = x**2; z = x**3", "x=1", "--backward", "y", "--backward", "--format", "json")
    assert [p["root"] for p in out.json()["passes"]] == ["y", "z"]


def test_former_spellings_still_work(cli):
    assert cli("graph", "x*2", "x=1", "--to", "dot").stdout == cli("graph", "x*2", "x=1", "--format", "dot").stdout
    out = cli("graph", "x*2", "x=1", "--to", "dot", "--format", "json")
    assert (out.code, out.stdout) == (2, '{"error": {"kind": "usage", "message": "--to dot and --format json '
                                         'disagree: give --format alone (--to is its former spelling)"}}\n')
    old, new = (cli("newton", "x**2 - 2", "x=1", flag, "2", "--format", "json") for flag in ("--steps", "--iterations"))
    assert (old.code, old.stdout) == (new.code, new.stdout) == (0, new.stdout)  # the 2 steps asked, done
    assert "--steps" not in cli("newton", "--help").stdout
