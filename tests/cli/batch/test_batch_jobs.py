"""`--batch ... --jobs N`: worker processes answer the lines; the output is byte for byte what --jobs 1 writes
(Hypothesis-made inputs, bad lines in the middle, blank lines, lines over the limit), the input is read as it
comes (a co-process gets each answer before it sends the next line), and Ctrl-C and a closed output end the
run as they end a run without --jobs. The line reader the main process uses numbers lines as app.batch.lines."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodiff.app.batch import LineReader, lines

AUTODIFF = str(Path(sys.executable).with_name("autodiff"))
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes and signals")

good_values = st.one_of(st.integers(-1000, 1000), st.floats(-50, 50, allow_nan=False),
                        st.lists(st.floats(-5, 5, allow_nan=False), min_size=1, max_size=3))
bad_lines = st.sampled_from(['{"x": "a"}', "{not json", '[1, 2]', '{"x": [1, [2]]}', '{"program": "x +", "x": 1}',
                             '{"y": 1}', "", "   ", '{"x": 1e400}', '{"x": 2, "order": 0}', "\xff\xfe"])
# Four inputs of up to 120 lines (was twelve of up to 40: the same lines in a third of the processes, each of which
# costs a start-up and its workers' start-ups)
lines_of_eval = st.lists(st.one_of(good_values.map(lambda v: json.dumps({"x": v})), bad_lines), max_size=120)


def _run(args: list[str], text: str | bytes, jobs: int) -> subprocess.CompletedProcess:
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    return subprocess.run([AUTODIFF, *args, "--jobs", str(jobs)], input=data, capture_output=True, timeout=120,
                          check=False)


@pytest.mark.long
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(lines_of_eval, st.sampled_from([2, 3]))
def test_eval_jobs_write_what_one_process_writes(lines_, jobs):
    text = "\n".join(lines_) + "\n"
    one, many = _run(["eval", "(2*x)**3 + sin(x)", "--batch", "-"], text, 1), \
        _run(["eval", "(2*x)**3 + sin(x)", "--batch", "-"], text, jobs)
    assert (many.returncode, many.stdout, many.stderr) == (one.returncode, one.stdout, one.stderr)


@pytest.mark.long
def test_check_and_diff_jobs_write_what_one_process_writes(tmp_path):
    rows = []
    for i in range(150):
        program = ["x/(1 + 0.5*x**2)", "sin(x**2)", "x**2*sin(x)", "log(x)", "x +"][i % 5]
        expect = ["(1 - 0.5*x**2)/(1 + 0.5*x**2)**2", "cos(x**2)", "2*x*cos(x)", "1/x", "1"][(i // 5) % 5]
        rows.append(json.dumps({"program": program, "x": round(-2 + i / 37, 3), "expect": {"x": expect}, "seed": i}))
        if i == 75:
            rows.append("{a bad line in the middle")
    path = tmp_path / "lines.jsonl"
    path.write_text("\n".join(rows) + "\n")
    for args in (["check", "--batch", str(path)], ["diff", "--batch", str(path)]):
        one, many = _run(args, b"", 1), _run(args, b"", 2)
        assert many.returncode == one.returncode == 1
        assert many.stdout == one.stdout and many.stderr == one.stderr
        answers = [json.loads(line) for line in many.stdout.splitlines()]
        assert [a["line"] for a in answers] == list(range(1, 152))
        assert "error" in answers[76] and answers[76]["error"]["kind"] == "syntax"


def test_jobs_zero_is_one_per_core_and_the_program_may_come_from_stdin(tmp_path):
    path = tmp_path / "lines.jsonl"
    path.write_text("".join(json.dumps({"x": i / 7}) + "\n" for i in range(100)))
    one = _run(["eval", "-", "--batch", str(path)], "x**3 - 2*x", 1)
    assert one.returncode == 0 and len(one.stdout.splitlines()) == 100
    assert _run(["eval", "-", "--batch", str(path)], "x**3 - 2*x", 0).stdout == one.stdout


def test_a_negative_jobs_is_a_usage_error(cli):
    out = cli("eval", "x*2", "--batch", "-", "--jobs", "-1", input='{"x": 1}\n')
    assert out.code == 2 and "--jobs must be at least 0, got -1" in out.stderr
    out = cli("check", "x*2", "--batch", "-", "--jobs", "-2", input='{"x": 1}\n')
    assert out.code == 2


def test_in_process_jobs_answer_as_one(cli):
    text = "".join(json.dumps({"x": i}) + "\n" for i in range(10)) + "{bad\n"
    assert cli("eval", "x*2", "--batch", "-", "--jobs", "2", input=text).stdout == \
        cli("eval", "x*2", "--batch", "-", input=text).stdout


@POSIX
def test_a_co_process_gets_each_answer_before_the_next_line():
    process = subprocess.Popen([AUTODIFF, "eval", "x * 2", "--batch", "-", "--jobs", "2"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for x in (1, 2, 3):
            process.stdin.write(f'{{"x": {x}}}\n')
            process.stdin.flush()
            assert json.loads(process.stdout.readline())["grads"] == {"x": 2.0}
        process.stdin.close()
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.stdout.close()
        process.stderr.close()


@POSIX
@pytest.mark.parametrize("busy", [False, True])
def test_ctrl_c_ends_a_jobs_run_as_one_process(busy, tmp_path):
    path = tmp_path / "lines.jsonl"
    path.write_text("".join(json.dumps({"program": "x**2*sin(x)", "x": i / 9, "expect": {"x": "x"}}) + "\n"
                            for i in range(3000)))
    args = ["check", "--batch", str(path)] if busy else ["eval", "x * 2", "--batch", "-"]
    process = subprocess.Popen([AUTODIFF, *args, "--jobs", "2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    if not busy:
        process.stdin.write('{"x": 1}\n')
        process.stdin.flush()
    assert process.stdout.readline().startswith('{"line": 1, ')  # the workers answer
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and err.strip() == "autodiff: interrupted"
    assert json.loads(out.strip().splitlines()[-1]) == {"error": {"kind": "interrupted",
                                                                  "message": "interrupted (SIGINT)"}}


@POSIX
def test_a_closed_output_is_a_quiet_exit_0(tmp_path):
    path = tmp_path / "lines.jsonl"
    path.write_text("".join(json.dumps({"x": i}) + "\n" for i in range(20000)))
    reader = subprocess.Popen(["head", "-c", "10"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = subprocess.run([AUTODIFF, "eval", "x*2", "--batch", str(path), "--jobs", "2"], stdout=reader.stdin,
                          stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    reader.stdin.close()
    reader.wait(timeout=10)
    assert (done.returncode, done.stderr) == (0, "")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"bb", b"\n", b" ", b"{}", b"x" * 7, b"\r\n"]), max_size=40),
       st.integers(1, 9), st.integers(1, 5))
def test_the_line_reader_numbers_lines_as_lines_does(parts, limit, most):
    data = b"".join(parts)
    expected = [(n, raw) for n, raw in enumerate(lines(io.BytesIO(data), limit), 1)
                if raw is None or raw.strip()]
    reader, got = LineReader(io.BytesIO(data), limit), []
    reader.BLOCK = 3  # small blocks: lines split across reads
    while not (reader.done and not reader.buffer):
        got += reader.take(most)
        if not reader.done:
            reader.fill()
    got += reader.take(most)
    assert got == expected
