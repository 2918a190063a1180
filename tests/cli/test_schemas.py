"""docs/schemas/: one JSON Schema per command's JSON output; the `cli` fixture validates every JSON document
the suite produces against them (tests/cli/schemas.py). These tests check the checker."""

from __future__ import annotations

import json

import pytest

from .schemas import SCHEMAS, check_output, errors, schema

COMMANDS = ["eval", "check", "gradcheck", "diff", "graph", "table", "jacobian", "hessian", "ops", "critical", "tangent",
            "limit", "newton", "gradient", "error"]


@pytest.mark.parametrize("name", COMMANDS)
def test_every_schema_is_versioned(name):
    document = schema(name)
    assert document["$id"] == f"autodiff/{name}/{document['version']}"
    assert document["$schema"].startswith("https://json-schema.org/")


def test_there_is_a_schema_per_command_that_writes_json():
    assert sorted(p.name.split(".")[0] for p in SCHEMAS.glob("*.schema.json")) == sorted(COMMANDS)


def test_the_checker_catches_what_breaks_a_schema(cli):
    good = cli("eval", "x**2", "x=[1, 2]", "--grad-tensor", "ones(2)", "--format", "json").json()
    assert errors(good, schema("eval")) == []
    for broken in ({**good, "grads": {"x": ["NaN", 1]}}, {**good, "root": {**good["root"], "dtype": "int8"}},
                   {k: v for k, v in good.items() if k != "passes"}):
        assert errors(broken, schema("eval")), broken
    with pytest.raises(AssertionError, match=r"eval\.schema\.json"):
        check_output(("eval", "--format", "json"), json.dumps({"root": 1}))


def test_non_finite_numbers_are_the_documented_strings(cli):
    doc = cli("eval", "log(x)", "x=[0, -1, 1]", "--grad-tensor", "ones(3)", "--format", "json").json()
    assert doc["root"]["value"] == ["-inf", "nan", 0.0]
    assert [float(v) for v in doc["grads"]["x"]] == [float("inf"), -1.0, 1.0]  # float() reads them back


def test_one_float_format_at_every_size(cli):
    """float32 values are their shortest decimal whatever the tensor's size (it was 17 digits past 100,000)."""
    small = cli("eval", "x * 0.1", "x=ones(3)", "--grad-tensor", "ones(3)", "--format", "json").json()
    large = cli("eval", "x * 0.1", "x=ones(200001)", "--grad-tensor", "ones(200001)", "--format", "json").json()
    assert small["root"]["value"] == [0.1, 0.1, 0.1]
    assert set(large["root"]["value"]) == {0.1}
