"""`autodiff diff`: the derivative as a formula, derived by the op table's own backward rules.

The program's syntax tree is walked (iteratively) into a graph of operations on SymPy symbols: each
operation is an entry of the engine's op table, with its result as a SymPy expression. The backward
pass then runs each node's formulas from the table in a third vocabulary, `SymPyMath` (besides the
engine's numpy and tensor ones), whose values are SymPy expressions: no derivative rule is written here.
SymPy only simplifies (with a time bound) and prints LaTeX; the formula is printed in the language
itself, so it pastes back into `autodiff eval` and `autodiff check --expect`.

SymPy never sees user text: numbers are built from our own parse (fractions.Fraction), names become
Symbols, and every expression comes from the operations the program performs. Imported by `diff` only.
"""

from __future__ import annotations

import fractions
import math
import threading
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import sympy
from sympy.printing.str import StrPrinter

from autodiff.engine import BUILTINS, OPS
from autodiff.engine.errors import BadValueError, UnknownNameError, UsageError
from autodiff.grammar import syntax as S
from autodiff.grammar.evaluate import CONSTANTS
from autodiff.grammar.parser import parse

MAX_ORDER = 10
SIMPLIFY_SECONDS = 2.0
MAX_PRINTED_OPS = 20_000  # a formula larger than this is refused rather than printed


class SymbolicError(BadValueError):
    """What `diff` cannot derive (a tensor-valued program, a function with no symbolic form)."""


def _unsupported(what: str, node: Any = None) -> SymbolicError:
    error = SymbolicError(f"diff: {what}; diff derives scalar programs of numbers, names, + - * / **, and the "
                          "elementwise functions (autodiff ops lists them)", reason="symbolic")
    return error.at(getattr(node, "line", None), getattr(node, "column", None)) if node is not None else error


# ---------------------------------------------------------------------------- the vocabulary
class _Value:
    """A saved value read for a mask (F.values): comparisons give SymPy relations, not Python booleans."""

    __slots__ = ("expr",)

    def __init__(self, expr: Any) -> None:
        self.expr = expr

    def _other(self, other: Any) -> Any:
        return other.expr if isinstance(other, _Value) else other

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

    def __neg__(self) -> _Value:
        return _Value(-self.expr)

    __hash__ = None  # type: ignore[assignment]


def _where(mask: Any, a: Any, b: Any) -> Any:
    if mask is sympy.true or mask is True:
        return a
    if mask is sympy.false or mask is False:
        return b
    return sympy.Piecewise((a, mask), (b, True))


class SymPyMath:
    """The op table's formula vocabulary on SymPy expressions (scalars: shapes are ignored)."""

    records = False
    exp, log, sin, cos, sqrt = sympy.exp, sympy.log, sympy.sin, sympy.cos, sympy.sqrt
    sinh, cosh, sign, sgn = sympy.sinh, sympy.cosh, sympy.sign, sympy.sign

    @staticmethod
    def values(x: Any) -> _Value:
        return x if isinstance(x, _Value) else _Value(x)

    @staticmethod
    def log_number(base: Any) -> Any:
        return sympy.log(base)

    @staticmethod
    def where(mask: Any, a: Any, b: Any) -> Any:
        return _where(mask, a, b)

    @staticmethod
    def mul_sum_to(a: Any, b: Any, shape: Any) -> Any:
        return a * b

    @staticmethod
    def sum_to(g: Any, shape: Any) -> Any:
        return g

    @staticmethod
    def cast(g: Any, dtype: Any) -> Any:
        return g

    @staticmethod
    def zeros_like(g: Any) -> Any:
        return sympy.Integer(0)

    @staticmethod
    def mul_scalar(x: Any, number: float) -> Any:
        return x * number

    @staticmethod
    def pow_backward(g: Any, x: Any, exponent: Any) -> Any:
        return g * (exponent * x ** (exponent - 1))

    @staticmethod
    def mul(a: Any, b: Any) -> Any:
        return a * b

    @staticmethod
    def div(a: Any, b: Any) -> Any:
        return a / b

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
    def threshold_backward(g: Any, x: Any) -> Any:
        if isinstance(x, sympy.Max) and len(x.args) == 2 and sympy.S.Zero in x.args:
            # relu's result max(0, y) <= 0 exactly where y <= 0 (SymPy does not see it)
            x = x.args[1] if x.args[0] == sympy.S.Zero else x.args[0]
        return _where(x <= 0, sympy.Integer(0), g)


