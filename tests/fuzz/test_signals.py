"""Ctrl-C: SIGINT to a running `autodiff` ends it with exit 130 and one line, `autodiff: interrupted`, whatever
it is doing: numpy work (Python raises KeyboardInterrupt at the next bytecode after the C call returns),
waiting for standard input, or answering --batch lines. The installed command runs in a subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

AUTODIFF = str(Path(sys.executable).with_name("autodiff"))
TICKS = os.sysconf("SC_CLK_TCK")


def _default_sigint() -> None:
    """In the child: SIGINT at its default, as a terminal's shell starts a command (a suite run as a background
    job inherits it ignored, and autodiff keeps an inherited ignore: a background job does not die on Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def _reading_stdin(pid: int) -> bool:
    """Whether the process is blocked in read(0, ...) (Linux: /proc/PID/syscall; x86-64 and arm64 numbers)."""
    try:
        call = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return False
    return len(call) > 1 and call[0] in ("0", "63") and int(call[1], 16) == 0


def _wait_until(condition, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("the process never reached the state to interrupt")
        time.sleep(0.01)


def _interrupt(proc: subprocess.Popen) -> tuple[int, str]:
    proc.send_signal(signal.SIGINT)
    try:
        _, stderr = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("Ctrl-C did not stop the run within 20 s") from None
    return proc.returncode, stderr


def _assert_interrupted(code: int, stderr: str) -> None:
    assert code == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert [line for line in stderr.splitlines() if line.strip()] == ["autodiff: interrupted"], stderr


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc to know the run is busy")
@pytest.mark.parametrize("program", [
    "a = randn(1500, 1500, requires_grad=True)\nb = a\n" + "b = b @ a / 40\n" * 400 + "b.sum()",  # BLAS
    "a = randn(2000, 2000)\n" + "a = sin(a) * 0.5 + a\n" * 3000 + "a.sum()",  # elementwise, on threads
])
def test_ctrl_c_during_numpy_work(program):
    proc = subprocess.Popen([AUTODIFF, "eval", program, "--seed", "0"], preexec_fn=_default_sigint,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _wait_until(lambda: _cpu_seconds(proc.pid) > 1.0)  # well past start-up: inside the computation
    finally:
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before it could be interrupted: {proc.stderr.read()}")
    _assert_interrupted(*_interrupt(proc))


@pytest.mark.parametrize("args", [["run", "-"], ["eval", "-"], ["eval", "x * 2", "--batch", "-"]])
def test_ctrl_c_while_reading_standard_input(args):
    proc = subprocess.Popen([AUTODIFF, *args], preexec_fn=_default_sigint, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if Path(f"/proc/{proc.pid}/syscall").exists():
        _wait_until(lambda: _reading_stdin(proc.pid))
    else:  # pragma: no cover - not Linux
        time.sleep(2)
    _assert_interrupted(*_interrupt(proc))


def test_ctrl_c_between_batch_lines():
    """A co-process that got answers and then is interrupted still ends cleanly."""
    proc = subprocess.Popen([AUTODIFF, "eval", "x * 2", "--batch", "-"], preexec_fn=_default_sigint,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write('{"x": 1}\n')
    proc.stdin.flush()
    answer = proc.stdout.readline()
    assert answer.startswith('{"line": 1, "root"'), answer
    # stdin stays open: the process waits for the next line
    _assert_interrupted(*_interrupt(proc))


def test_ctrl_c_while_the_command_is_still_importing():
    """Between the import of the `autodiff` package and main() (click and the commands load), Ctrl-C ends
    the process as main() would, not with an import traceback. (The interpreter's own first milliseconds,
    before any of autodiff runs, are out of reach.)"""
    code = ("import os, signal, sys, time\nsys.argv[0] = 'autodiff'\nimport autodiff.cli\n"
            "os.kill(os.getpid(), signal.SIGINT)\ntime.sleep(10)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30,
                          preexec_fn=_default_sigint)
    _assert_interrupted(done.returncode, done.stderr)
