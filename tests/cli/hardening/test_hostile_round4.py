"""Hostile input, round four (issue #44), on the commands that parse programs with the grammar: every probe is
a typed error with the contract's exit code (or the right answer), and nothing runs unbounded."""

from __future__ import annotations

import json

import pytest

BIG = "9" * 5000


@pytest.mark.parametrize("args", [
    ("diff", "8^5000*x"),
    ("diff", "8**5000*x", "--format", "json"),
])
def test_an_exact_power_past_the_digits_python_writes_is_a_limit_error(cli, args):
    outcome = cli(*args)
    assert outcome.code == 1, outcome
    assert "limit" in outcome.stderr + outcome.stdout and "internal error" not in outcome.stderr + outcome.stdout
    assert "8**5000 has about 4.52e+03 digits" in outcome.stderr + outcome.stdout


@pytest.mark.long
def test_an_exact_value_past_the_digits_python_writes_is_a_limit_error(cli):
    outcome = cli("diff", "(x+1)^5000", "x=7", "--exact")
    assert outcome.code == 1 and outcome.stdout == ""
    assert outcome.stderr.startswith("autodiff: limit error: the result holds an exact number of more than 4,300 "
                                     "digits, too long to write out (hint: ")
    assert cli("diff", "(x+1)^5000", "x=7").code == 0  # the value as a float: inf, as autograd's


@pytest.mark.parametrize("command", ["eval", "diff"])
def test_a_5000_digit_number_in_a_batch_line_is_the_limit_error_the_command_line_gives(cli, command):
    outcome = cli(command, "x*2", "--batch", "-", input=f'{{"x": {BIG}}}\n{{"x": 2}}\n')
    first, second = (json.loads(line) for line in outcome.stdout.splitlines())
    message = "the integer has 5,000 digits; the limit is 4,000"
    assert first == {"line": 1, "error": {"kind": "limit", "message": message}}
    assert second["line"] == 2 and "error" not in second  # and the next line is answered
    assert outcome.code == 1
    alone = cli(command, "x*2", f"x={BIG}", "--format", "json")
    assert alone.code == 1 and alone.json()["error"]["message"] == first["error"]["message"]


def test_a_number_past_2_63_is_the_same_float_in_a_batch_line_and_on_the_command_line(cli):
    number = "12345678901234567890123456789"
    alone = cli("eval", "x*2", f"x={number}", "--format", "json").json()
    line = json.loads(cli("eval", "x*2", "--batch", "-", input=f'{{"x": {number}}}\n').stdout)
    assert line["root"] == alone["root"] and line["grads"] == alone["grads"]
    assert alone["root"]["value"] == pytest.approx(2.4691358e28, rel=1e-6)
    lists = json.loads(cli("eval", "x.sum()", "--batch", "-", input=f'{{"x": [1, {number}]}}\n').stdout)
    assert lists["root"]["value"] == pytest.approx(1.2345679e28, rel=1e-6)


@pytest.mark.long
@pytest.mark.parametrize("program", ["x**x", "sin(sin(sin(sin(sin(x)))))"])
def test_tangent_at_order_10_meets_the_node_guard_eval_table_and_plot_have(cli, program):
    outcome = cli("tangent", program, "x=1", "--order", "10")
    assert outcome.code == 1
    assert "autodiff: limit error: --order 10: the graph grows too fast with the order (derivative 9 has" \
        in outcome.stderr
    assert "limit error: --order 10: the graph grows too fast" in cli("eval", program, "x=1", "--order", "10").stderr
    assert cli("tangent", program, "x=1", "--order", "4").code == 0


@pytest.mark.parametrize(("program", "message", "excerpt"), [
    ("|x", "column 1: unclosed '|' opened at line 1, column 1", "|x\n^"),
    ("x + |x", "column 5: unclosed '|' opened at line 1, column 5", "x + |x\n    ^"),
    ("|x| + 2x)", "column 9: unexpected ')'", "|x| + 2x)\n        ^"),
    ("2x + (x", "column 6: unclosed '(' opened at line 1, column 6", "2x + (x\n     ^"),
])
def test_a_mistake_in_textbook_notation_is_shown_in_the_users_text(cli, program, message, excerpt):
    for command in (("diff", program), ("table", program, "x=0:1")):
        outcome = cli(*command)
        assert outcome.code == 2
        assert outcome.stderr == f"autodiff: syntax error at line 1, {message}\n{excerpt}\n"


@pytest.mark.parametrize(("program", "message"), [
    ("torch", "the program's last statement gives a module, not a tensor"),
    ("x + torch", "unsupported operand types for +: Tensor and module"),
    ("torch(1)", "'module' object is not callable"),
    ("float", "the program's last statement gives a built-in function, not a tensor"),
    ("sin", "the program's last statement gives a built-in function, not a tensor"),
    ("x in torch", "argument of type 'module' is not iterable"),
    ("torch.x = 1", "cannot set attribute 'x' of a module"),
])
def test_messages_name_pythons_types_not_the_interpreters_classes(cli, program, message):
    outcome = cli("eval", program, "x=1")
    assert outcome.code == 1 and message in outcome.stderr, outcome
    for internal in ("Namespace", "TypeFunction", "GradMode", "UserFunction"):
        assert internal not in outcome.stderr


