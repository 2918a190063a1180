# trust: runs the user's own Python file (autodiff run/repl), not a sandbox
"""`autodiff run` and `autodiff repl`: the user's own Python, run by CPython as `python FILE ARGS` runs it, with
`torch` (and functorch) answered by autodiff's engine (autodiff.engine.facade). This is not a sandbox: the script
has the user's rights, as under `python`. Everything that reads programs from the command line, standard input or
JSON lines (eval, check, diff, ...) goes through the grammar instead and never runs Python.

What this module adds to Python's own behaviour: the facade installed for the run, the engine's settings of the
command line (dtype, seed, element limit) and, on request, a watch of the script's backward passes (traced or
explained) with the file and line that recorded each node; an uncaught exception printed as Python prints it,
with the script's frames only and the engine's errors under the names PyTorch gives them (RuntimeError, ...).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import linecache
import os
import sys
import traceback
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from autodiff import engine
from autodiff.engine import AutodiffError
from autodiff.engine.facade import installed

# autodiff's own folders on a script's stack: the engine (with the facade) and this layer
_OURS = tuple(str(Path(module_file).resolve().parent) + os.sep for module_file in (engine.__file__, __file__))


@functools.lru_cache(maxsize=4096)
def _is_ours(filename: str) -> bool:
    """A frame of autodiff's own code (the engine, the facade, this module)."""
    return not filename.startswith("<") and str(Path(filename).resolve()).startswith(_OURS)


# ---------------------------------------------------------------------------- where a node was recorded
class Origin:
    """The line of the user's code that recorded a node: 'script.py:12: y = x.sqrt()'."""

    __slots__ = ("filename", "line", "text")

    def __init__(self, filename: str, line: int) -> None:
        self.filename, self.line = filename, line
        self.text = linecache.getline(filename, line).strip()

    def __str__(self) -> str:
        where = f"{os.path.basename(self.filename)}:{self.line}"
        return f"{where}: {self.text}" if self.text else where


def locate() -> Origin | None:
    """The innermost frame of the user's code on the stack (the engine's own frames skipped)."""
    frame = inspect.currentframe()
    while frame is not None and _is_ours(frame.f_code.co_filename):
        frame = frame.f_back
    return None if frame is None else Origin(frame.f_code.co_filename, frame.f_lineno)


# ---------------------------------------------------------------------------- an uncaught exception
def _chain(error: BaseException) -> list[BaseException]:
    """The error and every exception it was raised from or during (its causes and contexts)."""
    found: list[BaseException] = []
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is None or any(current is known for known in found):
            continue
        found.append(current)
        pending += [current.__cause__, current.__context__]
    return found


