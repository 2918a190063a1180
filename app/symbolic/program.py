"""A program run on symbols: the language's one interpreter with a symbolic backend, for `autodiff diff` and the
other symbolic commands.

The backend's values are SymPy expressions; every operation the engine would record is recorded here too,
as an engine Node of the same op-table entry, on symbols (its value from the op's symbolic form). The
engine's executor then runs the backward pass over those nodes in the SymPy vocabulary (sympymath.py):
no derivative rule is written here. Operators mean what they mean to a Tensor (the engine's OPERATORS
and REFLECTED); built-ins run as their composite definition, their plan, or the one op they apply.

SymPy never sees user text: numbers are built from the program's own literals (fractions.Fraction), names
become Symbols, and every expression comes from the operations the program performs.
"""

from __future__ import annotations

import fractions
import functools
import math
from collections.abc import Collection
from typing import Any

import sympy

from autodiff import engine
from autodiff.app.symbolic.printing import unsupported
from autodiff.app.symbolic.sympymath import CBRT, FUNCTIONS, SymPyMath
from autodiff.engine import BUILTINS, FUNCTION, OPERATORS, REFLECTED, Builtin, GraphInput, Node, Op
from autodiff.engine.errors import LimitError, UnknownNameError
from autodiff.grammar.interpreter import Function, Interpreter, Namespace, Policy, arguments_error, signature
from autodiff.grammar.syntax import parse

_NOT_SCALAR = "is not a scalar formula"
# What the interpreter refuses in a formula: the constructs of the language that are not scalar arithmetic
FORMULA = Policy(
    "formula", python_builtins=False, modules=("torch", "math"), refuse=unsupported,
    refused={"ListExpr": f"a list {_NOT_SCALAR}", "TupleExpr": f"a tuple {_NOT_SCALAR}",
             "String": f"a string {_NOT_SCALAR}", "Subscript": f"indexing {_NOT_SCALAR}",
             "Constant": f"True, False or None {_NOT_SCALAR}", "BoolOp": f"and/or/not {_NOT_SCALAR}",
             "IfExp": f"a conditional expression (A if C else B) {_NOT_SCALAR}",
             "ListComp": f"a comprehension {_NOT_SCALAR}", "Slice": f"a slice {_NOT_SCALAR}",
             "IndexAssign": "index writes make a tensor-valued program",
             **{kind: f"a statement {_NOT_SCALAR}" for kind in ("AssignTo", "AugAssign")}},
)
CONSTANTS = {"pi": sympy.pi, "e": sympy.E, "inf": sympy.oo, "nan": sympy.nan}


class Symbolic:
    """A value of the program on symbols: its expression, the node that recorded it (None: a constant), and the
    expression as the program wrote it (unevaluated: (2*x)**3, not 8*x**3), for textbook steps."""

    def __init__(self, expr: Any, node: Any = None, shown: Any = None) -> None:
        self.expr = expr
        self.node = node
        self.shown = shown

    @property
    def written(self) -> Any:
        return self.expr if self.shown is None else self.shown


class NodeOrigin:
    """How a node of the formula was made: an op of the table (`op`) or a built-in's composite definition
    (`builtin`, whose output node it is), applied to `args` (Symbolic values or numbers) with `params`."""

    def __init__(self, op: Op | None, builtin: Builtin | None, args: list, params: dict) -> None:
        self.op = op
        self.builtin = builtin
        self.args = args
        self.params = params


class Step:
    """One node of the backward pass on symbols: its name, its rules, the gradient in and those passed on."""

    def __init__(self, node: str, rules: list[str], grad_in: Any, grads_out: list[Any]) -> None:
        self.node = node
        self.rules = rules
        self.grad_in = grad_in
        self.grads_out = grads_out


class Formula:
    """A program run on symbols: its root, its variables (in order of appearance) and their derivatives."""

    def __init__(self, root: Symbolic, variables: list[str], leaves: dict[str, GraphInput],
                 grads: dict[str, Any] | None = None, steps: list[Step] | None = None,
                 records: dict[Any, NodeOrigin] | None = None) -> None:
        self.root = root
        self.variables = variables
        self.leaves = leaves
        self.grads = {} if grads is None else grads
        self.steps = [] if steps is None else steps
        self.records = {} if records is None else records  # node -> how it was made (textbook steps)


class _Bound:
    """A built-in bound to the value it is a method of: x.exp()."""

    __slots__ = ("builtin", "value")

    def __init__(self, builtin: Builtin, value: Symbolic) -> None:
        self.builtin, self.value = builtin, value


