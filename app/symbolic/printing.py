"""SymPy expressions written in the autodiff language (abs, where, maximum, e, ...), so that what `diff` prints
pastes back into `autodiff eval` and into `autodiff check` as an expected derivative; and in LaTeX."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import sympy
from sympy.printing.str import StrPrinter

from autodiff.app.symbolic.sympymath import LANGUAGE_NAMES
from autodiff.engine.errors import BadValueError, LimitError

MAX_PRINTED_OPS = 20_000  # a formula larger than this is refused rather than printed


class SymbolicError(BadValueError):
    """What `diff` cannot derive (a tensor-valued program, a function with no symbolic form)."""


def unsupported(what: str, node: Any = None) -> SymbolicError:
    """The error for what diff does not derive, at the node of the program where it is when known."""
    error = SymbolicError(f"diff: {what}; diff derives scalar programs of numbers, names, + - * / **, and the "
                          "elementwise functions (autodiff ops lists them)", reason="symbolic")
    return error.at(getattr(node, "line", None), getattr(node, "column", None)) if node is not None else error


_LEADS = {sympy.tan: sympy.sec, sympy.cot: sympy.csc}  # a book writes sec(u)*tan(u), csc(u)*cot(u)


def _function_of(factor: Any) -> Any:
    return factor.base if factor.is_Pow else factor


def _varying_power(factor: Any) -> bool:
    return bool(factor.is_Pow and factor.base.free_symbols and factor.exp.free_symbols)


def book_factors(factors: list) -> list:
    """A product's factors in a book's order: SymPy's, with a power whose base and exponent both vary first
    (x**x*(log(x) + 1)), sec(u) before tan(u), csc(u) before cot(u), abs(u) before a square root."""
    out = [f for f in factors if _varying_power(f)] + [f for f in factors if not _varying_power(f)]
    for factor in list(out):
        f = _function_of(factor)
        lead = _LEADS.get(f.func)
        if lead is None:
            continue
        i = out.index(factor)
        j = next((k for k, g in enumerate(out) if _function_of(g) == lead(*f.args)), None)
        if j is not None and j > i:
            out.insert(i, out.pop(j))
    roots = [k for k, f in enumerate(out) if f.is_Pow and f.exp in (sympy.S.Half, -sympy.S.Half)]
    if roots:  # abs(x)*sqrt(x**2 - 1), as asec's derivative is printed
        for k, f in enumerate(list(out)):
            if isinstance(_function_of(f), sympy.Abs) and k > roots[0]:
                out.insert(roots[0], out.pop(k))
    return out


def positive_first(expr: Any, terms: list) -> list:
    """A sum that is not a polynomial starts with a positive term, as a book writes it: exp(x)*cos(x) -
    exp(x)*sin(x), not -exp(x)*sin(x) + exp(x)*cos(x); a polynomial keeps its descending powers."""
    if len(terms) < 2 or not terms[0].could_extract_minus_sign():
        return terms
    symbols = expr.free_symbols
    if not symbols or expr.is_polynomial(*symbols):
        return terms
    for k, term in enumerate(terms):
        if not term.could_extract_minus_sign():
            return [term, *terms[:k], *terms[k + 1:]]
    return terms


class LanguagePrinter(StrPrinter):
    """SymPy expressions in the autodiff language (abs, where, maximum, e, ...), so they paste back."""

    def _print_Mul(self, expr: Any) -> str:
        if self._settings.get("order") in ("old", "none"):
            return super()._print_Mul(expr)
        coefficient, rest = expr.as_coeff_Mul()
        factors = rest.as_ordered_factors()
        ordered = book_factors(factors)
        if ordered == factors:
            return super()._print_Mul(expr)
        if coefficient != 1:
            ordered.insert(0, coefficient)
        self._settings["order"] = "old"  # print these factors in this order; their terms in the book's
        try:
            return super()._print_Mul(sympy.Mul(*ordered, evaluate=False))
        finally:
            self._settings["order"] = None

    def _as_ordered_terms(self, expr: Any, order: Any = None) -> list:
        if self._settings.get("order") == "old":
            return positive_first(expr, expr.as_ordered_terms())
        if self._settings.get("order") == "none":  # a formula too large for the book's order (ORDERED_OPS):
            return super()._as_ordered_terms(expr, order)  # no is_polynomial walk of every sum in it either
        return positive_first(expr, super()._as_ordered_terms(expr, order))

    def _print_Pow(self, expr: Any, rational: bool = False) -> str:
        """A book's 1/(2 - x)**2 for SymPy's (2 - x)**(-2) (a power alone, not in a product, which SymPy
        already writes as a quotient)."""
        base, exponent = expr.args
        if exponent.is_Integer and exponent < -1 and not base.is_Number:
            return f"1/{self._print(sympy.Pow(base, -exponent, evaluate=False))}"
        if exponent.is_Rational and exponent.q == 3 and not base.is_Number:
            # x**(2/3) as cbrt(x)**2: the real cube root the calculus commands mean, which eval computes too
            # (x**(2/3) is nan there at a negative x, as in PyTorch)
            root = f"cbrt({self._print(base)})"
            power = abs(exponent.p)
            shown = root if power == 1 else f"{root}**{power}"
            return shown if exponent > 0 else f"1/{shown}"
        return super()._print_Pow(expr, rational)

    def _print_Abs(self, expr: Any) -> str:
        return f"abs({self._print(expr.args[0])})"

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_Pi(self, expr: Any) -> str:
        return "pi"

    def _print_Infinity(self, expr: Any) -> str:
        return "inf"

    def _print_NegativeInfinity(self, expr: Any) -> str:
        return "-inf"

    def _print_NaN(self, expr: Any) -> str:
        return "nan"

    _print_ComplexInfinity = _print_NaN

    def _print_ImaginaryUnit(self, expr: Any) -> str:
        # SymPy's I (log(-1) is I*pi): the language is real, where sqrt(-1) is nan, as autograd's value is there
        return "sqrt(-1)"

    def _print_ceiling(self, expr: Any) -> str:
        return f"ceil({self._print(expr.args[0])})"

    def _print_Max(self, expr: Any) -> str:
        return self._fold("maximum", expr.args)

    def _print_Min(self, expr: Any) -> str:
        return self._fold("minimum", expr.args)

    def _fold(self, name: str, args: Any) -> str:
        text = self._print(args[0])
        for arg in args[1:]:
            text = f"{name}({text}, {self._print(arg)})"
        return text

    def _print_Piecewise(self, expr: Any) -> str:
        pieces = list(expr.args)
        text = self._print(pieces[-1][0]) if pieces[-1][1] is sympy.true else "nan"
        for value, condition in reversed(pieces[:-1] if pieces[-1][1] is sympy.true else pieces):
            text = f"where({self._print(condition)}, {self._print(value)}, {text})"
        return text

    def _print_Heaviside(self, expr: Any) -> str:
        x = self._print(expr.args[0])
        return f"where({x} > 0, 1, where({x} < 0, 0, 1/2))"

    def _print_DiracDelta(self, expr: Any) -> str:
        return "0"

    def _print_And(self, expr: Any) -> str:
        return " & ".join(f"({self._print(a)})" for a in expr.args)

    def _print_Or(self, expr: Any) -> str:
        return " | ".join(f"({self._print(a)})" for a in expr.args)

    def _print_Not(self, expr: Any) -> str:
        return f"~({self._print(expr.args[0])})"

    def _print_Relational(self, expr: Any) -> str:
        op = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}[expr.rel_op]
        return f"{self.parenthesize(expr.lhs, 0)} {op} {self.parenthesize(expr.rhs, 0)}"

    def _print_Rational(self, expr: Any) -> str:
        return f"{expr.p}/{expr.q}"

    def _print_BooleanTrue(self, expr: Any) -> str:
        return "True"

    def _print_BooleanFalse(self, expr: Any) -> str:
        return "False"

    def _print_Function(self, expr: Any) -> str:
        name = LANGUAGE_NAMES.get(expr.func.__name__)
        if name is None:
            raise unsupported(f"the derivative uses {expr.func.__name__}, which the language does not have")
        return f"{name}({', '.join(self._print(a) for a in expr.args)})"


ORDERED_OPS = 2_000  # up to this size, book order prints terms as a book orders them (descending powers)


def to_language(expr: Any, book: bool = False) -> str:
    """The expression in the language; with `book`, its terms in a book's order (x**2 + 1, x - 1)."""
    ops = sympy.count_ops(expr)
    if ops > MAX_PRINTED_OPS:
        raise SymbolicError(f"diff: the formula has more than {MAX_PRINTED_OPS:,} operations; it is too large to "
                            "show", reason="symbolic")
    with written_out():
        return LanguagePrinter({} if book and ops <= ORDERED_OPS else {"order": "none"}).doprint(expr)


@contextlib.contextmanager
def written_out() -> Iterator[None]:
    """Python writes no integer of more than 4,300 digits (sys.get_int_max_str_digits): a formula or value
    holding one is a limit error, not an internal one."""
    try:
        yield
    except ValueError as error:
        if "integer string conversion" not in str(error):
            raise
        raise LimitError("the result holds an exact number of more than 4,300 digits, too long to write out",
                         hint="write a decimal (8.0**5000 for 8**5000) to compute with floats, or ask "
                              "autodiff eval for the value at a point", reason="size") from None


def operand(expr: Any, denominator: bool = False) -> str:
    """The expression as an operand: a sum in parentheses, `d/dx (x + 1)`, `-(2*x + 2)`; in a denominator a
    product too, `/(3*y**2)`; anything else as it is, `-(x + 1)**2` (never doubled parentheses)."""
    text = to_language(expr, book=True)
    return f"({text})" if expr.is_Add or (denominator and expr.is_Mul) else text


def to_book(expr: Any) -> str:
    """The expression in the language, its terms in a book's order."""
    return to_language(expr, book=True)


def to_latex(expr: Any) -> str:
    with written_out():
        return sympy.latex(expr)
