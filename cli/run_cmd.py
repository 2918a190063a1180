"""`autodiff run FILE|-` and `autodiff repl`: the language as PyTorch-style scripts, and interactively.

Both evaluate in the Evaluator's "script" mode: `import torch` / `import torch as T`, `print(...)` with
PyTorch's reprs, `out.backward(...)`, `x.grad.zero_()`, `e.grad_fn.next_functions[0][0].variable`, ...
A script's bare expression statement prints nothing (it is a script, not a notebook); the REPL shows a
bare expression's value as Python's REPL does. Start-up stays cheap: the engine and the grammar are
imported inside the commands.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from autodiff.cli.commandline import read_file, read_stdin
from autodiff.cli.options import engine_options, option, settings

EPILOG_RUN = """\b
Examples:
  autodiff run examples/05_backward_chain.autodiff
  printf 'import torch\\nx = torch.ones(2, requires_grad=True)\\nx.sum().backward()\\nprint(x.grad)\\n' | autodiff run -
"""

EPILOG_REPL = """\b
Example session:
  >>> import torch
  >>> x = torch.tensor(2.0, requires_grad=True)
  >>> y = x ** 3
  >>> y.backward()
  >>> x.grad
  tensor(12.)
"""


MAX_STEPS_OPTION = option(
    "--max-steps", type=click.IntRange(min=1), default=1_000_000, show_default=True,
    help="Stop a script after this many statements (loop rounds included): an endless loop ends in a limit error.")


# ---------------------------------------------------------------------------- autodiff run
@click.command("run", epilog=EPILOG_RUN, context_settings=settings())
@click.argument("file", metavar="FILE|-")
@engine_options()
@MAX_STEPS_OPTION
def run_command(file: str, dtype: str, config: Any, max_steps: int) -> int:
    """Run a script of the language (FILE, or '-' for standard input), PyTorch-style.

    The script may `import torch` (or `import torch as T`), print tensors in PyTorch's repr and call
    backward, zero_, retain_grad, ... as a PyTorch script does. A bare expression statement prints
    nothing. The first error stops the script: its kind, line and column go to stderr and the exit code
    is the kind's (1: shape, autograd, value, limit; 2: syntax, name, usage, io).
    """
    return run_script(_read_script(file), write_output, max_steps)


def write_output(text: str) -> None:
    """Write what a script prints. A character the output's encoding cannot take (a lone surrogate from a
    '\\ud800' escape) is written as its escape, as Python does on stderr, instead of failing."""
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        encoding = sys.stdout.encoding or "utf-8"
        sys.stdout.write(text.encode(encoding, "backslashreplace").decode(encoding))


def _read_script(file: str) -> str:
    if file == "-":
        return read_stdin("the script on standard input")
    return read_file(file, file, "the script")


def run_script(source: str, write: Callable[[str], Any], max_steps: int = 1_000_000) -> int:
    """Run a whole script, printing through `write`; the exit code (0, or the first error's)."""
    from autodiff.app.script import ScriptSession
    from autodiff.cli.errors import report
    from autodiff.engine.errors import AutodiffError

    try:
        ScriptSession(write, max_steps).run(source)
    except AutodiffError as error:
        sys.stdout.flush()  # what the script printed comes before the error
        return report(error, json_mode=False, python_hints=True)
    return 0


# ---------------------------------------------------------------------------- autodiff repl
@click.command("repl", epilog=EPILOG_REPL, context_settings=settings())
@engine_options()
@MAX_STEPS_OPTION
def repl_command(dtype: str, config: Any, max_steps: int) -> int:
    """An interactive session of the language (script mode), like Python's REPL.

    A bare expression shows its value's repr. Input continues on a '...' line while a bracket or a
    triple-quoted string is open, or after a line that ends with a backslash. Errors print their message
    and the session goes on. Ctrl-C cancels the current input; Ctrl-D (or exit) ends the session.
    """
    interactive = sys.stdin.isatty()
    if interactive:
        import contextlib

        with contextlib.suppress(ImportError):  # not on every platform; input() works without it
            import readline  # noqa: F401 - line editing and history for input()
    return Repl(interactive, max_steps).loop()


MAX_LINE_BYTES = 1_000_000  # a REPL line; the parser takes no larger program (grammar.syntax.MAX_SOURCE_CHARS)


class Repl:
    """Read an entry (one or more lines), run it, show its values; one environment for the session."""

    PROMPT, CONTINUE = ">>> ", "... "

    def __init__(self, interactive: bool, max_steps: int = 1_000_000) -> None:
        from autodiff.app.script import ScriptSession

        self.interactive = interactive
        self.session = ScriptSession(self._write, max_steps, echoes=True)

    @staticmethod
    def _write(text: str) -> None:
        write_output(text)
        sys.stdout.flush()

    def loop(self) -> int:
        if self.interactive:
            from importlib.metadata import version

            self._write(f"autodiff {version('autodiff-cli')}: the autodiff language, PyTorch-style "
                        "(import torch, print, backward, ...).\nCtrl-D or exit ends the session; Ctrl-C "
                        "cancels the input.\n")
        while True:
            try:
                entry = self.read_entry()
            except KeyboardInterrupt:
                self._write("\nKeyboardInterrupt\n")
                continue
            if entry is None or entry.strip() in ("exit", "exit()", "quit", "quit()"):
                if entry is None and self.interactive:
                    self._write("\n")
                return 0
            try:
                self.run_entry(entry)
            except KeyboardInterrupt:
                self._write("KeyboardInterrupt\n")

    def read_entry(self) -> str | None:
        """The next entry's text, None at the end of the input (Ctrl-D)."""
        lines: list[str] = []
        from autodiff.app.script import Entry

        entry = Entry()
        while True:
            line = self._read_line(self.CONTINUE if lines else self.PROMPT)
            if line is None:
                return None
            if not lines and not line.strip():
                continue  # an empty line at the prompt: prompt again
            lines.append(line)
            if not entry.feed(line):
                return "\n".join(lines)

    def _read_line(self, prompt: str) -> str | None:
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
            except UnicodeDecodeError:
                return self._not_utf8()
        stream = getattr(sys.stdin, "buffer", None)  # bytes: decoded here, whatever the locale
        limit = MAX_LINE_BYTES
        line = stream.readline(limit + 1) if stream is not None else sys.stdin.readline(limit + 1)
        if len(line) > limit and not line.endswith(b"\n" if isinstance(line, bytes) else "\n"):
            return self._too_long(stream or sys.stdin)
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                return self._not_utf8()
        return line.rstrip("\n") if line else None

    def _too_long(self, stream: Any) -> str:
        """A line over the limit: skip the rest of it without holding it, say so, and go on."""
        while True:
            chunk = stream.readline(1 << 20)
            if not chunk or chunk.endswith(b"\n" if isinstance(chunk, bytes) else "\n"):
                break
        sys.stdout.flush()
        sys.stderr.write(f"autodiff: limit error: the input line is longer than {MAX_LINE_BYTES:,} bytes, the "
                         "program size limit\n")
        sys.stderr.flush()
        return ""

    def _not_utf8(self) -> str:
        """An input line that is not UTF-8: say so, and go on with the session (as after any error)."""
        sys.stdout.flush()
        sys.stderr.write("autodiff: io error: the input line is not UTF-8 text\n")
        sys.stderr.flush()
        return ""

    def run_entry(self, text: str) -> None:
        """Run the entry's statements in order, showing each bare expression's value (None shows nothing); an
        error is shown and the session goes on."""
        from autodiff.cli.errors import error_line, excerpt
        from autodiff.engine.errors import AutodiffError, LimitError

        try:
            self.session.run_entry(text)
        except (AutodiffError, MemoryError, RecursionError) as error:
            if not isinstance(error, AutodiffError):  # the session goes on after these too
                error = LimitError("not enough memory" if isinstance(error, MemoryError) else
                                   "the value is nested too deeply", reason="memory")
            lines = [error_line(error, python_hints=True)]
            detail = excerpt(error)
            if detail:
                lines.append(detail)
            sys.stdout.flush()
            sys.stderr.write("\n".join(lines) + "\n")
            sys.stderr.flush()


COMMANDS: list[click.Command] = [run_command, repl_command]
