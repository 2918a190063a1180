"""`autodiff ops`: the listing is the engine's table (every built-in, op, node name and formula), grouped and
sorted, in plain text and JSON."""

from __future__ import annotations

import json

import pytest

from autodiff.cli.main import main
from autodiff.engine import BUILTINS, OPS, Builtin


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(["ops", *args])
    out, err = capsys.readouterr()
    return done.value.code, out, err


def document(capsys: pytest.CaptureFixture[str]) -> dict:
    code, out, err = run(capsys, "--format", "json")
    assert (code, err) == (0, "")
    return json.loads(out)


def entries(doc: dict) -> list[dict]:
    return [e for group in doc["groups"] for e in group["entries"]]


def test_plain_output_starts_with_the_operators(capsys):
    code, out, err = run(capsys, "--format", "plain")
    assert (code, err) == (0, "")
    functions = len(BUILTINS)
    assert out.splitlines()[:13] == [
        f"{functions} functions (each also torch.NAME) and 13 operators",
        "formulas: the gradient sent to each input, from grad (the result's gradient), the inputs (self, other, "
        "...), result and the parameters",
        "",
        "Operators",
        "  a + b  calls add",
        "    AddBackward0",
        "      self:   grad",
        "      other:  grad",
        "  a - b  calls sub",
        "    SubBackward0  self - other",
        "      self:   grad",
        "      other:  -grad",
        "    RsubBackward1  other - alpha * self, for a number `other`",
    ]


def test_plain_entries(capsys):
    out = run(capsys, "--format", "plain")[1]
    assert ("  mul(input, other)  self * other  (also x.mul(...))\n"
            "    MulBackward0\n"
            "      self:   grad * other\n"
            "      other:  grad * self\n") in out
    assert ("  sqrt(input)  square root  (also x.sqrt(...))\n"
            "    SqrtBackward0\n"
            "      self:  grad / (2 * result)\n") in out
    assert "  ones(*size, dtype=None, requires_grad=False)  a tensor of ones  no backward\n" in out
    assert ("  x[index] = value  writes in place; x's grad_fn becomes CopySlices (the value is viewed and expanded "
            "to the region first)\n    CopySlices  self[index] = src\n") in out


def test_every_builtin_and_op_is_listed_with_the_table_text(capsys):
    listed = entries(document(capsys))
    functions = {e["name"]: e for e in listed if e["kind"] == "function"}
    assert set(functions) == set(BUILTINS)
    for name, builtin in BUILTINS.items():
        entry = functions[name]
        assert entry["signature"] == builtin.signature
        assert entry["method"] == builtin.method
        assert [b["op"] for b in entry["backward"]] == list(builtin.ops)
        assert entry["differentiable"] == bool(builtin.ops)
    seen = {b["op"] for e in listed for b in e["backward"]}
    assert seen == set(OPS)
    for e in listed:
        for record in e["backward"]:
            op = OPS[record["op"]]
            assert record["node"] == op.node
            assert record["inputs"] == [{"name": n, "formula": g.text} for n, g in zip(op.inputs, op.grads)]


def test_groups_are_sorted_and_constructors_have_no_backward(capsys):
    doc = document(capsys)
    names = [g["name"] for g in doc["groups"]]
    assert names[0] == "Operators"
    assert "Constructors and other functions without backward" in names
    for group in doc["groups"][1:]:
        listed = [e["name"] for e in group["entries"]]
        assert listed == sorted(listed), group["name"]
    constructors = next(g for g in doc["groups"] if g["name"].startswith("Constructors"))["entries"]
    assert {"tensor", "ones", "zeros", "randn", "arange", "eye"} <= {e["name"] for e in constructors}
    assert all(not e["differentiable"] and e["backward"] == [] for e in constructors)
    operators = [e["signature"] for e in doc["groups"][0]["entries"]]
    for syntax in ("a + b", "a - b", "a * b", "a / b", "a ** b", "a @ b", "-a", "x[index]", "x[index] = value"):
        assert syntax in operators


def test_a_new_table_entry_shows_up(capsys, monkeypatch):
    fn = BUILTINS["exp"].fn
    monkeypatch.setitem(BUILTINS, "zexp", Builtin("zexp", fn, "zexp(input)", ("exp",), "e ** self", True))
    doc = document(capsys)
    group = next(g for g in doc["groups"] if any(e["name"] == "zexp" for e in g["entries"]))
    assert group["name"] == "Elementwise functions"
    (entry,) = [e for e in group["entries"] if e["name"] == "zexp"]
    assert entry["backward"][0]["node"] == "ExpBackward0"
    assert entry["backward"][0]["inputs"] == [{"name": "self", "formula": "grad * result"}]


def test_pretty_has_no_markup_leaks(capsys):
    code, out, _ = run(capsys, "--format", "pretty")
    assert code == 0
    assert "  a @ b  calls matmul" in out and "[" in out  # Rich prints user text as is (no markup)