def _exact_literal(text: str, value: float) -> Any:
    """A number as SymPy's exact rational, from the text as written (0.1 is 1/10, not a binary float)."""
    try:
        exact = fractions.Fraction(text)
    except (ValueError, ZeroDivisionError):
        return sympy.Float(value)
    if exact.denominator == 1:
        return sympy.Integer(exact.numerator)
    return sympy.Rational(exact.numerator, exact.denominator)


def _unknown_function(name: str) -> UnknownNameError:
    import difflib  # only for this message: not on every symbolic command's start-up

    close = difflib.get_close_matches(name, list(BUILTINS), n=1)
    return UnknownNameError(f"unknown function '{name[:60]}'" + (f"; did you mean '{close[0]}'?" if close else
                            " (autodiff ops lists the functions)"))


class SymbolicBackend:
    """The interpreter's backend on symbols (see autodiff.grammar.interpreter.Backend)."""

    def __init__(self) -> None:
        self.leaves: dict[str, GraphInput] = {}
        self.records: dict[Any, NodeOrigin] = {}

    # ---- values
    @staticmethod
    def number(value: int | float, text: str) -> Symbolic:
        return Symbolic(_exact_literal(text, value))

    @staticmethod
    def constant(name: str) -> Symbolic:
        return Symbolic(CONSTANTS[name])

    def unbound(self, name: str) -> Symbolic:
        """A free name: a variable of the formula (a leaf of its graph)."""
        leaf = self.leaves.get(name)
        if leaf is None:
            leaf = self.leaves[name] = GraphInput(name)
        return Symbolic(sympy.Symbol(name, real=True), leaf)

    # ---- operations
    def operator(self, op: str, left: Any, right: Any) -> Symbolic:
        a, b = self.value(left), self.value(right)
        relation = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge, "==": sympy.Eq, "!=": sympy.Ne}
        if op in relation:
            return Symbolic(relation[op](a.expr, b.expr))
        if op in ("&", "|"):
            return Symbolic(sympy.And(a.expr, b.expr) if op == "&" else sympy.Or(a.expr, b.expr))
        if op == "@":
            raise unsupported("'@' (matrices) is not a scalar operation")
        if op not in OPERATORS:
            raise unsupported(f"'{op}' is not derived")
        if op in REFLECTED and self.is_constant(a) and not self.is_constant(b):
            return self.route(REFLECTED[op], [b, a], {})  # number - x, number / x: as the Tensor records them
        return self.route(BUILTINS[OPERATORS[op]], [a, b], {})

    def unary(self, op: str, value: Any) -> Symbolic:
        if op == "-":
            return self.route(BUILTINS["neg"], [self.value(value)], {})
        if op == "+":
            return self.value(value)
        raise unsupported(f"'{op}' on a number")

    def call(self, function: Any, args: list, kwargs: dict) -> Symbolic:
        if isinstance(function, _Bound):
            return self.route(function.builtin, [function.value, *args], kwargs, function.builtin.name)
        if isinstance(function, Function) and function.builtin is not None:
            return self.route(function.builtin, args, kwargs, function.name)
        if isinstance(function, Symbolic) and isinstance(function.node, GraphInput):  # a free name, called
            raise _unknown_function(function.node.name)
        raise unsupported("only functions can be called")

    @staticmethod
    def index(value: Any, items: list) -> Any:
        raise unsupported(f"indexing {_NOT_SCALAR}")

    @staticmethod
    def attribute(value: Any, name: str) -> Any:
        if isinstance(value, Namespace):  # torch.sin, math.exp
            member = value.members.get(name)
            if isinstance(member, Function):
                return member
            raise _unknown_function(name)
        builtin = BUILTINS.get(name)
        if isinstance(value, Symbolic) and builtin is not None and builtin.method:
            return _Bound(builtin, value)
        raise unsupported(f"an attribute {_NOT_SCALAR}")

    # ---- built-ins and ops (what composites and plans are written against)
    @staticmethod
    def value(x: Any) -> Symbolic:
        """A value as a Symbolic; Python numbers (from composites) as the exact numbers they stand for."""
        if isinstance(x, Symbolic):
            return x
        if isinstance(x, (bool, int)):
            return Symbolic(sympy.Integer(int(x)))
        if isinstance(x, float):
            return Symbolic(exact_number(x))
        if isinstance(x, Function):  # `x*t`: t is the built-in transpose unless declared a variable
            raise UnknownNameError(
                f"'{x.name}' is a built-in function, not a value: is a variable named {x.name} missing?",
                hint=f"make {x.name} a variable (differentiate with respect to it, or give it a value)",
                reason="builtin_as_value", name=x.name, shown=x.name)
        raise unsupported(f"a {type(x).__name__} {_NOT_SCALAR}")

    @staticmethod
    def is_constant(x: Any) -> bool:
        """True for a value that needs no gradient (a number, a constant, an expression of constants)."""
        return not isinstance(x, Symbolic) or x.node is None

    def route(self, builtin: Builtin, args: list, kwargs: dict, name: str | None = None) -> Symbolic:
        """A built-in run on symbols: its composite definition, its plan, or the one op it applies."""
        try:
            bound = signature(builtin.fn).bind(*args, **kwargs)
        except TypeError as error:
            raise arguments_error(name or builtin.name, error, builtin.signature) from None
        bound.apply_defaults()
        if builtin.name == "cbrt":  # the real cube root: x**(1/3), as the calculus commands read it (app.realroots)
            base, cube_root = self.value(next(iter(bound.arguments.values()))), Symbolic(sympy.Rational(1, 3))
            return self.route(BUILTINS[OPERATORS["**"]], [base, cube_root], {})
        if builtin.composite is not None:
            return self._composite(builtin, list(bound.arguments.values()))
        if builtin.plan is not None:
            return builtin.plan(self, *args, **kwargs)
        if builtin.op is None:
            raise unsupported(f"{name or builtin.name}() has no symbolic form in diff")
        names, values = list(bound.arguments), list(bound.arguments.values())
        count = len(builtin.op.inputs)
        return self.op(builtin.op, *values[:count], **dict(zip(names[count:], values[count:])))

    def _composite(self, builtin: Builtin, args: list) -> Symbolic:
        """A built-in made of others, recorded as its ops; sec(x) keeps its name in the expression."""
        result = self.value(builtin.composite(_Functions(self), *args))
        function = FUNCTIONS[builtin.name] if builtin.name in NAMED else None
        if function is not None:
            result = Symbolic(function(self.value(args[0]).expr), result.node)
        with sympy.evaluate(False):
            shown = (function or DISPLAY.get(builtin.name, lambda *a: None))(*(self.value(a).written for a in args))
        result.shown = shown
        if result.node is not None:
            self.records[result.node] = NodeOrigin(None, builtin, args, {})
        return result

    def op(self, op: Op, *inputs: Any, **params: Any) -> Symbolic:
        """One op of the table: its symbolic form gives the value, a Node records it (when a variable is in)."""
        if op.symbolic is None:
            raise unsupported(f"{op.name}() has no symbolic form in diff")
        values = [self.value(x) for x in inputs]
        exprs = tuple(v.expr for v in values)
        params = {k: (v.expr if isinstance(v, Symbolic) else v) for k, v in params.items()}
        result = _form(op, exprs, params)
        shown = _shown(op, tuple(v.written for v in values), params)
        if all(v.node is None for v in values):
            return Symbolic(result, None, shown)
        node = Node.of_values(op, tuple(v.node for v in values), exprs, params or None, result)
        self.records[node] = NodeOrigin(op, None, values, params)
        return Symbolic(result, node, shown)


