"""Forms of a parsed program that the layers above may ask about without reading its tree.

Is a program elementwise in its scalar variables? Then one run with every sample point in one vector gives,
element by element, what a run per point gives (check's samples, a batch's lines): each operation computes
every element on its own, with the same numpy kernel. Decided from the parsed program alone, conservatively:
numbers, the variables, names the program assigns, pi and e, + - * / ** and unary signs, and calls of the
one-argument elementwise functions below; anything else (a random draw, a reduction, an index, a list, a
keyword, a name bound otherwise) is not elementwise, and its points are run one by one."""

from __future__ import annotations

from collections.abc import Collection

from autodiff.grammar.syntax import tree as S

_NAMES = ("sin cos tan sec csc cot asin acos atan arcsin arccos arctan sinh cosh tanh asinh acosh atanh arcsinh "
          "arccosh arctanh exp exp2 expm1 log ln log2 log10 log1p sqrt rsqrt cbrt abs sigmoid erf erfc square "
          "reciprocal")
FUNCTIONS = frozenset(_NAMES.split(" "))
CONSTANTS = frozenset(("pi", "e"))
OPERATORS = frozenset(("+", "-", "*", "/", "**"))


def elementwise(program: S.Program, variables: Collection[str]) -> bool:
    """Whether every statement is `NAME = EXPR` or `EXPR` over the names above (see the module's text); the
    last statement gives the root."""
    known = set(variables)
    if not program.statements:
        return False
    for statement in program.statements:
        kind = type(statement)
        if kind is S.Assign:
            if not _expression(statement.value, known) or statement.name in FUNCTIONS:
                return False
            known.add(statement.name)
        elif kind is not S.ExprStmt or not _expression(statement.value, known):
            return False
    return type(program.statements[-1]) is S.ExprStmt


def _expression(root: S.Node, names: set[str]) -> bool:
    """An expression of the allowed kinds only (an iterative walk)."""
    stack = [root]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is S.Number:
            continue
        if kind is S.Name:
            if node.id not in names and (node.id not in CONSTANTS or node.id in FUNCTIONS):
                return False
        elif kind is S.BinOp:
            if node.op not in OPERATORS:
                return False
            stack += (node.left, node.right)
        elif kind is S.UnaryOp:
            stack.append(node.operand)
        elif kind is S.Call:
            func = node.func
            if (type(func) is not S.Name or func.id not in FUNCTIONS or func.id in names or len(node.args) != 1
                    or node.kwargs):
                return False
            stack.append(node.args[0])
        else:
            return False
    return True


def is_number(program: S.Program) -> bool:
    """Whether the program is one number as written, signed or not (1.5, -3, 2e-3): the same value every time."""
    if len(program.statements) != 1 or type(program.statements[0]) is not S.ExprStmt:
        return False
    node = program.statements[0].value
    return type(node.operand if type(node) is S.UnaryOp else node) is S.Number


__all__ = ["FUNCTIONS", "elementwise", "is_number"]
