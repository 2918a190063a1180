"""An elementwise program (grammar.syntax.elementwise) compiled once into the list of calls the interpreter makes
when it runs it, in the interpreter's order: each number as the engine's backend reads it, each name looked up as
the interpreter looks it up, each operator by grammar's `operators.binary` / `operators.unary` (what the engine's
backend calls) and each function call by the function the interpreter finds. Running the tape makes the same
engine calls on the same values as running the program, without the interpreter's walk of the tree (about a
third of a small program's run); app/stacking.py runs the lines of a batch this way (its tests compare the
tape's values with the interpreter's bit for bit). Anything outside the
compiled forms gives no tape (the program is then run by the interpreter). With a backend that differs from the
engine's in `**` only (check's RealRoots: x**(1/3) is the real root), each `**` is the backend's."""

from __future__ import annotations

import operator as pyoperator
from collections.abc import Collection
from typing import Any

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.grammar.interpreter import operators
from autodiff.grammar.interpreter.engine_backend import EngineBackend, signature
from autodiff.grammar.interpreter.interpreter import Interpreter
from autodiff.grammar.interpreter.values import Function
from autodiff.grammar.syntax import tree as S
from autodiff.grammar.syntax.tree import Program

PUSH, NAME, BINARY, UNARY, CALL, POWER = range(6)  # what a step does: push a value, a bound name's value, or apply
ARITHMETIC = {"+": pyoperator.add, "-": pyoperator.sub, "*": pyoperator.mul, "/": pyoperator.truediv,
              "**": pyoperator.pow}
SIGNS = frozenset(("+", "-"))
MAX_STEPS = 10_000  # a longer program is run by the interpreter


class Tape:
    """A compiled program: for each statement, the name it assigns (None: a bare expression) and its steps; and
    where its numbers are pushed, in the order they are written (`renumbered` makes the tape of a program that
    differs in its numbers only)."""

    __slots__ = ("numbers", "statements")

    def __init__(self, statements: list[tuple[str | None, list[tuple[int, Any]]]],
                 numbers: list[tuple[int, int]] | None = None) -> None:
        self.statements = statements
        self.numbers = numbers or []  # (statement, step) of each number's PUSH

    def renumbered(self, values: list[Any]) -> Tape | None:
        """The tape with its numbers replaced by `values` (each as EngineBackend.number gives it), in the order
        they are written; None when there are not as many."""
        if len(values) != len(self.numbers):
            return None
        statements = [(target, list(steps)) for target, steps in self.statements]
        for (statement, step), value in zip(self.numbers, values):
            statements[statement][1][step] = (PUSH, value)
        return Tape(statements, self.numbers)

    def run(self, names: dict[str, Any]) -> tuple[Any, str | None]:
        """Run the statements with `names` bound (the program's assignments are added to them): the root (the
        last statement's value) and its name, as the interpreter's Evaluation records them."""
        binary, unary = operators.binary, operators.unary
        root: Any = None
        root_name = None
        for target, steps in self.statements:
            stack: list[Any] = []
            for code, argument in steps:
                if code == PUSH:
                    stack.append(argument)
                elif code == NAME:
                    stack.append(names[argument])
                elif code == BINARY:
                    right = stack.pop()
                    left = stack[-1]
                    if _arithmetic(left, right):  # what operators.binary comes to for these operands
                        stack[-1] = ARITHMETIC[argument](left, right)
                    else:
                        stack[-1] = binary(argument, left, right)
                elif code == UNARY:
                    stack[-1] = unary(argument, stack[-1])
                elif code == POWER:  # the backend's own **
                    right = stack.pop()
                    stack[-1] = argument("**", stack[-1], right)
                else:
                    stack[-1] = argument(stack[-1])
            root, root_name = stack[0], target
            if target is not None:
                names[target] = root
        return root, root_name


def _arithmetic(left: Any, right: Any) -> bool:
    """Whether `left OP right` is all that operators.binary does for an arithmetic OP: a tensor that is not a mask
    (binary turns a mask into numbers) with a tensor or a number (an int or a float, not a bool)."""
    left_tensor, right_tensor = type(left) is Tensor, type(right) is Tensor
    if (left_tensor and left.dtype == engine.bool_) or (right_tensor and right.dtype == engine.bool_):
        return False
    return (left_tensor and (right_tensor or type(right) in _NUMBERS)) or (right_tensor and type(left) in _NUMBERS)


