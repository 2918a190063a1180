"""Numbers that settle a wrong derivative's diagnosis before SymPy is asked (app.mistakes). The program is run
once on jets (JetBackend): the value, the first and the second derivative of every part at every point, in
float64 (forward mode: each part's jet from its operands'), which gives every
number app.mistakes would compare yours with: the inner derivative of each chain rule (every operand of every
operation is a candidate), the product and quotient of the parts' derivatives of each `*` and `/`, the function
itself and its second derivative. When yours is clearly none of them (further from each than a few times the
tolerance), SymPy has nothing to find; when it is clearly the function or the second derivative and clearly no
rule's, the answer needs no SymPy either. Anything else (an operation outside the table below, a value that
is not finite, an error near the tolerance) is SymPy's to decide, as before."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from autodiff.app.session import parsed
from autodiff.grammar.interpreter import Interpreter

_LN2, _LN10 = math.log(2.0), math.log(10.0)


def _sigmoid(u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    s = 1.0 / (1.0 + np.exp(-u))
    return s, s * (1 - s), s * (1 - s) * (1 - 2 * s)


def _tanh(u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = np.tanh(u)
    return t, 1 - t * t, -2 * t * (1 - t * t)


# f(u), f'(u), f''(u) of the functions whose call the recorded formula keeps as one operation on its argument
# (sec, csc, cot and cbrt are recorded as several, with parts of their own: not here)
FUNCTIONS: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]] = {
    "sin": lambda u: (np.sin(u), np.cos(u), -np.sin(u)),
    "cos": lambda u: (np.cos(u), -np.sin(u), -np.cos(u)),
    "tan": lambda u: (np.tan(u), 1 / np.cos(u) ** 2, 2 * np.tan(u) / np.cos(u) ** 2),
    "exp": lambda u: (np.exp(u),) * 3,
    "exp2": lambda u: (np.exp2(u), _LN2 * np.exp2(u), _LN2**2 * np.exp2(u)),
    "expm1": lambda u: (np.expm1(u), np.exp(u), np.exp(u)),
    "log": lambda u: (np.log(u), 1 / u, -1 / u**2),
    "log2": lambda u: (np.log2(u), 1 / (u * _LN2), -1 / (u**2 * _LN2)),
    "log10": lambda u: (np.log10(u), 1 / (u * _LN10), -1 / (u**2 * _LN10)),
    "log1p": lambda u: (np.log1p(u), 1 / (1 + u), -1 / (1 + u) ** 2),
    "sqrt": lambda u: (np.sqrt(u), 0.5 / np.sqrt(u), -0.25 / u**1.5),
    "rsqrt": lambda u: (u**-0.5, -0.5 * u**-1.5, 0.75 * u**-2.5),
    "atan": lambda u: (np.arctan(u), 1 / (1 + u * u), -2 * u / (1 + u * u) ** 2),
    "asin": lambda u: (np.arcsin(u), 1 / np.sqrt(1 - u * u), u / (1 - u * u) ** 1.5),
    "acos": lambda u: (np.arccos(u), -1 / np.sqrt(1 - u * u), -u / (1 - u * u) ** 1.5),
    "sinh": lambda u: (np.sinh(u), np.cosh(u), np.sinh(u)),
    "cosh": lambda u: (np.cosh(u), np.sinh(u), np.cosh(u)),
    "tanh": _tanh,
    "asinh": lambda u: (np.arcsinh(u), 1 / np.sqrt(u * u + 1), -u / (u * u + 1) ** 1.5),
    "acosh": lambda u: (np.arccosh(u), 1 / np.sqrt(u * u - 1), -u / (u * u - 1) ** 1.5),
    "atanh": lambda u: (np.arctanh(u), 1 / (1 - u * u), 2 * u / (1 - u * u) ** 2),
    "abs": lambda u: (np.abs(u), np.sign(u), np.zeros_like(u)),
    "sigmoid": _sigmoid,
    "square": lambda u: (u * u, 2 * u, np.full_like(u, 2.0)),
    "reciprocal": lambda u: (1 / u, -1 / u**2, 2 / u**3),
}
for _numpy, _ours in (("arcsin", "asin"), ("arccos", "acos"), ("arctan", "atan"), ("arcsinh", "asinh"),
                      ("arccosh", "acosh"), ("arctanh", "atanh"), ("ln", "log")):
    FUNCTIONS[_numpy] = FUNCTIONS[_ours]


class Candidates:
    """What yours may be compared with: chain factors (yours * factor against the reference), products and
    quotients of parts' derivatives, and the derivatives of other orders (0: the function, 2: the second)."""

    __slots__ = ("factors", "orders", "wrong")

    def __init__(self) -> None:
        self.factors: list[np.ndarray] = []
        self.wrong: list[np.ndarray] = []
        self.orders: dict[int, np.ndarray] = {}


class Jet:
    """A part's value and its first and second derivatives at every point; `moving`: it depends on the
    variable."""

    __slots__ = ("d1", "d2", "moving", "value")

    def __init__(self, value: np.ndarray, d1: np.ndarray, d2: np.ndarray, moving: bool) -> None:
        self.value, self.d1, self.d2, self.moving = value, d1, d2, moving

    def __bool__(self) -> bool:
        raise _Unknown  # a condition on a value (`x if x > 0 else -x`) is not this module's


class _Unknown(Exception):
    """A part this module does not know: SymPy decides."""


