"""Memory: the process's cap (AUTODIFF_MAX_MEMORY, or a share of the machine's available memory), BLAS out
of memory, the --batch line cap and work hidden from the element limit. Run as real processes under a
small cap, each checked for its exit code, one clean error line and its peak memory (VmHWM, from wait4)."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

AUTODIFF = shutil.which("autodiff", path=os.path.dirname(sys.executable)) or "autodiff"
MB = 1 << 20
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_DATA and /proc are Linux's")
# What the process holds after start-up depends on OpenBLAS's threads (a stack and a buffer each): two, as
# on CI, so that the caps below mean the same on any machine.
THREADS = {"OPENBLAS_NUM_THREADS": "2"}


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    peak: int  # bytes: the process's peak resident memory

    def json(self) -> dict:
        return json.loads(self.stdout)

    def lines(self) -> list[dict]:
        return [json.loads(line) for line in self.stdout.splitlines()]


# The peak is measured by a small process in between: ru_maxrss of a child forked from pytest would start
# at pytest's own size (Linux carries the parent's resident size over fork and exec).
_MEASURE = ("import resource, subprocess, sys\n"
            "code = subprocess.call(sys.argv[2:])\n"
            "with open(sys.argv[1], 'w') as f:\n"
            "    f.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024))\n"
            "sys.exit(code)\n")


def run(*args: str, memory: str | None = None, stdin: Path | None = None, tmp: Path) -> Run:
    """Run `autodiff ARGS` (under AUTODIFF_MAX_MEMORY=memory), with its peak memory."""
    env = {**os.environ, **THREADS}
    env.pop("AUTODIFF_MAX_MEMORY", None)
    if memory is not None:
        env["AUTODIFF_MAX_MEMORY"] = memory
    out_path, err_path, peak_path = tmp / "out", tmp / "err", tmp / "peak"
    with open(out_path, "wb") as out, open(err_path, "wb") as err, \
            open(stdin or os.devnull, "rb") as source:
        done = subprocess.run([sys.executable, "-c", _MEASURE, str(peak_path), AUTODIFF, *args], stdin=source,
                              stdout=out, stderr=err, env=env, timeout=60)
    return Run(done.returncode, out_path.read_text(), err_path.read_text(), int(peak_path.read_text()))


def one_error_line(result: Run, kind: str) -> str:
    """The run's stderr is exactly one `autodiff: KIND error` line (no traceback, no BLAS message)."""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"autodiff: {kind} error"), result
    return lines[0]


# ---------------------------------------------------------------------------- the cap
@pytest.mark.parametrize("value", ["abc", "-5", "12x", "0", "1e9"])
def test_a_bad_AUTODIFF_MAX_MEMORY_is_a_usage_error(value, tmp_path):
    result = run("eval", "x*2", "x=1", memory=value, tmp=tmp_path)
    assert result.code == 2
    line = one_error_line(result, "usage")
    assert f"AUTODIFF_MAX_MEMORY={value!r} is not a size" in line
    json_result = run("eval", "x*2", "x=1", "--format", "json", memory=value, tmp=tmp_path)
    assert json_result.code == 2 and json_result.json()["error"]["kind"] == "usage"


@linux_only
def test_an_AUTODIFF_MAX_MEMORY_too_small_to_start_is_a_usage_error(tmp_path):
    result = run("eval", "x*2", "x=1", memory="1000", tmp=tmp_path)
    assert result.code == 2
    assert "AUTODIFF_MAX_MEMORY=1000 is too small: autodiff holds" in one_error_line(result, "usage")


