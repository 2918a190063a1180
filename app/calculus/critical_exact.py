"""SymPy's side of `autodiff critical`: the exact solutions of f^(k)(x) = 0 (and the points where f^(k) may not
be defined: the zeros of the arguments of abs/sign and of the bases of negative powers), and of grad f = 0 in
several variables. Every call is bounded in time (app.exact); what SymPy cannot do in time is left to the
numbers, and said so. The numbers at each exact point still come from autograd."""

from __future__ import annotations

from typing import Any

import sympy

from autodiff.app.symbolic import exact as X


class Solutions:
    """Exact candidates, and what SymPy said about the equation."""

    def __init__(self, points: list[Any] | None = None, complete: bool = False, general: str | None = None,
                 singular: list[Any] | None = None, note: str | None = None, expr: Any = None) -> None:
        self.points = [] if points is None else points  # exact numbers (one variable) or dicts name -> number
        self.complete = complete  # SymPy solved the equation (a finite set, or no solution)
        self.general = general  # infinitely many: the general solution, in words
        self.singular = [] if singular is None else singular  # where f^(k) may be undefined (one variable)
        self.note = note
        self.expr = expr  # f, exact (constants substituted)


def exact_text(value: Any) -> str | None:
    """An exact number in the language, when it reads back as the same number (not CRootOf(...))."""
    try:
        text = X.text(value)
    except Exception:
        return None
    back = X.exact_number(text)
    if back is None:
        return None
    a, b = X.decimal(back), X.decimal(value)
    return text if a == b or abs(a - b) <= 1e-12 * max(1.0, abs(b)) else None


def _function(program: str, variables: list[str], texts: dict[str, str], out: Solutions, given: list[str]) -> Any:
    """f with its constants' values, exact; `given`: the variables with an interval on the command line, which
    critical declared when it read the program for its variables (the same reading, X.expression's)."""
    found = X.expression(program, X.declarable(given))
    if not found:
        out.note = found.reason
        return None
    expr = X.with_constants(found[0], variables, texts)
    if expr is None:
        out.note = "a constant is not an exact number"
    return expr


def _domain(interval: tuple[Any, Any] | None) -> Any:
    return sympy.S.Reals if interval is None else sympy.Interval(interval[0], interval[1])


def _general(solutions: Any) -> str | None:
    """A union of ImageSets over the integers (cos x = 0) as `pi/2 + 2*n*pi, 3*pi/2 + 2*n*pi (n an integer)`."""
    sets = solutions.args if isinstance(solutions, sympy.Union) else (solutions,)
    if not all(isinstance(s, sympy.ImageSet) and s.base_sets == (sympy.S.Integers,) for s in sets):
        return None
    n = X.symbol("n")
    parts = []
    for s in sets:
        (dummy,) = s.lamda.variables
        parts.append(X.text(s.lamda.expr.xreplace({dummy: n})))
    return ", ".join(parts) + " (n any integer)"


def _solve(equation: Any, x: Any, domain: Any, seconds: float) -> Any:
    solveset = sympy.solveset
    return X.bounded(lambda: solveset(sympy.Eq(equation, 0), x, domain), seconds)


def _finite(solutions: Any) -> list[Any] | None:
    if isinstance(solutions, sympy.FiniteSet):
        return [s for s in solutions.args if X.is_real_number(s)]
    if solutions is sympy.S.EmptySet:
        return []
    return None


def _singular_candidates(g: Any) -> list[Any]:
    """Expressions whose zeros may make g undefined or jump: arguments of abs and sign, bases of negative
    or fractional powers."""
    found = []
    for node in sympy.preorder_traversal(g):
        if isinstance(node, (sympy.Abs, sympy.sign)):
            found.append(node.args[0])
        elif isinstance(node, sympy.Pow) and node.exp.is_number and (node.exp.is_negative or not node.exp.is_integer):
            found.append(node.base)
    unique: list[Any] = []
    for e in found:
        if e.free_symbols and e not in unique:
            unique.append(e)
    return unique[:20]


def one_variable(program: str, name: str, k: int, texts: dict[str, str], interval: tuple[Any, Any] | None,
                 seconds: float = X.SECONDS) -> Solutions:
    """The exact zeros of f^(k) on the interval (all the reals when None), and the singular candidates."""
    out = Solutions()
    expr = _function(program, [name], texts, out, [] if interval is None else [name])
    if expr is None:
        return out
    out.expr = expr
    x = X.symbol(name)
    g = X.derivative(expr, [name] * k, seconds)
    if isinstance(g, X.TimedOut):
        out.note = g.reason
        return out
    domain = _domain(interval)
    solutions = _solve(g, x, domain, seconds)
    if isinstance(solutions, X.TimedOut):
        out.note = solutions.reason
    elif solutions == domain:
        out.complete, out.note = True, "zero everywhere"
    else:
        points = _finite(solutions)
        if points is not None:
            out.points, out.complete = points, True
        elif interval is None:
            out.general = _general(solutions)
        if not out.complete and out.general is None:
            out.note = "SymPy could not solve it exactly"
    for candidate in _singular_candidates(g):
        found = _solve(candidate, x, domain, seconds / 2)
        points = [] if isinstance(found, X.TimedOut) else _finite(found)
        out.singular += [p for p in points or [] if p not in out.points and p not in out.singular]
    return out


def several_variables(program: str, names: list[str], texts: dict[str, str],
                      box: dict[str, tuple[Any, Any]] | None, seconds: float = 2 * X.SECONDS) -> Solutions:
    """The exact solutions of grad f = 0 (real ones, in the box when given); a family (x = y) in words."""
    out = Solutions()
    expr = _function(program, names, texts, out, list(box or ()))
    if expr is None:
        return out
    out.expr = expr
    symbols = [X.symbol(n) for n in names]
    equations = []
    for n in names:
        d = X.derivative(expr, [n], seconds / 2)
        if isinstance(d, X.TimedOut):
            out.note = d.reason
            return out
        equations.append(d)
    solve = sympy.solve
    found = X.bounded(lambda: solve(equations, symbols, dict=True), seconds)
    if isinstance(found, X.TimedOut):
        out.note = found.reason
        return out
    families = []
    for solution in found:
        if len(solution) < len(names) or any(v.free_symbols for v in solution.values()):
            families.append(", ".join(f"{X.text(s)} = {X.text(v)}" for s, v in solution.items()))
            continue
        values = {n: solution.get(s) for n, s in zip(names, symbols)}
        if all(X.is_real_number(v) for v in values.values()) and _inside(values, box):
            out.points.append(values)
    out.complete = not families
    if families:
        out.general = "; ".join(families) + " (a whole curve or surface of critical points)"
    return out


def _inside(values: dict[str, Any], box: dict[str, tuple[Any, Any]] | None) -> bool:
    if not box:
        return True
    return all(box[n][0] < X.decimal(v) < box[n][1] for n, v in values.items() if n in box)


__all__ = ["Solutions", "exact_text", "one_variable", "several_variables"]
