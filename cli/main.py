"""The entry point of `autodiff`: the command line read by click's group (cli/group.py, whose commands load
lazily), the command run, every failure mapped to its message and exit code.

Start-up matters (a one-shot command should cost little more than importing numpy), so the heavy parts (the
engine, the grammar, Rich, SymPy) are imported only by the commands that use them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

from autodiff.cli import interrupted_while_starting
from autodiff.cli.commandline import remember_command_line


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command; map every failure to its message and exit code, never a traceback."""
    args = sys.argv[1:] if argv is None else argv
    args = args or ["--help"]  # bare `autodiff`: the help, as --help prints it (exit 0)
    if signal.getsignal(signal.SIGINT) is interrupted_while_starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # from here on Ctrl-C is a KeyboardInterrupt
    _standard_streams()
    remember_command_line(args)
    debug = "--debug" in args
    json_mode = _json_requested(args)
    if argv is None:  # the process is ours (not a test calling main in its own process): the memory cap is
        from autodiff.cli import memory  # set when a command starts computing (memory.prepare)

        memory.OWN_PROCESS = True
    try:
        code = _run(args)
    except BaseException as error:  # each kind is answered in _outcome; what is no failure is raised again
        code = _outcome(error, json_mode, debug)
    _exit(code)


PYTHON_COMMANDS = ("run", "repl")  # they run the user's Python: its warnings print as Python prints them


def _run(args: list[str]) -> int:
    """The command's exit status. A warning the engine gave that the command did not report itself (eval puts
    them beside its answer) is written after the command as `autodiff: warning: ...`, never in Python's format."""
    from autodiff.cli.group import cli

    if next((arg for arg in args if not arg.startswith("-")), None) in PYTHON_COMMANDS:
        code = cli.main(args=args, prog_name="autodiff", standalone_mode=False)
        return code if isinstance(code, int) else 0
    from autodiff.app.notices import program_warnings

    warned: list[str] = []
    try:
        with program_warnings(warned):
            code = cli.main(args=args, prog_name="autodiff", standalone_mode=False)
    finally:
        for text in warned:
            sys.stderr.write(f"autodiff: warning: {text}\n")
    return code if isinstance(code, int) else 0


def _outcome(error: BaseException, json_mode: bool, debug: bool) -> int:
    """The exit status for a failure, its message written; what is not a failure (SystemExit) is raised again."""
    click = sys.modules.get("click")  # click's own exceptions only where click was imported
    if click is not None:
        if isinstance(error, click.exceptions.Exit):
            return error.exit_code
        if isinstance(error, click.ClickException):
            from autodiff.cli.group import report_click

            return report_click(error, json_mode)
        if isinstance(error, click.exceptions.Abort):
            return _interrupted(json_mode)
    if isinstance(error, SystemExit):
        # click answers a closed pipe (EPIPE) itself, with exit 1 after wrapping the streams: it is the
        # reader that went away (`autodiff ... | head`), which is a quiet exit 0 here
        if type(sys.stdout).__name__ != "_PacifyFlushWrapper":
            raise error
        return _closed_pipe() if error.code == 1 else (error.code if isinstance(error.code, int) else 1)
    if isinstance(error, KeyboardInterrupt):
        return _interrupted(json_mode)
    if isinstance(error, BrokenPipeError):
        return _closed_pipe()
    if isinstance(error, OSError):  # our own I/O errors are InputErrors: this one is writing the output
        from autodiff.cli.errors import write_failed

        return write_failed(error)
    if isinstance(error, Exception):
        return _report_unexpected(error, json_mode, debug)
    raise error


def _interrupted(json_mode: bool) -> int:
    """Ctrl-C: exit 130 with `autodiff: interrupted`; in JSON mode stdout still gets a document (on a line of
    its own) so that a reader always has one."""
    sys.stderr.write("autodiff: interrupted\n")
    if json_mode:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.write('\n{"error": {"kind": "interrupted", "message": "interrupted (SIGINT)"}}\n')
            sys.stdout.flush()
    return 130


def _standard_streams() -> None:
    """A standard stream the caller closed (`autodiff ... >&-`) is None in Python: make it an empty input or
    a sink, so that nothing fails on it (and no file opened later takes its descriptor)."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115 - lives as long as the process
    if hasattr(sys.stdout, "reconfigure"):  # PYTHONIOENCODING=ascii: what it cannot take is written escaped
        sys.stdout.reconfigure(errors="backslashreplace")


def _json_requested(args: list[str]) -> bool:
    if any(arg == "--batch" or arg.startswith("--batch=") for arg in args):
        return True  # --batch answers in JSON lines, its errors too
    for i, arg in enumerate(args):
        if arg == "--format" and i + 1 < len(args):
            return args[i + 1] == "json"
        if arg == "--format=json":
            return True
    return False


def _report_unexpected(error: Exception, json_mode: bool, debug: bool) -> int:
    from autodiff.cli.errors import report
    from autodiff.engine.errors import AutodiffError, LimitError

    if isinstance(error, AutodiffError):
        return report(error, json_mode)
    if debug:
        import traceback

        traceback.print_exc()
    if isinstance(error, MemoryError):
        return report(LimitError("out of memory (lower the sizes, or --max-elements)"), json_mode)
    if isinstance(error, RecursionError):
        return report(LimitError("the program is nested too deeply"), json_mode)
    if isinstance(error, ValueError) and "integer string conversion" in str(error):  # Python's 4,300 digits
        return report(LimitError("a number of more than 4,300 digits is too long to write out"), json_mode)
    from autodiff.engine.errors import BadValueError

    return report(BadValueError(f"internal error ({type(error).__name__}: {error}); please report it, with "
                                "the command that caused it"), json_mode)


def _closed_pipe() -> int:
    # The reader went away (`autodiff ... | head`): stop quietly, without a second error at exit.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    return 0


def _exit(code: int) -> None:
    """Flush the output and exit with `code` (a closed pipe is a quiet exit 0; an output that cannot be written is
    an io error)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = _closed_pipe() if code == 0 else code
    except OSError as error:
        from autodiff.cli.errors import write_failed

        code = write_failed(error)
    except ValueError:
        pass
    sys.exit(code)
