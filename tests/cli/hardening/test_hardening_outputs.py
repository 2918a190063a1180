"""Hostile input for the newer commands (issue #29): plot and table on huge values and grids, jacobian and
hessian against --max-elements, empty tensors whose nested lists never end, .npy headers and JSON values
that are not numbers, stdout encodings without box drawing, closed pipes in pretty output, COLUMNS=0, a
full stderr, and --out that never clobbers. Each is a clean result or one error line of its kind, in bounded
time, with no numpy or matplotlib message on stderr. Run as real processes."""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import shutil
import struct
import subprocess
import sys

import pytest

AUTODIFF = shutil.which("autodiff", path=os.path.dirname(sys.executable)) or "autodiff"
# plot --out draws with matplotlib, the optional `plot` extra (autodiff's environment is this one)
needs_matplotlib = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                      reason="plot --out needs matplotlib (pip install '.[plot]')")


def _run(*args: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([AUTODIFF, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, **kwargs)
    if args[0] != "run":  # a script's own exceptions print as Python prints them
        assert "Traceback" not in done.stderr, done.stderr
    assert "internal error" not in done.stderr, done.stderr
    assert "Warning" not in done.stderr, done.stderr
    return done


@pytest.mark.parametrize("args", [
    ["plot", "sinh(x)", "x=-710:710"],
    ["plot", "exp(1000*x)", "x=-1:1"],
    ["plot", "x", "x=-1e300:1e300"],
    ["table", "sinh(x)", "x=-710:710"],
    ["table", "x*2", "x=-1e308:1e308:1e307", "--format", "json"],
])
def test_huge_values_are_drawn_or_tabled_quietly(args):
    done = _run(*args)
    assert done.returncode == 0 and done.stderr == "" and done.stdout


def test_a_plot_of_huge_values_is_labelled_in_a_power_of_ten():
    done = _run("plot", "sinh(x)", "x=-710:710", "--format", "plain")
    assert "1e308" in done.stdout


@pytest.mark.parametrize(("grid", "words"), [
    ("x=0:1e300:1e-300", "the grid has more than 1e308 points"),
    ("x=0:1:1e-300", "the grid has about 1e+300 points"),
    ("x=0:1:1e-6", "the grid has 1,000,001 points"),
])
@pytest.mark.parametrize("command", ["table", "plot"])
def test_a_grid_too_large_is_a_short_limit_error(command, grid, words):
    done = _run(command, "x", grid)
    assert done.returncode == 1 and done.stderr.startswith("autodiff: limit error") and words in done.stderr
    assert len(done.stderr) < 300


@needs_matplotlib
@pytest.mark.parametrize("args", [
    ["plot", "sinh(x)", "x=-710:710", "--out", "FILE.png"],
    ["plot", "x", "x=-1e300:1e300", "--out", "FILE.svg"],
])
def test_images_of_huge_values_are_written_quietly(args, tmp_path):
    args = [str(tmp_path / a) if a.startswith("FILE") else a for a in args]
    done = _run(*args, env={"MPLCONFIGDIR": str(tmp_path / "mpl")})
    assert done.returncode == 0 and done.stderr == "" and os.path.getsize(args[-1]) > 1000


@needs_matplotlib
def test_matplotlib_without_a_config_directory_is_quiet(tmp_path):
    done = _run("plot", "x", "x=0:1", "--out", str(tmp_path / "x.png"),
                env={"MPLCONFIGDIR": "/proc/no-such-directory", "HOME": "/nonexistent"})
    assert done.returncode == 0 and done.stderr == ""


@needs_matplotlib
def test_a_failed_out_write_keeps_the_existing_file(tmp_path):
    image = tmp_path / "plot.png"
    image.write_bytes(b"the old image " * 500)

    def small_files() -> None:  # a write past 2,000 bytes fails (EFBIG), as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    done = _run("plot", "sin(x)", "x=0:1", "--out", str(image), preexec_fn=small_files,
                env={"MPLCONFIGDIR": str(tmp_path / "mpl")})
    assert done.returncode == 2 and "io error: --out" in done.stderr and "cannot write the image" in done.stderr
    assert image.read_bytes() == b"the old image " * 500
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".autodiff")] == []


@needs_matplotlib
def test_out_writes_through_a_symbolic_link_with_the_file_mode(tmp_path):
    target = tmp_path / "real.png"
    target.write_bytes(b"old")
    target.chmod(0o640)
    link = tmp_path / "link.png"
    link.symlink_to(target)
    done = _run("plot", "sin(x)", "x=0:1", "--out", str(link), env={"MPLCONFIGDIR": str(tmp_path / "mpl")})
    assert done.returncode == 0 and link.is_symlink() and target.stat().st_size > 1000
    assert target.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize(("args", "words"), [
    (["jacobian", "x*2", "x=ones(10000)"], "the Jacobian has 100,000,000 elements, over the limit of --max-elements"),
    (["hessian", "(x**2).sum()", "x=ones(10000)", "--max-elements", "1000000"], "the Hessian has 100,000,000 elements"),
    (["jacobian", "x*2", "x=ones(100)", "--max-elements", "1000"], "the Jacobian has 10,000 elements"),
])
def test_jacobian_and_hessian_respect_max_elements(args, words):
    done = _run(*args, "--format", "json")
    assert done.returncode == 1 and json.loads(done.stdout)["error"]["kind"] == "limit"
    assert words in done.stderr


