"""The op table's vocabulary on SymPy expressions (`SymPyMath`), for `autodiff diff`: the engine's backward
formulas and symbolic forms run on it unchanged, so every derivative diff prints comes from the same rules
autograd runs on numbers. Scalars only: shapes are ignored, and tensor-only members say so.

`FUNCTIONS` is the one table between the language's function names and SymPy's: the symbolic forms of the
op table read it (an op declared with the FUNCTION form is the function of its own name), and the printer
writes a SymPy function back in the language through it.
"""

from __future__ import annotations

import functools
from typing import Any

import sympy

from autodiff.engine.errors import BadValueError


@functools.cache
def _undefined(name: str) -> Any:
    """A SymPy function with no class of its own, made on first use (the three below cost about 2.5 M instructions
    to make, which a command that never meets one need not pay)."""
    return sympy.Function(name, real=True)


def _undefined_call(name: str) -> Any:
    """_undefined(name) applied to its arguments, under the function's own name (which the printer reads)."""

    def call(*args: Any) -> Any:
        return _undefined(name)(*args)

    call.__name__ = name
    return call


# The language's rounding functions SymPy has no class for (their derivative comes from the op table), and the real
# cube root as a formula's step writes it
ROUND, TRUNC, CBRT = _undefined_call("round"), _undefined_call("trunc"), _undefined_call("cbrt")

FUNCTIONS: dict[str, Any] = {
    "exp": sympy.exp, "log": sympy.log, "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "tanh": sympy.tanh,
    "sqrt": sympy.sqrt, "abs": sympy.Abs, "sign": sympy.sign, "asin": sympy.asin, "acos": sympy.acos,
    "atan": sympy.atan, "atan2": sympy.atan2, "sinh": sympy.sinh, "cosh": sympy.cosh, "asinh": sympy.asinh,
    "acosh": sympy.acosh, "atanh": sympy.atanh, "erf": sympy.erf, "erfc": sympy.erfc, "floor": sympy.floor,
    "ceil": sympy.ceiling, "round": ROUND, "trunc": TRUNC, "maximum": sympy.Max, "minimum": sympy.Min,
    "sec": sympy.sec, "csc": sympy.csc, "cot": sympy.cot,  # SymPy writes simplified results with them
    "asec": sympy.asec, "acsc": sympy.acsc, "acot": sympy.acot, "cbrt": CBRT,
    "erfinv": sympy.erfinv, "lgamma": sympy.loggamma, "digamma": sympy.digamma,  # engine/ops/special.py
    "polygamma": sympy.polygamma,  # (polygamma(n, x): the derivatives of lgamma and digamma)
}

# A SymPy function printed as the language's name for it (sympy.ceiling is ceil, sympy.Abs is abs)
LANGUAGE_NAMES = {getattr(f, "__name__", str(f)): name for name, f in FUNCTIONS.items()}


