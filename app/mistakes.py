"""What a wrong derivative most likely got wrong, for `autodiff check`: compared with the derivative at every
point checked, is yours its negative, off by a constant factor, off by the derivative of an inner function
(the chain rule not applied), or the product (or quotient) of the parts' derivatives (the product or
quotient rule not applied)? The rules come from the program's textbook steps (app.steps); SymPy is imported
only when a check fails, and every SymPy call is bounded in time.

A batch checks many answers to few programs: what SymPy finds for a program (its steps, its derivatives of
other orders) is found once per program, and each answer is then compared with them in numbers (the
formulas evaluated on all the points at once, in float64); SymPy's exact values are asked for only where
those numbers are too close to the tolerance to tell."""

from __future__ import annotations

import fractions
import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

SECONDS = 3.0


def diagnose(program: str, name: str, yours: list[float], reference: list[float],
             points: list[dict[str, float]], order: int = 1) -> str | None:
    """One sentence naming the likely mistake, or None. `yours` and `reference` hold the values at `points`
    (scalars only) of the derivative of `order`."""
    a, b = np.asarray(yours, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    usable = np.isfinite(a) & np.isfinite(b)
    if usable.sum() < 2:
        return None
    a, b = a[usable], b[usable]
    points = [p for p, keep in zip(points, usable) if keep]
    if order != 1:
        return _other_order(program, name, a, points, order)
    if np.allclose(a, -b, rtol=1e-6, atol=1e-9) and not np.allclose(b, 0, atol=1e-9):
        return "yours is the negative of the derivative (a sign lost, e.g. d/dx cos(x) = -sin(x))"
    nonzero = np.abs(b) > 1e-12
    if nonzero.sum() >= 2:
        ratios = a[nonzero] / b[nonzero]
        if np.allclose(ratios, ratios[0], rtol=1e-6) and not math.isclose(ratios[0], 1.0, rel_tol=1e-6):
            return f"off by a constant factor {_number(float(ratios[0]))}: yours is {_number(float(ratios[0]))} " \
                   "times the derivative"
    settled, answer = _by_numbers(program, name, a, b, points)
    if settled:
        return answer
    try:
        rule = _by_the_rules(program, name, a, b, points)
    except Exception:  # a diagnosis is a courtesy: never an error of its own
        rule = None
    return rule if rule is not None else _other_order(program, name, a, points, order)


def _by_numbers(program: str, name: str, yours: np.ndarray, reference: np.ndarray,
                points: list[dict[str, float]]) -> tuple[bool, str | None]:
    """(True, the answer) when app.screening's numbers settle what the rules and the other orders below would
    find for a first derivative (no rule matches, and yours is clearly the function, the second derivative or
    neither); (False, None) when SymPy must look."""
    from autodiff.app.screening import candidates, clearly

    found = candidates(program, name, points)
    if found is None:
        return False, None
    ones = np.ones_like(reference)
    with np.errstate(all="ignore"):
        for factor in found.factors:  # a chain rule matches when yours * factor is the derivative (factor not 1)
            if clearly(factor, ones) is not True and clearly(yours * factor, reference) is not False:
                return False, None
        if any(clearly(yours, wrong) is not False for wrong in found.wrong):
            return False, None
        for k in (0, 2):  # as _another_order tries them for a first derivative
            verdict = clearly(yours, found.orders[k])
            if verdict is None:
                return False, None
            if verdict:
                return True, _say(k, 1)
    return True, None


def _other_order(program: str, name: str, yours: np.ndarray, points: list[dict[str, float]],
                 order: int) -> str | None:
    """_another_order within SECONDS in all (a courtesy, as above: no answer rather than a slow one)."""
    from autodiff.app.timebox import timed

    outcome = timed(lambda: _another_order(program, name, yours, points, order), SECONDS)
    return outcome.value if outcome.done else None


_ORDINALS = {0: "the function itself", 1: "the first derivative", 2: "the second derivative",
             3: "the third derivative", 4: "the fourth derivative"}


def _another_order(program: str, name: str, yours: np.ndarray, points: list[dict[str, float]],
                   order: int) -> str | None:
    """Yours equals the derivative of another order (the function, one derivative too few or too many)?"""
    if "," in name:  # a mixed derivative
        return None
    for k in (order - 1, order + 1, *range(order - 2, -1, -1)):
        if k < 0 or k not in _ORDINALS:
            continue
        expr = _of_order(program, name, k)
        if expr is None:
            return None
        if _decide((expr,), lambda values: (yours, values), points):
            return _say(k, order)
    return None


@functools.lru_cache(maxsize=256)
def _of_order(program: str, name: str, k: int) -> Any:
    """The program's k-th derivative with respect to name (SymPy, bounded in time; remembered), None when SymPy
    has none in time."""
    from autodiff.app.symbolic import exact as X

    found = _expression(program, name)
    if found is None:
        return None
    expr = X.derivative(found, [name] * k, SECONDS) if k else found
    return None if isinstance(expr, X.TimedOut) else expr


@functools.lru_cache(maxsize=256)
def _expression(program: str, name: str) -> Any:
    from autodiff.app.symbolic import exact as X

    found = X.expression(program, [name])
    return None if isinstance(found, X.TimedOut) else found[0]


def _say(k: int, order: int) -> str:
    """yours is the derivative of order k where `order` was asked: what it is, and what to do."""
    wanted = _ORDINALS.get(order, f"derivative {order}")
    times = {1: "once", 2: "twice"}.get(abs(order - k), f"{abs(order - k)} times")
    if k > order:
        return f"yours is {_ORDINALS[k]}, not {wanted}: differentiated {times} too often"
    return f"yours is {_ORDINALS[k]}, not {wanted}: differentiate {'it ' if k == 0 else ''}{times} more"


def _number(x: float) -> str:
    ratio = fractions.Fraction(x).limit_denominator(100)
    if math.isclose(float(ratio), x, rel_tol=1e-6):
        return str(ratio)
    return f"{x:.6g}"


def _by_the_rules(program: str, name: str, yours: np.ndarray, reference: np.ndarray,
                  points: list[dict[str, float]]) -> str | None:
    """The chain, product and quotient rules of the program's steps, tried against yours (in the steps' order)."""
    from autodiff.app.symbolic.printing import to_book as to_language

    for step in _rule_steps(program, name):
        if step.rule == "chain":
            (inner,) = step.derivatives
            if _decide((inner,), lambda f: (yours * f, reference), points) and \
                    not _decide((inner,), lambda f: (f, np.ones_like(f)), points):
                return (f"off by a factor {to_language(inner)}: was the chain rule applied to the inner function "
                        f"{step.let.split(' = ', 1)[-1]} (times its derivative {to_language(inner)})?")
        else:
            both = (lambda u, v: (yours, u * v)) if step.rule == "product" else (lambda u, v: (yours, u / v))
            if _decide(tuple(step.derivatives), both, points):
                what = step.rule
                return (f"yours matches the {what} of the derivatives of {to_language(step.expr)}'s parts; the "
                        f"{what} rule is {_RULE[what]}")
    return None


@functools.lru_cache(maxsize=256)
def _rule_steps(program: str, name: str) -> tuple[Any, ...]:
    """The program's steps that can name a mistake (a chain rule with its inner function, a product or quotient
    of two moving parts), in the order they are tried; found once per program."""
    from autodiff.app.symbolic.bookform import bounded
    from autodiff.app.symbolic.program import differentiate, record
    from autodiff.app.symbolic.steps import rule_steps

    formula = bounded(lambda p: differentiate(record(p, {name})), program, SECONDS)
    if isinstance(formula, str):
        return ()
    found = []
    stack = list(bounded(lambda f: rule_steps(f, name, shown=False), formula, SECONDS) or [])
    while stack:
        step = stack.pop()
        stack.extend(step.children)
        if (step.rule == "chain" and len(step.derivatives) == 1 and step.let) or \
                (step.rule in ("product", "quotient") and len(step.derivatives) == 2):
            found.append(step)
    return tuple(found)


def _decide(exprs: tuple[Any, ...], pair: Callable[..., tuple[np.ndarray, np.ndarray]],
            points: list[dict[str, float]]) -> bool:
    """_close(*pair(the values of exprs at the points)): from float64 values of the formulas where they leave
    no doubt, else from SymPy's exact values (as the check always did)."""
    fast = [_float64_values(e, points) for e in exprs]
    if all(f is not None for f in fast):
        with np.errstate(all="ignore"):
            verdict = _clearly_close(*pair(*fast))
        if verdict is not None:
            return verdict
    from autodiff.app.symbolic.diff import value_at

    with np.errstate(all="ignore"):
        return _close(*pair(*[np.array([value_at(e, p) for p in points]) for e in exprs]))


def _clearly_close(a: np.ndarray, b: np.ndarray) -> bool | None:
    """_close(a, b) when a and b, each off by a rounding or two, cannot change its answer; None when they could
    (a non-finite value, an error within a factor 2 of the tolerance)."""
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        return None
    error, allowed = np.abs(a - b), 1e-9 + 1e-6 * np.abs(b)
    if np.all(error <= 0.5 * allowed):
        return True
    return False if np.any(error > 2.0 * allowed) else None


def _float64_values(expr: Any, points: list[dict[str, float]]) -> np.ndarray | None:
    """The formula's values at the points in float64, computed at once by the language (the formula printed in
    it); None when that cannot be done."""
    text = _written(expr)
    if text is None:
        return None
    from autodiff import engine
    from autodiff.app.comparison import Program
    from autodiff.app.session import Binding
    from autodiff.app.textbook.realroots import BACKEND

    bindings = [Binding(n, np.array([p[n] for p in points], dtype=np.float64), False) for n in points[0]]
    try:
        with engine.settings(default_dtype="float64"), engine.no_grad(), np.errstate(all="ignore"):
            root = Program(text, BACKEND).run(bindings)[0].numpy(force=True)
    except Exception:  # the exact values answer instead
        return None
    if root.shape not in ((), (len(points),)):
        return None
    return np.broadcast_to(np.asarray(root, dtype=np.float64), (len(points),))


@functools.lru_cache(maxsize=1024)
def _written(expr: Any) -> str | None:
    from autodiff.app.symbolic.printing import to_language

    try:
        return to_language(expr)
    except Exception:
        return None


_RULE = {"product": "(u*v)' = u'*v + u*v'", "quotient": "(u/v)' = (u'*v - u*v')/v**2"}


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(a))) and bool(np.allclose(a, b, rtol=1e-6, atol=1e-9))


__all__ = ["diagnose"]