# ---------------------------------------------------------------------------- forward, on symbols
# The language's rounding functions SymPy has no class for (their derivative comes from the op table)
_ROUND = sympy.Function("round", real=True)
_TRUNC = sympy.Function("trunc", real=True)

# What each op computes, as a SymPy expression of its inputs (and parameters): the forward only; every
# derivative comes from the op table's formulas.
_FORWARD: dict[str, Any] = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "rsub": lambda a, *, other: other - a,
    "mul": lambda a, b: a * b, "div": lambda a, b: a / b, "pow": lambda a, *, exponent: a**exponent,
    "pow_tensor": lambda a, b: a**b, "pow_scalar_base": lambda e, *, base: base**e, "neg": lambda a: -a,
    "reciprocal": lambda a: 1 / a, "exp": sympy.exp, "log": sympy.log, "sin": sympy.sin, "cos": sympy.cos,
    "tan": sympy.tan, "tanh": sympy.tanh, "sigmoid": lambda a: 1 / (1 + sympy.exp(-a)),
    "relu": lambda a: sympy.Max(a, 0), "sqrt": sympy.sqrt, "abs": sympy.Abs, "sign": sympy.sign,
    "asin": sympy.asin, "acos": sympy.acos, "atan": sympy.atan, "atan2": sympy.atan2, "sinh": sympy.sinh,
    "cosh": sympy.cosh, "asinh": sympy.asinh, "acosh": sympy.acosh, "atanh": sympy.atanh,
    "log2": lambda a: sympy.log(a, 2), "log10": lambda a: sympy.log(a, 10), "log1p": lambda a: sympy.log(1 + a),
    "expm1": lambda a: sympy.exp(a) - 1, "exp2": lambda a: 2**a, "erf": sympy.erf, "erfc": sympy.erfc,
    "rsqrt": lambda a: 1 / sympy.sqrt(a), "hypot": lambda a, b: sympy.sqrt(a**2 + b**2),
    "floor": sympy.floor, "ceil": sympy.ceiling, "round": lambda a: _ROUND(a), "trunc": lambda a: _TRUNC(a),
    "frac": lambda a: a - _TRUNC(a), "maximum": sympy.Max, "minimum": sympy.Min,
    "clamp": lambda a, *, min, max: _clamped(a, min, max),
    "where": lambda a, b, *, condition: _where(condition, a, b),
}
# Functions recorded as other functions (aliases, and those made of primitive ops).
_ALIASES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2", "arcsinh": "asinh",
            "arccosh": "acosh", "arctanh": "atanh", "ln": "log"}


# What diff calls the constructs of the language it does not derive, by syntax-tree class
_CONSTRUCTS = {"ListExpr": "a list", "TupleExpr": "a tuple", "String": "a string", "Subscript": "indexing",
               "Attribute": "an attribute", "Constant": "True, False or None", "BoolOp": "and/or/not",
               "IfExp": "a conditional expression (A if C else B)", "Lambda": "a lambda", "FString": "an f-string",
               "ListComp": "a comprehension", "Slice": "a slice"}


def _clamped(a: Any, low: Any, high: Any) -> Any:
    if low is not None:
        a = sympy.Max(a, low)
    return sympy.Min(a, high) if high is not None else a


@dataclass
class SymNode:
    """One operation of the program on symbols: the op-table entry, its inputs' nodes and values."""

    op: Any
    inputs: list[int | None]  # the node of each input (None: a number, which needs no gradient)
    values: list[Any]  # each input's SymPy expression
    params: dict[str, Any]
    result: Any
    name: str | None = None  # the variable, for a leaf


@dataclass
class Graph:
    nodes: list[SymNode] = field(default_factory=list)
    leaves: dict[str, int] = field(default_factory=dict)  # variable -> its node


@dataclass
class _V:
    """A value during the symbolic run: its expression and its node (None for a constant)."""

    expr: Any
    node: int | None = None


