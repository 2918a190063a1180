"""Fuzzing `autodiff check PROGRAM --expect NAME=EXPR`: whatever the program, the expectations and the
options, the run ends in time with exit 0 (every expectation holds), 1 (one does not, or a runtime error)
or 2, no traceback, and with --format json one strict document: {"ok", "checks"} or an error."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

FUZZ = settings.get_profile("fuzz-active")
CHECK_KEYS = frozenset({"ok", "checks"})


def check_options(fz) -> st.SearchStrategy[list[str]]:
    def option(pair: tuple[str, str]) -> list[str]:
        return [pair[0], pair[1]]

    pairs = st.one_of(
        st.tuples(st.just("--samples"), st.sampled_from(["1", "3", "0", "-1", "100000000"])),
        st.tuples(st.just("--rtol"), st.sampled_from(["1e-5", "0", "-1", "nan", "inf"])),
        st.tuples(st.just("--atol"), st.sampled_from(["1e-8", "0", "-1", "nan", "1e308"])),
        st.tuples(st.just("--seed"), st.sampled_from(["0", "-1"])),
        st.tuples(st.just("--dtype"), st.sampled_from(["float32", "float64"])),
        st.tuples(st.just("--max-elements"), st.sampled_from(["10", "0"])),
    )
    return st.lists(pairs.map(option), max_size=3).map(lambda groups: [a for g in groups for a in g])


@settings(FUZZ)
@given(data=st.data())
def test_well_typed_checks(fz, data):
    """Programs that run, with right, wrong and broken expectations."""
    program, bindings = data.draw(fz.well_typed(), label="program")
    names = [b.split("=", 1)[0] for b in bindings]
    expectations = data.draw(st.lists(st.tuples(st.sampled_from([*names, "nope", "_x"]), st.one_of(
        fz.expressions(), st.sampled_from(["0", "1", "2*x", "ones_like(x)", "x", "cos(x)", "", "x[0]"]))),
        max_size=3), label="expect")
    args = ["check", program, *bindings]
    for name, expression in expectations:
        args += ["--expect", f"{name}={expression}"]
    args += data.draw(check_options(fz), label="options")
    args += data.draw(st.sampled_from([["--format", "json"], ["--format", "plain"]]), label="format")
    fz.check_run(args, keys=CHECK_KEYS)


@settings(FUZZ)
@given(data=st.data())
def test_generated_checks(fz, data):
    program = data.draw(st.one_of(fz.programs(), fz.token_soup(), fz.any_text()), label="program")
    expect = data.draw(st.one_of(fz.expressions(), fz.token_soup(), fz.any_text(20)), label="expect")
    value = data.draw(fz.value_texts(), label="value")
    fz.check_run(["check", program, f"x={value}", "--expect", f"x={expect}", "--format", "json"], keys=CHECK_KEYS)


@settings(FUZZ)
@given(data=st.data())
def test_gradcheck(fz, data):
    """`autodiff gradcheck`: autograd against finite differences, exit 1 on a mismatch (no error then)."""
    if data.draw(st.booleans(), label="well typed"):
        program, bindings = data.draw(fz.well_typed(), label="program")
    else:
        program = data.draw(st.one_of(fz.programs(), fz.token_soup()), label="program")
        bindings = [f"x={data.draw(fz.value_texts(), label='x')}"]
    fmt = data.draw(st.sampled_from([["--format", "json"], ["--format", "plain"]]), label="format")
    fz.check_run(["gradcheck", program, *bindings, *fmt], keys=frozenset({"ok", "leaves"}))