@pytest.mark.parametrize("program", ["zeros(10**12, 0)", "zeros(10, 10**8, 0)"])
def test_nested_empty_lists_count_against_the_element_limit(program):
    done = _run("eval", program, "--format", "json")
    document = json.loads(done.stdout)
    assert done.returncode == 1 and document["error"]["kind"] == "limit"
    assert "nested lists" in document["error"]["message"]


def test_small_empty_tensors_are_still_written():
    done = _run("eval", "zeros(3, 0)", "--format", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["root"]["value"] == [[], [], []]


def test_tolist_of_an_endless_empty_tensor_is_a_limit_error():
    script = "import torch\nprint(len(torch.zeros(10**12, 0).tolist()))\n"
    done = _run("run", "--max-elements", "50000000", "-", input=script)
    assert done.returncode == 1 and "RuntimeError: " in done.stderr and "nested lists" in done.stderr
    # without a limit (run's default, as PyTorch) it is Python's MemoryError, at once, as the script's own error
    done = _run("run", "-", input=script)
    assert done.returncode == 1 and done.stderr.splitlines()[-1] == "MemoryError"


def _npy(path, header: str) -> None:
    text = header.encode("latin1")
    text += b" " * (64 - (10 + len(text) + 1) % 64) + b"\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text)


def test_an_npy_header_of_endless_empty_lists(tmp_path):
    _npy(tmp_path / "x.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000, 0), }")
    done = _run("eval", "x", "--const", f"x=@{tmp_path / 'x.npy'}", "--format", "json")
    assert done.returncode == 1 and json.loads(done.stdout)["error"]["kind"] == "limit"


def test_an_npy_header_with_an_unterminated_dict(tmp_path):
    _npy(tmp_path / "x.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2,")
    done = _run("eval", "x*2", f"x=@{tmp_path / 'x.npy'}")
    assert done.returncode == 2
    assert "io error" in done.stderr and "its header is not a complete Python literal" in done.stderr


@pytest.mark.parametrize(("text", "what"), [
    ("null", "null"), ("true", "true or false"), ('"1.5"', "a string"), ("[1, null]", "null"),
    ('[[1, 2], [3, "a"]]', "a string"), ('{"a": 1}', "an object"),
])
def test_json_values_that_are_not_numbers_are_refused(text, what, tmp_path):
    (tmp_path / "x.json").write_text(text)
    done = _run("eval", "x*2", f"x=@{tmp_path / 'x.json'}")
    assert done.returncode == 2 and done.stderr.startswith("autodiff: io error")
    assert done.stderr.rstrip().endswith(f"the JSON must be a number or nested lists of numbers, not {what}")


@pytest.mark.parametrize("args", [
    ["eval", "y = x[0]", "x=[1, 2]", "--format", "pretty", "--trace"],
    ["eval", "x*2", "x=1", "--format", "pretty", "--explain"],
    ["graph", "x**2", "x=3", "--format", "pretty"],
    ["plot", "sin(x)", "x=0:1", "--format", "pretty"],
    ["run", "-"],
    ["ops", "--format", "pretty"],
])
def test_an_ascii_stdout_gets_ascii_or_escapes(args):
    done = _run(*args, env={"PYTHONIOENCODING": "ascii"}, input='print("\u03b8")\n')
    assert done.returncode == 0 and done.stdout.isascii()


@pytest.mark.parametrize("args", [
    ["eval", "x*2", "x=ones(3000)", "--grad-tensor", "ones(3000)", "--format", "pretty"],
    ["ops", "--format", "pretty"],
    ["check", "x**2", "x=ones(3000)", "--expect", "x=2*x", "--format", "pretty"],
    ["graph", "(x*2).sum()", "x=ones(3000)", "--format", "pretty"],
    ["gradcheck", "(x*2).sum()", "x=ones(3000)", "--format", "pretty"],
    ["eval", "x*2", "x=1", "--format", "pretty", "--explain", "--repeat", "300", "--retain-graph"],
])
def test_pretty_output_into_a_closed_pipe_is_a_quiet_exit_0(args):
    process = subprocess.Popen([AUTODIFF, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "80"})
    process.stdout.read(10)
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0 and err == ""


@pytest.mark.parametrize("args", [
    ["eval", "x*2", "x=1", "--format", "pretty"],
    ["eval", "x*2", "x=1", "--format", "pretty", "--explain"],
])
def test_columns_0_still_prints(args):
    done = _run(*args, env={"COLUMNS": "0"})
    assert done.returncode == 0 and "tensor(2.)" in done.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize(("args", "code"), [
    (["eval", "x +", "x=1"], 2),
    (["eval", "ones(2) + ones(3)"], 1),
    (["eval", "x*", "x=1", "--format", "json"], 2),
])
def test_an_error_with_stderr_on_a_full_device_keeps_its_exit_code(args, code):
    with open("/dev/full", "w") as full:
        done = subprocess.run([AUTODIFF, *args], stdout=subprocess.DEVNULL, stderr=full, timeout=60)
    assert done.returncode == code
