"""`autodiff diff`'s derivation: a program's derivatives as formulas of the language, derived by the op table's
backward rules on symbols (symbolic.py), simplified by SymPy within a time bound, written in the language
(printing.py); with their value at a point, next to autograd's there."""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from typing import Any

import numpy as np
import sympy

from autodiff import engine
from autodiff.app.config import Config
from autodiff.app.session import Binding, EvalRequest, run_eval
from autodiff.app.symbolic.bookform import book_form, bounded, has_trig
from autodiff.app.symbolic.exact import at as exact_at
from autodiff.app.symbolic.exact import exact_number, is_real_number
from autodiff.app.symbolic.exact import text as exact_text
from autodiff.app.symbolic.printing import to_book, to_language, to_latex
from autodiff.app.symbolic.program import Step, differentiate, exact, record
from autodiff.app.symbolic.simplest import simplest
from autodiff.app.symbolic.steps import rule_steps
from autodiff.app.symbolic.sympymath import real_form
from autodiff.app.textbook.realroots import BACKEND
from autodiff.app.timebox import timed
from autodiff.engine.errors import LimitError, UsageError
from autodiff.grammar.interpreter import Interpreter
from autodiff.grammar.syntax import parse

MAX_ORDER = 10
SIMPLIFY_SECONDS = 2.0
DERIVE_SECONDS = 15.0  # the whole derivation, simplification included


class Derivative:
    def __init__(self, wrt: str, order: int, expr: Any, text: str, latex: str, value: float | None = None,
                 stages: list[Stage] | None = None) -> None:
        self.wrt = wrt  # a variable, or a sequence "x,y" (d/dy of d/dx)
        self.order = order
        self.expr = expr
        self.text = text
        self.latex = latex
        self.value = value
        self.stages = [] if stages is None else stages  # with steps: one per differentiation, in order


class Stage:
    """One differentiation of a derivative's sequence: d/d wrt of `of` (a formula), by these rule steps."""

    def __init__(self, wrt: str, of: Any, steps: list[Any]) -> None:
        self.wrt = wrt
        self.of = of
        self.steps = steps


class DiffResult:
    def __init__(self, program: str, derivatives: list[Derivative], steps: list[Step], root_latex: str = "") -> None:
        self.program = program
        self.derivatives = derivatives
        self.steps = steps
        self.root_latex = root_latex


def derive(program: str, wrt: list[str] | None, order: int, simplify: bool = True,
           variables: Collection[str] = (), steps: bool = False, seconds: float = DERIVE_SECONDS) -> DiffResult:
    """d^order root / d wrt^order for each wrt (default: every free variable), as formulas; a wrt "x,y" is the
    mixed derivative d/dy d/dx. The names in wrt and `variables` (those bound at a point) are variables even
    where a built-in has the name (t). With `steps`, each derivative's rule steps (app.steps).

    The whole derivation is bounded by `seconds` (SymPy's arithmetic on a formula that doubles with each
    order, x**x to order 10, or that has thousands of terms, would run for hours): past them, a limit error."""
    outcome = timed(lambda: _derive(program, wrt, order, simplify, variables, steps), seconds)
    if outcome.done:
        return outcome.value
    if outcome.timed_out:
        raise LimitError(f"the derivative took longer than {seconds:g} s to derive: its formula grows too large "
                         "to write out", hint="ask for a lower {order}, or for the value at a point with "
                         "autodiff eval (which needs no formula)", reason="time", fields=("order",))
    error = outcome.error
    if isinstance(error, MemoryError):
        raise LimitError("not enough memory to derive the formula", reason="memory") from None
    if isinstance(error, RecursionError):
        raise LimitError("the formula is nested too deeply to derive", reason="nesting") from None
    raise error


def _derive(program: str, wrt: list[str] | None, order: int, simplify: bool, variables: Collection[str],
            steps: bool) -> DiffResult:
    if not 1 <= order <= MAX_ORDER:
        raise UsageError(f"{{order}} must be between 1 and {MAX_ORDER}, got {order}", fields=("order",))
    sequences = [[n.strip() for n in w.split(",") if n.strip()] for w in wrt] if wrt else None
    declared = {n for seq in sequences or () for n in seq} | set(variables)
    formula = record(program, declared)
    names = formula.variables
    sequences = sequences or [[n] for n in names] or [["x"]]  # a constant (ln(17) + e^2): its derivative is 0
    for sequence in sequences:
        _check_sequence(sequence, formula, order)
    differentiate(formula)
    trig = has_trig(formula.root.expr)
    derivatives = []
    known: dict[tuple[str, ...], tuple[Any, list[Stage]]] = {}  # each path's derivative, for the longer paths
    for path in _paths(sequences, order, names if wrt is None else None):
        before = known.get(tuple(path[:-1]))
        if before is None:
            expr, stages = formula.grads.get(path[0], sympy.Integer(0)), []  # 0: the formula lacks the name
            if steps:
                rules = rule_steps(formula, path[0]) if path[0] in formula.leaves else []
                stages.append(Stage(path[0], formula.root.written, rules))
            rest = path[1:]
        else:
            expr, stages, rest = before[0], list(before[1]), path[-1:]
        for name in rest:  # again, by the same rules: the formula is a program of the language
            expr = _derive_again(expr, name, declared, stages if steps else None)
        known[tuple(path)] = (expr, stages)
        written = exact(expr)
        final = written
        if simplify:
            function = formula.root.expr if len(path) == 1 else None
            final = exact(book_form(written, to_book, trig=trig, seconds=SIMPLIFY_SECONDS, function=function,
                                    question=formula.root.expr,
                                    keep=lambda c, w=written: _same_in_the_language(to_language(exact(c)),
                                                                                     to_language(w), names)))
        label = path[0] if len(set(path)) == 1 else ",".join(path)
        derivatives.append(Derivative(label, len(path), final, to_book(final), to_latex(final), stages=stages))
    return DiffResult(program, derivatives, formula.steps, to_latex(formula.root.expr))


