"""Hostile inputs around the program: malformed .npy headers, files whose content must never be echoed,
misleading hints, names long enough to flood stderr, and signals. Run as real processes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

AUTODIFF = shutil.which("autodiff", path=os.path.dirname(sys.executable)) or "autodiff"


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([AUTODIFF, *args], capture_output=True, input=stdin, text=True, timeout=60, check=False)


def _npy(path, header: str) -> str:
    raw = header.encode("latin1")
    raw += b" " * ((64 - (10 + len(raw) + 1) % 64) % 64) + b"\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + len(raw).to_bytes(2, "little") + raw + np.ones(3).tobytes())
    return str(path)


@pytest.mark.parametrize(("shape", "message"), [
    ("(__import__('os'),)", "not a valid .npy file (its header is not a plain Python literal)"),
    ("(10**12,)", "not a valid .npy file (its header is not a plain Python literal)"),
    ("(True,)", "not a valid .npy file (its header's shape (True,) is not a tuple of sizes)"),
    ("(-3,)", "not a valid .npy file (its header's shape (-3,) is not a tuple of sizes)"),
])
def test_a_malformed_npy_header_is_an_io_error_naming_the_problem(tmp_path, shape, message):
    path = _npy(tmp_path / "x.npy", f"{{'descr': '<f8', 'fortran_order': False, 'shape': {shape}, }}")
    done = _run("eval", "x*2", f"x=@{path}")
    assert (done.returncode, done.stderr) == (2, f"autodiff: io error: @{path}: {message}\n")


def test_a_csv_error_never_quotes_the_file(tmp_path):
    path = tmp_path / "secret.csv"
    path.write_text("1,2\nroot:x:0:0:root:/root:/bin/bash,3\n")
    done = _run("eval", "x*2", f"x=@{path}")
    assert (done.returncode, done.stderr) == (
        2, f"autodiff: io error: @{path}: not a rectangular CSV of numbers: row 2, column 1 is not a number\n")


def test_a_symlink_loop_is_named_as_such(tmp_path):
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    done = _run("eval", "x*2", f"x=@{tmp_path / 'a.json'}")
    assert done.stderr == f"autodiff: io error: @{tmp_path / 'a.json'}: the file is a loop of symbolic links\n"


def test_lists_nested_past_a_tensors_dimensions(tmp_path):
    deep = "[" * 70 + "1" + "]" * 70
    done = _run("eval", "x*2", f"x={deep}")
    assert (done.returncode, done.stderr) == (
        1, "autodiff: value error: cannot make a tensor from lists nested 70 deep: a tensor has at most 64 "
           "dimensions\n")
    (tmp_path / "x.json").write_text(deep)
    done = _run("eval", "x*2", f"x=@{tmp_path / 'x.json'}")
    assert done.stderr.endswith("the JSON's lists are nested more than 64 deep; a tensor has at most 64 dimensions\n")


@pytest.mark.parametrize(("program", "message"), [
    ("x*0x10", "invalid number '0x10': hexadecimal literals are not part of the language; write the number in "
               "decimal"),
    ("x*1_000", "invalid number '1_000': '_' between digits is not part of the language; write the digits "
                "without it"),
])
def test_number_spellings_of_python_get_the_right_hint(program, message):
    done = _run("eval", program, "x=1")
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == f"autodiff: syntax error at line 1, column 3: {message}"


@pytest.mark.parametrize("where", ["--backward", "program"])
def test_a_huge_name_does_not_flood_stderr(where):
    name = "a" * 100_000
    args = ["eval", "x*2", "x=1", "--backward", name] if where == "--backward" else ["eval", f"{name}*2"]
    done = _run(*args)
    assert done.returncode == 2
    assert len(done.stderr) < 2_500 and "Traceback" not in done.stderr
    done = _run(*args, "--format", "json")
    assert len(json.loads(done.stdout)["error"]["message"]) <= 1_000


def test_a_huge_element_limit_is_just_a_limit():
    done = _run("eval", "x*2", "x=1", "--max-elements", "400000000000000000", "--format", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["grads"] == {"x": 2.0}


def test_run_into_a_closed_pipe_is_a_quiet_exit_0(tmp_path):
    path = tmp_path / "many.py"
    path.write_text("for i in range(200000):\n    print(i, 'a line long enough to fill the pipe')\n")
    reader = subprocess.Popen(["head", "-c", "10"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = subprocess.run([AUTODIFF, "run", str(path)], stdout=reader.stdin, stderr=subprocess.PIPE, text=True,
                          timeout=60, check=False)
    reader.stdin.close()
    reader.wait(timeout=10)
    assert (done.returncode, done.stderr) == (0, "")


FOREVER = "print('running', flush=True)\nn = 0\nwhile True:\n    n += 1\n"


def _start(tmp_path, *args: str, ignore_sigint: bool = False) -> subprocess.Popen:
    path = tmp_path / "forever.py"
    path.write_text(FOREVER)

    def setup() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN if ignore_sigint else signal.SIG_DFL)

    return subprocess.Popen([AUTODIFF, "run", str(path), "--max-steps", "1000000000", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=setup)


def test_an_inherited_ignored_sigint_is_respected(tmp_path):
    process = _start(tmp_path, ignore_sigint=True)
    try:
        time.sleep(1.0)
        process.send_signal(signal.SIGINT)
        time.sleep(0.5)
        assert process.poll() is None  # a background job of a script does not die on Ctrl-C
    finally:
        process.kill()
        process.communicate(timeout=10)


def test_ctrl_c_stops_a_running_script_as_python_does(tmp_path):
    """Ctrl-C inside the script's own loop: Python's KeyboardInterrupt report (the script's frame), exit 130."""
    process = _start(tmp_path)
    assert process.stdout.readline() == "running\n"  # the script runs (not autodiff starting)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=10)  # a hang guard, not a speed test (a loop checks every bytecode)
    lines = err.strip().splitlines()
    assert process.returncode == 130
    assert (lines[0], lines[-1]) == ("Traceback (most recent call last):", "KeyboardInterrupt")
    assert "forever.py" in err and "autodiff/" not in err  # the script's frames, not autodiff's


def test_an_interrupted_json_run_still_writes_its_error_document():
    process = subprocess.Popen([AUTODIFF, "eval", "x*2", "--batch", "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    process.stdin.write('{"x": 1}\n')
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["grads"] == {"x": 2.0}
    process.send_signal(signal.SIGINT)  # waiting for the next line
    out, err = process.communicate(timeout=10)
    assert process.returncode == 130 and err.strip() == "autodiff: interrupted"
    assert json.loads(out.strip()) == {"error": {"kind": "interrupted", "message": "interrupted (SIGINT)"}}
