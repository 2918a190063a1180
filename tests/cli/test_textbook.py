"""Derivatives as a textbook writes them (issue 24): any variable name, textbook notation, steps by the rules,
implicit and mixed derivatives, and `check` that names the likely mistake."""

from __future__ import annotations

import json

import pytest


def _diff(cli, *args: str) -> dict:
    out = cli("diff", *args, "--format", "json")
    assert out.code == 0, out.stderr
    return json.loads(out.stdout)


# ---------------------------------------------------------------------------- a variable's name wins
@pytest.mark.parametrize("args", [("--wrt", "t"), ("t=1",)])
def test_a_wrt_or_bound_name_wins_over_a_builtin(cli, args):
    (derivative,) = _diff(cli, "t**2/(t**2+2)", *args)["derivatives"]
    assert derivative["wrt"] == "t"
    if args == ("t=1",):
        assert derivative["value"] == pytest.approx(4 / 9) and derivative["autograd"] == pytest.approx(4 / 9)


def test_a_builtin_used_as_a_value_is_a_name_error_naming_it(cli):
    out = cli("diff", "x*t", "--wrt", "x")
    assert out.code == 2 and "'t' is a built-in function" in out.stderr
    assert _diff(cli, "x*t", "--wrt", "x", "--wrt", "t")["derivatives"][1]["expr"] == "x"