def _paths(sequences: list[list[str]], order: int, every: list[str] | None) -> list[list[str]]:
    """What a book asks for: each variable's derivatives of orders 1 to N (f', f'', f''', f''''), and with
    several variables and no wrt, every partial derivative up to order N, each mixed one once, in the
    variables' order (f_x, f_y, f_xx, f_xy, f_yy); a sequence (x,y) is the one mixed derivative."""
    import itertools

    if every is not None and len(every) > 1 and order > 1:
        return [list(c) for k in range(1, order + 1) for c in itertools.combinations_with_replacement(every, k)]
    if all(len(s) == 1 for s in sequences):
        return [s * k for s in sequences for k in range(1, order + 1)]
    return [s * order if len(s) == 1 else s for s in sequences]


def _check_sequence(sequence: list[str], formula: Any, order: int) -> None:
    if not sequence:
        raise UsageError("{wrt} needs a variable's name (or several, x,y, for a mixed derivative)", fields=("wrt",))
    if len(sequence) > 1 and order != 1:
        raise UsageError(f"{{wrt}} {','.join(sequence)} is already a derivative of order {len(sequence)}: leave "
                         "out {order} (or write the sequence out: {wrt} x,x,y)", fields=("wrt", "order"))
    if len(sequence) > MAX_ORDER:
        raise UsageError(f"a mixed derivative of order {len(sequence)}: at most {MAX_ORDER}")
    for name in sequence:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise UsageError(f"{{wrt}} {name[:60]!r} is not a variable's name", fields=("wrt",))


def _derive_again(expr: Any, name: str, declared: Collection[str], stages: list[Stage] | None = None) -> Any:
    formula = record(to_language(expr), declared)
    if name not in formula.leaves:
        if stages is not None:
            stages.append(Stage(name, expr, []))
        return sympy.Integer(0)
    differentiate(formula)
    if stages is not None:
        stages.append(Stage(name, formula.root.written, rule_steps(formula, name)))
    return formula.grads[name]


def simplified(expr: Any, seconds: float = SIMPLIFY_SECONDS) -> Any:
    """The simplest form (app.symbolic.simplest), bounded in time: a huge expression is shown less simplified
    rather than hanging."""
    return bounded(simplest, expr, seconds)


_PROBES = (-2.3, -0.7, 0.4, 1.9, 3.1)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _same_in_the_language(text: str, reference: str, names: list[str]) -> bool:
    """Do two formulas give the same numbers when the language evaluates them (real arithmetic, numpy's
    nan for x**(2/3) at negative x), at a few points? A failed evaluation counts as different."""
    used = set(_IDENTIFIER.findall(text)) | set(_IDENTIFIER.findall(reference))  # bind only these: 1,000 names
    try:  # and 1,000 formulas of one name each stay linear
        with engine.settings(default_dtype="float64"), np.errstate(all="ignore"), engine.no_grad():
            for k, probe in enumerate(_PROBES):
                values = {n: engine.tensor(probe + 0.37 * i * (k + 1), dtype="float64") for i, n in enumerate(names)
                          if n in used}
                results = []
                for source in (text, reference):
                    interpreter = Interpreter(BACKEND)
                    interpreter.names.update(values)
                    results.append(float(np.asarray(engine.tensor(interpreter.run(parse(source)).root).numpy(force=True))))
                a, b = results
                if not (np.isclose(a, b, rtol=1e-9, atol=1e-12) or (np.isnan(a) and np.isnan(b))):
                    return False
    except Exception:
        return False
    return True


def value_at(expr: Any, point: dict[str, float]) -> float:
    """The formula's value at the point (float; nan where it is not defined)."""
    names = {str(s) for s in expr.free_symbols}  # (only these: 1,000 bound names would make it quadratic)
    values = {sympy.Symbol(n, real=True): sympy.Float(v, 30) for n, v in point.items() if n in names}
    substituted = real_form(expr).subs(values)  # x**(1/3) at a negative x: the real root, as autograd's
    try:
        return float(sympy.N(substituted, 17))
    except (TypeError, ValueError):
        return math.nan




