"""A script of the language, run as `autodiff run` and the REPL run it: the interpreter in script mode, with
`print` writing through the caller's `write`, numpy's warnings off (log(0) is -inf, as in PyTorch), errors
placed in the source with a caret excerpt; and how the REPL reads an entry (Entry: does it need more lines?).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from autodiff.engine.errors import AutodiffError, LimitError
from autodiff.grammar.interpreter import SCRIPT, Evaluation, Interpreter, echo
from autodiff.grammar.syntax import parse, source_excerpt

MAX_STEPS = 1_000_000  # statements a script may run (loop rounds included), unless the caller says otherwise


def with_excerpt(error: AutodiffError, source: str) -> AutodiffError:
    """The error, with the source line and a caret under its column when it has a location (a syntax
    error carries its own)."""
    if error.line is not None and not error.details.get("excerpt") and "\n" not in error.message:
        error.details["excerpt"] = source_excerpt(source, error.line, error.column or 1)
    return error


class ScriptSession:
    """One environment of names for a script, or for a REPL session's entries."""

    def __init__(self, write: Callable[[str], Any], max_steps: int = MAX_STEPS, echoes: bool = False) -> None:
        self.max_steps = max_steps
        self.interpreter = Interpreter(policy=SCRIPT, write=write, max_steps=max_steps)
        if echoes:  # every bare expression's value, in blocks too, as Python's REPL shows it
            def show(value: Any) -> None:
                try:
                    shown = echo(value)
                except RecursionError:  # repr of a list nested 100,000 deep
                    raise LimitError("the value is nested too deeply to show", reason="nesting") from None
                if shown is not None:
                    write(shown + "\n")

            self.interpreter.on_expression = show

    def run(self, source: str) -> None:
        """Run a whole script; the first error stops it (raised, with its excerpt)."""
        try:
            program = parse(source)
            with np.errstate(all="ignore"):
                self.interpreter.run(program)
        except AutodiffError as error:
            raise with_excerpt(error, source) from None

    def run_entry(self, text: str) -> None:
        """Run a REPL entry's statements in order, each entry with the whole step budget; an error is raised
        (with its excerpt) and the session's names stay as they were at the error."""
        try:
            program = parse(text)
            evaluation = Evaluation(program)
            self.interpreter.steps = 0
            self.interpreter.max_steps = self.max_steps
            with np.errstate(all="ignore"):
                for statement in program.statements:
                    self.interpreter.statement(statement, evaluation)
        except AutodiffError as error:
            raise with_excerpt(error, text) from None


def needs_more(text: str) -> bool:
    """Whether an entry of these lines continues on another line (see Entry)."""
    entry = Entry()
    more = False
    for line in text.split("\n"):
        more = entry.feed(line)
    return more


class Entry:
    """The REPL's reading of an entry, a line at a time (each line is scanned once: a 20,000-line paste
    costs 20,000 line scans, not 20,000 rescans of everything so far).

    An entry continues while a bracket or a triple-quoted string is open, after a line that ends with a
    backslash, and, once a line opened a block (it ends with ':'), until an empty line, as in Python's REPL.
    Strings and comments are skipped, so `'('` opens nothing.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.quote: str | None = None  # the triple quote still open
        self.block = False

    def feed(self, line: str) -> bool:
        """Take the next line; True when the entry needs more lines."""
        if self.block and not line.strip() and self.depth == 0 and self.quote is None:
            return False
        last = self._scan(line)
        if self.depth == 0 and self.quote is None and last == ":":
            self.block = True
        if self.quote is not None or self.depth > 0 or line.endswith("\\"):
            return True
        return self.block

    def _scan(self, line: str) -> str:
        """Track brackets and strings through the line; its last significant character outside them."""
        i, n, last = 0, len(line), ""
        if self.quote is not None:
            end = line.find(self.quote)
            while end > 0 and line[end - 1] == "\\":
                end = line.find(self.quote, end + 1)
            if end < 0:
                return ""
            i = end + 3
            self.quote = None
        while i < n:
            ch = line[i]
            if ch == "#":
                break
            if ch in "'\"":
                quote = line[i:i + 3] if line[i:i + 3] in ("'''", '"""') else ch
                i += len(quote)
                while i < n and not line.startswith(quote, i):
                    i += 2 if line[i] == "\\" else 1
                if i >= n:
                    if len(quote) == 3:
                        self.quote = quote  # a triple-quoted string is still open
                    return ""
                i += len(quote)
                last = "'"
                continue
            if ch in "([":
                self.depth += 1
            elif ch in ")]" and self.depth > 0:
                self.depth -= 1
            if not ch.isspace():
                last = ch
            i += 1
        return last