MAX_EXACT_DIGITS = 4_000  # an exact power of numbers past this many digits is refused, not computed (Python writes
# no integer over 4,300 digits; the parser reads none over 4,000)


def _form(op: Op, exprs: tuple, params: dict) -> Any:
    form = op.symbolic
    _check_power_size(op, [*exprs, *params.values()])
    return FUNCTIONS[op.name](*exprs) if form is FUNCTION else form(SymPyMath, *exprs, **params)


def _check_power_size(op: Op, values: list) -> None:
    """2**10**10 would be computed exactly, digit by digit, by SymPy (for minutes, holding the interpreter so
    no time box can stop it): a power of two numbers whose result has more than MAX_EXACT_DIGITS digits is a
    limit error instead."""
    if not op.name.startswith("pow"):
        return
    numbers = [sympy.sympify(v) if isinstance(v, (int, float)) else v for v in values]
    if len(numbers) != 2 or not all(isinstance(v, sympy.Number) for v in numbers):
        return
    base, exponent = numbers if op.name != "pow_scalar_base" else numbers[::-1]
    size = abs(float(exponent)) * max(abs(math.log10(abs(float(base)))) if base != 0 else 0.0, 0.0)
    if size > MAX_EXACT_DIGITS:
        raise LimitError(f"diff: {base}**{exponent} has about {size:.3g} digits; exact numbers that large are not "
                         "computed", hint="write a decimal (2.0**100) to compute with floats, as autodiff eval does",
                         reason="size")