class JetBackend:
    """The interpreter's backend (grammar.interpreter.Backend) whose values are jets: the program run once
    computes every part's jet, noting each operand of an operation that moves (a chain rule's inner function
    may be any of them) and each `*` and `/` of two moving parts. Anything but numbers, pi and e, + - * / **,
    signs and the functions of FUNCTIONS is unknown."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.found = Candidates()

    def fixed(self, value: float) -> Jet:
        return Jet(np.full(self.size, float(value)), np.zeros(self.size), np.zeros(self.size), False)

    def number(self, value: int | float, text: str) -> Jet:
        return self.fixed(value)

    def constant(self, name: str) -> Jet:
        if name not in ("pi", "e"):
            raise _Unknown
        return self.fixed(math.pi if name == "pi" else math.e)

    def unbound(self, name: str) -> None:
        return None

    def unary(self, op: str, a: Any) -> Jet:
        if not isinstance(a, Jet) or op not in "+-":
            raise _Unknown
        self._operands(a)
        return Jet(-a.value, -a.d1, -a.d2, a.moving) if op == "-" else a

    def call(self, function: Any, args: list, kwargs: dict) -> Jet:
        builtin = getattr(function, "builtin", None)
        rule = FUNCTIONS.get(getattr(builtin, "name", None) or getattr(function, "name", ""))
        if rule is None or kwargs or len(args) != 1 or not isinstance(args[0], Jet):
            raise _Unknown
        (u,) = args
        self._operands(u)
        f, f1, f2 = rule(u.value)
        return Jet(f, f1 * u.d1, f2 * u.d1 * u.d1 + f1 * u.d2, u.moving)

    def operator(self, op: str, a: Any, b: Any) -> Jet:
        if not (isinstance(a, Jet) and isinstance(b, Jet)) or op not in ("+", "-", "*", "/", "**"):
            raise _Unknown
        self._operands(a, b)
        moving = a.moving or b.moving
        if op in ("+", "-"):
            sign = 1.0 if op == "+" else -1.0
            return Jet(a.value + sign * b.value, a.d1 + sign * b.d1, a.d2 + sign * b.d2, moving)
        if op == "*":
            if a.moving and b.moving:
                self.found.wrong.append(a.d1 * b.d1)
            return Jet(a.value * b.value, a.d1 * b.value + a.value * b.d1,
                       a.d2 * b.value + 2 * a.d1 * b.d1 + a.value * b.d2, moving)
        if op == "/":
            if a.moving and b.moving:
                self.found.wrong.append(a.d1 / b.d1)
            q = a.value / b.value
            q1 = (a.d1 - q * b.d1) / b.value
            return Jet(q, q1, (a.d2 - 2 * q1 * b.d1 - q * b.d2) / b.value, moving)
        return _power(a, b)

    def index(self, value: Any, items: list) -> Any:
        raise _Unknown

    def attribute(self, value: Any, name: str) -> Any:
        raise _Unknown

    def _operands(self, *operands: Jet) -> None:
        self.found.factors += [u.d1 for u in operands if u.moving]


def _power(a: Jet, b: Jet) -> Jet:
    p = a.value**b.value
    if not b.moving:  # u**c
        c = b.value
        return Jet(p, c * a.value ** (c - 1) * a.d1,
                   c * (c - 1) * a.value ** (c - 2) * a.d1 * a.d1 + c * a.value ** (c - 1) * a.d2, a.moving)
    log = np.log(a.value)
    rate = b.d1 * log + (b.value * a.d1 / a.value if a.moving else 0.0)  # d/dx of b*log(a)
    rate1 = b.d2 * log + ((2 * b.d1 * a.d1 / a.value + b.value * a.d2 / a.value
                           - b.value * a.d1 * a.d1 / (a.value * a.value)) if a.moving else 0.0)
    return Jet(p, p * rate, p * rate * rate + p * rate1, True)


def candidates(program: str, name: str, points: list[dict[str, float]]) -> Candidates | None:
    """The numbers app.mistakes compares yours with, for a first derivative with respect to `name`; None when
    the program is not one whose parts this module knows."""
    names = list(points[0])
    if name not in names:
        return None
    backend = JetBackend(len(points))
    interpreter = Interpreter(backend)
    zeros = np.zeros(len(points))
    for n in names:
        interpreter.names[n] = Jet(np.array([p[n] for p in points], dtype=np.float64), zeros + (n == name), zeros,
                                   n == name)
    try:
        with np.errstate(all="ignore"):
            root = interpreter.run(parsed(program)).root
    except Exception:  # an unknown part, or a program that fails: SymPy decides, as before
        return None
    if not isinstance(root, Jet):
        return None
    backend.found.orders = {0: root.value, 2: root.d2}
    return backend.found


def clearly(a: np.ndarray, b: np.ndarray) -> bool | None:
    """Whether allclose(a, b) (app.mistakes' rule: rtol 1e-6, atol 1e-9) holds beyond doubt (True), fails beyond
    doubt (False: an element off by more than 4 times the tolerance), or cannot be told from these numbers
    (None: a non-finite number, an error near the tolerance)."""
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        return None
    error, allowed = np.abs(a - b), 1e-9 + 1e-6 * np.abs(b)
    if np.all(error <= 0.25 * allowed):
        return True
    return False if np.any(error > 4.0 * allowed) else None


__all__ = ["Candidates", "Jet", "JetBackend", "candidates", "clearly"]
