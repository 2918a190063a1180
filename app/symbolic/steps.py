"""A derivative's steps as a textbook writes them: each step names its rule (sum, constant multiple, power,
product, quotient, chain with "let u = ...", exponential, logarithm, trigonometric, inverse trigonometric,
hyperbolic, abs), the expression it applies to and its result, nested outside in.

The rules are read from the recorded formula (symbolic.py), one step per operation of the program: the
rule's name comes from the operation (mul is the product rule, pow the power rule, ...), and its result from
the op table's own backward formulas, run on fresh symbols (d/du sin(u) = cos(u)) and combined by the
chain rule, so a step cannot disagree with autograd. Walks are iterative (a stack), never recursive.
"""

from __future__ import annotations

from typing import Any

import sympy

from autodiff import engine
from autodiff.app.symbolic.bookform import step_form
from autodiff.app.symbolic.program import Formula, NodeOrigin, Symbolic, SymbolicBackend, differentiate, exact
from autodiff.app.symbolic.sympymath import SymPyMath

MAX_STEPS = 200  # a formula with more operations shows its first steps only

# The rule of each operation with one argument that depends on the variable (the chain rule wraps it when
# that argument is not the variable itself)
_TRIG = "sin cos tan sec csc cot"
_INVERSE_TRIG = "asin acos atan asec acsc acot arcsin arccos arctan arcsec arccsc arccot"
_HYPERBOLIC = "sinh cosh tanh asinh acosh atanh arcsinh arccosh arctanh"
FUNCTION_RULES = {
    **dict.fromkeys(_TRIG.split(), "trigonometric"), **dict.fromkeys(_INVERSE_TRIG.split(), "inverse trigonometric"),
    **dict.fromkeys(_HYPERBOLIC.split(), "hyperbolic"),
    **dict.fromkeys(("exp", "exp2", "expm1", "pow_scalar_base"), "exponential"),
    **dict.fromkeys(("log", "ln", "log2", "log10", "log1p"), "logarithm"),
    **dict.fromkeys(("pow", "sqrt", "rsqrt", "cbrt", "square"), "power"),
    **dict.fromkeys(("reciprocal", "rdiv"), "quotient"),
    "abs": "abs", "neg": "constant multiple",
}
# What each rule says, as a book states it
RULE_TEXT = {
    "sum": "(u + v)' = u' + v'",
    "constant multiple": "(c*u)' = c*u'",
    "product": "(u*v)' = u'*v + u*v'",
    "quotient": "(u/v)' = (u'*v - u*v')/v**2",
    "chain": "f(u)' = f'(u)*u'",
    "logarithmic differentiation": "(u**v)' = u**v*(v'*log(u) + v*u'/u)",
}


class RuleStep:
    """One step: the rule, the expression it applies to, its derivative, the rule as applied, its parts."""

    def __init__(self, rule: str, expr: Any, result: Any, formula: str = "", let: str = "",
                 children: list[RuleStep] | None = None, derivatives: list[Any] | None = None) -> None:
        self.rule = rule
        self.expr = expr
        self.result = result
        self.formula = formula
        self.let = let
        self.children = [] if children is None else children
        self.derivatives = [] if derivatives is None else derivatives  # of each argument it depends on (u', v')


class _Pending:
    def __init__(self, value: Symbolic, parent: list, step: RuleStep | None = None, parts: list | None = None) -> None:
        self.value = value
        self.parent = parent  # the list the step goes into
        self.step = step
        self.parts = [] if parts is None else parts  # (partial derivative, the argument's Symbolic)


def rule_steps(formula: Formula, wrt: str, leaf_derivatives: dict[str, Any] | None = None, *,
               shown: bool = True) -> list[RuleStep]:
    """The steps of d root / d wrt (other variables constant, or with the derivative leaf_derivatives gives
    them: y' for an implicit y). With shown=False (app.mistakes reads the rules, not the page), what only a
    page of steps shows is left out: the whole's result, and each function's own derivative in its fresh
    symbol (d/du sin(u) = cos(u)); the rest is as with shown=True."""
    from autodiff.app.symbolic.printing import to_book as to_language

    derivatives = {name: sympy.Integer(name == wrt) for name in formula.variables}
    derivatives.update(leaf_derivatives or {})
    active = {sympy.Symbol(n, real=True) for n, d in derivatives.items() if d != 0}
    top: list[RuleStep] = []
    order: list[_Pending] = []
    stack = [_Pending(formula.root, top)]
    while stack and len(order) < MAX_STEPS:
        item = stack.pop()
        record = formula.records.get(item.value.node)
        if record is None or not (item.value.expr.free_symbols & active):
            continue
        item.step, item.parts, inner = _step(record, item.value, derivatives, active, to_language, shown)
        item.parent.append(item.step)
        order.append(item)
        stack.extend(_Pending(value, item.step.children) for value in reversed(inner))
    _flatten_sums(top)
    results: dict[int, Any] = {}
    for item in reversed(order):  # the parts before the whole: each result from its parts'
        total = sympy.Integer(0)
        for partial, value in item.parts:
            inner = _derivative(value, results, formula, derivatives)
            item.step.derivatives.append(inner)
            total += partial * inner
        if not shown and item is order[0]:  # the whole: no step's part
            continue
        function = item.value.expr if item.step.rule == "logarithmic differentiation" else None
        item.step.result = step_form(exact(total), to_language, function)
        if item.step.rule == "chain" and shown:
            item.step.children[0].result = step_form(exact(item.step.children[0].result), to_language)
        results[id(item.value.node)] = item.step.result
    return top