def _tensor_only(name: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise BadValueError(f"{name} is a tensor operation, which diff does not derive", reason="symbolic")

    return staticmethod(refuse)


class Value:
    """A saved value read for a mask (F.values): comparisons give SymPy relations, not Python booleans."""

    __slots__ = ("expr",)

    def __init__(self, expr: Any) -> None:
        self.expr = expr

    def _other(self, other: Any) -> Any:
        return other.expr if isinstance(other, Value) else other

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return sympy.Eq(self.expr, self._other(other))

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return sympy.Ne(self.expr, self._other(other))

    def __lt__(self, other: Any) -> Any:
        return self.expr < self._other(other)

    def __le__(self, other: Any) -> Any:
        return self.expr <= self._other(other)

    def __gt__(self, other: Any) -> Any:
        return self.expr > self._other(other)

    def __ge__(self, other: Any) -> Any:
        return self.expr >= self._other(other)

    def __neg__(self) -> Value:
        return Value(-self.expr)

    __hash__ = None  # type: ignore[assignment]


def where(mask: Any, a: Any, b: Any) -> Any:
    """a where mask holds, else b: a Piecewise unless the mask is known."""
    if mask is sympy.true or mask is True:
        return a
    if mask is sympy.false or mask is False:
        return b
    return sympy.Piecewise((a, mask), (b, True))


class SymPyMath:
    """The formulas' vocabulary (engine.Vocabulary) on SymPy expressions."""

    records = False
    exp, log, sin, cos, sqrt = sympy.exp, sympy.log, sympy.sin, sympy.cos, sympy.sqrt

    @staticmethod
    def sigmoid(x: Any) -> Any:
        return 1 / (1 + sympy.exp(-x))

    sinh, cosh, sign, sgn = sympy.sinh, sympy.cosh, sympy.sign, sympy.sign
    tanh, erf = sympy.tanh, sympy.erf
    polygamma, erfinv = sympy.polygamma, sympy.erfinv  # in the formulas of engine/ops/special.py
    maximum, minimum, trunc = sympy.Max, sympy.Min, staticmethod(TRUNC)

    # ---- the executor's handling of values
    @staticmethod
    def fit(g: Any, shape: Any, dtype: Any) -> Any:
        return g

    @staticmethod
    def add_to(entry: list, g: Any) -> None:
        entry[0] = entry[0] + g

    @staticmethod
    def emitted(g: Any, grad_in: Any, earlier: list) -> tuple[Any, bool]:
        return g, False

    retained = as_tensor = of_tensor = copy_grad = _tensor_only("a gradient hook or retained .grad")

    # ---- values, masks and shapes
    @staticmethod
    def values(x: Any) -> Value:
        return x if isinstance(x, Value) else Value(x)

    @staticmethod
    def where(mask: Any, a: Any, b: Any) -> Any:
        return where(mask, a, b)

    @staticmethod
    def zeros_like(g: Any) -> Any:
        return sympy.Integer(0)

    @staticmethod
    def cast(g: Any, dtype: Any) -> Any:
        return g

    @staticmethod
    def sum_to(g: Any, shape: Any) -> Any:
        return g

    @staticmethod
    def mul_sum_to(a: Any, b: Any, shape: Any) -> Any:
        return a * b

    sum = expand = reshape = unsqueeze = squeeze = transpose = t = permute = index = _tensor_only(
        "a reduction or a reshape")
    select_backward = slice_backward = as_strided = as_strided_backward = _tensor_only("indexing")
    diagonal = diagonal_backward = reverse_cumsum = prod_others = cumprod_backward = _tensor_only(
        "a matrix or cumulative operation")
    gather = scatter_add = index_put_add = _tensor_only("indexing with an index tensor")
    matmul = mm = mv = bmm = inverse = solve = trilinear = _tensor_only("a matrix product")
    softmax_backward = log_softmax_backward = _tensor_only("a softmax")
    mse_backward = nll_loss = nll_backward = smooth_l1_backward = huber_backward = _tensor_only("a loss function")
    div_scalar = staticmethod(lambda x, number: x / number)

    # ---- functions
    @staticmethod
    def log_number(base: Any) -> Any:
        return sympy.log(base)

    @staticmethod
    def neg(g: Any) -> Any:
        return -g

    @staticmethod
    def mul(a: Any, b: Any) -> Any:
        return a * b

    @staticmethod
    def div(a: Any, b: Any) -> Any:
        return a / b

    @staticmethod
    def pow(x: Any, exponent: Any) -> Any:
        return x**exponent

    @staticmethod
    def mul_scalar(x: Any, number: float) -> Any:
        return x * number

    @staticmethod
    def sub_scalar(x: Any, number: float) -> Any:
        return x - number

    # ---- PyTorch's fused backward formulas
    @staticmethod
    def pow_backward(g: Any, x: Any, exponent: Any) -> Any:
        return g * (exponent * x ** (exponent - 1))

    @staticmethod
    def sin_backward(g: Any, x: Any) -> Any:
        return g * sympy.cos(x)

    @staticmethod
    def tanh_backward(g: Any, result: Any) -> Any:
        return g * (1 - result**2)

    @staticmethod
    def sigmoid_backward(g: Any, result: Any) -> Any:
        return g * (1 - result) * result

    @staticmethod
    def sqrt_backward(g: Any, result: Any) -> Any:
        return g / (2 * result)

    @staticmethod
    def tan_backward(g: Any, result: Any) -> Any:
        return g * (1 + result**2)

    @staticmethod
    def reciprocal_backward(g: Any, result: Any) -> Any:
        return -g * result**2

    @staticmethod
    def div_other_backward(g: Any, a: Any, b: Any) -> Any:
        return -g * a / b**2

    @staticmethod
    def maximum_backward(g: Any, a: Any, b: Any) -> Any:
        return where(a == b, g / 2.0, where(a < b, 0.0, g))  # a, b: Values, whose comparisons are relations

    @staticmethod
    def rounded_div(a: Any, b: Any, mode: str) -> Any:
        q = a / b
        return sympy.floor(q) if mode == "floor" else sympy.sign(q) * sympy.floor(sympy.Abs(q))

    @staticmethod
    def threshold_backward(g: Any, x: Any) -> Any:
        if isinstance(x, sympy.Max) and len(x.args) == 2 and sympy.S.Zero in x.args:
            # relu's result max(0, y) <= 0 exactly where y <= 0 (SymPy does not see it)
            x = x.args[1] if x.args[0] == sympy.S.Zero else x.args[0]
        return where(x <= 0, sympy.Integer(0), g)


def real_form(expr: Any) -> Any:
    """A formula for numbers: x**(p/q) (q odd) as sign(x)**p * Abs(x)**(p/q), the real root that the calculus
    commands mean (app.realroots), so that a negative x gives the book's number (SymPy's x**(1/3) is the
    principal, complex, root there)."""

    def odd(e: Any) -> bool:
        return isinstance(e, sympy.Pow) and e.exp.is_Rational and not e.exp.is_Integer and e.exp.q % 2 == 1

    def real(e: Any) -> Any:
        magnitude = sympy.Pow(sympy.Abs(e.base), e.exp)
        return magnitude if e.exp.p % 2 == 0 else sympy.sign(e.base) * magnitude

    return expr.replace(odd, real) if isinstance(expr, sympy.Basic) else expr
