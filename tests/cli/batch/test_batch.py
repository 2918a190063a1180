"""`autodiff eval PROGRAM --batch FILE|-`: one JSON answer per input line, errors per line, exit codes."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time

import pytest

PROGRAM = "(2*x)**3"


def answers(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


# ---------------------------------------------------------------------------- answers
def test_each_line_gets_the_eval_json_document_with_its_line_number(cli):
    out = cli("eval", PROGRAM, "--batch", "-", input='{"x": 1.5}\n{"x": [1, 2]}\n')
    assert out.code == 1  # the second line's output is not a scalar
    assert out.stdout.splitlines()[0] == (
        '{"line": 1, "root": {"name": null, "value": 27.0, "shape": [], "dtype": "float32", "requires_grad": true, '
        '"grad_fn": "PowBackward0"}, "passes": [{"root": null, "grads": {"x": 54.0}}], "grads": {"x": 54.0}}'
    )
    assert answers(out.stdout)[1] == {"line": 2, "error": {
        "kind": "autograd",
        "message": "grad can be implicitly created only for scalar outputs: this output has shape (2,), 2 elements",
        "hint": "pass --grad-tensor 'ones(2)' (the output's shape) or reduce the output with .sum()"}}


def test_a_line_answers_exactly_what_eval_format_json_prints(cli):
    alone = cli("eval", "y = 2 * x; z = y ** 3; out = z.mean()", "--var", "x=[[1.8528, 0.2083], [-1.5296, 0.3136]]",
                "--trace", "--format", "json")
    batch = cli("eval", "y = 2 * x; z = y ** 3; out = z.mean()", "--trace", "--batch", "-",
                input='{"x": [[1.8528, 0.2083], [-1.5296, 0.3136]]}\n')
    assert batch.code == 0
    assert batch.stderr == ""
    assert batch.stdout == '{"line": 1, ' + alone.stdout[1:]


def test_all_lines_succeed_exit_0(cli):
    out = cli("eval", PROGRAM, "--batch", "-", input='{"x": 0}\n{"x": 1}\n{"x": -1}\n')
    assert out.code == 0
    assert out.stderr == ""
    assert [(a["line"], a["root"]["value"], a["grads"]["x"]) for a in answers(out.stdout)] == [
        (1, 0.0, 0.0), (2, 8.0, 24.0), (3, -8.0, 24.0)]


def test_blank_lines_are_skipped_but_counted(cli):
    out = cli("eval", PROGRAM, "--batch", "-", input='\n{"x": 1}\n   \n\n{"x": 2}\n\n')
    assert out.code == 0
    assert [a["line"] for a in answers(out.stdout)] == [2, 5]


def test_no_lines_no_output(cli):
    out = cli("eval", PROGRAM, "--batch", "-", input="")
    assert (out.code, out.stdout, out.stderr) == (0, "", "")


def test_each_line_is_a_fresh_graph(cli):
    # Gradients would accumulate into a leaf shared between lines; every line must show 54 alone.
    out = cli("eval", PROGRAM, "--batch", "-", input='{"x": 1.5}\n' * 3)
    assert [a["grads"]["x"] for a in answers(out.stdout)] == [54.0, 54.0, 54.0]
    assert [len(a["passes"]) for a in answers(out.stdout)] == [1, 1, 1]


def test_command_line_bindings_are_defaults_for_every_line(cli):
    out = cli("eval", "x * y + c", "y=10", "--const", "c=100", "--batch", "-",
              input='{"x": 1}\n{"x": 2, "y": 3}\n{"x": 1, "c": 5}\n')
    assert out.code == 0
    got = [(a["root"]["value"], a["grads"]) for a in answers(out.stdout)]
    assert got == [
        (110.0, {"y": 1.0, "c": None, "x": 10.0}),
        (106.0, {"y": 2.0, "c": None, "x": 3.0}),
        # a line's binding wins over --const, and binds a leaf that requires grad
        (15.0, {"y": 1.0, "c": 1.0, "x": 10.0}),
    ]


def test_eval_options_apply_to_every_line(cli):
    out = cli("eval", "y = x**2; z = x**3", "--backward", "y", "--backward", "z", "--batch", "-",
              input='{"x": [1.0]}\n{"x": [2.0]}\n')
    assert [[p["grads"]["x"] for p in a["passes"]] for a in answers(out.stdout)] == [[[2.0], [5.0]], [[4.0], [16.0]]]
    out = cli("eval", "z = 2 * x", "--grad-tensor", "[1, 0.5]", "--batch", "-", input='{"x": [3, 4]}\n')
    assert answers(out.stdout)[0]["grads"]["x"] == [2.0, 1.0]
    out = cli("eval", "sin(x)", "--order", "2", "--batch", "-", input='{"x": 0}\n')
    assert answers(out.stdout)[0]["grads"]["x"] == -0.0


def test_trace_adds_the_graph_to_each_answer(cli):
    out = cli("eval", "c = a + b; e = c * d", "--trace", "--batch", "-", input='{"a": 2, "b": 3, "d": 4}\n')
    document = answers(out.stdout)[0]
    assert document["graph"] == {"root": 0, "nodes": [
        {"id": 0, "name": "MulBackward0", "next": [[1, 0], [4, 0]]},
        {"id": 1, "name": "AddBackward0", "next": [[2, 0], [3, 0]]},
        {"id": 2, "name": "AccumulateGrad", "next": [], "variable": "a"},
        {"id": 3, "name": "AccumulateGrad", "next": [], "variable": "b"},
        {"id": 4, "name": "AccumulateGrad", "next": [], "variable": "d"}]}
    assert document["grads"] == {"a": 4.0, "b": 4.0, "d": 5.0, "c": None, "e": None}


def test_a_seed_is_applied_afresh_to_every_line(cli):
    out = cli("eval", "x * randn()", "--seed", "3", "--batch", "-", input='{"x": 1}\n{"x": 1}\n')
    first, second = answers(out.stdout)
    assert first["root"]["value"] == second["root"]["value"]
    alone = cli("eval", "x * randn()", "x=1", "--seed", "3", "--format", "json").json()
    assert alone["root"]["value"] == first["root"]["value"]


def test_float64_and_non_finite_values(cli):
    out = cli("eval", "log(x)", "--dtype", "float64", "--batch", "-", input='{"x": 0}\n{"x": -1}\n')
    assert out.code == 0
    values = [(a["root"]["value"], a["root"]["dtype"], a["grads"]["x"]) for a in answers(out.stdout)]
    assert values == [("-inf", "float64", "inf"), ("nan", "float64", -1.0)]


def test_batch_reads_a_file(cli, tmp_path):
    path = tmp_path / "points.jsonl"
    path.write_text('{"x": 1}\n{"x": 2}\n')
    out = cli("eval", PROGRAM, "--batch", str(path))
    assert out.code == 0
    assert [a["grads"]["x"] for a in answers(out.stdout)] == [24.0, 96.0]


def test_the_program_can_come_from_a_file(cli, tmp_path):
    path = tmp_path / "f.autodiff"
    path.write_text("y = 2 * x\nout = y ** 3\n")
    out = cli("eval", "-f", str(path), "--batch", "-", input='{"x": 1}\n')
    assert answers(out.stdout)[0]["root"]["name"] == "out"


# ---------------------------------------------------------------------------- bad lines
BAD_LINES = [
    ("not json", {"kind": "syntax", "message": "the line is not JSON: Expecting value at column 1",
                  "hint": 'write one JSON object of bindings per line, e.g. {"x": [1, 2], "y": 3}'}),
    ('{"x": 1', {"kind": "syntax",
                 "message": "the line is not JSON: Expecting ',' delimiter at column 8",
                 "hint": 'write one JSON object of bindings per line, e.g. {"x": [1, 2], "y": 3}'}),
    ("[1, 2]", {"kind": "value", "message": "the line is an array, not a JSON object of bindings",
                "hint": 'write one JSON object of bindings per line, e.g. {"x": [1, 2], "y": 3}'}),
    ("3", {"kind": "value", "message": "the line is a number, not a JSON object of bindings",
           "hint": 'write one JSON object of bindings per line, e.g. {"x": [1, 2], "y": 3}'}),
    ('{"x": "randn(2)"}', {"kind": "value",
                           "message": "the value of x is a string: give a number or (nested) lists of numbers"}),
    ('{"x": [1, true]}', {"kind": "value",
                          "message": "the value of x holds a boolean: give a number or (nested) lists of numbers"}),
    ('{"x": null}', {"kind": "value", "message": "the value of x is null: give a number or (nested) lists of numbers"}),
    ('{"x": {"a": 1}}', {"kind": "value",
                         "message": "the value of x is an object: give a number or (nested) lists of numbers"}),
    ('{"x": [[1, 2], [3]]}', {"kind": "value"}),
    ('{"__class__": 1}', {"kind": "usage", "message": "'__class__' is not a valid name to bind (letters, digits and "
                                                      "_, not starting with _)"}),
    ('{"y": 1}', {"kind": "name", "message": "unknown name 'x'",
                  "hint": "bind it with --var x=VALUE, or assign it first", "line": 1, "column": 4}),
]


@pytest.mark.parametrize(("line", "error"), BAD_LINES, ids=[line for line, _ in BAD_LINES])
def test_a_bad_line_gets_an_error_document_and_the_others_go_on(cli, line, error):
    out = cli("eval", PROGRAM, "--batch", "-", input=f'{{"x": 1}}\n{line}\n{{"x": 2}}\n')
    assert out.code == 1
    first, bad, last = answers(out.stdout)
    assert (first["line"], first["grads"]["x"]) == (1, 24.0)
    assert (last["line"], last["grads"]["x"]) == (3, 96.0)
    assert set(bad) == {"line", "error"}
    assert bad["line"] == 2
    for key, want in error.items():
        assert bad["error"][key] == want
    assert set(bad["error"]) <= {"kind", "message", "hint", "line", "column"}
    assert out.stderr == "autodiff: 1 of 3 input lines failed (the first at line 2; see its error document on stdout)\n"


def test_a_line_that_is_not_utf8_is_an_io_error(cli):
    out = cli("eval", PROGRAM, "--batch", "-", input=b'{"x": "\xff"}\n{"x": 1}\n')
    assert out.code == 1
    bad, good = answers(out.stdout)
    assert bad == {"line": 1, "error": {"kind": "io", "message": "the line is not UTF-8 text"}}
    assert good["grads"]["x"] == 24.0


def test_a_line_whose_backward_fails_and_a_shape_error(cli):
    lines = ('{"x": [[1, 2], [3, 4]], "y": [[1], [2]]}\n'  # a (2, 1) result: backward needs a gradient
             '{"x": [1, 2], "y": [1, 2, 3]}\n'  # (2,) @ (3,)
             '{"x": [1, 2], "y": [3, 4]}\n')
    out = cli("eval", "x @ y", "--batch", "-", input=lines)
    assert out.code == 1
    backward, shape, fine = answers(out.stdout)
    assert backward == {"line": 1, "error": {
        "kind": "autograd",
        "message": "grad can be implicitly created only for scalar outputs: this output has shape (2, 1), 2 elements",
        "hint": "pass --grad-tensor 'ones(2, 1)' (the output's shape) or reduce the output with .sum()"}}
    assert shape["line"] == 2 and shape["error"]["kind"] == "shape"
    assert (shape["error"]["line"], shape["error"]["column"]) == (1, 1)
    assert fine["root"]["value"] == 11.0 and fine["grads"] == {"x": [3.0, 4.0], "y": [1.0, 2.0]}


def test_a_line_over_the_element_limit(cli):
    out = cli("eval", "x.sum()", "--max-elements", "4", "--batch", "-", input='{"x": [1, 2, 3, 4, 5]}\n{"x": [1, 2]}\n')
    assert out.code == 1
    bad, good = answers(out.stdout)
    assert bad["error"]["kind"] == "limit"
    assert bad["error"]["message"] == "the value of x has 5 elements; the limit is 4"
    assert good["root"]["value"] == 3.0


def test_deeply_nested_json_is_a_limit_error(cli):
    out = cli("eval", PROGRAM, "--batch", "-", input='{"x": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    assert out.code == 1
    assert answers(out.stdout)[0]["error"]["kind"] == "limit"


# ---------------------------------------------------------------------------- whole-run errors
def test_a_program_that_does_not_parse_stops_before_the_first_line(cli):
    out = cli("eval", "(2*x", "--batch", "-", input='{"x": 1}\n')
    assert out.code == 2
    assert answers(out.stdout) == [{"error": {"kind": "syntax", "message": "unclosed '(' opened at line 1, column 1",
                                              "line": 1, "column": 1}}]
    assert out.stderr.splitlines()[0] == ("autodiff: syntax error at line 1, column 1: unclosed '(' opened at line 1, "
                                          "column 1")


def test_a_bad_default_binding_stops_before_the_first_line(cli):
    out = cli("eval", PROGRAM, "y=[1, 2", "--batch", "-", input='{"x": 1}\n')
    assert out.code == 2
    assert answers(out.stdout)[0]["error"]["kind"] == "syntax"


@pytest.mark.parametrize("fmt", ["plain", "pretty"])
def test_batch_answers_are_json_only(cli, fmt):
    out = cli("eval", PROGRAM, "--batch", "-", "--format", fmt, input='{"x": 1}\n')
    assert out.code == 2
    assert out.stderr == f"autodiff: usage error: --batch writes one JSON document per line; drop --format {fmt}\n"


def test_program_and_batch_cannot_both_read_stdin(cli):
    out = cli("eval", "-", "--batch", "-", input="x\n")
    assert out.code == 2
    assert out.stderr == ("autodiff: usage error: the program and --batch cannot both read standard input: give the "
                          "program as an argument or with --file, or in each line as \"program\"\n")


def test_an_unreadable_batch_file_is_an_io_error(cli, tmp_path):
    out = cli("eval", PROGRAM, "--batch", str(tmp_path / "missing.jsonl"))
    assert out.code == 2
    assert answers(out.stdout)[0]["error"]["kind"] == "io"
    assert out.stderr.startswith("autodiff: io error: --batch ")


# ---------------------------------------------------------------------------- the program is parsed once
def test_the_program_is_parsed_once_whatever_the_number_of_lines(cli, monkeypatch):
    from autodiff import grammar
    from autodiff.app import session
    from autodiff.grammar import syntax as parser

    seen: list[str] = []
    real = parser.parse

    def counting(source: str):
        seen.append(source)
        return real(source)

    monkeypatch.setattr(parser, "parse", counting)
    monkeypatch.setattr(session, "parse", counting)
    monkeypatch.setattr(grammar.interpreter, "parse", counting)  # the VALUE of a binding (constant())
    session.forget_parsed()
    out = cli("eval", PROGRAM, "y=2", "--batch", "-", input='{"x": 1}\n' * 50)
    assert out.code == 0
    assert len(out.stdout.splitlines()) == 50
    assert seen.count(PROGRAM) == 1
    # the program once; the default's VALUE once per dtype: the run's, and float64 for the precision check
    assert sorted(seen) == sorted([PROGRAM, "2", "2"])


# ---------------------------------------------------------------------------- through a pipe
def _command() -> list[str]:
    return [sys.executable, "-m", "autodiff.cli"]


def _read_line(stream, timeout: float) -> bytes:
    """One line from a pipe, or fail after `timeout` seconds (an unflushed answer never arrives)."""
    deadline = time.monotonic() + timeout
    data = b""
    while not data.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"no answer within {timeout} s (got {data!r})")
        ready, _, _ = select.select([stream], [], [], remaining)
        if ready:
            chunk = os.read(stream.fileno(), 1)
            if not chunk:
                break
            data += chunk
    return data


@pytest.mark.skipif(sys.platform == "win32", reason="select() on pipes needs a POSIX system")
def test_each_answer_is_flushed_before_the_next_line_is_read():
    # A co-process: send one line, wait for its answer, then send the next, with stdin still open.
    process = subprocess.Popen([*_command(), "eval", PROGRAM, "--batch", "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for x, grad in ((1, 24.0), (2, 96.0), (0.5, 6.0)):
            process.stdin.write(json.dumps({"x": x}).encode() + b"\n")
            process.stdin.flush()
            answer = json.loads(_read_line(process.stdout, timeout=20))
            assert answer["grads"]["x"] == grad
        process.stdin.close()
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.stdout.close()
        process.stderr.close()


def test_the_installed_command_reads_stdin_lines():
    done = subprocess.run([*_command(), "eval", "(2*x)**3 + sin(x)", "--batch", "-"], input='{"x": 0}\n\n{"x": "a"}\n',
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 1
    first, second = answers(done.stdout)
    assert (first["line"], first["root"]["value"], first["grads"]["x"]) == (1, 0.0, 1.0)
    assert second["line"] == 3 and second["error"]["kind"] == "value"
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------------------- a program per line
def test_a_line_may_carry_its_own_program_and_settings(cli):
    lines = ['{"program": "x**2*sin(x)", "x": 1.5}', '{"x": 2}', '{"program": "x**2", "x": 0.1, "dtype": "float64"}',
             '{"program": "x**3", "x": 2, "order": 2}']
    out = cli("eval", "(2*x)**3", "--batch", "-", input="\n".join(lines) + "\n")
    assert out.code == 0, out.stdout
    docs = answers(out.stdout)
    for doc, line in zip(docs, lines):
        alone = json.loads(line)
        args = [alone.pop("program", "(2*x)**3")]
        for key in ("dtype", "order"):
            if key in alone:
                args += [f"--{key}", str(alone.pop(key))]
        args += [f"{name}={value}" for name, value in alone.items()]
        one = cli("eval", *args, "--format", "json")
        assert doc == {"line": doc["line"], **one.json()}, (line, one.stdout)
    assert docs[2]["root"]["dtype"] == "float64"


def test_each_line_program_is_parsed_once(cli, monkeypatch):
    from autodiff.app import session

    seen: list[str] = []
    real = session.parse
    monkeypatch.setattr(session, "parse", lambda source: seen.append(source) or real(source))
    session.forget_parsed()
    lines = [f'{{"program": "x**2 + 1", "x": {i}}}' for i in range(20)] + ['{"program": "sin(x)", "x": 1}'] * 5
    out = cli("eval", "--batch", "-", input="\n".join(lines) + "\n")
    assert out.code == 0
    assert sorted(seen) == ["sin(x)", "x**2 + 1"]


def test_a_bad_line_program_is_that_lines_error(cli):
    out = cli("eval", "--batch", "-", input='{"program": "x**", "x": 1}\n{"x": 1}\n{"program": 3}\n'
                                            '{"program": "x*2", "x": 1, "order": 0}\n{"program": "x*2", "x": 4}\n')
    assert out.code == 1
    docs = answers(out.stdout)
    assert [d.get("error", {}).get("kind") for d in docs] == ["syntax", "usage", "usage", "usage", None]
    assert "no \"program\"" in docs[1]["error"]["message"]
    assert docs[4]["grads"]["x"] == 2.0


def test_a_binding_named_like_a_setting_goes_in_bindings(cli):
    out = cli("eval", "order * 2", "--batch", "-", input='{"bindings": {"order": 3}}\n')
    assert out.code == 0
    assert answers(out.stdout)[0]["root"]["value"] == 6.0


def test_batch_lines_carry_evals_warnings(cli):
    alone = cli("eval", "1e8 + x - 1e8", "x=0.1", "--format", "json").json()
    out = cli("eval", "--batch", "-", input='{"program": "1e8 + x - 1e8", "x": 0.1}\n')
    doc = answers(out.stdout)[0]
    assert doc["warnings"] == alone["warnings"] and len(doc["warnings"]) == 2


def test_check_batch_answers_as_check_format_json(cli):
    lines = ['{"program": "x**2*sin(x)", "x": 1.5, "expect": {"x": "2*x*sin(x) + x**2*cos(x)"}, "seed": 3}',
             '{"program": "x**2*sin(x)", "x": 1.5, "expect": {"x": "2*x*cos(x)"}, "seed": 3}',
             '{"program": "3x^2", "x": 2, "expect": {"x": "6x"}, "samples": 1}',
             '{"program": "x**2", "x": 1}']
    out = cli("check", "--batch", "-", input="\n".join(lines) + "\n")
    docs = answers(out.stdout)
    one = cli("check", "x**2*sin(x)", "x=1.5", "--expect", "x=2*x*cos(x)", "--seed", "3", "--format", "json")
    assert docs[1] == {"line": 2, **one.json()}
    assert [d.get("ok") for d in docs[:3]] == [True, False, True]
    assert docs[2]["read_as"] == "3*x**2"
    assert docs[3]["error"]["kind"] == "usage"  # no expectation
    assert out.code == 1


def test_diff_batch_answers_as_diff_format_json(cli):
    lines = ['{"program": "x**2*sin(x)", "x": 1.5}', '{"program": "x*y**2", "wrt": "y", "order": 2}',
             '{"program": "x**2 + y**2 = 25", "x": 3, "y": 4}', '{"program": "sin(", "x": 1}']
    out = cli("diff", "--batch", "-", input="\n".join(lines) + "\n")
    docs = answers(out.stdout)
    assert docs[0] == {"line": 1, **cli("diff", "x**2*sin(x)", "x=1.5", "--format", "json").json()}
    assert docs[1] == {"line": 2, **cli("diff", "x*y**2", "--wrt", "y", "--order", "2", "--format", "json").json()}
    assert docs[2]["derivatives"][0]["expr"] == "-x/y"
    assert docs[3]["error"]["kind"] == "syntax"
    assert out.code == 1