def _number(node: S.Number) -> Any:
    """A number as SymPy's exact rational, from the text as written (0.1 is 1/10, not a binary float)."""
    try:
        value = fractions.Fraction(node.text)
    except (ValueError, ZeroDivisionError):
        return sympy.Float(node.value)
    return sympy.Integer(value.numerator) if value.denominator == 1 else sympy.Rational(value.numerator,
                                                                                         value.denominator)


class Recorder:
    """Runs a program on symbols, recording a Graph (variables: free names that are not built-ins)."""

    def __init__(self, constants: dict[str, Any] | None = None) -> None:
        self.graph = Graph()
        self.names: dict[str, _V] = {}
        self.fixed = constants or {}

    def leaf(self, name: str) -> _V:
        if name not in self.graph.leaves:
            self.graph.leaves[name] = len(self.graph.nodes)
            self.graph.nodes.append(SymNode(None, [], [], {}, sympy.Symbol(name, real=True), name))
        return _V(self.graph.nodes[self.graph.leaves[name]].result, self.graph.leaves[name])

    def apply(self, op_name: str, inputs: list[_V], **params: Any) -> _V:
        exprs = [v.expr for v in inputs]
        result = _FORWARD[op_name](*exprs, **params)
        if all(v.node is None for v in inputs):
            return _V(result)
        self.graph.nodes.append(SymNode(OPS[op_name], [v.node for v in inputs], exprs, params, result))
        return _V(result, len(self.graph.nodes) - 1)

    # ---------------------------------------------------------------- the program
    def run(self, program: S.Program) -> _V:
        root: _V | None = None
        for stmt in program.statements:
            if isinstance(stmt, S.Assign):
                value = self.expression(stmt.value)
                self.names[stmt.name] = value
                root = value
            elif isinstance(stmt, S.ExprStmt):
                root = self.expression(stmt.value)
            elif isinstance(stmt, S.Import):
                continue
            else:
                raise _unsupported("index writes make a tensor-valued program", stmt)
        if root is None:
            raise _unsupported("the program is empty")
        return root

    def expression(self, tree: S.Node) -> _V:
        """Evaluate an expression iteratively (post-order over an explicit stack)."""
        done: dict[int, Any] = {}
        stack: list[tuple[S.Node, bool]] = [(tree, False)]
        while stack:
            node, ready = stack.pop()
            children = self._children(node)
            if not ready and children:
                stack.append((node, True))
                stack.extend((child, False) for child in reversed(children))
                continue
            done[id(node)] = self._evaluate(node, [done[id(c)] for c in children])
        return done[id(tree)]

    def _children(self, node: S.Node) -> list[S.Node]:
        if isinstance(node, S.BinOp):
            return [node.left, node.right]
        if isinstance(node, S.UnaryOp):
            return [node.operand]
        if isinstance(node, S.Call):
            func = node.func
            base = [func.value] if isinstance(func, S.Attribute) and not _is_torch(func.value) else []
            return [*base, *node.args, *(value for _, value in node.kwargs)]
        return []

    def _evaluate(self, node: S.Node, args: list[Any]) -> Any:
        if isinstance(node, S.Number):
            return _V(_number(node))
        if isinstance(node, S.Name):
            return self._name(node)
        if isinstance(node, S.BinOp):
            return self._binary(node, *args)
        if isinstance(node, S.UnaryOp):
            (value,) = args
            if node.op == "-":
                return self.apply("neg", [value])
            if node.op == "+":
                return value
            raise _unsupported(f"'{node.op}' on a number", node)
        if isinstance(node, S.Call):
            return self._call(node, args)
        what = _CONSTRUCTS.get(type(node).__name__, "this construct")
        raise _unsupported(f"{what} is not a scalar formula", node)

    def _name(self, node: S.Name) -> _V:
        name = node.id
        if name in self.names:
            return self.names[name]
        if name in self.fixed:
            return _V(self.fixed[name])
        if name in CONSTANTS:
            return _V({"pi": sympy.pi, "e": sympy.E, "inf": sympy.oo, "nan": sympy.nan}[name])
        if name in BUILTINS:
            raise _unsupported(f"'{name}' is a function, not a value", node)
        return self.leaf(name)

    def _binary(self, node: S.BinOp, a: _V, b: _V) -> _V:
        op = node.op
        if op in ("<", "<=", ">", ">=", "==", "!="):
            relation = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge, "==": sympy.Eq,
                        "!=": sympy.Ne}[op]
            return _V(relation(a.expr, b.expr))
        if op in ("&", "|"):
            return _V(sympy.And(a.expr, b.expr) if op == "&" else sympy.Or(a.expr, b.expr))
        if op == "+":
            return self.apply("add", [a, b])
        if op == "-":
            return self.apply("rsub", [b], other=a.expr) if a.node is None and b.node is not None else \
                self.apply("sub", [a, b])
        if op == "*":
            return self.apply("mul", [a, b])
        if op == "/":
            if a.node is None and b.node is not None:  # number / tensor: reciprocal(tensor) * number
                return self.apply("mul", [self.apply("reciprocal", [b]), a])
            return self.apply("div", [a, b])
        if op == "**":
            if b.node is None:
                return self.apply("pow", [a], exponent=b.expr)
            if a.node is None:
                return self.apply("pow_scalar_base", [b], base=a.expr)
            return self.apply("pow_tensor", [a, b])
        raise _unsupported(f"'{op}' (matrices) is not a scalar operation" if op == "@" else f"'{op}' is not derived",
                           node)

    def _call(self, node: S.Call, args: list[_V]) -> _V:
        func = node.func
        if isinstance(func, S.Attribute):
            name = func.attr
        elif isinstance(func, S.Name):
            name = func.id
        else:
            raise _unsupported("only functions can be called", node)
        name = _ALIASES.get(name, name)
        keywords = {key: args[len(args) - len(node.kwargs) + i] for i, (key, _) in enumerate(node.kwargs)}
        positional = args[:len(args) - len(node.kwargs)]
        if name == "where" and len(positional) == 3:
            condition, a, b = positional
            return self.apply("where", [a, b], condition=condition.expr)
        if name == "square" and len(positional) == 1:
            return self.apply("pow", positional, exponent=sympy.Integer(2))
        if name in ("sec", "csc", "cot") and len(positional) == 1:
            inner = {"sec": "cos", "csc": "sin", "cot": "tan"}[name]
            return self.apply("reciprocal", [self.apply(inner, positional)])
        if name == "cbrt" and len(positional) == 1:
            (x,) = positional
            return self.apply("mul", [self.apply("sign", [x]),
                                      self.apply("pow", [self.apply("abs", [x])], exponent=sympy.Rational(1, 3))])
        if name == "clamp":
            low = keywords.get("min", positional[1] if len(positional) > 1 else None)
            high = keywords.get("max", positional[2] if len(positional) > 2 else None)
            return self.apply("clamp", positional[:1], min=None if low is None else low.expr,
                              max=None if high is None else high.expr)
        if name in _FORWARD and name in OPS and not keywords and len(positional) == len(OPS[name].inputs):
            return self.apply(name, list(positional))
        if name not in BUILTINS:
            import difflib

            close = difflib.get_close_matches(name, list(BUILTINS), n=1)
            raise UnknownNameError(f"unknown function '{name[:60]}'" + (f"; did you mean '{close[0]}'?" if close else
                                   " (autodiff ops lists the functions)"), line=node.line, column=node.column)
        import inspect

        try:  # a call that the language itself would refuse says so, as `autodiff eval` does
            inspect.signature(BUILTINS[name].fn).bind(*positional, **keywords)
        except TypeError as error:
            raise BadValueError(f"{name}(): {error} (usage: {BUILTINS[name].signature})", reason="arguments",
                                line=node.line, column=node.column) from None
        raise _unsupported(f"{name}() has no symbolic form in diff", node)