def _pruned(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback without autodiff's own frames (the script's, and any library's, stay linked in order)."""
    kept = []
    while tb is not None:
        if not _is_ours(tb.tb_frame.f_code.co_filename):
            kept.append(tb)
        tb = tb.tb_next
    for earlier, later in itertools.pairwise(kept):
        earlier.tb_next = later
    if kept:
        kept[-1].tb_next = None
    return kept[0] if kept else None


def python_traceback(error: BaseException) -> str:
    """The error as Python prints an uncaught exception, with autodiff's own frames left out and the engine's
    errors named as PyTorch names them (RuntimeError, TypeError, ...)."""
    for value in _chain(error):
        value.with_traceback(_pruned(value.__traceback__))
    report = traceback.TracebackException.from_exception(error)
    pending, seen = [(report, error)], set()
    while pending:  # the chain of causes and contexts, iteratively
        current, value = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(value, AutodiffError):
            shown = value.python_exception
            if hasattr(current, "exc_type_qualname"):  # Python 3.13
                current.exc_type_qualname, current.exc_type_module = shown.__qualname__, shown.__module__
            else:
                current.exc_type = shown
        for attr in ("__cause__", "__context__"):
            linked, linked_value = getattr(current, attr), getattr(value, attr)
            if linked is not None and linked_value is not None:
                pending.append((linked, linked_value))
    return "".join(report.format())


def report_exception(error: BaseException) -> None:
    """Print an uncaught exception of the script on stderr as Python prints it (what the script printed first):
    Python's own display (with its "Did you mean" suggestions) on the pruned traceback, the traceback module's
    when the engine's errors need PyTorch's names."""
    sys.stdout.flush()
    chain = _chain(error)
    if any(isinstance(value, AutodiffError) for value in chain):
        sys.stderr.write(python_traceback(error))
    else:
        for value in chain:
            value.with_traceback(_pruned(value.__traceback__))
        sys.__excepthook__(type(error), error, error.__traceback__)
    sys.stderr.flush()


def exit_status(error: SystemExit) -> tuple[int, str | None]:
    """What `python` does with sys.exit(code): (status, text to print on stderr)."""
    code = error.code
    if code is None:
        return 0, None
    if isinstance(code, int) and not isinstance(code, bool):
        return code, None
    return 1, str(code)


# ---------------------------------------------------------------------------- running a file
@contextlib.contextmanager
def as_main(filename: str, argv: list[str]) -> Iterator[types.ModuleType]:
    """A fresh `__main__` module for the script, sys.argv and sys.path[0] as `python FILE ARGS` sets them; these and
    the working folder as they were afterwards."""
    main = types.ModuleType("__main__")
    main.__file__ = filename
    main.__builtins__ = __builtins__
    main.__spec__ = None
    saved = sys.modules.get("__main__"), sys.argv, list(sys.path), os.getcwd()
    sys.modules["__main__"] = main
    sys.argv = [filename, *argv]
    folder = "" if filename == "<stdin>" else os.path.dirname(os.path.abspath(filename))
    sys.path.insert(0, folder)
    try:
        yield main
    finally:
        if saved[0] is not None:
            sys.modules["__main__"] = saved[0]
        sys.argv = saved[1]
        sys.path[:] = saved[2]
        os.chdir(saved[3])  # (a script may change it; the command's own process ends with it anyway)


def run_source(source: bytes | str, filename: str, argv: list[str], watch: Any = None) -> int:
    """Run a script's source as its `__main__`; the exit status `python` would give (an uncaught exception is
    printed on stderr, as Python prints it)."""
    if filename.startswith("<"):  # standard input: its lines for tracebacks and traces, as a file's would be
        text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
        linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    try:
        code = compile(source, filename, "exec", dont_inherit=True)
        with installed(), as_main(filename, argv) as main, watching(watch):
            engine.quiet_numpy()  # numpy's warnings on inf - inf in the engine: none, as in PyTorch
            exec(code, main.__dict__)
    except SystemExit as done:
        status, text = exit_status(done)
        if text is not None:
            _flush_then(text + "\n")
        return status
    except KeyboardInterrupt as stop:
        report_exception(stop)
        return 130
    except BrokenPipeError:  # the reader of stdout went away (`autodiff run train.py | head`): a quiet end
        _quiet_stdout()
        return 0
    except BaseException as error:  # the script's own exception: Python's report, exit 1
        report_exception(error)
        return 1
    return 0


def _quiet_stdout() -> None:
    """Standard output to /dev/null, so that the interpreter's final flush of a closed pipe says nothing (Python's
    documented advice for SIGPIPE)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())


def _flush_then(text: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(text)
    sys.stderr.flush()


@contextlib.contextmanager
def watching(watch: Any) -> Iterator[None]:
    """The watch of the script's backward passes and recorded nodes, when one was asked for."""
    if watch is None:
        yield
        return
    with engine.record_origins(locate), engine.watch_passes(watch.on_pass), engine.observe(watch.on_node), \
            watch.settings():
        yield


# ---------------------------------------------------------------------------- the interactive console
def history_file() -> Path:
    """Where the console keeps its history between sessions: $XDG_STATE_HOME/autodiff/history
    (~/.local/state/autodiff/history by default)."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "autodiff" / "history"


def console(banner: str, on_exit: Callable[[], None] | None = None) -> int:
    """Python's interactive console with `torch` from the facade: line editing, history kept in history_file(),
    Tab completion, blocks, Ctrl-C (cancels the input) and Ctrl-D (ends the session) as in Python's."""
    import code

    namespace: dict[str, Any] = {"__name__": "__main__", "__doc__": None, "__builtins__": __builtins__}

    class Console(code.InteractiveConsole):
        def showtraceback(self) -> None:
            report_exception(sys.exc_info()[1])

        def showsyntaxerror(self, filename: str | None = None, **kwargs: Any) -> None:
            report_exception(sys.exc_info()[1])

    with installed(), _line_editing(namespace):
        engine.quiet_numpy()
        Console(namespace, filename="<stdin>").interact(banner=banner, exitmsg="")
    return 0


@contextlib.contextmanager
def _line_editing(namespace: dict[str, Any]) -> Iterator[None]:
    """readline's editing, Tab completion over the session's names, and the history file (read at the start,
    written at the end)."""
    try:
        import readline
        import rlcompleter
    except ImportError:  # not on every platform: the console works without it
        yield
        return
    path = history_file()
    readline.set_completer(rlcompleter.Completer(namespace).complete)
    readline.parse_and_bind("tab: complete")
    readline.clear_history()
    with contextlib.suppress(OSError):
        readline.read_history_file(path)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            readline.set_history_length(10_000)
            readline.write_history_file(path)