def _data_limit(memory: str | None) -> int:
    """The RLIMIT_DATA a running `autodiff eval --batch -` has set for itself (bytes)."""
    env = {**os.environ, **THREADS}
    env.pop("AUTODIFF_MAX_MEMORY", None)
    if memory is not None:
        env["AUTODIFF_MAX_MEMORY"] = memory
    process = subprocess.Popen([AUTODIFF, "eval", "x*2", "--batch", "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        process.stdin.write(b'{"x": 1}\n')
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["line"] == 1  # started: the cap is in place
        limits = Path(f"/proc/{process.pid}/limits").read_text()
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    (line,) = [row for row in limits.splitlines() if row.startswith("Max data size")]
    return int(line.split()[3])


@linux_only
def test_AUTODIFF_MAX_MEMORY_is_the_cap_with_a_unit():
    assert _data_limit("400M") == 400 * MB
    assert _data_limit("1.5G") == 3 * 512 * MB


@linux_only
def test_the_default_cap_is_half_the_available_memory():
    info = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
    available = (int(info["MemAvailable"].split()[0]) + int(info.get("SwapFree", "0 kB").split()[0])) * 1024
    cap = _data_limit(None)
    # what the process holds after start-up (a few hundred MiB at most, with two BLAS threads) plus half of
    # what was available when it started (other processes may have changed that since: a wide margin)
    assert 0.35 * available < cap < 0.65 * available + 512 * MB, (cap, available)


# ---------------------------------------------------------------------------- BLAS
@linux_only
@pytest.mark.parametrize("output", ["plain", "json"])
def test_a_matrix_product_without_the_memory_for_it_is_a_limit_error(output, tmp_path):
    result = run("eval", "a = ones(5000, 5000); (a @ a).sum()", "--format", output, memory="250M", tmp=tmp_path)
    assert result.code == 1
    line = one_error_line(result, "limit")
    assert "not enough memory for the matrix product: it needs about 95 MiB" in line
    assert "AUTODIFF_MAX_MEMORY" in line
    if output == "json":
        assert result.json()["error"]["kind"] == "limit"
    else:
        assert result.stdout == ""


@linux_only
@pytest.mark.parametrize("program", [
    "a = ones(3000, 3000, requires_grad=True); (a @ a @ a).sum()",  # in backward
    "a = ones(3000, 3000); inverse(a + eye(3000)).sum()",
    "a = ones(3000, 3000); det(a + eye(3000))",
])
def test_linear_algebra_without_the_memory_for_it_is_a_limit_error(program, tmp_path):
    result = run("eval", program, "--format", "json", memory="250M", tmp=tmp_path)
    assert result.code == 1 and result.json()["error"]["kind"] == "limit"
    assert "not enough memory for the" in one_error_line(result, "limit")


@linux_only
def test_blas_has_its_buffer_before_the_memory_is_taken(tmp_path):
    # The first product comes when the tensors before it have taken what BLAS would map for its buffer:
    # OpenBLAS used to end the process ("Memory allocation still failed after 10 retries").
    result = run("eval", "a = ones(12000000); (ones(2, 2) @ ones(2, 2)).sum() + a.sum()", "--format", "json",
                 memory="220M", tmp=tmp_path)
    assert result.code == 0, result
    assert result.json()["root"]["value"] == 12000008.0


@linux_only
def test_a_batch_line_out_of_memory_fails_that_line_only(tmp_path):
    lines = tmp_path / "lines.jsonl"
    lines.write_text("".join(json.dumps({"x": [1] * n}) + "\n" for n in (2, 5000, 3)))
    result = run("eval", "a = x.unsqueeze(1) * x; (a @ a).sum()", "--batch", str(lines), memory="250M",
                 tmp=tmp_path)
    answers = result.lines()
    assert result.code == 1 and [a["line"] for a in answers] == [1, 2, 3]
    assert answers[0]["root"]["value"] == 8.0 and answers[2]["root"]["value"] == 27.0
    assert answers[1]["error"]["kind"] == "limit" and "matrix product" in answers[1]["error"]["message"]
    assert "Traceback" not in result.stderr and "OpenBLAS" not in result.stderr


# ---------------------------------------------------------------------------- --batch line length
def _line_of(size: int) -> bytes:
    body = b"1, " * (size // 3)
    return b'{"x": [' + body + b"1]}\n"


@linux_only
@pytest.mark.parametrize(("option", "most"), [((), 110 * MB), (("--max-line-bytes", "1M"), 60 * MB)])
def test_a_long_batch_line_is_refused_without_holding_it(option, most, tmp_path):
    lines = tmp_path / "lines.jsonl"
    with open(lines, "wb") as f:
        f.write(b'{"x": [1]}\n' + _line_of(120 * MB) + b'{"x": [2]}\n')
    result = run("eval", "x.sum()", "--batch", str(lines), *option, tmp=tmp_path)
    answers = result.lines()
    assert result.code == 1 and [a.get("error", {}).get("kind") for a in answers] == [None, "limit", None]
    limit = "33,554,432" if not option else "1,048,576"
    assert answers[1]["error"]["message"] == (f"the line is longer than {limit} bytes (--max-line-bytes); the rest "
                                              "of it is skipped unread")
    assert answers[1]["error"]["hint"] == "raise --max-line-bytes"
    assert result.peak < most, result.peak


@linux_only
def test_an_endless_batch_line_is_answered_at_once():
    process = subprocess.Popen([AUTODIFF, "eval", "x*2", "--batch", "/dev/zero", "--max-line-bytes", "1M"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **THREADS})
    try:
        ready, _, _ = select.select([process.stdout], [], [], 10)
        assert ready, "no answer within 10 s"
        answer = json.loads(process.stdout.readline())
    finally:
        process.kill()
        process.wait(timeout=10)
    assert answer["line"] == 1 and answer["error"]["kind"] == "limit"


def test_a_bad_max_line_bytes_is_a_usage_error(tmp_path):
    result = run("eval", "x*2", "--batch", "-", "--max-line-bytes", "lots", tmp=tmp_path)
    assert result.code == 2 and result.json()["error"]["kind"] == "usage"
    assert "--max-line-bytes 'lots' is not a size" in one_error_line(result, "usage")


# ---------------------------------------------------------------------------- hidden work
@pytest.mark.parametrize(("program", "limit", "words"), [
    ("softmax(ones(1000000000, 0), 1)", "10", "softmax's hidden sum along dim 1 of shape (1000000000, 1)"),
    ("log_softmax(ones(1000000000, 0), dim=-1)", "10",
     "log_softmax's hidden sum along dim 1 of shape (1000000000, 1)"),
    ("diag(ones(100000))", "100000", "the diagonal matrix of shape (100000, 100000)"),
])
def test_hidden_work_counts_against_the_element_limit(program, limit, words, tmp_path):
    result = run("eval", program, "--max-elements", limit, tmp=tmp_path)
    assert result.code == 1
    line = one_error_line(result, "limit")
    assert words in line and f"over the limit of {int(limit):,}" in line and "--max-elements" in line
    assert result.peak < 100 * MB, result.peak


# ---------------------------------------------------------------------------- output
@pytest.mark.parametrize("shape", [(), (5,), (70_000,), (150_000,), (3, 70_000), (2, 3, 40_000), (200_000, 0),
                                   (70_000, 2), (1, 1, 140_000)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_json_written_piecewise_is_the_same_text(shape, dtype):
    import io

    import numpy as np

    from autodiff.cli.output import jsonout

    array = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    if array.size > 3:
        array.reshape(-1)[:3] = [np.nan, np.inf, -np.inf]
    document = {"value": jsonout.lazy(array), "passes": [{"grads": {"x": jsonout.lazy(array)}}], "n": [1, None]}
    out = io.StringIO()
    jsonout.write(document, out.write)
    assert out.getvalue() == json.dumps({"value": jsonout.values(array), "passes": [{"grads": {
        "x": jsonout.values(array)}}], "n": [1, None]}, allow_nan=False)


def test_json_output_is_streamed(tmp_path):
    # 2M elements: the document as one list of floats and one string took 401 MiB
    result = run("eval", "x*2", "--var", "x=ones(2000000)", "--grad-tensor", "ones(2000000)", "--format", "json",
                 tmp=tmp_path)
    assert result.code == 0 and result.stderr == ""
    document = result.json()
    assert document["grads"]["x"] == [2.0] * 2_000_000 and len(document["root"]["value"]) == 2_000_000
    assert result.peak < 200 * MB, result.peak


def test_repeated_passes_keep_what_text_output_prints(tmp_path):
    # 500 passes on 1M elements kept a copy of x.grad each (1.95 GB); plain output prints their edges only
    result = run("eval", "y = x*2", "--var", "x=ones(1000000)", "--grad-tensor", "ones(1000000)", "--retain-graph",
                 "--repeat", "500", "--format", "plain", tmp=tmp_path)
    assert result.code == 0 and result.stderr == ""
    assert "backward 500: y.backward(gradient=ones(1000000))\n  x.grad  tensor([1000., 1000., 1000.,  ..., " \
           "1000., 1000., 1000.])" in result.stdout
    assert result.peak < 150 * MB, result.peak


def test_repeated_passes_in_json_are_bounded_by_the_element_limit(tmp_path):
    result = run("eval", "y = x*2", "--var", "x=ones(1000000)", "--grad-tensor", "ones(1000000)", "--retain-graph",
                 "--repeat", "500", "--format", "json", tmp=tmp_path)
    assert result.code == 1 and result.json()["error"]["kind"] == "limit"
    line = one_error_line(result, "limit")
    assert "500 backward passes would keep 500,000,000 gradient values for the report (1,000,000 a pass), over " \
           "the limit of 50,000,000" in line and "--max-elements" in line
    assert result.peak < 150 * MB, result.peak


# ---------------------------------------------------------------------------- --order, --explain, @file.json
@linux_only
def test_order_is_refused_before_its_graph_takes_the_memory(tmp_path):
    # 5 orders of this program on 1M elements took 3.7 GB; under a 600 MiB cap the 4th is refused in advance
    result = run("eval", "(sin(x)*exp(x)/(1+x*x)).sum()", "--var", "x=rand(1000000)", "--order", "5",
                 memory="600M", tmp=tmp_path)
    assert result.code == 1
    line = one_error_line(result, "limit")
    assert "--order 5: derivative 4 would need about" in line and "left under the memory cap" in line
    assert "ask for --order 3 or less, or raise AUTODIFF_MAX_MEMORY" in line
    assert result.peak < 600 * MB, result.peak


def test_explain_keeps_at_most_the_element_limit(tmp_path):
    # the copies of every step's values took 2.3 times the memory of the run itself (1 GB here)
    result = run("eval", "y = sin(x)*x; z = exp(y) * y; z", "--var", "x=ones(10000000)", "--grad-tensor",
                 "ones(10000000)", "--explain", "--format", "plain", tmp=tmp_path)
    assert result.code == 1
    line = one_error_line(result, "limit")
    assert "the explanation keeps the values of every step: " in line and "over the limit of 50,000,000" in line
    assert "--max-elements" in line
    assert result.peak < 800 * MB, result.peak


def test_a_large_json_file_is_read_without_a_python_object_per_value(tmp_path):
    path = tmp_path / "rows.json"
    path.write_bytes(b"[" + b"[], " * 5_000_000 + b"[]]")  # 20 MB of empty lists: json.load took 700 MB
    result = run("eval", "x.sum()", f"x=@{path}", "--format", "plain", tmp=tmp_path)
    assert result.code == 0 and result.stdout.startswith("root = tensor(0., grad_fn=<SumBackward0>)"), result
    assert result.peak < 150 * MB, result.peak


@pytest.mark.parametrize("text", [
    "[1, 2, 30]", "[[1.5, -2e-3], [3E+2, 0]]", "[]", "[[], []]", "[[[1], [2]], [[3], [4]]]", "[\n [\n  1.0\n ]\n]\n",
    "[-0, 0.0, 10]", "[[[]]]"])
def test_the_json_reader_for_large_files_reads_what_json_reads(text, tmp_path):
    import numpy as np

    from autodiff.cli import inputs

    path = tmp_path / "x.json"
    path.write_text(text)
    array = inputs._json_array(str(path))
    expected = np.array(json.loads(text), dtype=np.float64)
    assert array.shape == expected.shape and np.array_equal(array, expected)


@pytest.mark.parametrize(("text", "outcome"), [
    ("[[1, 2], [3]]", "same length"), ("[[1], 2]", "same length"), ("[1 2]", "whitespace"),
    ("[1,, 2]", "not a JSON number"), ("[.5]", "not a JSON number"), ("[01]", "not a JSON number"),
    ("[1.]", "not a JSON number"), ("[+1]", "not a JSON number"), ("[1]2", "outside the brackets"),
    ("[1e999]", None), ("[NaN]", None), ('{"a": 1}', None), ("[1, 2", "outside the brackets")])
def test_the_json_reader_for_large_files_refuses_what_json_refuses(text, outcome, tmp_path):
    from autodiff.cli import inputs

    path = tmp_path / "x.json"
    path.write_text(text)
    if outcome is None:  # json.load reads it (inf, nan) or says what is wrong
        assert inputs._json_array(str(path)) is None
    else:
        with pytest.raises(ValueError, match=outcome):
            inputs._json_array(str(path))
