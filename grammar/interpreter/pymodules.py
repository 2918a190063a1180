"""The Python standard modules tutorial scripts import, as fixed tables of members (never Python's modules
themselves): `math` (its constants and its functions on numbers), `itertools.count`, and `__future__` (its
imports are accepted and change nothing). A one-element tensor given to a math function counts as its
number, as Python's `float(tensor)` makes it."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError, LimitError
from autodiff.grammar.interpreter.values import Function, Namespace, gathered, kind


def real(value: Any, what: str = "math") -> float | int:
    """A number for Python's math functions: an int, a float, a bool or a one-element tensor."""
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, Tensor):
        if value.numel() != 1:
            raise BadValueError(f"{what}: only a one-element tensor converts to a Python number, this one has "
                                f"{value.numel()} elements (use the torch function of the same name)",
                                reason="arguments")
        return value.item()
    raise BadValueError(f"{what}: must be a real number, not {kind(value)}", reason="arguments")


def _math(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        numbers = [real(a, f"math.{name}") for a in args]
        try:
            return fn(*numbers)
        except ValueError:
            raise BadValueError(f"math.{name}: math domain error ({', '.join(map(repr, numbers))})",
                                hint=f"torch.{name} on a tensor gives nan or inf instead", reason="domain") from None
        except OverflowError:
            raise BadValueError(f"math.{name}: math range error (the result is too large)",
                                reason="domain") from None
    call.__name__ = name
    return call


_ONE = {name: fn for name, fn in {
    "sqrt": math.sqrt, "exp": math.exp, "expm1": math.expm1, "log2": math.log2, "log10": math.log10,
    "log1p": math.log1p, "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin,
    "acos": math.acos, "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
    "asinh": math.asinh, "acosh": math.acosh, "atanh": math.atanh, "erf": math.erf, "erfc": math.erfc,
    "gamma": math.gamma, "lgamma": math.lgamma, "fabs": math.fabs, "floor": math.floor, "ceil": math.ceil,
    "trunc": math.trunc, "degrees": math.degrees, "radians": math.radians, "isnan": math.isnan,
    "isinf": math.isinf, "isfinite": math.isfinite,
}.items()}
_TWO = {"atan2": math.atan2, "hypot": math.hypot, "pow": math.pow, "fmod": math.fmod, "copysign": math.copysign,
        "remainder": math.remainder, "ldexp": math.ldexp}
MAX_FACTORIAL = 1000


def _log(x: Any, base: Any = None) -> float:
    number = real(x, "math.log")
    try:
        return math.log(number) if base is None else math.log(number, real(base, "math.log"))
    except (ValueError, ZeroDivisionError):
        raise BadValueError(f"math.log: math domain error ({number!r})",
                            hint="torch.log on a tensor gives -inf or nan instead", reason="domain") from None


def _integer(value: Any, what: str) -> int:
    if isinstance(value, float) and value.is_integer():
        raise BadValueError(f"{what}: 'float' object cannot be interpreted as an integer", reason="arguments")
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadValueError(f"{what}: needs an integer, got {kind(value)}", reason="arguments")
    return value


def _factorial(n: Any) -> int:
    n = _integer(n, "math.factorial")
    if n < 0:
        raise BadValueError("math.factorial() not defined for negative values", reason="domain")
    if n > MAX_FACTORIAL:
        raise LimitError(f"math.factorial({n}): the limit is {MAX_FACTORIAL}", reason="number")
    return math.factorial(n)


def _comb(n: Any, k: Any) -> int:
    n, k = _integer(n, "math.comb"), _integer(k, "math.comb")
    if n < 0 or k < 0:
        raise BadValueError("math.comb: n and k must be non-negative integers", reason="domain")
    if n > 10 * MAX_FACTORIAL:
        raise LimitError(f"math.comb({n}, {k}): n is limited to {10 * MAX_FACTORIAL}", reason="number")
    return math.comb(n, k)


def _isclose(a: Any, b: Any, *, rel_tol: float = 1e-09, abs_tol: float = 0.0) -> bool:
    return math.isclose(real(a, "math.isclose"), real(b, "math.isclose"), rel_tol=rel_tol, abs_tol=abs_tol)


def _numbers_of(iterable: Any, what: str) -> list:
    if isinstance(iterable, Tensor):
        return [real(v, what) for v in iterable.tolist()] if iterable.ndim == 1 else [real(iterable, what)]
    if not isinstance(iterable, (list, tuple, range)):
        raise BadValueError(f"{what}: needs a list, a tuple or a range of numbers, not {kind(iterable)}",
                            reason="arguments")
    return [real(v, what) for v in gathered(iterable, what)]


def _module_math() -> Namespace:
    members: dict[str, Any] = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}
    for name, fn in _ONE.items():
        members[name] = Function(f"math.{name}", _math(name, fn), f"math.{name}(x)")
    for name, fn in _TWO.items():
        members[name] = Function(f"math.{name}", _math(name, fn), f"math.{name}(x, y)")
    members.update({
        "log": Function("math.log", _log, "math.log(x[, base])"),
        "factorial": Function("math.factorial", _factorial, "math.factorial(n)"),
        "comb": Function("math.comb", _comb, "math.comb(n, k)"),
        "isclose": Function("math.isclose", _isclose, "math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)"),
        "fsum": Function("math.fsum", lambda iterable: math.fsum(_numbers_of(iterable, "math.fsum")),
                         "math.fsum(iterable)"),
        "prod": Function("math.prod", lambda iterable, *, start=1: math.prod(_numbers_of(iterable, "math.prod"),
                                                                             start=start),
                         "math.prod(iterable, *, start=1)"),
        "gcd": Function("math.gcd", lambda *ns: math.gcd(*(_integer(n, "math.gcd") for n in ns)),
                        "math.gcd(*integers)"),
    })
    return Namespace("math", members)


