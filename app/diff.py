"""`autodiff diff`'s derivation: a program's derivatives as formulas of the language, derived by the op table's
backward rules on symbols (symbolic.py), simplified by SymPy within a time bound, written in the language
(printing.py); with their value at a point, next to autograd's there."""

from __future__ import annotations

import math
import threading
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from autodiff import engine
from autodiff.app.printing import to_language, to_latex
from autodiff.app.symbolic import Step, differentiate, exact, record
from autodiff.engine.errors import UsageError
from autodiff.grammar.interpreter import Interpreter
from autodiff.grammar.syntax import parse

MAX_ORDER = 10
SIMPLIFY_SECONDS = 2.0


@dataclass
class Derivative:
    wrt: str
    order: int
    expr: Any
    text: str
    latex: str
    value: float | None = None


@dataclass
class DiffResult:
    program: str
    derivatives: list[Derivative]
    steps: list[Step]
    root_latex: str = ""


def derive(program: str, wrt: list[str] | None, order: int, simplify: bool = True,
           variables: Collection[str] = ()) -> DiffResult:
    """d^order root / d wrt^order for each wrt (default: every free variable), as formulas. The names in wrt
    and `variables` (those bound at a point) are variables even where a built-in has the name (t)."""
    if not 1 <= order <= MAX_ORDER:
        raise UsageError(f"--order must be between 1 and {MAX_ORDER}, got {order}")
    declared = {*(wrt or ()), *variables}
    formula = record(program, declared)
    names = formula.variables
    targets = wrt or names
    for name in targets:
        if name not in formula.leaves:
            known = ", ".join(names) or "none"
            raise UsageError(f"--wrt {name}: the program has no variable {name!r} (its variables: {known})")
    if not targets:
        raise UsageError("the program has no variable to differentiate: it is made of numbers and constants only")
    differentiate(formula)
    derivatives = []
    for name in targets:
        expr = formula.grads[name]
        for _ in range(order - 1):  # again, by the same rules: the formula is a program of the language
            expr = _derive_again(expr, name, declared)
        written = exact(expr)
        final = exact(simplified(written)) if simplify else written
        if final is not written and not _same_in_the_language(to_language(final), to_language(written), names):
            final = written  # SymPy's complex-valued rewriting (abs(x)**(2/3) as abs(x**(2/3))) is nan here
        derivatives.append(Derivative(name, order, final, to_language(final), to_latex(final)))
    return DiffResult(program, derivatives, formula.steps, to_latex(formula.root.expr))


def _derive_again(expr: Any, name: str, declared: Collection[str]) -> Any:
    formula = record(to_language(expr), declared)
    if name not in formula.leaves:
        return sympy.Integer(0)
    return differentiate(formula).grads[name]


def simplified(expr: Any, seconds: float = SIMPLIFY_SECONDS) -> Any:
    """SymPy's simplify, bounded in time: a huge expression is shown less simplified rather than hanging."""
    out: list[Any] = []

    def work() -> None:
        try:
            out.append(sympy.simplify(expr))
        except Exception:
            out.append(expr)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(seconds)
    return out[0] if out else expr


_PROBES = (-2.3, -0.7, 0.4, 1.9, 3.1)


def _same_in_the_language(text: str, reference: str, names: list[str]) -> bool:
    """Do two formulas give the same numbers when the language evaluates them (real arithmetic, numpy's
    nan for x**(2/3) at negative x), at a few points? A failed evaluation counts as different."""
    try:
        with engine.settings(default_dtype="float64"), np.errstate(all="ignore"), engine.no_grad():
            for k, probe in enumerate(_PROBES):
                values = {n: engine.tensor(probe + 0.37 * i * (k + 1), dtype="float64") for i, n in enumerate(names)}
                results = []
                for source in (text, reference):
                    interpreter = Interpreter()
                    interpreter.names.update(values)
                    results.append(float(np.asarray(engine.tensor(interpreter.run(parse(source)).root).data)))
                a, b = results
                if not (np.isclose(a, b, rtol=1e-9, atol=1e-12) or (np.isnan(a) and np.isnan(b))):
                    return False
    except Exception:
        return False
    return True


def value_at(expr: Any, point: dict[str, float]) -> float:
    """The formula's value at the point (float; nan where it is not defined)."""
    substituted = expr.subs({sympy.Symbol(n, real=True): sympy.Float(v, 30) for n, v in point.items()})
    try:
        return float(sympy.N(substituted, 17))
    except (TypeError, ValueError):
        return math.nan


__all__ = ["MAX_ORDER", "Derivative", "DiffResult", "derive", "simplified", "value_at"]
