"""app.mistakes reads a program's steps without what only a page of steps shows (rule_steps(shown=False)): the
rules, their expressions, the inner functions and every part's derivative must be those of the steps
`autodiff diff --steps` shows."""

from __future__ import annotations

import pytest

from autodiff.app.symbolic.printing import to_book
from autodiff.app.symbolic.program import differentiate, record
from autodiff.app.symbolic.steps import rule_steps

PROGRAMS = [  # tests/app/test_mistakes_numbers.py's programs, and more
    "sin(x**2)", "x**2*sin(x)", "x/(1 + 0.561*x**2)", "1.3*x**3*sin(0.7*x)", "log(1 + 1.5*x**2)", "sqrt(x**2 + 1.952)",
    "exp(0.8*x)*sin(x)", "sigmoid(1.7*x)", "atan(1.2*x)", "tanh(1.1*x) + 0.6*x**3", "x**4", "y = x**2\ny*sin(y)",
    "x**x", "sec(x**2)", "(x + 0.9)**3", "2**x + x", "abs(x - 0.3)*x",
    "1.767*x**3*sin(1.637*x)", "log(1 + 1.267*x**2)", "exp(-0.5*x**2)", "x**2*y + sin(x*y)", "cos(x)**2/x",
    "sigmoid(2*x)*tanh(x)", "sqrt(1 + exp(x))", "(x + 1)**x", "log(x)/log(2)"]


def _walk(steps: list) -> list:
    out, stack = [], list(reversed(steps))
    while stack:
        step = stack.pop()
        out.append(step)
        stack.extend(reversed(step.children))
    return out


@pytest.mark.parametrize("program", PROGRAMS)
def test_the_steps_read_for_a_mistake_are_the_steps_shown(program):
    names = {"x", "y"} if "y" in program else {"x"}
    shown = _walk(rule_steps(differentiate(record(program, names)), "x"))
    read = _walk(rule_steps(differentiate(record(program, names)), "x", shown=False))
    assert [s.rule for s in read] == [s.rule for s in shown]
    local = {id(s.children[0]) for s in read if s.rule == "chain"}  # d/du f(u): a page's, not read
    for a, b in zip(read, shown):
        assert (a.expr, a.let, len(a.children)) == (b.expr, b.let, len(b.children))
        assert a.derivatives == b.derivatives
        assert [to_book(d) for d in a.derivatives] == [to_book(d) for d in b.derivatives]
        if a is not read[0] and id(a) not in local:
            assert a.result == b.result and to_book(a.result) == to_book(b.result)