CYRILLIC_X = "\u0445"


@pytest.mark.parametrize("args", [
    ("eval", "x*2", "x=2", f"{CYRILLIC_X}=1"),
    ("eval", "x*2", "--var", f"{CYRILLIC_X}=1"),
    ("diff", "x*2", "x=2", "--const", f"{CYRILLIC_X}=1"),
    ("table", "x*2", "x=0:1", f"{CYRILLIC_X}=1"),
])
def test_a_binding_named_with_a_lookalike_letter_is_refused_naming_it(cli, args):
    outcome = cli(*args)
    assert outcome.code == 2 and outcome.stdout == ""
    assert outcome.stderr.startswith("autodiff: usage error: ")
    assert "'\u0445' has the letter '\u0445' (U+0445 CYRILLIC SMALL LETTER HA), which no name of the language has " \
           "(names use only ASCII letters, digits and _); it looks like 'x': type that name in Latin letters" \
        in outcome.stderr


def test_a_batch_line_binding_a_lookalike_letter_is_refused_and_the_next_line_answered(cli):
    outcome = cli("eval", "x*2", "--batch", "-", input=f'{{"{CYRILLIC_X}": 1, "x": 2}}\n{{"x": 2}}\n')
    first, second = (json.loads(line) for line in outcome.stdout.splitlines())
    assert first["error"]["kind"] == "usage" and "U+0445 CYRILLIC SMALL LETTER HA" in first["error"]["message"]
    assert second["root"]["value"] == 4.0 and outcome.code == 1


def test_greek_letters_still_bind_their_names_in_the_calculus_commands(cli):
    outcome = cli("diff", "\u03b8*2", "\u03b8=1", "--format", "plain")
    assert outcome.code == 0 and "d/dtheta theta*2 = 2" in outcome.stdout


@pytest.mark.parametrize(("make", "words"), [
    ("read-only", "the file is read-only; it is not replaced"),
    ("fifo", "it is a FIFO, not a regular file"),
    ("folder", "it is a folder, not a regular file"),
    ("link to read-only", "the file is read-only; it is not replaced"),
])
def test_plot_out_never_replaces_a_read_only_file_or_a_fifo(cli, tmp_path, monkeypatch, make, words):
    pytest.importorskip("matplotlib")
    import os

    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))
    path = tmp_path / "image.png"
    if make == "fifo":
        os.mkfifo(path)
    elif make == "folder":
        path.mkdir()
    else:
        real = tmp_path / "real.png" if make == "link to read-only" else path
        real.write_bytes(b"keep")
        real.chmod(0o444)
        if real != path:
            path.symlink_to(real)
    kind = path.lstat().st_mode
    outcome = cli("plot", "x*x", "x=0:1", "--out", str(path))
    assert outcome.code == 2 and f"autodiff: io error: --out {path}: {words}" in outcome.stderr
    assert path.lstat().st_mode == kind  # the same kind of file, not replaced
    if make in ("read-only", "link to read-only"):
        assert path.read_bytes() == b"keep"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".autodiff")] == []
    fresh = tmp_path / "new.png"
    assert cli("plot", "x*x", "x=0:1", "--out", str(fresh)).code == 0 and fresh.stat().st_size > 1000


@pytest.mark.parametrize(("program", "code", "words"), [
    ("len(range(2**64))", 1, "value error at line 1, column 5: 'float' object cannot be interpreted as an integer"),
    ("len(range(-9223372036854775807, 9223372036854775807))", 0, "root = tensor(1.8447e+19)"),
    ("sum(range(10**18))", 0, "root = tensor(5.0000e+35)"),  # past int64: a float, as the language's numbers
    ("list(range(10**18))", 1, "limit error at line 1, column 1: list() of 1,000,000,000,000,000,000 items"),
])
def test_huge_ranges_are_answered_or_refused_at_once(cli, program, code, words):
    outcome = cli("eval", program)
    assert outcome.code == code and words in outcome.stdout + outcome.stderr, outcome


def test_a_batch_integer_past_floats_range_is_infinite_as_on_the_command_line(cli):
    for sign in ("", "-"):
        number = sign + "1" + "0" * 400
        line = json.loads(cli("eval", "x*2", "--batch", "-", input=f'{{"x": {number}}}\n').stdout)
        alone = cli("eval", "x*2", f"x={number}" if not sign else f"x=({number})", "--format", "json").json()
        assert line["root"]["value"] == alone["root"]["value"] == f"{sign}inf"
