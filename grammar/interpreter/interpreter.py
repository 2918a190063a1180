"""The interpreter: runs a parsed program statement by statement against a backend (the engine's, unless
another is given) under a policy (EVAL for `autodiff eval`, SCRIPT for `autodiff run`). It owns the
program's names, the scopes of the script's functions and comprehensions, the imported modules and the
step count; expressions.py and statements.py hold the rules, the backend the arithmetic.

Nothing here evaluates Python: names resolve to bound values, to the prelude's built-ins and modules, or
to the backend (`unbound`); attributes come from explicit allow-lists (members.py).
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Collection
from typing import Any

from autodiff import engine
from autodiff.engine import BUILTINS
from autodiff.engine.errors import AutodiffError, BadValueError, LimitError, UnknownNameError
from autodiff.grammar.interpreter import expressions, sequences, statements
from autodiff.grammar.interpreter.backend import Backend
from autodiff.grammar.interpreter.callables import bind, spread
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
from autodiff.grammar.interpreter.values import (
    Evaluation,
    Function,
    Origin,
    UserFunction,
    display,
    script_type,
    shown,
    truth,
)
from autodiff.grammar.syntax import tree as S

MAX_STEPS = 1_000_000  # statements a script may run, loop rounds included (the command line can change it)


# Python built-ins a script reaches for that autodiff does not have, with what to write instead
NOT_IN_SCRIPTS = {
    "set": "use a list (`x in items`, `if x not in items: items.append(x)`) or a dict's keys",
    "frozenset": "use a tuple",
    "open": "scripts read no files: write the numbers in the script, or bind them on the command line",
    "input": "scripts read no input: write the value in the script",
    "eval": "autodiff never evaluates Python text",
    "exec": "autodiff never evaluates Python text",
    "compile": "autodiff never evaluates Python text",
    "globals": "name what you need",
    "locals": "name what you need",
    "vars": "name what you need",
}


class Interpreter:
    """Runs statements against one environment of names.

    `write` receives what print() writes (SCRIPT); `on_expression` (optional) the value of each bare
    expression statement (the REPL shows them). `variables` are names the caller declares variables of the
    program (t, when diff differentiates with respect to it): unless the program binds them, each is the
    backend's free name, even where a built-in has the same name (t, the transpose).
    """

    def __init__(self, backend: Backend | None = None, policy: Policy = EVAL, *,
                 write: Callable[[str], None] | None = None, max_steps: int = MAX_STEPS,
                 variables: Collection[str] = ()) -> None:
        self.backend = backend if backend is not None else EngineBackend()
        self.policy = policy
        self.write = write
        self.max_steps = max_steps
        self.steps = 0
        self.scopes: list[dict[str, Any]] = []  # the parameters of the script's functions being called
        self.on_expression: Callable[[Any], None] | None = None
        self.names: dict[str, Any] = {}
        self.variables = frozenset(variables)
        # the modules a program may use unimported (torch): None until used, built on first use (start-up)
        self.modules: dict[str, Any] = dict.fromkeys(policy.modules)
        self.methods: list[tuple[Any, Any]] = []  # (class, owner) of the methods being called, for super()

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
                self._statement(stmt, result)
        else:
            self._statement(stmt, result)

    def _statement(self, stmt: S.Node, result: Evaluation) -> None:
        if isinstance(stmt, S.BLOCKS):
            self.count_step(stmt)
            statements.run_block(self, stmt, result)
        else:
            statements.simple_statement(self, stmt, result)

    def count_step(self, stmt: S.Node | None) -> None:
        """One more statement run (or call: stmt None, placed by the caller's guard); past `max_steps`, a limit
        error (an endless loop stops here)."""
        self.steps += 1
        if self.steps > self.max_steps:
            error = LimitError(f"the script ran {self.max_steps:,} statements (loop rounds included), the limit",
                               reason="steps")
            raise error if stmt is None else error.at(stmt.line, stmt.column)

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
        """The value of an `if`/`while`/`assert` test (its truth is taken by the caller)."""
        value = self.expression(node)
        self.guard(lambda: truth(value), node)
        return value

    def comprehension(self, node: S.ListComp) -> list:
        return statements.comprehension(self, node)

    def operator(self, op: str, left: Any, right: Any) -> Any:
        """`left op right`: Python's meaning on strings, tuples and a script's lists (sequences.py), else the
        backend's."""
        result = sequences.operator(op, left, right, self.policy.keeps_lists)
        return self.backend.operator(op, left, right) if result is NotImplemented else result

    def index(self, value: Any, items: list[Any]) -> Any:
        """`value[items]`: Python's indexing of strings, tuples and a script's lists, else the backend's."""
        result = sequences.index(value, items[0], self.policy.keeps_lists) if len(items) == 1 else NotImplemented
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
        if name in BUILTINS:
            return builtin_function(name)
        if name in CONSTANTS:  # after the program's own names: a tutorial may assign `e = c * d`
            return self.backend.constant(name)
        if name == "print" and self.policy.prints:
            return Function("print", self._print, "print(*values)")
        if name == "super" and self.policy.python_builtins:
            from autodiff.grammar.interpreter import classes

            return Function("super", lambda *args: classes.make_super(self, *args), "super()")
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
        if name == "print":
            return UnknownNameError("print is only available in scripts (autodiff run)",
                                    line=node.line, column=node.column)
        if self.policy.prints and name in NOT_IN_SCRIPTS:
            return UnknownNameError(f"{name}() is not part of autodiff scripts: {NOT_IN_SCRIPTS[name]}",
                                    reason="unknown_name", name=name, shown=name, line=node.line, column=node.column)
        # Outside scripts the name could also be bound from outside the program: reason "unbound_name" lets a
        # front end say how (the command line has an option for it).
        reason = "unbound_name" if bind and not self.policy.prints else "unknown_name"
        return UnknownNameError(f"unknown name '{shown(name)}'{suggestion}", hint=bind or None, reason=reason,
                                name=name, shown=shown(name), line=node.line, column=node.column)

    # ------------------------------------------------------------------ calls
    def call(self, node: S.Call, args: list[Any]) -> Any:
        """A call: the script's own functions here, everything else by the backend."""
        function, positional = args[0], args[1:1 + len(node.args)]
        keywords = dict(zip((k for k, _ in node.kwargs), args[1 + len(node.args):]))
        positional, keywords = spread(positional, keywords)
        return self.call_value(function, positional, keywords)

    def call_value(self, function: Any, args: list, kwargs: dict) -> Any:
        """Call any callable value of the language with these arguments."""
        if isinstance(function, UserFunction):
            return self.call_user(function, tuple(args), kwargs)
        if isinstance(function, script_type("classes", "CALLABLE")):  # the script's classes (imported by `class`)
            from autodiff.grammar.interpreter import classes

            return classes.call(self, function, args, kwargs)
        return self.backend.call(function, list(args), kwargs)

    def call_user(self, function: UserFunction, args: tuple, kwargs: dict) -> Any:
        """Call a function of the script: its parameters in front of the script's names."""
        scope = bind(function, args, kwargs)
        self.count_step(None)  # a call is a step: recursion through a lambda or a one-line body is bounded too
        if len(self.scopes) >= statements.MAX_CALL_DEPTH:
            raise LimitError(f"function calls are nested more than {statements.MAX_CALL_DEPTH} deep (a function "
                             "that calls itself never stops)", reason="call_depth")
        self.scopes.append(scope)
        outer = self.names
        try:
            if isinstance(function.body, tuple):
                return statements.run_body(self, function.body, scope, function.closure)
            # a lambda: its parameters (scopes[-1]), then its closure and the script's names (not the caller's)
            self.names = ChainMap(*function.closure, statements.script_names(outer))
            return self.expression(function.body)
        finally:
            self.names = outer
            self.scopes.pop()

    def _print(self, *values: Any, sep: str | None = " ", end: str | None = "\n") -> None:
        for name, given in (("sep", sep), ("end", end)):
            if given is not None and not isinstance(given, str):
                raise BadValueError(f"print(): {name} must be None or a string, not {type(given).__name__}",
                                    reason="arguments")
        text = (" " if sep is None else sep).join(display(v) for v in values) + ("\n" if end is None else end)
        if self.write is not None:
            self.write(text)


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