def _is_torch(node: S.Node) -> bool:
    return isinstance(node, S.Name) and node.id in ("torch", "math")


# ---------------------------------------------------------------------------- backward, on symbols
@dataclass
class Step:
    node: str
    rules: list[str]
    grad_in: Any
    grads_out: list[Any]


def backward(graph: Graph, root: _V) -> tuple[dict[str, Any], list[Step]]:
    """d root / d each variable, running every node's formulas from the op table on SymPyMath."""
    grads: dict[int, Any] = {}
    if root.node is not None:
        grads[root.node] = sympy.Integer(1)
    steps: list[Step] = []
    for index in range(len(graph.nodes) - 1, -1, -1):
        node = graph.nodes[index]
        g = grads.get(index)
        if g is None or node.op is None:
            continue
        s = SimpleNamespace(**node.params, result=node.result, input_shape=(), input_dtype=None,
                            input_shapes=((),) * len(node.values),
                            **dict(zip(node.op.inputs, node.values)))
        outs, rules = [], []
        for source, formula in zip(node.inputs, node.op.grads):
            if source is None:
                outs.append(None)
                continue
            try:
                out = formula.fn(SymPyMath, g, s)
            except (TypeError, AttributeError, ValueError):
                raise _unsupported(f"{node.op.node}'s rule has no symbolic form") from None
            rules.append(formula.text)
            outs.append(out)
            grads[source] = out if source not in grads else grads[source] + out
        steps.append(Step(node.op.node, rules, g, outs))
    return {name: grads.get(i, sympy.Integer(0)) for name, i in graph.leaves.items()}, steps


