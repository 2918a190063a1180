"""SymPy for the calculus commands (critical, tangent, limit, gradient's formulas), every call bounded in time.

The program's SymPy expression comes from `autodiff.app.symbolic.program.program_expression` (the syntax tree, never
the text); a point such as `pi/4` becomes exact the same way. SymPy's solve and limit can run for minutes on
an innocent-looking function: each call here runs in a worker thread and is abandoned when its time is up,
and the caller falls back to the numbers (which come from autograd, never from SymPy).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection
from typing import Any

import sympy

from autodiff.app.symbolic.printing import to_language
from autodiff.app.symbolic.program import FORMULA, program_expression
from autodiff.app.symbolic.simplest import simplest
from autodiff.app.symbolic.sympymath import real_form
from autodiff.app.timebox import timed
from autodiff.engine.errors import AutodiffError

SECONDS = 3.0  # one SymPy call (solve, limit, a derivative)
MAX_BUILTINS_AS_VARIABLES = 8


class TimedOut:
    """What `bounded` returns when SymPy did not answer in time (or failed)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __bool__(self) -> bool:
        return False


def bounded(work: Callable[[], Any], seconds: float = SECONDS) -> Any:
    """work(), or a TimedOut when it takes longer than `seconds` or raises (SymPy's NotImplementedError)."""
    outcome = timed(work, seconds)
    if outcome.done:
        return outcome.value
    if outcome.timed_out:
        return TimedOut(f"SymPy did not answer within {seconds:g} s")
    return TimedOut(f"SymPy failed ({type(outcome.error).__name__})")  # the numbers answer instead


def expression(program: str, variables: Collection[str] = ()) -> tuple[Any, list[str]] | TimedOut:
    """The program's root as a SymPy expression and its variables; a TimedOut when it has no symbolic form
    (a tensor-valued program, sum(), indexing, ...). `variables` are variables even where a built-in has
    the name, and so is a built-in the program uses as a value (t in `t**2`: the calculus commands read it as
    the textbook does). A command asks for the same program more than once (critical: for its variables, then
    to solve f' = 0): it is read once."""
    found = _expression(program, tuple(variables))
    return (found[0], list(found[1])) if found else found


@functools.lru_cache(maxsize=8)  # a few programs: a command reads one or two (f, a constraint), a batch line its own
def _expression(program: str, variables: tuple[str, ...]) -> tuple[Any, list[str]] | TimedOut:
    declared = list(variables)
    for _ in range(MAX_BUILTINS_AS_VARIABLES + 1):
        try:
            return program_expression(program, declared)
        except AutodiffError as error:
            name = error.details.get("name")
            if error.reason != "builtin_as_value" or not isinstance(name, str) or name in declared:
                return TimedOut(f"no exact form ({error.message})")
            declared.append(name)
    return TimedOut("no exact form (too many built-in names used as variables)")


def declarable(names: Collection[str]) -> list[str]:
    """The names a command may declare variables when it reads its program (`expression`): all but the modules
    (`torch`, `math`). A constant the user gave an interval is a variable there too, as it is in the numbers:
    `critical 'e**2 - e' e=0:1` differentiates in e (it read e as the constant in its exact form and the
    variable in its numbers, and answered both f' = 0 everywhere and a minimum at 1/2)."""
    return [n for n in names if n not in FORMULA.modules]


def with_constants(expr: Any, variables: list[str], texts: dict[str, str]) -> Any:
    """expr with every name that is not a variable replaced by its bound value (exact when the VALUE is an
    exact number, `2` or `pi/4`; a None when one is not a number SymPy can take)."""
    replace = {}
    for s in expr.free_symbols:
        name = str(s)
        if name in variables:
            continue
        value = exact_number(texts[name]) if name in texts else None
        if value is None:
            return None
        replace[s] = value
    return expr.xreplace(replace) if replace else expr


def sympy_float(value: float) -> Any:
    return sympy.Float(value)


def symbol(name: str) -> Any:
    return sympy.Symbol(name, real=True)


def exact_number(text: str) -> Any:
    """A point written in the language (`2`, `pi/4`, `-inf`) as an exact SymPy number, or None (randn(), a
    name, a list: those are numbers only)."""
    try:
        expr, names = program_expression(text)
    except AutodiffError:
        return None
    if names or not isinstance(expr, sympy.Expr) or not (expr.is_number or expr in (sympy.oo, -sympy.oo)):
        return None
    return expr


def without_deltas(expr: Any) -> Any:
    """d/dx sign(x) is 2*DiracDelta(x) in SymPy: 0 wherever it is a number (autograd's 0 too)."""
    if isinstance(expr, sympy.Expr) and expr.has(sympy.DiracDelta):
        return expr.replace(lambda e: isinstance(e, sympy.DiracDelta), lambda e: sympy.Integer(0))
    return expr


def derivative(expr: Any, names: list[str], seconds: float = SECONDS) -> Any:
    """d expr / d names[0] d names[1] ... (DiracDelta taken as 0), or TimedOut."""
    return bounded(lambda: without_deltas(sympy.diff(expr, *[symbol(n) for n in names])), seconds)


def at(expr: Any, point: dict[str, Any], seconds: float = SECONDS) -> Any:
    """expr at the (exact) point, simplified; TimedOut when SymPy cannot, None when it is not a real number."""
    def work() -> Any:
        value = simplest(real_form(expr).subs({symbol(n): v for n, v in point.items()}))
        return value if is_real_number(value) else None

    return bounded(work, seconds)


def is_real_number(value: Any) -> bool:
    return isinstance(value, sympy.Expr) and bool(value.is_number) and value.is_real is True and value.is_finite is True


def decimal(value: Any) -> float:
    """An exact real number as a float (nan when it is not one)."""
    try:
        return float(sympy.N(value, 17))
    except (TypeError, ValueError):
        return math.nan


def text(value: Any) -> str:
    """An exact value or formula in the language (pastes back into eval)."""
    return to_language(value)


__all__ = ["SECONDS", "TimedOut", "at", "bounded", "decimal", "declarable", "derivative", "exact_number",
           "expression", "is_real_number", "symbol", "sympy_float", "text", "with_constants", "without_deltas"]