def _flatten_sums(top: list[RuleStep]) -> None:
    """A sum of sums is one sum rule with every term (x**2 + x*y + y**2: three parts, not two levels)."""
    stack = list(top)
    while stack:
        step = stack.pop()
        if step.rule == "sum":
            children, pending = [], list(reversed(step.children))
            while pending:
                child = pending.pop()
                if child.rule == "sum":
                    pending.extend(reversed(child.children))
                else:
                    children.append(child)
            step.children = children
        stack.extend(step.children)


def _derivative(value: Symbolic, results: dict[int, Any], formula: Formula, derivatives: dict[str, Any]) -> Any:
    """An argument's derivative: its step's result, a variable's own derivative, or (past MAX_STEPS) the
    executor's, from the op table too."""
    node = value.node
    if node is None:
        return sympy.Integer(0)
    if id(node) in results:
        return results[id(node)]
    name = getattr(node, "name", None)
    if isinstance(name, str):
        return derivatives.get(name, sympy.Integer(0))
    leaves = {formula.leaves[n]: None for n in derivatives if n in formula.leaves}
    captured = engine.execute([(node, sympy.Integer(1), False)], SymPyMath, True, leaves)
    return sum((g[0] * derivatives[leaf.name] for leaf, g in captured.items() if g is not None), sympy.Integer(0))


def _step(record: NodeOrigin, value: Symbolic, derivatives: dict[str, Any], active: set, to_language: Any,
          shown: bool = True) -> tuple[RuleStep, list, list]:
    """The step of one operation: its rule, its parts [(partial, argument)], and the arguments to explain."""
    args = [SymbolicBackend.value(a) for a in record.args]
    moving = [i for i, a in enumerate(args) if a.node is not None and a.expr.free_symbols & active]
    name = record.builtin.name if record.builtin is not None else record.op.name
    fresh, outer, partials = _local(record, args, moving)
    back = {fresh[k]: args[i].expr for k, i in enumerate(moving)}
    parts = [(partials[k].subs(back), args[i]) for k, i in enumerate(moving)]
    inner = [args[i] for i in moving if args[i].node is not None and not _is_leaf(args[i])]
    rule = _rule(name, len(moving), args, moving)
    step = RuleStep(rule, value.written, None, RULE_TEXT.get(rule, ""))
    if len(moving) == 1 and rule not in ("sum", "constant multiple", "product", "quotient"):
        (i,) = moving
        u = fresh[0]
        from autodiff.app.symbolic.printing import operand

        derivative = step_form(exact(partials[0]), to_language) if shown else None
        local = RuleStep(rule, outer, derivative,
                         f"d/d{u} {operand(outer)} = {to_language(derivative)}" if shown else "")
        through = derivatives.get(getattr(args[i].node, "name", None), sympy.Integer(1)) if not inner else None
        if inner or (through is not None and through != 1):  # y**2 with y = y(x): the chain rule too
            let = f"{u} = {to_language(args[i].written)}" if inner else ""
            step = RuleStep("chain", value.written, None, RULE_TEXT["chain"], let, [local])
        else:
            local.expr = value.written
            step = local
    return step, parts, inner


def _is_leaf(value: Symbolic) -> bool:
    return isinstance(getattr(value.node, "name", None), str)


def _rule(name: str, moving: int, args: list[Symbolic], indices: list[int]) -> str:
    if name in ("add", "sub", "rsub"):
        return "sum"
    if name == "mul":
        return "product" if moving == 2 else "constant multiple"
    if name == "div":
        return "quotient" if 1 in indices else "constant multiple"
    if name == "pow_tensor":
        return "logarithmic differentiation" if moving == 2 else "power" if indices == [0] else "exponential"
    return FUNCTION_RULES.get(name, name)


_FRESH = ("u", "v", "w")


def _local(record: NodeOrigin, args: list[Symbolic], moving: list[int]) -> tuple[list, Any, list]:
    """The operation on fresh symbols (u, v: the variable itself where an argument is it) and its partial
    derivatives there, by the op table's formulas: ([symbols], f(u, ...), [df/du, ...])."""
    backend = SymbolicBackend()
    taken = {str(s) for a in args for s in a.expr.free_symbols}
    names = []
    for i in moving:
        leaf = getattr(args[i].node, "name", None)
        if isinstance(leaf, str) and len(moving) == 1:
            names.append(leaf)
        else:
            names.append(next(n for n in (*_FRESH, *(f"u{j}" for j in range(len(args) + 3))) if n not in taken
                              and n not in names))
    values = list(record.args)
    for name, i in zip(names, moving):
        values[i] = backend.unbound(name)
    if record.builtin is not None:
        result = backend.route(record.builtin, values, dict(record.params))
    else:
        result = backend.op(record.op, *values, **record.params)
    local = Formula(result, names, dict(backend.leaves))
    differentiate(local)
    symbols = [sympy.Symbol(n, real=True) for n in names]
    return symbols, result.written, [local.grads[n] for n in names]


__all__ = ["MAX_STEPS", "RULE_TEXT", "RuleStep", "rule_steps"]