# ---------------------------------------------------------------------------- simplifying and printing
def simplified(expr: Any, seconds: float = SIMPLIFY_SECONDS) -> Any:
    """SymPy's simplify, bounded in time: a huge expression is shown less simplified rather than hanging."""
    out: list[Any] = []

    def work() -> None:
        try:
            out.append(sympy.simplify(expr))
        except Exception:
            out.append(expr)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(seconds)
    return out[0] if out else expr


class LanguagePrinter(StrPrinter):
    """SymPy expressions in the autodiff language (abs, where, maximum, e, ...), so they paste back."""

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
        name = expr.func.__name__
        if name not in _PRINTABLE:
            raise _unsupported(f"the derivative uses {name}, which the language does not have")
        return f"{name}({', '.join(self._print(a) for a in expr.args)})"


_PRINTABLE = {"exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "atan2", "asinh",
              "acosh", "atanh", "sqrt", "sign", "erf", "erfc", "floor", "sec", "csc", "cot", "round", "trunc"}


def to_language(expr: Any) -> str:
    if sympy.count_ops(expr) > MAX_PRINTED_OPS:
        raise SymbolicError(f"diff: the formula has more than {MAX_PRINTED_OPS:,} operations; it is too large to "
                            "show", reason="symbolic")
    return LanguagePrinter({"order": "none"}).doprint(expr)


def to_latex(expr: Any) -> str:
    return sympy.latex(expr)


# ---------------------------------------------------------------------------- one diff run
@dataclass
class Derivative:
    wrt: str
    order: int
    expr: Any
    text: str
    latex: str
    value: float | None = None


@dataclass
class DiffResult:
    program: str
    derivatives: list[Derivative]
    steps: list[Step]
    root_latex: str = ""


def derive(program: str, wrt: list[str] | None, order: int, simplify: bool = True) -> DiffResult:
    """d^order root / d wrt^order for each wrt (default: every free variable), as formulas."""
    if not 1 <= order <= MAX_ORDER:
        raise UsageError(f"--order must be between 1 and {MAX_ORDER}, got {order}")
    recorder = Recorder()
    root = recorder.run(parse(program))
    names = list(recorder.graph.leaves)
    targets = wrt or names
    for name in targets:
        if name not in recorder.graph.leaves:
            known = ", ".join(names) or "none"
            raise UsageError(f"--wrt {name}: the program has no variable {name!r} (its variables: {known})")
    if not targets:
        raise UsageError("the program has no variable to differentiate: it is made of numbers and constants only")
    grads, steps = backward(recorder.graph, root)
    derivatives = []
    for name in targets:
        expr = grads[name]
        for _ in range(order - 1):  # again, by the same rules: the formula is a program of the language
            expr = _derive_again(expr, name)
        exact = _exact(expr)
        final = _exact(simplified(exact)) if simplify else exact
        if final is not exact and not _same_in_the_language(to_language(final), to_language(exact), names):
            final = exact  # SymPy's complex-valued rewriting (abs(x)**(2/3) as abs(x**(2/3))) is nan here
        derivatives.append(Derivative(name, order, final, to_language(final), to_latex(final)))
    return DiffResult(program, derivatives, steps, to_latex(root.expr))


