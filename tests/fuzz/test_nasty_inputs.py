"""The classic ways to break a command-line tool, each with the exact error kind and exit code it must give.

Every run also keeps the fuzz suite's invariants (`fz.check`: exit 0/1/2, no traceback, one typed line on
stderr, strict JSON on stdout in JSON mode). Where a limit must hold *before* memory is allocated, the
peak of Python's and numpy's allocations during the run is measured with tracemalloc (numpy reports its
array buffers to it); a few runs go through the installed command in a subprocess, end to end.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

MB = 1 << 20


def expect(fz, args, kind, code, fragment="", stdin=None, json_mode=True):
    """Run `autodiff ARGS` (with --format json unless told otherwise) and check kind, code and message."""
    args = [*args, "--format", "json"] if json_mode and args[0] == "eval" and "--batch" not in args else list(args)
    outcome = fz.run(args, input=stdin)
    fz.check(outcome, json_mode=json_mode and args[0] == "eval" and "--batch" not in args)
    assert outcome.code == code, outcome
    if kind is None:
        assert not outcome.stderr, outcome
        return outcome
    first = outcome.stderr.splitlines()[0]
    assert first.startswith(f"autodiff: {kind} error"), outcome
    assert fragment in outcome.stderr, outcome
    if "--format" in args and args[args.index("--format") + 1] == "json":
        assert outcome.json()["error"]["kind"] == kind, outcome
    return outcome


def peak_bytes(fz, args, stdin=None):
    """The peak of traced allocations (Python objects and numpy buffers) during one run."""
    tracemalloc.start()
    try:
        outcome = fz.run(args, input=stdin)
        return outcome, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# ---------------------------------------------------------------------------- programs
PROGRAMS = [
    # (id, program, bindings, kind or None for success, exit code, message fragment)
    ("empty", "", [], "value", 1, "the program is empty"),
    ("whitespace", "   \n\t  \n", [], "value", 1, "the program is empty"),
    ("only comments", "# a comment\n   # another\n", [], "value", 1, "the program is empty"),
    ("NUL byte", "x\x00+1", ["x=1"], "syntax", 2, "U+0000"),
    ("U+2212 minus", "2 \u2212 x", ["x=1"], "syntax", 2, "did you mean '-'?"),
    ("full-width digit", "\uff12*x", ["x=1"], "syntax", 2, "did you mean '2'?"),
    ("zero-width space", "x\u200b+1", ["x=1"], "syntax", 2, "invisible"),
    ("non-breaking space", "x\u00a0+1", ["x=1"], "syntax", 2, "invisible"),
    ("lone surrogate", "x\udcff", ["x=1"], "syntax", 2, "U+DCFF"),
    ("byte-order mark", "\ufeffx*2", ["x=1"], None, 0, ""),
    ("2**10**10", "2**10**10", [], None, 0, ""),
    ("x**1e308", "x**1e308", ["x=2"], None, 0, ""),
    ("1e999", "1e999 * x", ["x=1"], None, 0, ""),
    ("4,000-digit integer", "9" * 4000 + " * x", ["x=1"], None, 0, ""),
    ("5,000-digit integer", "9" * 5000, [], "limit", 1, "the integer has 5,000 digits"),
    ("ones(1e20)", "ones(1e20)", [], "value", 1, "whole numbers"),
    ("ones(10**20)", "ones(10**20)", [], "value", 1, "far too large"),
    ("ones(-1)", "ones(-1)", [], "value", 1, "negative dimension"),
    ("ones(2.5)", "ones(2.5)", [], "value", 1, "whole numbers"),
    ("zeros(100000, 100000)", "zeros(100000, 100000)", [], "limit", 1, "10,000,000,000 elements"),
    ("broadcast too large", "ones(100000, 1) * ones(1, 100000)", [], "limit", 1, "the broadcast result"),
    ("matmul too large", "matmul(ones(100000, 2), ones(2, 100000))", [], "limit", 1, "matrix product"),
    ("batched matmul too large", "ones(1000, 1000, 1) @ ones(1, 1000)", [], "limit", 1, "matmul result"),
    ("expand too large", "ones(2).expand(10000000000, 2)", [], "limit", 1, "expanded tensor"),
    ("arange too large", "arange(0, 1, 1e-10)", [], "limit", 1, "elements"),
    ("70 dimensions", "ones(" + ", ".join(["1"] * 70) + ")", [], "limit", 1, "at most 64"),
    ("70 new axes", "x[" + ", ".join(["None"] * 70) + "]", ["x=1"], "limit", 1, "at most 64"),
    ("dim out of range", "x.sum(dim=5)", ["x=[1, 2]"], "value", 1, "Dimension out of range"),
    ("transpose dim out of range", "x.transpose(0, 9)", ["x=[[1, 2]]"], "value", 1, "Dimension out of range"),
    ("step zero", "x[::0]", ["x=[1, 2]"], "value", 1, "slice step cannot be zero"),
    ("step zero, a list of strings", "[''][::0]", [], "value", 1, "slice step cannot be zero"),  # found by the fuzz
    ("negative step", "x[::-1]", ["x=[1, 2]"], "value", 1, "negative steps are not supported"),
    ("index out of bounds", "x[10]", ["x=[1, 2]"], "value", 1, "index 10 is out of bounds"),
    ("float index", "x[1.5]", ["x=[1, 2]"], "value", 1, "invalid index 1.5"),
    ("new axes and ellipsis", "x[None, None, ...].sum()", ["x=[1, 2]"], None, 0, ""),
    ("10,000 chained methods", "x" + ".exp().log()" * 5000, ["x=0.5"], None, 0, ""),
    ("20,000-term sum", "+".join(["x"] * 20000), ["x=1"], None, 0, ""),
    ("very long name", "v" * 100_000, ["x=1"], "name", 2, "unknown name 'vvv"),
    ("__import__", "__import__('os')", [], "name", 2, "unknown name '__import__'"),
    ("dunder attribute", "x.__class__", ["x=1"], "name", 2, "names starting with '_'"),
    ("class bases", "().__class__.__bases__", [], "name", 2, "names starting with '_'"),
    ("private attribute", "x._data", ["x=1"], "name", 2, "names starting with '_'"),
    ("lambda", "lambda: 1", [], "usage", 2, "put the program in a file and run it with `autodiff run FILE`"),
    ("comprehension", "[i for i in x] for", ["x=[1]"], "syntax", 2, "unexpected 'for': a comprehension is written"),
    ("f-string", "f'{x}'", ["x=1"], "usage", 2, "put the program in a file and run it with `autodiff run FILE`"),
    ("walrus", "(y := x)", ["x=1"], "syntax", 2, "':=' is not part of the language"),
    ("not callable", "x(1)", ["x=1"], "value", 1, "not callable"),
    ("tuple index", "(1, 2)[5]", [], "value", 1, "out of range for a tuple"),
    # found by the fuzz suite (see docs/robustness.md)
    ("mean of an empty tensor", "x.mean()", ["x=ones(0)"], None, 0, ""),
    ("softmax of an empty tensor", "softmax(x, dim=0).sum() + log_softmax(x, dim=0).sum()", ["x=ones(0)"], None, 0,
     ""),
    ("a 0-d tensor as a size", "ones(x)", ["x=2"], "value", 1, "whole numbers"),
    ("arange past 2**63", "arange(0, 1e300, 1e-300)", [], "limit", 1, "more than 2**63"),
    ("reduction over an empty dim", "ones(100000000, 0).sum(dim=1)", [], "limit", 1, "the reduction's result"),
    ("mean over an empty dim", "ones(0, 100000000).mean(dim=0)", [], "limit", 1, "the reduction's result"),
    ("a list of large tensors", "x = ones(4000, 4000); tensor([x, x, x, x])", [], "limit", 1,
     "the tensors in these lists"),
    ("huge integer literal as a value", "x", ["x=" + "9" * 4000], None, 0, ""),
    # found by AUTODIFF_FUZZ=deep: numpy's "Degrees of freedom <= 0" warning reached the terminal
    ("var of an empty tensor", "x = (-var([]))", [], None, 0, ""),
    ("std of one element, with backward", "(-(x).std())", ["x=0"], None, 0, ""),
    # found by AUTODIFF_FUZZ=deep: PyTorch's meshgrid warning reached the terminal in Python's format
    ("meshgrid without indexing", "(((meshgrid())))", ["x=1"], "value", 1, "gives a tuple"),
    ("meshgrid without indexing, summed", "meshgrid(x)[0].sum()", ["x=[1., 2.]"], None, 0, ""),
]


@pytest.mark.parametrize(("program", "bindings", "kind", "code", "fragment"),
                         [case[1:] for case in PROGRAMS], ids=[case[0] for case in PROGRAMS])
def test_nasty_programs(fz, program, bindings, kind, code, fragment):
    expect(fz, ["eval", program, *bindings], kind, code, fragment)


def test_a_long_name_is_cut_in_the_message(fz):
    outcome = expect(fz, ["eval", "v" * 100_000, "x=1"], "name", 2, "unknown name")
    assert len(outcome.stderr) < 400, outcome


def test_huge_numbers_are_infinite(fz):
    for program in ("2**10**10", "1e999 * x", "9" * 4000 + " * x"):
        outcome = expect(fz, ["eval", program, "x=1"], None, 0)
        assert outcome.json()["root"]["value"] == "inf"


def test_deep_nesting_is_a_limit_before_anything_deep_happens(fz):
    for program in ("(" * 100_000 + "x" + ")" * 100_000, "[" * 100_000 + "]" * 100_000,
                    "1" + "-" * 100_000 + "x", "x" + "**x" * 10_000):
        expect(fz, ["eval", program, "x=1"], "limit", 1, "nested")


def test_a_program_of_a_megabyte(fz):
    """1,000,000 characters parse; one more is a limit error at once."""
    padding = "#" + "a" * (1_000_000 - 6) + "\nx*2"
    assert len(padding) == 999_999
    expect(fz, ["eval", padding, "x=1"], None, 0)
    long_string = "s = '" + "a" * 999_000 + "'\nx*2"
    expect(fz, ["eval", long_string, "x=1"], None, 0)
    expect(fz, ["eval", "x" * 1_000_001], "limit", 1, "the program has 1,000,001 characters")


@pytest.mark.long
def test_a_hundred_thousand_statements(fz):
    # ~9 s on an idle core; under `pytest -n auto` every core runs a test, so the bound is wider than a run's
    outcome = fz.run(["eval", "y = x\n" * 100_000 + "y * 2", "x=1", "--format", "json"], timeout=90)
    fz.check(outcome, json_mode=True)
    assert (outcome.code, outcome.stderr) == (0, ""), outcome


# ---------------------------------------------------------------------------- limits before allocation
@pytest.mark.parametrize("program", [
    "zeros(100000, 100000)", "ones(100000, 1) * ones(1, 100000)", "matmul(ones(100000, 2), ones(2, 100000))",
    "ones(100000, 1) @ ones(1, 100000)", "randn(100000, 100000)", "eye(100000)", "full((100000, 100000), 2.0)",
    "ones(2).expand(100000, 100000, 2)", "linspace(0, 1, 10000000000)",
    "x = ones(4000, 4000); tensor([x, x, x, x])",
])
def test_limits_come_before_the_allocation(fz, program):
    """A tensor over --max-elements is refused before its memory is asked for."""
    outcome, peak = peak_bytes(fz, ["eval", program, "--format", "json", "--max-elements", "20000000"])
    fz.check(outcome, json_mode=True)
    assert outcome.json()["error"]["kind"] == "limit", outcome
    assert peak < 100 * MB, f"peak {peak / MB:.0f} MB\n{outcome}"


@pytest.mark.long
def test_the_order_of_a_derivative_is_bounded(fz):
    """--order N differentiates N times, and some graphs grow geometrically with N (x**x: 3.5 times an
    order): refused once the next graph would be too large, in seconds, not after hours."""
    expect(fz, ["eval", "x**x", "x=2", "--order", "40"], "limit", 1, "the graph grows too fast")
    outcome = expect(fz, ["eval", "sin(x)", "x=0.5", "--order", "40"], None, 0)
    assert len(outcome.json()["passes"]) == 40
    expect(fz, ["eval", "sin(x)", "x=0.5", "--order", "10001"], "usage", 2, "at most 10,000")
    expect(fz, ["eval", "x * 2", "x=1", "--retain-graph", "--repeat", "1000000000"], "usage", 2, "at most 10,000")


def test_the_element_limit_is_configurable(fz):
    expect(fz, ["eval", "ones(10, 10).sum()", "--max-elements", "99"], "limit", 1, "over the limit of 99")
    expect(fz, ["eval", "ones(10, 10).sum()", "--max-elements", "100"], None, 0)
    expect(fz, ["eval", "x.sum()", "x=[1, 2, 3]", "--max-elements", "2"], "limit", 1, "over the limit of 2")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM from /proc")
def test_the_limit_holds_end_to_end(tmp_path):
    """The installed command: refusing a 40 GB tensor costs no more memory than starting up."""
    # The peak resident size of this process image: VmHWM (ru_maxrss would include the parent's at fork).
    probe = ("import sys\nfrom autodiff.cli.main import main\ntry:\n    main()\nexcept SystemExit as e:\n"
             "    code = e.code\nhwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
             "print(hwm[0], code, file=sys.stderr)\n")
    script = tmp_path / "probe.py"
    script.write_text(probe)
    done = subprocess.run([sys.executable, str(script), "eval", "zeros(100000, 100000)"], capture_output=True,
                          text=True, timeout=60)
    rss_kb, code = done.stderr.splitlines()[-1].split()
    assert code == "1" and "limit error" in done.stderr
    assert int(rss_kb) < 300 * 1024, done.stderr


def test_many_large_tensors_get_a_limit_error_not_the_oom_killer():
    """The element limit bounds each tensor; the process's memory cap (AUTODIFF_MAX_MEMORY here, else what
    the machine has free) bounds them together."""
    program = "\n".join(f"a{i} = ones(3000, 3000)" for i in range(40))
    done = subprocess.run([_autodiff(), "eval", program], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "AUTODIFF_MAX_MEMORY": str(600 * MB)})
    assert done.returncode == 1, done
    assert done.stderr.startswith("autodiff: limit error") and "memory" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------------------- options and values
OPTIONS = [
    (["eval", "x", "--var", "x=y"], "name", 2, "a value cannot refer to variables"),
    (["eval", "x", "--var", "x=randn(y)"], "name", 2, "a value cannot refer to variables"),
    (["eval", "x", "--var", "x=1; 2"], "syntax", 2, "expected one expression"),
    (["eval", "x", "--var", "x="], "usage", 2, "expected NAME=VALUE"),
    (["eval", "x", "--var", "_x=1"], "usage", 2, "not a valid name"),
    (["eval", "x", "--var", "x=[1, 2"], "syntax", 2, "the value of x"),
    (["eval", "x", "x=1", "--max-elements", "0"], "usage", 2, "--max-elements must be positive"),
    (["eval", "x", "x=1", "--max-elements", "-1"], "usage", 2, "--max-elements must be positive"),
    (["eval", "x", "x=1", "--repeat", "-1"], "usage", 2, "--repeat must be at least 1"),
    (["eval", "x", "x=1", "--order", "0"], "usage", 2, "--order must be at least 1"),
    (["eval", "x", "x=1", "--seed", "-1"], "usage", 2, "--seed must be a non-negative integer"),
    (["eval", "x", "x=1", "--seed", "abc"], "usage", 2, "is not a valid integer"),
    (["eval", "x", "x=1", "--dtype", "float16"], "usage", 2, "float16"),
    (["eval", "x", "x=1", "--nope"], "usage", 2, "--nope"),
    (["eval", "x", "x=1", "--backward", "nope"], "name", 2, "no tensor named 'nope'"),
    (["eval", "x", "x=[1, 2]", "--grad-tensor", "ones(3)"], "autograd", 1, "shape"),
    (["run", "--seed", "-1", "-"], "usage", 2, "--seed must be a non-negative integer"),
]


@pytest.mark.parametrize(("args", "kind", "code", "fragment"), OPTIONS, ids=[" ".join(o[0]) for o in OPTIONS])
def test_bad_options_and_values(fz, args, kind, code, fragment):
    expect(fz, args, kind, code, fragment, stdin="")


# ---------------------------------------------------------------------------- @PATH files
@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A folder of bad (and a few good) data files."""
    d = tmp_path_factory.mktemp("files")
    np.save(d / "good.npy", np.arange(6.0).reshape(2, 3))
    np.save(d / "pickled.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    (d / "raw_pickle.npy").write_bytes(pickle.dumps([1.0, 2.0]))
    data = (d / "good.npy").read_bytes()
    (d / "truncated.npy").write_bytes(data[:-8])
    (d / "header_only.npy").write_bytes(data[:20])
    header = dict(descr="<f8", fortran_order=False, shape=(100_000, 100_000))
    with open(d / "huge_header.npy", "wb") as f:
        np.lib.format.write_array_header_1_0(f, header)
    np.save(d / "complex.npy", np.array([1 + 2j]))
    np.save(d / "strings.npy", np.array(["a"]))
    (d / "malformed.json").write_text('{"x": [1, 2')
    (d / "object.json").write_text('{"x": [1, 2]}')
    (d / "ragged.json").write_text("[[1, 2], [3]]")
    (d / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (d / "ragged.csv").write_text("1,2,3\n4,5\n")
    (d / "words.csv").write_text("a,b\n1,2\n")
    (d / "empty.csv").write_text("")
    (d / "good.csv").write_text("1,2\n3,4\n")
    rng = np.random.default_rng(0)
    for suffix in ("npy", "json", "csv"):
        (d / f"garbage.{suffix}").write_bytes(rng.bytes(500))
    (d / "x.npy").mkdir()
    (d / "data.txt").write_text("1")
    (d / "star*.csv").write_text("7,7\n")
    (d / "a1.csv").write_text("1,1\n")
    (d / "~").mkdir()
    (d / "~" / "home.csv").write_text("5\n")
    try:
        for suffix in ("npy", "json", "csv"):
            with open(d / f"sparse.{suffix}", "wb") as f:
                f.truncate(10 << 30)  # 10 GB that take no disk space
    except OSError:
        pass
    return d


FILES = [
    ("missing.npy", "io", 2, "does not exist"),
    ("x.npy", "io", 2, "is a directory"),
    ("data.txt", "io", 2, "unsupported file type '.txt'"),
    ("pickled.npy", "io", 2, "never loads pickles"),
    ("raw_pickle.npy", "io", 2, "not a valid .npy file"),
    ("truncated.npy", "io", 2, "truncated"),
    ("header_only.npy", "io", 2, "not a valid .npy file"),
    ("complex.npy", "io", 2, "numbers are needed"),
    ("strings.npy", "io", 2, "numbers are needed"),
    ("malformed.json", "io", 2, "not valid JSON"),
    ("object.json", "io", 2, "the JSON must be a number or nested lists of numbers, not an object"),
    ("ragged.json", "io", 2, "rectangular nested lists"),
    ("deep.json", "io", 2, "not valid JSON"),
    ("ragged.csv", "io", 2, "not a rectangular CSV"),
    ("words.csv", "io", 2, "not a rectangular CSV"),
    ("empty.csv", "io", 2, "holds no numbers"),
    ("garbage.npy", "io", 2, "not a valid .npy file"),
    ("garbage.json", "io", 2, "not valid JSON"),
    ("garbage.csv", "io", 2, "not a rectangular CSV"),
    ("sparse.npy", "io", 2, "not a valid .npy file"),
    ("sparse.json", "limit", 1, "too large for the element limit"),
    ("sparse.csv", "limit", 1, "too large for the element limit"),
]


@pytest.mark.parametrize(("name", "kind", "code", "fragment"), FILES, ids=[f[0] for f in FILES])
def test_bad_files(fz, files, name, kind, code, fragment):
    if name.startswith("sparse") and not (files / name).exists():
        pytest.skip("this file system cannot make sparse files")
    for option in ("--var", "--const"):
        expect(fz, ["eval", "x.sum()", option, f"x=@{files / name}"], kind, code, fragment)


def test_a_huge_header_is_refused_before_allocating(fz, files):
    """A .npy header promising 80 GB: refused by the element limit, and, with the limit raised, by the size
    of the file, without asking numpy for the memory."""
    expect(fz, ["eval", "x.sum()", f"x=@{files / 'huge_header.npy'}"], "limit", 1, "over the limit")
    outcome, peak = peak_bytes(fz, ["eval", "x.sum()", f"x=@{files / 'huge_header.npy'}", "--max-elements",
                                    str(10**11), "--format", "json"])
    assert outcome.json()["error"]["kind"] == "io" and "truncated" in outcome.stderr, outcome
    assert peak < 50 * MB


def test_good_files_load(fz, files):
    for name, total in (("good.npy", 15.0), ("good.csv", 10.0)):
        outcome = expect(fz, ["eval", "x.sum()", f"x=@{files / name}"], None, 0)
        assert outcome.json()["root"]["value"] == total


def test_a_path_is_taken_literally(fz, files):
    """No globbing: `*` and `?` are characters of the name; no `~` expansion: `~` is a folder name."""
    outcome = expect(fz, ["eval", "x.sum()", f"x=@{files / 'star*.csv'}"], None, 0)
    assert outcome.json()["root"]["value"] == 14.0
    expect(fz, ["eval", "x.sum()", f"x=@{files / 'a*.csv'}"], "io", 2, "does not exist")
    expect(fz, ["eval", "x.sum()", f"x=@{files / 'a?.csv'}"], "io", 2, "does not exist")
    cwd = os.getcwd()
    os.chdir(files)
    try:
        outcome = expect(fz, ["eval", "x.sum()", "x=@~/home.csv"], None, 0)
        assert outcome.json()["root"]["value"] == 5.0
    finally:
        os.chdir(cwd)


def test_bad_program_files(fz, files, tmp_path):
    expect(fz, ["eval", "-f", str(files / "missing.ad")], "io", 2, "cannot read it", json_mode=False)
    expect(fz, ["eval", "-f", str(files / "x.npy")], "io", 2, "cannot read it", json_mode=False)
    expect(fz, ["eval", "-f", str(files / "garbage.npy")], "io", 2, "not UTF-8 text", json_mode=False)
    expect(fz, ["run", str(files / "x.npy")], "io", 2, "the script: cannot read")
    garbage = fz.run(["run", str(files / "garbage.npy")])  # Python's answer to a file that is not Python
    assert garbage.code == 1 and garbage.stderr.splitlines()[-1].startswith("SyntaxError: "), garbage
    if (files / "sparse.csv").exists():
        for args in (["eval", "-f", str(files / "sparse.csv")],):
            outcome, peak = peak_bytes(fz, args)
            fz.check(outcome)
            assert outcome.code == 1 and "limit error" in outcome.stderr and "1,000,000 characters" in outcome.stderr
            assert peak < 50 * MB


def test_a_path_with_a_nul_character(fz):
    expect(fz, ["eval", "-f", "a\x00b"], "io", 2, "NUL character", json_mode=False)
    expect(fz, ["run", "a\x00b"], "io", 2, "NUL character")
    expect(fz, ["eval", "x", "--batch", "a\x00b"], "io", 2, "NUL character", json_mode=False)
    expect(fz, ["eval", "x", "x=@a\x00b.npy"], "io", 2, "does not exist")


def test_standard_input_that_is_not_utf8(fz):
    """eval's program: an io error; a script's (run -, or a repl fed by a pipe): Python's SyntaxError."""
    expect(fz, ["eval", "-", "x=1"], "io", 2, "not UTF-8 text", stdin=b"x\xff")
    expect(fz, ["eval", "-", "x=1"], None, 0, stdin="x * 2\n")
    for command in (["run", "-"], ["repl"]):
        outcome = fz.run(command, input=b"print(1)\n\xc3\n")
        assert outcome.code == 1 and outcome.stdout == "", outcome
        assert outcome.stderr.splitlines()[-1].startswith("SyntaxError: (unicode error) 'utf-8' codec"), outcome


# ---------------------------------------------------------------------------- --batch
def test_batch_lines(fz, tmp_path):
    lines = [b'{"x": 1}', b"", b"\xff\xfe", b"[1, 2]", b'{"x": NaN}', b'{"x": "1"}', b'{"_x": 1}',
             b"[" * 100_000 + b"]" * 100_000, b'{"x": ' + b"[" * 70 + b"1" + b"]" * 70 + b"}", b'{"x": 2}']
    outcome = fz.run(["eval", "x * 2", "--batch", "-"], input=b"\n".join(lines) + b"\n")
    fz.check(outcome, batch=True)
    answers = [fz.strict_json(line) for line in outcome.stdout.splitlines()]
    kinds = {a["line"]: a["error"]["kind"] if "error" in a else "ok" for a in answers}
    # (Python's JSON reader takes NaN; the output stays strict JSON, with "nan")
    assert kinds == {1: "ok", 3: "io", 4: "value", 5: "ok", 6: "value", 7: "usage", 8: "limit", 9: "value",
                     10: "ok"}, outcome
    assert outcome.code == 1


def test_batch_refuses_a_line_too_long_without_reading_it_into_memory(fz, tmp_path):
    path = tmp_path / "lines.jsonl"
    with open(path, "wb") as f:
        f.write(b'{"x": 1}\n')
        f.write(b" " * (30 * MB) + b"\n")
        f.write(b'{"x": 2}\n')
    outcome, peak = peak_bytes(fz, ["eval", "x * 2", "--batch", str(path), "--max-elements", "1000"])
    fz.check(outcome, batch=True)
    answers = [fz.strict_json(line) for line in outcome.stdout.splitlines()]
    assert [a.get("error", {}).get("kind") for a in answers] == [None, "limit", None], outcome
    assert peak < 10 * MB, peak


def test_batch_errors_before_the_first_line_are_json(fz):
    for args in (["eval", "-", "--batch", "-"], ["eval", "x", "--batch", "-", "--repeat", "abc"],
                 ["eval", "x +", "--batch", "-"], ["eval", "x", "--batch", "/nonexistent/lines"]):
        outcome = fz.run(args, input="")
        fz.check(outcome, batch=True)
        assert "error" in outcome.json(), outcome


def test_batch_lines_do_not_leak_grad_mode(fz):
    """A line's program that switches recording off does not change the next line's answer."""
    program = "y = x * 2\ntorch.set_grad_enabled(False)\ny"
    outcome = fz.run(["eval", program, "--batch", "-"], input='{"x": 1}\n{"x": 1}\n')
    fz.check(outcome, batch=True)
    first, second = (fz.strict_json(line) for line in outcome.stdout.splitlines())
    assert {**first, "line": 2} == second, outcome


# ---------------------------------------------------------------------------- the real command, end to end
def _autodiff() -> str:
    return str(Path(sys.executable).with_name("autodiff"))


def test_a_closed_stdout_pipe_is_quiet():
    """`autodiff eval ... | head -c 10`: the reader goes away; no traceback, exit 0."""
    for fmt in ("json", "plain"):
        proc = subprocess.Popen([_autodiff(), "eval", "(x * 2).sum()", "--var", "x=randn(300000)", "--format", fmt],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        head = proc.stdout.read(10)
        proc.stdout.close()
        stderr = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 0, stderr
        assert len(head) == 10 and stderr == ""


def test_closed_standard_streams():
    """A standard stream closed by the caller (`<&-`, `>&-`, `2>&-`) is no reason to crash."""
    def run(args, **streams):
        return subprocess.run([_autodiff(), *args], timeout=60, capture_output=not streams, **streams)

    closed_stdin = run(["eval", "-", "x=1"], stdin=subprocess.DEVNULL)
    assert closed_stdin.returncode == 1
    done = subprocess.run(f"'{_autodiff()}' eval - x=1 <&- 2>&1", shell=True, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1 and "the program is empty" in done.stdout and "Traceback" not in done.stdout
    for redirect in (">&-", ">&- 2>&-", "2>&-"):
        done = subprocess.run(f"'{_autodiff()}' eval 'x*2' x=1 --format json {redirect}", shell=True,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (redirect, done)
    done = subprocess.run(f"'{_autodiff()}' eval y x=1 >&-", shell=True, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("autodiff: name error"), done


def test_undecodable_arguments_end_to_end():
    """Bytes that are not UTF-8 in argv reach Python as surrogates: a syntax error, not a traceback."""
    done = subprocess.run([_autodiff().encode(), b"eval", b"x\xff", b"x=1", b"--format", b"json"],
                          capture_output=True, timeout=60)
    assert done.returncode == 2, done
    assert b"Traceback" not in done.stderr
    assert b'"kind": "syntax"' in done.stdout


@pytest.mark.parametrize(("program", "kind", "words"), [
    ("tensor([]).expand(1)", "shape", "The expanded size of the tensor (1) must match the existing size (0)"),
    ("zeros(0, 2**62)", "limit", "not enough memory for a tensor of shape (0, 4611686018427387904)"),
])
def test_shapes_numpy_refuses_are_typed_errors(program, kind, words):
    from autodiff.engine.errors import AutodiffError
    from autodiff.grammar.interpreter import Interpreter
    from autodiff.grammar.syntax import parse

    with pytest.raises(AutodiffError) as caught:
        Interpreter().run(parse(program))
    assert caught.value.kind == kind and words in caught.value.message
