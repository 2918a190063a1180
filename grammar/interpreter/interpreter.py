"""The interpreter: runs a parsed program statement by statement against a backend (the engine's, unless
another is given) under a policy (EVAL for `autodiff eval`; a backend such as diff's brings its own). It owns
the program's names, the scopes of its comprehensions, the imported modules and the step count;
expressions.py and statements.py hold the rules, the backend the arithmetic.

Nothing here evaluates Python: names resolve to bound values, to the prelude's built-ins and modules, or
to the backend (`unbound`); attributes come from explicit allow-lists (members.py).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from autodiff import engine
from autodiff.engine import BUILTINS
from autodiff.engine.errors import AutodiffError, BadValueError, LimitError, UnknownNameError, UsageError
from autodiff.grammar.interpreter import expressions, sequences, statements
from autodiff.grammar.interpreter.backend import Backend
from autodiff.grammar.interpreter.engine_backend import EngineBackend, as_index
from autodiff.grammar.interpreter.policy import EVAL, Policy
from autodiff.grammar.interpreter.prelude import (
    CONSTANTS,
    PYTHON_BUILTIN_NAMES,
    builtin_function,
    imported,
    imported_name,
    python_builtins_table,
    torch_namespace,
)
from autodiff.grammar.interpreter.values import Evaluation, Origin, shown, truth
from autodiff.grammar.syntax import tree as S

MAX_STEPS = 1_000_000  # items the comprehensions of a program may take, all together


class Interpreter:
    """Runs statements against one environment of names.

    `variables` are names the caller declares variables of the program (t, when diff differentiates with respect
    to it): unless the program binds them, each is the backend's free name, even where a built-in has the same
    name (t, the transpose).
    """

    def __init__(self, backend: Backend | None = None, policy: Policy = EVAL, *, max_steps: int = MAX_STEPS,
                 variables: Collection[str] = ()) -> None:
        self.backend = backend if backend is not None else EngineBackend()
        self.policy = policy
        self.max_steps = max_steps
        self.steps = 0
        self.scopes: list[dict[str, Any]] = []  # the names of the comprehensions being run
        self.names: dict[str, Any] = {}
        self.variables = frozenset(variables)
        # the modules a program may use unimported (torch): None until used, built on first use (start-up)
        self.modules: dict[str, Any] = dict.fromkeys(policy.modules)

    # ------------------------------------------------------------------ statements
    def run(self, program: S.Program, evaluation: Evaluation | None = None) -> Evaluation:
        """Run every statement in order; errors carry the line and column of the failing part."""
        result = evaluation or Evaluation(program)
        for statement in program.statements:
            self.statement(statement, result)
        result.names = self.names
        return result

    def statement(self, stmt: S.Node, result: Evaluation) -> None:
        """Run one statement and record it as the root so far."""
        refused = self.policy.refused
        if refused and type(stmt).__name__ in refused:
            raise self.refusal(type(stmt).__name__, stmt)
        if engine.is_anomaly_enabled():
            with engine.forward_context(Origin(stmt, result.program.source)):
                statements.statement(self, stmt, result)
        else:
            statements.statement(self, stmt, result)

    def count_step(self, node: S.Node) -> None:
        """One more item taken by a comprehension; past `max_steps`, a limit error."""
        self.steps += 1
        if self.steps > self.max_steps:
            raise LimitError(f"the program's comprehensions took {self.max_steps:,} items, the limit",
                             reason="steps").at(node.line, node.column)

    def bind_module(self, module: str, alias: str | None) -> None:
        """`import MODULE [as ALIAS]`."""
        name, namespace = imported(module, alias)
        self.modules[name] = namespace

    def bind_from(self, module: str, names: tuple[tuple[str, str | None], ...]) -> None:
        """`from MODULE import NAME [as ALIAS], ...`: the names are the script's own (they shadow built-ins)."""
        for name, alias in names:
            self.names[alias or name] = imported_name(module, name)

    # ------------------------------------------------------------------ expressions
    def expression(self, node: S.Node) -> Any:
        """The value of an expression (see expressions.py)."""
        return expressions.evaluate(self, node)

    def condition(self, node: S.Node) -> Any:
        """The value of a comprehension's condition (its truth is taken by the caller)."""
        value = self.expression(node)
        self.guard(lambda: truth(value), node)
        return value

    def comprehension(self, node: S.ListComp) -> list:
        return statements.comprehension(self, node)

    def operator(self, op: str, left: Any, right: Any) -> Any:
        """`left op right`: Python's meaning on strings and tuples (sequences.py), else the backend's."""
        result = sequences.operator(op, left, right)
        return self.backend.operator(op, left, right) if result is NotImplemented else result

    def index(self, value: Any, items: list[Any]) -> Any:
        """`value[items]`: Python's indexing of strings and tuples, else the backend's."""
        result = sequences.index(value, items[0]) if len(items) == 1 else NotImplemented
        return self.backend.index(value, items) if result is NotImplemented else result

    def index_of(self, index: tuple) -> Any:
        """The value of the items of `x[...]`, as the engine's index."""
        return as_index([self.expression(item) for item in index])

    def guard(self, action: Callable[[], Any], node: S.Node) -> Any:
        """Run `action`, placing an error it raises at `node`."""
        try:
            return action()
        except AutodiffError as error:
            raise error.at(node.line, node.column) from None

    def refusal(self, kind: str, node: S.Node) -> AutodiffError:
        """The policy's error for a construct it refuses."""
        what = self.policy.refused[kind]
        if self.policy.refuse is not None:
            return self.policy.refuse(what, node)
        return BadValueError(f"{what} is not available here").at(node.line, node.column)

    def lookup(self, node: S.Name) -> Any:
        """A name's value: the innermost scope's, the program's, a module, a built-in, a constant."""
        name = node.id
        if self.scopes and name in self.scopes[-1]:
            return self.scopes[-1][name]
        if name in self.names:
            return self.names[name]
        if name in self.variables:  # a declared variable wins over a built-in of the same name
            return self.backend.unbound(name)
        if name in self.modules:
            module = self.modules[name]
            return torch_namespace() if module is None else module
        if self.policy.python_builtins and name in PYTHON_BUILTIN_NAMES:
            return python_builtins_table()[name]
        if name in CONSTANTS:  # after the program's own names: a tutorial may assign `e = c * d` (no built-in
            return self.backend.constant(name)  # has a constant's name: tests check)
        if name in BUILTINS:
            return builtin_function(name)
        value = self.backend.unbound(name)
        if value is None:
            raise self.unknown(name, node)
        return value

    def unknown(self, name: str, node: S.Node) -> UnknownNameError:
        """The error for a name nothing binds, with the likeliest name meant."""
        import difflib  # only for a name nothing binds

        close = difflib.get_close_matches(name, list(self.names), n=1) or close_builtin(name)
        suggestion = f"; did you mean '{close[0]}'?" if close else ""
        bind = "" if (close and close[0] in BUILTINS) or name.startswith("_") else \
            self.policy.unknown_hint.format(name=shown(name))
        if name in PYTHON_ONLY:
            return UsageError(f"{name}() is Python's, not part of autodiff's language: put the program in a file "
                              "and run it with `autodiff run FILE` (Python, with autodiff's torch)",
                              reason="python_block", line=node.line, column=node.column)
        # The name could also be bound from outside the program: reason "unbound_name" lets a front end say how
        # (the command line has an option for it).
        reason = "unbound_name" if bind else "unknown_name"
        return UnknownNameError(f"unknown name '{shown(name)}'{suggestion}", hint=bind or None, reason=reason,
                                name=name, shown=shown(name), line=node.line, column=node.column)

    # ------------------------------------------------------------------ calls
    def call(self, node: S.Call, args: list[Any]) -> Any:
        """A call, by the backend."""
        function, positional = args[0], args[1:1 + len(node.args)]
        keywords = dict(zip((k for k, _ in node.kwargs), args[1 + len(node.args):]))
        return self.backend.call(function, list(positional), keywords)


# Python's built-ins a program reaches for that belong in a Python file (autodiff run)
PYTHON_ONLY = frozenset(("print", "open", "input", "eval", "exec", "compile", "globals", "locals", "vars", "set",
                         "dict", "str", "repr", "type", "isinstance", "getattr", "setattr", "hasattr", "super",
                         "object", "next", "iter", "map", "filter", "sorted", "reversed"))


def close_builtin(name: str) -> list[str]:
    """The built-in a misspelt name most likely meant: a close spelling (sine: sin), or one that shares a
    prefix of four letters or more (arctg: arctan, not tan); aliases count as names of their own."""
    import difflib

    known = [*BUILTINS, *CONSTANTS]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
    if close:
        return close
    lower = name.lower()
    prefixed = [k for k in known if len(k) >= 4 and len(lower) >= 4 and k[:4] == lower[:4]]
    if prefixed:
        return [max(prefixed, key=lambda k: difflib.SequenceMatcher(None, lower, k).ratio())]
    return []