_NUMBERS = (int, float)


def compile_elementwise(program: Program, variables: Collection[str], backend: Any = None) -> Tape | None:
    """The tape of a program that grammar.syntax.elementwise admits with these variables, or None when it has
    something the tape does not compile (the interpreter runs it). `backend`: one whose `operator` computes `**`
    (and only that differently from the engine's backend); None: the engine's."""
    bound = set(variables)
    interpreter = Interpreter()  # its lookup of the names the program does not bind: constants, functions
    statements: list[tuple[str | None, list[tuple[int, Any]]]] = []
    power = None if backend is None else (POWER, backend.operator)
    numbers: list[tuple[int, int]] = []
    for statement in program.statements:
        found: list[int] = []
        steps = _steps(statement.value, bound, interpreter, power, found)
        if steps is None:
            return None
        numbers += [(len(statements), step) for step in found]
        target = statement.name if type(statement) is S.Assign else None
        if target is None and type(statement) is not S.ExprStmt:
            return None
        statements.append((target, steps))
        if target is not None:
            bound.add(target)
    return Tape(statements, numbers) if statements else None


def _steps(root: S.Node, bound: set[str], interpreter: Interpreter, power: tuple[int, Any] | None = None,
           numbers: list[int] | None = None) -> list[tuple[int, Any]] | None:
    """The steps of one expression, in the interpreter's order (post-order, left operand first, so its numbers
    come in the order they are written: their steps are added to `numbers`). Iterative."""
    steps: list[tuple[int, Any]] = []
    stack: list[tuple[S.Node, bool]] = [(root, False)]
    while stack:
        node, ready = stack.pop()
        kind = type(node)
        if len(steps) > MAX_STEPS:
            return None
        if kind is S.Number:
            if numbers is not None:
                numbers.append(len(steps))
            steps.append((PUSH, EngineBackend.number(node.value, node.text)))
        elif kind is S.Name:
            step = _name(node, bound, interpreter)
            if step is None:
                return None
            steps.append(step)
        elif kind is S.BinOp and node.op in ARITHMETIC:
            if ready:
                steps.append(power if power is not None and node.op == "**" else (BINARY, node.op))
            else:
                stack += ((node, True), (node.right, False), (node.left, False))
        elif kind is S.UnaryOp and node.op in SIGNS:
            if ready:
                steps.append((UNARY, node.op))
            else:
                stack += ((node, True), (node.operand, False))
        elif kind is S.Call and type(node.func) is S.Name and node.func.id not in bound and len(node.args) == 1 \
                and not node.kwargs:
            if ready:
                function = _function(node.func, interpreter)
                if function is None:
                    return None
                steps.append((CALL, function))
            else:
                stack += ((node, True), (node.args[0], False))
        else:
            return None
    return steps


def _name(node: S.Name, bound: set[str], interpreter: Interpreter) -> tuple[int, Any] | None:
    """A bound name's step, or a constant's (a plain number the interpreter's lookup gives)."""
    if node.id in bound:
        return NAME, node.id
    try:
        value = interpreter.lookup(node)
    except Exception:  # unknown: the interpreter says so
        return None
    return (PUSH, value) if type(value) in (int, float) else None


def _function(node: S.Name, interpreter: Interpreter) -> Any:
    """What calling the function with one argument does (EngineBackend.call with one positional argument: the
    function itself, when its signature takes one), or None; remembered by name (a fresh interpreter's lookup
    of a name the program does not bind is always the same)."""
    if node.id in _FUNCTIONS:
        return _FUNCTIONS[node.id]
    try:
        function = interpreter.lookup(node)
        if not isinstance(function, Function):
            return None
        signature(function.fn).bind(None)  # EngineBackend.call's check, which one argument passes
    except Exception:
        return None
    if function.builtin is not None and function.builtin.name in ("tensor", "arange", "full", "where"):
        return None  # constructors (EngineBackend.call changes their dtype): not elementwise functions anyway
    _FUNCTIONS[node.id] = function.fn
    return function.fn


_FUNCTIONS: dict[str, Any] = {}


__all__ = ["Tape", "compile_elementwise"]