_KNOWN_CONSTANTS = {math.log(2.0): sympy.log(2), math.log(10.0): sympy.log(10),
                    2.0 / math.sqrt(math.pi): 2 / sympy.sqrt(sympy.pi), math.pi: sympy.pi, math.e: sympy.E}


def _exact_number(f: Any) -> Any:
    """A float as a small rational, or a small rational times or over a known constant (the op table's
    LN2, LN10, 2/sqrt(pi), which SymPy may already have multiplied with other numbers)."""
    value = float(f)
    ratio = fractions.Fraction(value).limit_denominator(10_000)
    if float(ratio) == value:
        return sympy.Rational(ratio.numerator, ratio.denominator)
    for known, exact in _KNOWN_CONSTANTS.items():
        for factor, symbolic in ((value / known, exact), (value * known, 1 / exact)):
            ratio = fractions.Fraction(factor).limit_denominator(1_000)
            if ratio and abs(float(ratio) - factor) <= 1e-13 * abs(factor):
                return sympy.Rational(ratio.numerator, ratio.denominator) * symbolic
    return f


def _exact(expr: Any) -> Any:
    """The formulas' float constants (2.0, 0.5, log(2) as 0.693...) as the exact numbers they stand for."""
    floats = expr.atoms(sympy.Float)
    if not floats:
        return expr
    return expr.xreplace({f: _exact_number(f) for f in floats})


_PROBES = (-2.3, -0.7, 0.4, 1.9, 3.1)


def _same_in_the_language(text: str, reference: str, names: list[str]) -> bool:
    """Do two formulas give the same numbers when the language evaluates them (real arithmetic, numpy's
    nan for x**(2/3) at negative x), at a few points? A failed evaluation counts as different."""
    import numpy as np

    from autodiff import engine
    from autodiff.grammar.evaluate import Evaluator

    previous = engine.get_default_dtype()
    engine.set_default_dtype("float64")
    try:
        with np.errstate(all="ignore"), engine.no_grad():
            for k, probe in enumerate(_PROBES):
                values = {n: engine.tensor(probe + 0.37 * i * (k + 1), dtype="float64") for i, n in enumerate(names)}
                results = []
                for source in (text, reference):
                    evaluator = Evaluator()
                    evaluator.names.update(values)
                    (statement,) = parse(source).statements
                    results.append(float(np.asarray(engine.tensor(evaluator.expression(statement.value)).data)))
                a, b = results
                if not (np.isclose(a, b, rtol=1e-9, atol=1e-12) or (np.isnan(a) and np.isnan(b))):
                    return False
    except Exception:
        return False
    finally:
        engine.set_default_dtype(previous)
    return True


def _derive_again(expr: Any, name: str) -> Any:
    recorder = Recorder()
    root = recorder.run(parse(to_language(expr)))
    if name not in recorder.graph.leaves:
        return sympy.Integer(0)
    grads, _ = backward(recorder.graph, root)
    return grads[name]


def value_at(expr: Any, point: dict[str, float]) -> float:
    """The formula's value at the point (float; nan where it is not defined)."""
    substituted = expr.subs({sympy.Symbol(n, real=True): sympy.Float(v, 30) for n, v in point.items()})
    try:
        return float(sympy.N(substituted, 17))
    except (TypeError, ValueError):
        return math.nan


__all__ = [
    "Derivative",
    "DiffResult",
    "LanguagePrinter",
    "SymPyMath",
    "SymbolicError",
    "derive",
    "program_expression",
    "simplified",
    "to_language",
    "value_at",
]


def program_expression(text: str) -> tuple[Any, list[str]]:
    """The program's root as a SymPy expression of its variables (real symbols), and the variables' names in
    the order they first appear. Built from the syntax tree, never from the text: SymPy never parses user
    text. For the calculus commands (critical, tangent, limit, gradient)."""
    recorder = Recorder()
    root = recorder.run(parse(text))
    return root.expr, list(recorder.graph.leaves)
