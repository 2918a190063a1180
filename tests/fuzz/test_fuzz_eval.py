"""Fuzzing `autodiff eval`: whatever the program, the bindings and the options, the run ends in time with
exit 0, 1 or 2, no traceback, one typed message on stderr, and (with --format json) one strict JSON
document on stdout whose error kind matches the exit code. The invariants are `fz.check` (conftest.py)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

FUZZ = settings.get_profile("fuzz-active")
FORMATS = st.sampled_from([["--format", "json"], ["--format", "plain"], ["--format", "pretty"], ["--format=json"]])


@settings(FUZZ)
@given(data=st.data())
def test_generated_programs(fz, data):
    program = data.draw(fz.programs(), label="program")
    options = data.draw(fz.eval_options(), label="options")
    fmt = data.draw(FORMATS, label="format")
    fz.check_run(["eval", program, *options, *fmt])


@settings(FUZZ)
@given(data=st.data())
def test_well_typed_programs(fz, data):
    """Programs that mostly run to the end (backward, --trace, --explain, --order...): every output format
    succeeds or fails alike."""
    program, bindings = data.draw(fz.well_typed(), label="program")
    options = data.draw(fz.good_options(), label="options")
    if "--seed" not in options:  # both runs must draw the same random values
        options += ["--seed", "5"]
    as_json = fz.check_run(["eval", program, *bindings, *options, "--format", "json"])
    as_text = fz.check_run(["eval", program, *bindings, *options, "--format", data.draw(
        st.sampled_from(["plain", "pretty"]), label="format")])
    assert as_json.code == as_text.code, (as_json, as_text)
    if as_json.code == 0:
        document = as_json.json()
        assert document["root"]["name"] == "out"
        assert as_text.stdout.startswith("out = tensor("), as_text


@settings(FUZZ)
@given(data=st.data())
def test_generated_expressions_with_bindings(fz, data):
    """One expression over bound variables of random shapes (0-d, empty and mismatched ones included)."""
    expression = data.draw(fz.expressions(), label="expression")
    bindings = [f"{name}={data.draw(fz.value_texts(), label=name)}" for name in fz.variables[:3]]
    fz.check_run(["eval", expression, *bindings, "--format", "json"])


@settings(FUZZ)
@given(data=st.data())
def test_token_soup(fz, data):
    program = data.draw(fz.token_soup(), label="program")
    fmt = data.draw(FORMATS, label="format")
    fz.check_run(["eval", program, "x=[1, 2]", "y=3", *fmt])


@settings(FUZZ)
@given(data=st.data())
def test_random_bytes_and_unicode(fz, data):
    program = data.draw(st.one_of(fz.lenient_bytes(), fz.any_text()), label="program")
    value = data.draw(st.one_of(fz.lenient_bytes(40), fz.any_text(20), fz.value_texts()), label="value")
    fmt = data.draw(FORMATS, label="format")
    fz.check_run(["eval", program, f"x={value}", *fmt])


@settings(FUZZ)
@given(data=st.data())
def test_program_from_standard_input(fz, data):
    """`eval -` decodes standard input itself: random bytes give a typed error, never a traceback."""
    raw = data.draw(st.one_of(st.binary(max_size=100), fz.programs().map(str.encode)), label="stdin")
    fz.check_run(["eval", "-", "x=1", "--format", "json"], input=raw)


@settings(FUZZ)
@given(data=st.data())
def test_random_option_soup(fz, data):
    """Options in any order, with any values, including ones that do not exist."""
    words = st.sampled_from(["--var", "--const", "--grad-tensor", "--backward", "--repeat", "--order", "--seed",
                             "--max-elements", "--dtype", "--format", "-f", "--batch", "--retain-grad", "--trace",
                             "x=1", "y=[1, 2]", "x", "-1", "0", "json", "float16", "--nope", "-", "=", "@", "@x.npy",
                             "--", "-h", "--help", "--version", "--debug"])
    args = data.draw(st.lists(st.one_of(words, fz.any_text(8)), max_size=8), label="args")
    fz.check_run(["eval", *args], input="")


@settings(FUZZ, max_examples=8)
@given(data=st.data())
def test_the_installed_command(fz, data):
    """A few runs end to end, through the console script in a fresh process (argv as bytes: what a shell
    passes, undecodable bytes included)."""
    program = data.draw(st.one_of(fz.programs(), fz.token_soup(), st.binary(max_size=40).filter(
        lambda b: b"\x00" not in b)), label="program")
    argv = [program if isinstance(program, bytes) else program.replace("\x00", "").encode("utf-8", "surrogateescape"),
            b"x=[1, 2]", b"y=0.5", b"--format", b"json"]
    start = time.perf_counter()
    done = subprocess.run([str(Path(sys.executable).with_name("autodiff")).encode(), b"eval", *argv],
                          capture_output=True, timeout=60)
    stdout, stderr = (stream.decode("utf-8", "backslashreplace") for stream in (done.stdout, done.stderr))
    outcome = fz.outcome(["eval", *(a.decode("utf-8", "surrogateescape") for a in argv)], done.returncode, stdout,
                         stderr, time.perf_counter() - start)
    fz.check(outcome, json_mode=True)
