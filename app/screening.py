"""Numbers that settle a wrong derivative's diagnosis before SymPy is asked (app.mistakes). For an elementwise
program (app.elementwise) the value, the first and the second derivative of every part are computed at the
points in float64 (forward mode: each part's (value, d/dx, d2/dx2) from its operands'), which gives every
number app.mistakes would compare yours with: the inner derivative of each chain rule (every operand of every
operation is a candidate), the product and quotient of the parts' derivatives of each `*` and `/`, the function
itself and its second derivative. When yours is clearly none of them (further from each than a few times the
tolerance), SymPy has nothing to find; when it is clearly the function or the second derivative and clearly no
rule's, the answer needs no SymPy either. Anything else (an operation outside the table below, a value that
is not finite, an error near the tolerance) is SymPy's to decide, as before."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from autodiff.app.elementwise import elementwise
from autodiff.app.session import parsed
from autodiff.engine.errors import AutodiffError
from autodiff.grammar.syntax import tree as S

Jet = tuple[np.ndarray, np.ndarray, np.ndarray]  # value, d/dx, d2/dx2 at every point

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


def candidates(program: str, name: str, points: list[dict[str, float]]) -> Candidates | None:
    """The numbers app.mistakes compares yours with, for a first derivative with respect to `name`; None when
    the program is not one whose parts this module knows."""
    try:
        tree = parsed(program)
    except AutodiffError:
        return None
    names = list(points[0])
    if name not in names or not elementwise(tree, names):
        return None
    found = Candidates()
    values = {n: np.array([p[n] for p in points], dtype=np.float64) for n in names}
    zeros = np.zeros(len(points))
    jets: dict[str, tuple[Jet, bool]] = {n: ((v, zeros + (n == name), zeros), n == name) for n, v in values.items()}
    root = None
    with np.errstate(all="ignore"):
        for statement in tree.statements:
            root = _jet(statement.value, jets, found, len(points))
            if root is None:
                return None
            if type(statement) is S.Assign:
                jets[statement.name] = root
    assert root is not None
    (value, _, second), _ = root
    found.orders = {0: value, 2: second}
    return found


def _jet(root: S.Node, jets: dict[str, tuple[Jet, bool]], found: Candidates, size: int
         ) -> tuple[Jet, bool] | None:
    """(value, d, d2) of an expression and whether it moves with the variable, computed post-order with a stack;
    every moving operand's derivative goes into found.factors, each `*` and `/` of two moving parts into
    found.wrong. None for a part this module does not know."""
    stack: list[tuple[S.Node, bool]] = [(root, False)]
    done: list[tuple[Jet, bool]] = []
    while stack:
        node, ready = stack.pop()
        kind = type(node)
        if kind is S.Number:
            done.append(((np.full(size, float(node.value)), np.zeros(size), np.zeros(size)), False))
        elif kind is S.Name:
            if node.id in jets:
                done.append(jets[node.id])
            else:  # pi or e (elementwise() allows no other name)
                done.append(((np.full(size, math.pi if node.id == "pi" else math.e), np.zeros(size), np.zeros(size)),
                             False))
        elif not ready:
            stack.append((node, True))
            operands = (node.left, node.right) if kind is S.BinOp else (node.operand,) if kind is S.UnaryOp \
                else node.args
            stack.extend((child, False) for child in reversed(operands))
        else:
            count = 2 if kind is S.BinOp else 1
            operands = done[len(done) - count:]
            del done[len(done) - count:]
            for (_, d, _), moving in operands:
                if moving:
                    found.factors.append(d)
            result = _combine(node, operands, found)
            if result is None:
                return None
            done.append(result)
    return done[0]


def _combine(node: S.Node, operands: list[tuple[Jet, bool]], found: Candidates) -> tuple[Jet, bool] | None:
    kind = type(node)
    if kind is S.UnaryOp:
        (a, a1, a2), moving = operands[0]
        return ((-a, -a1, -a2) if node.op == "-" else (a, a1, a2)), moving
    if kind is S.Call:
        function = FUNCTIONS.get(node.func.id)
        if function is None:
            return None
        (u, u1, u2), moving = operands[0]
        f, f1, f2 = function(u)
        return (f, f1 * u1, f2 * u1 * u1 + f1 * u2), moving
    ((a, a1, a2), left), ((b, b1, b2), right) = operands
    moving = left or right
    op = node.op
    if op in ("+", "-"):
        sign = 1.0 if op == "+" else -1.0
        return (a + sign * b, a1 + sign * b1, a2 + sign * b2), moving
    if op == "*":
        if left and right:
            found.wrong.append(a1 * b1)
        return (a * b, a1 * b + a * b1, a2 * b + 2 * a1 * b1 + a * b2), moving
    if op == "/":
        if left and right:
            found.wrong.append(a1 / b1)
        q = a / b
        q1 = (a1 - q * b1) / b
        return (q, q1, (a2 - 2 * q1 * b1 - q * b2) / b), moving
    return _power(a, a1, a2, left, b, b1, b2, right), moving


def _power(a: np.ndarray, a1: np.ndarray, a2: np.ndarray, left: bool, b: np.ndarray, b1: np.ndarray,
           b2: np.ndarray, right: bool) -> Jet:
    p = a**b
    if not right:  # u**c
        return p, b * a ** (b - 1) * a1, b * (b - 1) * a ** (b - 2) * a1 * a1 + b * a ** (b - 1) * a2
    log = np.log(a)
    rate = b1 * log + (b * a1 / a if left else 0.0)  # d/dx of b*log(a)
    rate1 = b2 * log + ((2 * b1 * a1 / a + b * a2 / a - b * a1 * a1 / (a * a)) if left else 0.0)
    return p, p * rate, p * rate * rate + p * rate1


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


__all__ = ["Candidates", "candidates", "clearly"]