class Counter:
    """itertools.count(start=0, step=1): 0, 1, 2, ... without end (a loop over it needs a `break`; the step
    limit ends one that has none)."""

    __slots__ = ("counter", "text")

    def __init__(self, start: Any = 0, step: Any = 1) -> None:
        for value in (start, step):
            if not isinstance(value, (int, float)):
                raise BadValueError(f"itertools.count: a number is required, not {kind(value)}", reason="arguments")
        self.counter = itertools.count(start, step)
        self.text = f"count({start!r}{'' if step == 1 else f', {step!r}'})"

    def __iter__(self) -> Counter:
        return self

    def __next__(self) -> Any:
        return next(self.counter)

    def __repr__(self) -> str:
        return self.text


MATH = _module_math()
ITERTOOLS = Namespace("itertools", {"count": Function("itertools.count", Counter, "itertools.count(start=0, step=1)")})
# `from __future__ import annotations` and the like: accepted, without effect (the language has no annotations).
FUTURE = Namespace("__future__", {name: None for name in (
    "annotations", "division", "print_function", "absolute_import", "unicode_literals", "generator_stop",
    "nested_scopes", "generators", "with_statement")})



def _partial(func: Any, *args: Any, **keywords: Any) -> Function:
    """functools.partial(func, *args, **keywords): func with its first arguments (and keywords) given."""
    if not callable(func):
        raise BadValueError("the first argument must be callable", reason="arguments")
    name = getattr(func, "name", None) or getattr(func, "__name__", "func")

    def call(*more: Any, **more_keywords: Any) -> Any:
        return func(*args, *more, **{**keywords, **more_keywords})

    return Function(name, call, "(*args, **keywords)")


FUNCTOOLS = Namespace("functools", {"partial": Function("functools.partial", _partial,
                                                        "functools.partial(func, /, *args, **keywords)")})
STANDARD_MODULES: dict[str, Namespace] = {"math": MATH, "itertools": ITERTOOLS, "__future__": FUTURE,
                                          "functools": FUNCTOOLS}