class HessianFormulas:
    """The Hessian as formulas: entries[i][j] is d/d names[j] d/d names[i] of the root (symmetric)."""

    def __init__(self, names: list[str], entries: list[list[Derivative]]) -> None:
        self.names = names
        self.entries = entries


def hessian_formulas(program: str, wrt: list[str] | None = None, variables: Collection[str] = ()) -> HessianFormulas:
    """Every second derivative of a scalar formula over its variables (or `wrt`), each derived once."""
    names = list(wrt) if wrt else record(program, set(variables)).variables
    if not names:
        raise UsageError("the program has no variable to differentiate: it is made of numbers and constants only")
    pairs = [(i, j) for i in range(len(names)) for j in range(i, len(names))]
    result = derive(program, [f"{names[i]},{names[j]}" for i, j in pairs], 1, variables=[*variables, *names])
    entries: list[list[Any]] = [[None] * len(names) for _ in names]
    for (i, j), derivative in zip(pairs, result.derivatives):
        entries[i][j] = entries[j][i] = derivative
    return HessianFormulas(names, entries)


class AtPoint:
    """A derivative at a point: the formula's value, autograd's, and the exact value when it was asked for."""

    def __init__(self, value: float, autograd: float, exact: str | None = None) -> None:
        self.value = value
        self.autograd = autograd
        self.exact = exact

    @property
    def agrees(self) -> bool:
        """Whether the formula and autograd give the same number (both nan counts as the same)."""
        if math.isnan(self.value) or math.isnan(self.autograd):
            return math.isnan(self.value) and math.isnan(self.autograd)
        return math.isclose(self.value, self.autograd, rel_tol=1e-7, abs_tol=1e-9)


def at_point(result: DiffResult, point: dict[str, float], texts: dict[str, str] | None = None) -> list[AtPoint]:
    """Each derivative's value at the point beside autograd's there; with `texts` (each value as written),
    its exact value too."""
    names = sorted({str(s) for d in result.derivatives for s in d.expr.free_symbols})
    missing = [n for n in names if n not in point]
    if missing:
        raise UsageError(f"to evaluate the derivative, bind every variable: {', '.join(missing)} has no value")
    first: dict[str, float] = {}  # every first derivative, from one autograd run
    values = []
    for d in result.derivatives:
        with np.errstate(all="ignore"):  # x*x at 1e200 overflows, as in eval: no numpy warning
            value, autograd = value_at(d.expr, point), autograd_at(result.program, d.wrt, d.order, point, first)
        values.append(AtPoint(value, autograd, None if texts is None else exact_value(d.expr, texts)))
    return values


def exact_value(expr: Any, texts: dict[str, str]) -> str | None:
    """The formula's exact value where each variable has the value written in `texts` (sqrt(2)/2), or None
    when a value is not exact or SymPy cannot say in time."""
    values = {name: exact_number(text) for name, text in texts.items()}
    if any(v is None for v in values.values()):
        return None
    value = exact_at(expr, values)
    return exact_text(value) if is_real_number(value) else None


def autograd_at(program: str, wrt: str, order: int, point: dict[str, float],
                first: dict[str, float] | None = None) -> float:
    """Autograd's derivative at the point (float64): by WRT ORDER times, or by a sequence "x,y". The first
    derivatives come from one run with every variable a leaf, kept in `first` when it is given (1,000
    variables: one backward pass, not 1,000)."""
    if "," in wrt:
        with Config("float64").applied():
            return mixed_autograd(program, wrt.split(","), point)
    if order == 1 and first is not None and wrt in first:
        return first[wrt]
    every = order == 1 and first is not None
    bindings = [Binding(name, value, every or name == wrt) for name, value in point.items()]
    with Config("float64").applied():
        result = run_eval(EvalRequest(program, bindings, order=order, backend=BACKEND))
    grads = result.passes[-1].grads if result.passes else {}
    if every:
        first.update({name: 0.0 if g is None else float(g) for name, g in grads.items() if name in point})
    value = grads.get(wrt)
    return 0.0 if value is None else float(value)  # None: the root does not depend on it (.grad stays None)


def mixed_autograd(program: str, sequence: list[str], point: dict[str, float]) -> float:
    """Autograd's mixed derivative at the point (float64): grad with create_graph, by each name in turn."""
    with engine.settings(default_dtype="float64"), np.errstate(all="ignore"):
        leaves = {n: engine.tensor(v, dtype="float64", requires_grad=True) for n, v in point.items()}
        interpreter = Interpreter(BACKEND, variables=list(leaves))
        interpreter.names.update(leaves)
        value = interpreter.run(parse(program)).root
        for name in sequence:
            if not isinstance(value, engine.Tensor) or not value.requires_grad:
                return 0.0
            (value,) = engine.grad(value, [leaves[name]], create_graph=True, allow_unused=True)
            if value is None:
                return 0.0
        return float(np.asarray(value.numpy(force=True)))


__all__ = ["MAX_ORDER", "AtPoint", "Derivative", "DiffResult", "HessianFormulas", "Stage", "at_point", "autograd_at",
           "derive", "exact_value", "hessian_formulas", "mixed_autograd", "simplified", "value_at"]
