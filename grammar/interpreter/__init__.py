"""autodiff.grammar.interpreter: a parsed program run against a backend, so the autograd graph is built as the
program runs (the engine's backend) or the same operations are recorded on symbols (`autodiff diff`'s).

- `Interpreter(backend, policy)` runs programs (interpreter.py), with the rules of expressions.py and
  statements.py; `Backend` (backend.py) is what a backend provides, `EngineBackend` the engine's.
- `EVAL` (policy.py) is what `autodiff eval` allows; a backend may bring a policy of its own.
- The prelude (prelude.py, pybuiltins.py): the built-ins, the torch module, constants, Python's built-ins.
- The values (values.py) and what `.` reaches (members.py).
- `compile_elementwise` (tape.py): an elementwise program as the list of calls the interpreter makes for it.
"""

from __future__ import annotations

from typing import Any

from autodiff.engine.errors import ParseError, UnknownNameError
from autodiff.grammar.interpreter.backend import Backend
from autodiff.grammar.interpreter.engine_backend import EngineBackend, arguments_error, signature
from autodiff.grammar.interpreter.interpreter import MAX_STEPS, Interpreter
from autodiff.grammar.interpreter.members import NODE_METHODS, TENSOR_ATTRIBUTES, TENSOR_METHODS
from autodiff.grammar.interpreter.policy import EVAL, Policy
from autodiff.grammar.interpreter.prelude import CONSTANTS, functional_names
from autodiff.grammar.interpreter.tape import Tape, compile_elementwise
from autodiff.grammar.interpreter.values import Evaluation, Function, Namespace, kind, literal_tensor
from autodiff.grammar.syntax import parse
from autodiff.grammar.syntax.tree import ExprStmt, Program


def constant(text: str, what: str) -> Any:
    """The value of a constant expression (a value bound to a name from outside the program): a number, a list
    literal or a call of the built-ins, never a variable. `what` names it in error messages."""
    try:
        program = parse(text)
    except ParseError as error:
        error.message = f"{what}: {error.message}"
        error.details["summary"] = f"{what}: {error.details.get('summary', '')}"
        raise
    statements = program.statements
    if len(statements) != 1 or not isinstance(statements[0], ExprStmt):
        raise ParseError(f"{what}: expected one expression, e.g. 3, [1, 2] or randn(2, 2), got {text!r}",
                         line=1, column=1)
    try:
        return Interpreter().expression(statements[0].value)
    except UnknownNameError as error:
        error.message = f"{what}: {error.message} (a value cannot refer to variables)"
        error.hint = None
        raise


def __getattr__(name: str) -> Any:
    """FUNCTIONAL, the names of torch.nn.functional, listed when first read (prelude.functional_names)."""
    if name == "FUNCTIONAL":
        return functional_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def is_empty(program: Program) -> bool:
    """True for a program with no statement (only blanks or comments)."""
    return not program.statements


__all__ = ["CONSTANTS", "EVAL", "FUNCTIONAL", "MAX_STEPS", "NODE_METHODS", "TENSOR_ATTRIBUTES", "TENSOR_METHODS",
           "Backend", "EngineBackend", "Evaluation", "Function", "Interpreter", "Namespace", "Policy", "Tape",
           "arguments_error", "compile_elementwise", "constant", "is_empty", "kind", "literal_tensor", "signature"]
