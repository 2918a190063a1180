"""Forms of a parsed program that the layers above may ask about without reading its tree.

Is a program elementwise in its scalar variables? Then one run with every sample point in one vector gives,
element by element, what a run per point gives (check's samples, a batch's lines): each operation computes
every element on its own, with the same numpy kernel. Decided from the parsed program alone, conservatively:
numbers, the variables, names the program assigns, pi and e, + - * / ** and unary signs, and calls of the
one-argument elementwise functions below; anything else (a random draw, a reduction, an index, a list, a
keyword, a name bound otherwise) is not elementwise, and its points are run one by one.

Which numbers of a formula may differ between checks run together (number_lanes)? Floats that reach a variable's
value through + - * and signs only and meet it by + - * or as a divisor (app/together.py says why these)."""

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


def number_lanes(program: S.Program, variables: Collection[str]) -> list[bool] | None:
    """For each number of a one-expression program, in the order written: whether it is a float written as such
    that reaches a variable's value through + - * and signs only, and meets it by + - * or as the divisor of /
    (app/together.py runs such numbers of several checks as vectors). None for a program of several statements."""
    if len(program.statements) != 1 or type(program.statements[0]) is not S.ExprStmt:
        return None
    return _find_lanes(program.statements[0].value, set(variables))


def _find_lanes(root: S.Node, names: Collection[str]) -> list[bool]:
    """Whether each number under root (in the order written) is a lane: iteratively, first which nodes hold a
    variable (a tensor's value), then each number's way up to the first such node."""
    parents: dict[int, S.Node] = {}
    order: list[S.Node] = []  # post-order, left first (the tape's order: numbers in the order written)
    stack: list[tuple[S.Node, bool]] = [(root, False)]
    while stack:
        node, ready = stack.pop()
        if ready:
            order.append(node)
            continue
        stack.append((node, True))
        children = _children(node)
        for child in reversed(children):
            parents[id(child)] = node
            stack.append((child, False))
    tensor: dict[int, bool] = {}
    for node in order:
        tensor[id(node)] = (type(node) is S.Name and node.id in names) or any(tensor[id(c)] for c in _children(node))
    return [type(node) is S.Number and _lane(node, parents, tensor) for node in order if type(node) is S.Number]


def _children(node: S.Node) -> list[S.Node]:
    kind = type(node)
    if kind is S.BinOp:
        return [node.left, node.right]
    if kind is S.UnaryOp:
        return [node.operand]
    if kind is S.Call:
        return [node.func, *node.args]
    return []


def _lane(number: S.Number, parents: dict[int, S.Node], tensor: dict[int, bool]) -> bool:
    """A float written as such, reaching a tensor through + - * and signs, and meeting it by + - * or / (as the
    divisor only)."""
    if number.is_int:
        return False
    child, node = number, parents.get(id(number))
    while node is not None:
        kind = type(node)
        if tensor[id(node)]:
            return kind is S.BinOp and (node.op in ("+", "-", "*") or (node.op == "/" and child is node.right))
        if not ((kind is S.BinOp and node.op in ("+", "-", "*")) or (kind is S.UnaryOp and node.op in ("+", "-"))):
            return False
        child, node = node, parents.get(id(node))
    return False



def is_number(program: S.Program) -> bool:
    """Whether the program is one number as written, signed or not (1.5, -3, 2e-3): the same value every time."""
    if len(program.statements) != 1 or type(program.statements[0]) is not S.ExprStmt:
        return False
    node = program.statements[0].value
    return type(node.operand if type(node) is S.UnaryOp else node) is S.Number


__all__ = ["FUNCTIONS", "elementwise", "is_number", "number_lanes"]
