"""Fuzzing `autodiff eval PROGRAM --batch -`: every input line gets one strict JSON answer (a result or an
error with a documented kind), the exit code is 1 exactly when a line failed, and a line's answer is the
one `autodiff eval` gives for the same bindings alone (no state leaks from one line to the next)."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

FUZZ = settings.get_profile("fuzz-active")
SLOWER = settings(FUZZ, max_examples=max(10, FUZZ.max_examples // 2))


def json_values(depth: int = 3) -> st.SearchStrategy:
    """JSON values for a binding: mostly numbers and (ragged, empty, deep) lists, sometimes anything."""
    numbers = st.one_of(st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False),
                        st.sampled_from([0.0, -0.0, 1e308, 1e-320, 10**30, 10**400]))
    others = st.one_of(st.none(), st.booleans(), st.text(max_size=3), st.dictionaries(st.text(max_size=2),
                                                                                     st.integers(), max_size=2))
    return st.recursive(st.one_of(numbers, numbers, others), lambda inner: st.lists(inner, max_size=3),
                        max_leaves=depth * 4)


def json_line() -> st.SearchStrategy[bytes]:
    """One input line: usually an object of bindings, sometimes other JSON, broken JSON or raw bytes."""
    bindings = st.dictionaries(st.sampled_from(["x", "y", "z", "_x", "1x", "x y", ""]), json_values(), max_size=3)
    return st.one_of(
        bindings.map(lambda d: json.dumps(d).encode()),
        bindings.map(lambda d: json.dumps(d).encode()),
        json_values().map(lambda v: json.dumps(v).encode()),
        st.sampled_from([b"", b"   ", b"{", b'{"x": NaN}', b'{"x": Infinity}', b'{"x": 1, "x": 2}', b"\xff\xfe",
                         b"[" * 100_000 + b"]" * 100_000, b'{"x": ' + b"[" * 5000 + b"1" + b"]" * 5000 + b"}",
                         b'{"x": 1}\r', b"\x00", b'{"x": "1"}']),
        st.binary(max_size=30),
    )


@SLOWER
@given(data=st.data())
def test_random_lines(fz, data):
    program, _ = data.draw(fz.well_typed(), label="program")
    lines = data.draw(st.lists(json_line(), min_size=1, max_size=5), label="lines")
    options = data.draw(st.sampled_from([[], ["--trace"], ["--explain"], ["--seed", "1"], ["--format", "json"],
                                         ["--grad-tensor", "1"], ["--max-elements", "4"], ["--format", "plain"]]),
                        label="options")
    fz.check_run(["eval", program, "--batch", "-", *options], input=b"\n".join(lines) + b"\n", batch=True)


@SLOWER
@given(data=st.data())
def test_generated_programs(fz, data):
    program = data.draw(st.one_of(fz.programs(), fz.token_soup()), label="program")
    lines = data.draw(st.lists(json_line(), min_size=1, max_size=3), label="lines")
    fz.check_run(["eval", program, "--batch", "-"], input=b"\n".join(lines), batch=True)


def _binding_text(value: object) -> str | None:
    """The value as a VALUE of the command line, when it has one (finite numbers and lists of them)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return repr(value) if math.isfinite(value) and abs(value) < 1e300 else None
    if isinstance(value, list):
        items = [_binding_text(v) for v in value]
        return None if None in items else "[" + ", ".join(items) + "]"
    return None


@SLOWER
@given(data=st.data())
def test_a_line_answers_as_eval_does(fz, data):
    """Each line's document equals `autodiff eval`'s for the same bindings (with --seed: the same draws)."""
    program, bindings = data.draw(fz.well_typed(), label="program")
    # The program may switch recording off: a later line must start with it on again.
    program = data.draw(st.sampled_from([program, program.replace("\nout", "\ntorch.set_grad_enabled(False)\nout")]),
                        label="variant")
    names = [b.split("=", 1)[0] for b in bindings]
    values = st.one_of(st.floats(-3, 3, width=32), st.lists(st.floats(-3, 3, width=32), min_size=2, max_size=2))
    lines = data.draw(st.lists(st.fixed_dictionaries({n: values for n in names}), min_size=1, max_size=3),
                      label="lines")
    options = ["--seed", "7", "--dtype", "float64"]
    batch = fz.check_run(["eval", program, "--batch", "-", *options],
                         input="".join(json.dumps(line) + "\n" for line in lines), batch=True)
    answers = [fz.strict_json(text) for text in batch.stdout.splitlines()]
    assert len(answers) == len(lines), batch
    for number, (line, answer) in enumerate(zip(lines, answers), 1):
        args = [f"{name}={_binding_text(value)}" for name, value in line.items()]
        alone = fz.check_run(["eval", program, *args, *options, "--format", "json"])
        assert {"line": number, **alone.json()} == answer, (batch, alone)
