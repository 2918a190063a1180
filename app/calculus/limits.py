"""`autodiff limit`: the limit of f as x -> a (a finite, inf or -inf; from one side or both), SymPy's exact
limit where it finds one in time, cross-checked by the numbers: f evaluated by the engine (float64) at
x = a +- 10^-k (or x = +-10^k towards infinity), k = 1, 2, ..., with a warning where the numbers stop settling
and start to drift (cancellation: 1 - 1/x rounds to 1 at x = 1e16), and where the one-sided limits differ."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from autodiff.app.calculus.pointwise import Function, number
from autodiff.engine.errors import UsageError

STEPS_FINITE = 16  # x = a +- 10^-1 ... 10^-16
STEPS_INFINITE = 20  # x = 10^1 ... 10^20
SETTLED = 1e-6  # successive values this close (relative): the numbers have settled


class Side:
    """The approach from one side: the values, what they do, and the estimate."""

    def __init__(self, side: str, steps: list[tuple[float, float]] | None = None, status: str = "",
                 estimate: float | None = None, digits: int = 0, drift_from: float | None = None,
                 nan_from: float | None = None, exact: Any = None, exact_text: str | None = None) -> None:
        self.side = side  # "+" (from above / towards inf), "-"
        self.steps = [] if steps is None else steps  # (x, value)
        self.status = status  # "settles", "inf", "-inf", "oscillates", "not defined"
        self.estimate = estimate
        self.digits = digits  # the agreement of the values where they settled
        self.drift_from = drift_from  # where the numbers lose precision after settling
        self.nan_from = nan_from  # where the values turn nan after finite ones (inf*0, inf - inf: overflow)
        self.exact = exact  # SymPy's one-sided limit
        self.exact_text = exact_text


class Limit:
    def __init__(self, variable: str, point: float, side: str, sides: dict[str, Side] | None = None,
                 value: float | None = None, exists: bool | None = False, digits: int = 15, exact: str | None = None,
                 reason: str = "", warnings: list[str] | None = None, number_warnings: list[str] | None = None,
                 method: list[str] | None = None) -> None:
        self.variable = variable
        self.point = point
        self.side = side  # "both", "+", "-"
        self.sides = {} if sides is None else sides
        self.value = value  # the limit (inf/-inf when infinite), None when it does not exist
        self.exists = exists  # None: the numbers cannot tell (and SymPy did not answer)
        self.digits = digits  # of a numeric value: how many the approach settled to
        self.exact = exact
        self.reason = reason  # why it does not exist
        self.warnings = [] if warnings is None else warnings
        # about the numbers only, when SymPy's exact limit answers and they agree with it (cancellation, overflow)
        self.number_warnings = [] if number_warnings is None else number_warnings
        self.method = [] if method is None else method


def approach_points(a: float, side: str) -> np.ndarray:
    """x = a + s*10^-k (a finite) or s*10^k (a infinite), while x differs from a."""
    if math.isinf(a):
        return np.array([(1.0 if a > 0 else -1.0) * 10.0 ** k for k in range(1, STEPS_INFINITE + 1)])
    s = 1.0 if side == "+" else -1.0
    xs = [a + s * 10.0 ** -k for k in range(1, STEPS_FINITE + 1)]
    return np.array([x for x in xs if x != a])


def numeric(fn: Function, a: float, side: str) -> Side:
    """The values approaching a from one side, and what they do."""
    xs = approach_points(a, side)
    with np.errstate(all="ignore"):
        values = fn.batch(xs, 0)[0]
    out = Side(side, [(float(x), float(v)) for x, v in zip(xs, values)])
    _settle(out, values)
    return out


def _settle(out: Side, values: np.ndarray) -> None:
    finite = np.isfinite(values)
    turned = np.flatnonzero(np.isnan(values) & (np.cumsum(finite) > 0))
    if len(turned):
        out.nan_from = out.steps[int(turned[0])][0]
    if not finite.any():
        tail = values[-1]
        out.status = "inf" if tail == math.inf else "-inf" if tail == -math.inf else "not defined"
        return
    if not finite[-3:].any() and np.isinf(values[-1]):
        out.status = "inf" if values[-1] > 0 else "-inf"
        return
    v = values[finite]
    d = np.abs(np.diff(v))
    k = _settling(d)
    if k is not None:
        scale = max(1.0, abs(float(v[k + 1])))
        if d[k] <= SETTLED * scale or _cancels(d, k, scale):
            estimate = float(v[k + 1])
            if abs(estimate) <= 10 * d[k] + 1e-15 * float(np.abs(v[:k + 2]).max()):
                estimate = 0.0  # x*sin(1/x): 7.8e-17 is rounding error around 0
            out.status, out.estimate = "settles", estimate
            out.digits = max(1, min(15, int(-math.log10(max(d[k] / scale, 1e-16)))))
            later = np.abs(v[k + 1:] - v[k + 1])
            drift = np.flatnonzero(later > 10 * d[k] + 1e-12 * scale)
            if len(drift):
                xs = np.array([x for (x, _), ok in zip(out.steps, finite) if ok])
                out.drift_from = float(xs[k + 1 + drift[0]])
            return
    out.status = _unbounded(v) or ("slow" if k is not None and k >= len(d) - 2 else "oscillates")


def _settling(d: np.ndarray) -> int | None:
    """Where the values stop settling: the last step of the first run of shrinking differences (past it,
    rounding error grows instead); None when they do not shrink at first."""
    if not len(d):
        return None
    k = 0
    while k + 1 < len(d) and (d[k + 1] < d[k] or d[k] == 0 == d[k + 1]):
        if d[k] == 0:
            break
        k += 1
    return k if k > 0 or d[0] == 0 else None


def _cancels(d: np.ndarray, k: int, scale: float) -> bool:
    """The values were closing in steadily ((exp(x) - 1 - x)/x**2 at 0: 0.517, 0.5017, 0.50017, 0.500017)
    when rounding error took over: at least three steps each closing 2 times or more, to 1e-3 of the value,
    then a step 10 times larger. They settled, to the digits they had (cancellation: a warning says so)."""
    if k < 2 or d[k] > 1e-3 * scale or k + 1 >= len(d) or d[k + 1:].max() <= 10 * d[k]:
        return False
    return bool((d[1:k + 1] <= 0.5 * d[:k]).all())


def _unbounded(v: np.ndarray) -> str | None:
    """"inf"/"-inf" when the last values run away monotonically without slowing down (1/x, log x)."""
    tail = v[-6:]
    if len(tail) < 4:
        return None
    d = np.diff(tail)
    if (d > 0).all() or (d < 0).all():
        steady = abs(d[-1]) >= 0.5 * abs(d[0])
        if steady or abs(tail[-1]) > 1e6:
            return "inf" if d[-1] > 0 else "-inf"
    return None


def limit(fn: Function, a: float, side: str, program: str, texts: dict[str, str], point_text: str,
          exact: bool = True) -> Limit:
    """The limit of fn as its variable -> a."""
    name = fn.variables[0]
    if math.isnan(a):
        raise UsageError(f"{name}=nan: a limit needs a number, inf or -inf")
    if math.isinf(a):
        if side != "both" and (side == "+") != (a < 0):
            raise UsageError(f"{name} -> {number(a)} can only be approached from {'below' if a > 0 else 'above'}")
        sides = ["-" if a > 0 else "+"]
    else:
        sides = ["-", "+"] if side == "both" else [side]
    result = Limit(name, a, side)
    for s in sides:
        result.sides[s] = numeric(fn, a, s)
    if exact:
        _exact(result, program, texts, point_text)
    _conclude(result)
    return result


def _exact(result: Limit, program: str, texts: dict[str, str], point_text: str) -> None:
    import sympy

    from autodiff.app.symbolic import exact as X
    from autodiff.app.symbolic.sympymath import real_form

    # the variable declared: the interpreter then need not ask the whole table of built-ins whether its name is one
    # (which imports the engine's rooms of the less common built-ins)
    found = X.expression(program, [result.variable])
    expr = X.with_constants(found[0], [result.variable], texts) if found else None
    point = X.exact_number(point_text)
    if expr is None or point is None:
        why = found.reason if not found else "a constant or the point is not an exact number"
        result.method.append(f"no exact limit: {why}")
        return
    x = X.symbol(result.variable)
    expr = real_form(expr)  # x**(1/3) at a negative x: the real root, as the numbers' (SymPy's is complex)
    for s, one in result.sides.items():
        if one.status == "not defined":  # nan on this side: SymPy's complex answer is not the language's
            continue
        direction = "+" if s == "+" else "-"
        value = X.bounded(lambda direction=direction: sympy.limit(expr, x, point, dir=direction))
        if isinstance(value, X.TimedOut):
            result.method.append(f"no exact limit: {value.reason}; the numbers alone answer")
            return
        one.exact = value
        one.exact_text = _text(value)
    result.method.insert(0, "exact: SymPy's limit")


def _text(value: Any) -> str | None:
    import sympy

    from autodiff.app.calculus.critical_exact import exact_text

    if value in (sympy.oo, -sympy.oo):
        return "inf" if value == sympy.oo else "-inf"
    if isinstance(value, sympy.AccumBounds):
        return f"between {exact_text(value.min) or value.min} and {exact_text(value.max) or value.max}"
    return exact_text(value) if value.is_real else None


def _side_value(one: Side) -> tuple[float | None, str]:
    """A one-sided limit: its value (inf/-inf included), or None with what it does instead."""
    if one.status == "not defined":
        return None, "is not defined on that side (nan)"
    if one.exact is not None:
        import sympy

        from autodiff.app.symbolic import exact as X

        if one.exact in (sympy.oo, -sympy.oo):
            return (math.inf if one.exact == sympy.oo else -math.inf), ""
        if X.is_real_number(one.exact):
            return X.decimal(one.exact), ""
        if isinstance(one.exact, sympy.AccumBounds):
            return None, f"oscillates {one.exact_text}"
        return None, "is not a real number"
    if one.status == "settles":
        return one.estimate, ""
    if one.status in ("inf", "-inf"):
        return (math.inf if one.status == "inf" else -math.inf), ""
    return None, {"oscillates": "does not settle (it oscillates)", "slow": "changes too slowly to tell (the values "
                  "have not settled)"}.get(one.status, "is not defined near the point")


def _conclude(result: Limit) -> None:
    values = {s: _side_value(one) for s, one in result.sides.items()}
    for s, one in result.sides.items():
        _cross_check(result, s, one, values[s][0])
    result.method.append("numbers: the program evaluated by autograd's engine (float64) approaching the point")
    if any(v is None for v, _ in values.values()):
        s, (_, what) = next((s, vw) for s, vw in values.items() if vw[0] is None)
        if result.sides[s].status == "slow" and result.sides[s].exact is None:
            result.exists = None
            result.reason = f"the numbers cannot tell: from the {_side_words(result, s)}, f {what}"
            return
        result.reason = f"the {_side_words(result, s)} limit does not exist: f {what}".replace("the one-sided ", "the ")
        others = [(o, v) for o, (v, _) in values.items() if o != s and v is not None]
        if others and not math.isinf(result.point):
            o, v = others[0]
            result.reason += f"; the {_side_words(result, o)} limit is {_shown(result.sides[o], v)} (side {o})"
        return
    found = [v for v, _ in values.values()]
    numbers = [one.digits for one in result.sides.values() if one.exact is None and one.status == "settles"]
    tolerance = max(1e-7, 10.0 ** -(min(numbers) - 1)) if numbers else 1e-7  # as many digits as the numbers have
    if len(found) == 2 and not _same(found[0], found[1], tolerance):
        left, right = result.sides["-"], result.sides["+"]
        result.reason = (f"the one-sided limits differ: {_shown(left, found[0])} from the left, "
                         f"{_shown(right, found[1])} from the right")
        return
    result.exists, result.value = True, found[-1]
    numeric = [one.digits for one in result.sides.values() if one.exact is None and one.status == "settles"]
    result.digits = min(numeric) if numeric else 15
    texts = {one.exact_text for one in result.sides.values()}
    result.exact = texts.pop() if len(texts) == 1 else None


def _same(a: float, b: float, tolerance: float = 1e-7) -> bool:
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tolerance * max(1.0, abs(a), abs(b))


def _shown(one: Side, value: float) -> str:
    plain = number(value, 10)
    return plain if one.exact_text in (None, plain) else f"{one.exact_text} ({plain})"


def _side_words(result: Limit, s: str) -> str:
    if math.isinf(result.point):
        return "one-sided"
    return "left" if s == "-" else "right"


def _cross_check(result: Limit, s: str, one: Side, value: float | None) -> None:
    """Warnings: the numbers lose precision after settling, or disagree with SymPy."""
    where = "" if len(result.sides) == 1 else f" (from the {_side_words(result, s)})"
    about_numbers = result.number_warnings if one.exact is not None and value is not None else result.warnings
    if one.drift_from is not None:
        example = "1 - 1/x does at large x" if math.isinf(result.point) else "1 - cos(x) does near 0"
        about_numbers.append(
            f"past {result.variable} = {one.drift_from:.6g}{where} the values drift away from "
            f"{number(one.estimate, 10)}: rounding error takes over (cancellation: the program subtracts nearly equal "
            f"numbers, as {example}), so the values there, and `autodiff eval` at such points, are not the "
            "limit")
    if one.nan_from is not None and one.drift_from is None:
        about_numbers.append(
            f"from {result.variable} = {one.nan_from:.6g}{where} on the values are nan: a part of the program "
            "overflows to inf or underflows to 0 there (inf*0, inf - inf, inf/inf in floating point), so the numbers "
            "cannot follow the limit past it")
    if one.exact is None or value is None:
        return
    if one.status == "settles" and math.isfinite(value) and not _same_digits(one.estimate, value, one.digits):
        result.warnings.append(f"the numbers{where} settle near {number(one.estimate, 10)} but SymPy's limit is "
                               f"{one.exact_text}: the approach is too slow or the arithmetic loses precision")
    elif one.status in ("inf", "-inf") and (math.isfinite(value) or (value > 0) != (one.status == "inf")):
        result.warnings.append(f"the numbers{where} run to {one.status} but SymPy's limit is {one.exact_text}")


def _same_digits(estimate: float | None, value: float, digits: int) -> bool:
    if estimate is None:
        return False
    return abs(estimate - value) <= max(10.0 ** -(digits - 1), 1e-12) * max(1.0, abs(value))


__all__ = ["Limit", "Side", "approach_points", "limit", "numeric"]
