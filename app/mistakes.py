"""What a wrong derivative most likely got wrong, for `autodiff check`: compared with the derivative at every
point checked, is yours its negative, off by a constant factor, off by the derivative of an inner function
(the chain rule not applied), or the product (or quotient) of the parts' derivatives (the product or
quotient rule not applied)? The rules come from the program's textbook steps (app.steps); SymPy is imported
only when a check fails, and every SymPy call is bounded in time."""

from __future__ import annotations

import fractions
import math

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
    try:
        rule = _by_the_rules(program, name, a, b, points)
    except Exception:  # a diagnosis is a courtesy: never an error of its own
        rule = None
    return rule if rule is not None else _other_order(program, name, a, points, order)


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
    from autodiff.app import exact as X
    from autodiff.app.diff import value_at

    if "," in name:  # a mixed derivative
        return None
    found = X.expression(program, [name])
    if isinstance(found, X.TimedOut):
        return None
    for k in (order - 1, order + 1, *range(order - 2, -1, -1)):
        if k < 0 or k not in _ORDINALS:
            continue
        expr = X.derivative(found[0], [name] * k, SECONDS) if k else found[0]
        if isinstance(expr, X.TimedOut):
            return None
        if _close(yours, np.array([value_at(expr, p) for p in points])):
            return _say(k, order)
    return None


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
    """The chain, product and quotient rules of the program's steps, tried against yours."""
    from autodiff.app.bookform import bounded
    from autodiff.app.diff import value_at
    from autodiff.app.printing import to_book as to_language
    from autodiff.app.steps import rule_steps
    from autodiff.app.symbolic import differentiate, record

    formula = bounded(lambda p: differentiate(record(p, {name})), program, SECONDS)
    if isinstance(formula, str):
        return None
    stack = list(bounded(lambda f: rule_steps(f, name), formula, SECONDS) or [])
    while stack:
        step = stack.pop()
        stack.extend(step.children)
        if step.rule == "chain" and len(step.derivatives) == 1 and step.let:
            inner = step.derivatives[0]
            factor = np.array([value_at(inner, p) for p in points])
            if _close(yours * factor, reference) and not _close(factor, np.ones_like(factor)):
                return (f"off by a factor {to_language(inner)}: was the chain rule applied to the inner function "
                        f"{step.let.split(' = ', 1)[-1]} (times its derivative {to_language(inner)})?")
        if step.rule in ("product", "quotient") and len(step.derivatives) == 2:
            u, v = step.derivatives
            parts = np.array([value_at(u, p) for p in points]), np.array([value_at(v, p) for p in points])
            wrong = parts[0] * parts[1] if step.rule == "product" else parts[0] / parts[1]
            if _close(yours, wrong):
                what = "product" if step.rule == "product" else "quotient"
                return (f"yours matches the {what} of the derivatives of {to_language(step.expr)}'s parts; the "
                        f"{what} rule is {_RULE[what]}")
    return None


_RULE = {"product": "(u*v)' = u'*v + u*v'", "quotient": "(u/v)' = (u'*v - u*v')/v**2"}


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(a))) and bool(np.allclose(a, b, rtol=1e-6, atol=1e-9))


__all__ = ["diagnose"]
