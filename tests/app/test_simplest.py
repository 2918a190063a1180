"""app.symbolic.simplest: SymPy's simplify by its own public steps, without the sympy.physics.units import
that `sympy.simplify` makes on every call. SymPy's simplify is the oracle: the same form on formulas of the
language and their derivatives (the book forms of diff, tangent's and gradient's exact values read it)."""

from __future__ import annotations

import subprocess
import sys

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodiff.app.symbolic.program import program_expression
from autodiff.app.symbolic.simplest import simplest

FORMULAS = [
    "(2*x)**3", "x**x", "sin(x)*cos(x)", "sin(x)**2 + cos(x)**2", "tan(x)/sec(x)", "log(x**2 + 1)",
    "(x**2 - 1)/(x - 1)", "(1 + x)/(1 - x)", "exp(x)*exp(2*x)", "sqrt(1 - x**2)", "x*y**2 + exp(x*y)",
    "atan(x/y)", "log(x*y) - log(x)", "sinh(x)**2 - cosh(x)**2", "1/(1 + exp(-x))", "x**(1/3)",
    "asin(x) + acos(x)", "erf(x)*x", "abs(x)*x**2", "(x + 1)**5/(x - 2)**3", "2**x*3**x", "cot(x)*csc(x)",
    "log(exp(x) + 1)", "exp(sin(x)**2)", "sqrt(x)/(sqrt(x) + 1)", "tanh(x)", "x/(x**2 + 1)**2", "acot(x)",
]


def _formulas():
    for text in FORMULAS:
        expr, names = program_expression(text)
        yield text, expr
        for name in names:
            yield f"d/d{name} {text}", sympy.diff(expr, sympy.Symbol(name, real=True))


@pytest.mark.parametrize("label, expr", list(_formulas()), ids=lambda v: v if isinstance(v, str) else "")
def test_the_same_form_as_sympy_simplify(label, expr):
    assert simplest(expr) == sympy.simplify(expr), label


_X = sympy.Symbol("x", real=True)
_LEAVES = st.sampled_from([_X, _X, sympy.Integer(2), sympy.Integer(3), sympy.Rational(1, 2), sympy.pi])
_FUNCTIONS = st.sampled_from([sympy.exp, sympy.log, sympy.sin, sympy.cos, sympy.tan, sympy.sqrt, sympy.atan,
                              sympy.sinh, sympy.tanh, sympy.sec])
_FORMULA = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.builds(lambda f, a: f(a), _FUNCTIONS, inner),
    st.builds(sympy.Add, inner, inner), st.builds(sympy.Mul, inner, inner),
    st.builds(lambda a, b: a / b, inner, inner.filter(lambda b: b != 0)),
    st.builds(sympy.Pow, inner, st.sampled_from([2, 3, -1, sympy.Rational(1, 2)]))), max_leaves=5)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_FORMULA)
def test_derivatives_of_random_formulas_simplify_as_sympy_does(f):
    derivative = sympy.diff(f, _X)
    assert simplest(derivative) == sympy.simplify(derivative)


def test_no_sympy_physics_is_imported():
    code = ("import sys, sympy; from autodiff.app.symbolic.simplest import simplest; x = sympy.Symbol('x');"
            "simplest(sympy.sin(x)**2 + sympy.cos(x)**2 + sympy.log(2*x) + (x**2 - 1)/(x - 1));"
            "print(sorted(m for m in sys.modules if m.startswith('sympy.physics')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_pieces_are_left_to_sympy_simplify():
    x = sympy.Symbol("x", real=True)
    pieces = sympy.Piecewise((0, x <= 0), (2 * x + x, True))
    assert simplest(pieces) == sympy.simplify(pieces) == sympy.Piecewise((0, x <= 0), (3 * x, True))
    assert simplest(x * sympy.sign(x) + sympy.Abs(x)) == sympy.simplify(x * sympy.sign(x) + sympy.Abs(x))
