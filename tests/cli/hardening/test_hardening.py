"""Failures around the program rather than in it: an output that cannot be written, numbers too large for
a float in a file, and counts capped before any work. Run as real processes (stdout is /dev/full)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

AUTODIFF = shutil.which("autodiff", path=os.path.dirname(sys.executable)) or "autodiff"
needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")


def _run(*args: str, stdout: str = "/dev/full", stdin: str = "") -> tuple[int, str]:
    with open(stdout, "w") as out:
        done = subprocess.run([AUTODIFF, *args], stdout=out, stderr=subprocess.PIPE, input=stdin, text=True,
                              timeout=60)
    return done.returncode, done.stderr


@needs_dev_full
@pytest.mark.parametrize("args", [
    ["eval", "x*2", "x=1", "--format", "plain"],
    ["eval", "x*2", "x=1", "--format", "json"],
    ["gradcheck", "sin(x)", "x=0.5", "--format", "json"],
])
def test_an_output_that_cannot_be_written_is_an_io_error(args):
    code, err = _run(*args)
    assert code == 2
    assert err == "autodiff: io error: cannot write the output (No space left on device)\n"


@needs_dev_full
def test_an_error_document_that_cannot_be_written(args=("eval", "x*", "x=1", "--format", "json")):
    code, err = _run(*args)
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[-1] == "autodiff: io error: cannot write the output (No space left on device)"


@needs_dev_full
def test_batch_into_a_full_device():
    code, err = _run("eval", "x*2", "--batch", "-", stdin='{"x": 1}\n')
    assert code == 2 and "Traceback" not in err and "io error: cannot write the output" in err


def test_a_json_number_too_large_for_a_float(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(str(10**309))
    code, err = _run("eval", "x*2", f"x=@{path}", stdout=os.devnull)
    assert code == 2 and "a number in the JSON is too large for a float" in err


@pytest.mark.parametrize(("args", "words"), [
    (["check", "x**2", "x=1", "--expect", "x=2*x", "--samples", "1000000000"], "--samples must be at most 10,000"),
    (["eval", "y = 2*x", "x=1", "--backward", "y", "--backward", "y", "--repeat", "10000", "--retain-graph"],
     "--backward x --repeat gives 20,000 backward passes, over the limit of 10,000"),
])
def test_counts_are_capped_before_any_work(args, words):
    code, err = _run(*args, stdout=os.devnull)
    assert code == 2 and words in err


@pytest.mark.parametrize("args", [
    ["eval", "x*2", "--batch", "LINES"],
    ["eval", "x*2", "--var", "x=ones(200000)", "--grad-tensor", "ones(200000)", "--format", "json"],
    ["eval", "x*2", "--var", "x=ones(200000)", "--grad-tensor", "ones(200000)", "--explain", "--format", "plain"],
])
def test_a_reader_that_goes_away_is_a_quiet_exit_0(args, tmp_path):
    lines = tmp_path / "lines.jsonl"
    lines.write_text("".join(f'{{"x": {i}}}\n' for i in range(20000)))
    args = [str(lines) if a == "LINES" else a for a in args]
    process = subprocess.Popen([AUTODIFF, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdout.read(10)
    process.stdout.close()  # the reader goes away, as `| head -c 10` does
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0 and "Traceback" not in err