def _shown(op: Op, written: tuple, params: dict) -> Any:
    """The op's result as written, not evaluated by SymPy ((2*x)**3), or None where that fails; sums of sums
    and products of products flattened (3*x**2*sin(x), not (3*x**2)*sin(x))."""
    try:
        with sympy.evaluate(False):
            shown = _form(op, written, params)
            if isinstance(shown, (sympy.Add, sympy.Mul)):
                kind = type(shown)
                args = [a for arg in shown.args for a in (arg.args if type(arg) is kind else (arg,))]
                shown = kind(*args)
            return shown
    except Exception:
        return None


# Composites whose expression keeps their name (SymPy has the same real function)
NAMED = frozenset(("sec", "csc", "cot", "asec", "acsc", "acot"))
# Composites that SymPy has no function for, as they are written (cbrt(x), x**2, 2/x)
DISPLAY = {"cbrt": lambda x: CBRT(x), "square": lambda x: x**2, "rdiv": lambda x, number: number / x}


class _Functions:
    """The built-ins on symbols, as composites call them: F.cos(x)."""

    __slots__ = ("backend",)

    def __init__(self, backend: SymbolicBackend) -> None:
        self.backend = backend

    def __getattr__(self, name: str) -> Any:
        builtin = BUILTINS[name]
        return lambda *args, **kwargs: self.backend.route(builtin, list(args), kwargs)


# ---------------------------------------------------------------------------- a program on symbols
def record(program: str, variables: Collection[str] = ()) -> Formula:
    """Run the program on symbols (its variables: the free names that are not built-ins, and `variables`, the
    names the command line declares variables, even where a built-in has the name: t)."""
    backend = SymbolicBackend()
    evaluation = Interpreter(backend, FORMULA, variables=variables).run(parse(program))
    root = evaluation.root
    if root is None:
        raise unsupported("the program is empty")
    if not isinstance(root, Symbolic):
        raise unsupported(f"a {type(root).__name__} {_NOT_SCALAR}")
    return Formula(root, list(backend.leaves), dict(backend.leaves), records=backend.records)


def differentiate(formula: Formula) -> Formula:
    """d root / d each variable, by the engine's executor running each node's formulas on symbols; the
    steps in the order it ran them."""
    steps: list[Step] = []

    def observe(node: Any, grad_in: Any, grads_out: Any) -> None:
        if node.op is not None:
            rules = [g.text for nxt, g in zip(node.next_nodes, node.op.grads) if nxt is not None]
            steps.append(Step(node.name(), rules, grad_in, list(grads_out)))

    root = formula.root
    capture: dict = dict.fromkeys(formula.leaves.values())
    if root.node is not None:
        with engine.observe(observe):
            engine.execute([(root.node, sympy.Integer(1), False)], SymPyMath, True, capture)
    formula.grads = {name: (capture.get(leaf) or (sympy.Integer(0), False))[0] for name, leaf in
                     formula.leaves.items()}
    formula.steps = steps
    return formula


def program_expression(text: str, variables: Collection[str] = ()) -> tuple[Any, list[str]]:
    """The SymPy expression of a program's root, and its variables in order of appearance (`variables` are
    variables even where a built-in has the name)."""
    formula = record(text, variables)
    return formula.root.expr, formula.variables


# ---------------------------------------------------------------------------- exact numbers
@functools.cache
def _known_constants() -> dict[float, Any]:
    """The op table's constants as floats, with their exact values (built on first use: SymPy's log(10)
    costs milliseconds that a command with no float constant need not pay)."""
    return {0.6931471805599453: sympy.log(2), 2.302585092994046: sympy.log(10),
            1.1283791670955126: 2 / sympy.sqrt(sympy.pi), 3.141592653589793: sympy.pi, 2.718281828459045: sympy.E}


def exact_number(f: Any) -> Any:
    """A float as a small rational, or a small rational times or over a known constant (the op table's
    LN2, LN10, 2/sqrt(pi), which SymPy may already have multiplied with other numbers)."""
    value = float(f)
    ratio = fractions.Fraction(value).limit_denominator(10_000)
    if float(ratio) == value:
        return sympy.Rational(ratio.numerator, ratio.denominator)
    for known, exact in _known_constants().items():
        for factor, symbolic in ((value / known, exact), (value * known, 1 / exact)):
            ratio = fractions.Fraction(factor).limit_denominator(1_000)
            if ratio and abs(float(ratio) - factor) <= 1e-13 * abs(factor):
                return sympy.Rational(ratio.numerator, ratio.denominator) * symbolic
    return f if isinstance(f, sympy.Basic) else sympy.Float(f)


def exact(expr: Any) -> Any:
    """The formulas' float constants (2.0, 0.5, log(2) as 0.693...) as the exact numbers they stand for."""
    floats = expr.atoms(sympy.Float)
    if not floats:
        return expr
    return expr.xreplace({f: exact_number(f) for f in floats})
