"""Powers as a calculus book means them: in the calculus commands, `x**(p/q)` with q odd is the real root for a
negative x too (x**(1/3) at -8 is -2, x**(2/3) at -8 is 4), where Python and PyTorch give nan. An exponent is
such a fraction when it is the float nearest p/q for some q up to MAX_DENOMINATOR (1/3, 2/3, 0.2 = 1/5, -5/3).

Numbers: `RealRoots`, the engine's backend with `**` computed as sign(x)**p * abs(x)**(p/q), so autograd's
derivatives are the real root's (and not defined at x = 0 when p/q < 1, as the book's). Exact numbers:
app.sympymath's `real_form`, a formula with its powers written as real roots before numbers go in (SymPy's
x**(1/3) is the principal, complex, root at a negative x). SymPy's formulas keep x**(1/3): its rules
differentiate the real root to the same formula, read the same way."""

from __future__ import annotations

import math
from typing import Any

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.grammar.interpreter import EngineBackend

MAX_DENOMINATOR = 99


def odd_root(exponent: Any) -> tuple[int, int] | None:
    """(p, q) when the exponent is p/q in lowest terms with q odd and q > 1; None otherwise: the fraction nearest
    the exponent with q <= MAX_DENOMINATOR, when it is the exponent."""
    if isinstance(exponent, bool) or not isinstance(exponent, float) or not math.isfinite(exponent):
        return None
    from fractions import Fraction  # only for a float exponent: a one-shot `eval` of most programs never needs it

    fraction = Fraction(exponent).limit_denominator(MAX_DENOMINATOR)
    p, q = fraction.numerator, fraction.denominator
    return None if q == 1 or q % 2 == 0 or p / q != exponent else (p, q)


class RealRoots(EngineBackend):
    """The engine's backend, with x**(p/q) (q odd) the real root for a negative x."""

    @staticmethod
    def operator(op: str, left: Any, right: Any) -> Any:  # type: ignore[override]
        found = odd_root(right) if op == "**" else None
        if found is None:
            return EngineBackend.operator(op, left, right)
        p = found[0]
        if isinstance(left, Tensor):
            magnitude = engine.pow(engine.abs(left), right)
            return magnitude if p % 2 == 0 else engine.mul(engine.sign(left), magnitude)
        if isinstance(left, (int, float)) and not isinstance(left, bool) and left < 0:
            magnitude = (-left) ** right
            return magnitude if p % 2 == 0 else -magnitude
        return EngineBackend.operator(op, left, right)


BACKEND = RealRoots()


__all__ = ["BACKEND", "MAX_DENOMINATOR", "RealRoots", "odd_root"]
