"""The `autodiff` command group and its entry point: every failure mapped to its message and exit code.

Start-up matters (a one-shot command should cost little more than importing numpy), so the heavy
parts (the engine, the grammar, Rich) are imported inside the commands that use them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

import click

from autodiff.cli import COMMAND_PROCESS, VERSION, interrupted_while_starting
from autodiff.cli.commandline import remember_command_line
from autodiff.cli.options import settings

# The commands, in their modules (imported only when the command runs or shows its own help, so `autodiff
# --help`, --version and completion import none of them), with the help line `autodiff --help` lists
# (tests/cli/test_main.py checks each against its command).
COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("check_cmd", "Check your own derivatives against autograd."),
    "critical": ("critical_cmd", "Critical and inflection points, classified; absolute extrema."),
    "diff": ("diff_cmd", "The derivative as a formula, with the rules step by step."),
    "eval": ("eval_cmd", "Evaluate PROGRAM, run backward, and show the gradients."),
    "gradcheck": ("check_cmd", "Compare autograd with central finite differences, in float64."),
    "gradient": ("gradient_cmd", "The gradient, steepest ascent and directional derivative at a point."),
    "graph": ("graph_cmd", "Show the backward graph: a tree, Graphviz DOT, Mermaid or JSON."),
    "hessian": ("matrix_cmd", "The Hessian of a scalar root over all its variables."),
    "jacobian": ("matrix_cmd", "The Jacobian of the root with respect to each variable."),
    "limit": ("limit_cmd", "The limit as x -> a (or inf), exact and checked by the numbers."),
    "newton": ("newton_cmd", "Newton's method on f = 0 from x0, step by step."),
    "ops": ("ops_cmd", "List every function and operator with its backward formulas."),
    "plot": ("plot_cmd", "Draw a function and its derivatives over a grid."),
    "repl": ("run_cmd", "An interactive session of the language (script mode), like Python's REPL."),
    "run": ("run_cmd", "Run a script of the language (FILE, or '-' for standard input), PyTorch-style."),
    "table": ("table_cmd", "The value and derivatives at every point of a grid."),
    "tangent": ("tangent_cmd", "The tangent line (plane) or Taylor polynomial at a point."),
}


class Commands(click.Group):
    """The command group, loading each command's module when the command is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        entry = COMMANDS.get(name)
        if entry is None:
            return None
        import importlib

        module = importlib.import_module(f"autodiff.cli.{entry[0]}")
        return next(command for command in module.COMMANDS if command.name == name)

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list:
        """Completing a command name: the names and their whole help lines from the table (no command module is
        imported; the shell shows the help beside each name)."""
        from click.shell_completion import CompletionItem

        items = [CompletionItem(name, help=COMMANDS[name][1]) for name in sorted(COMMANDS)
                 if name.startswith(incomplete)]
        return items + click.Command.shell_complete(self, ctx, incomplete)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The listing of `autodiff --help`, from the table (no command module imported)."""
        rows = [(name, COMMANDS[name][1]) for name in sorted(COMMANDS)]  # whole: write_dl wraps a long one
        with formatter.section("Commands"):
            formatter.write_dl(rows)


EPILOG = """\b
Examples:
  autodiff eval '(2*x)**3' x=1.5
  autodiff eval 'y = x**2; z = x**3' --var 'x=[1.0]' --backward y --backward z
  autodiff diff 'x**2 * exp(-x)' --steps
  autodiff check 'sin(x^2)' --expect '2x cos(x^2)'
  autodiff table 'x**2 * exp(-x)' x=0:4:1 --order 2
  autodiff critical 'x**3 - 3*x**2 + 1' x=-1:4
  autodiff run examples/17_gradient_descent.autodiff
  echo 'x**3' | autodiff diff -

\b
Exit codes:
  0    success (check, gradcheck: every derivative is right; newton: converged)
  1    the computation failed (kinds shape, autograd, value, limit), or the
       answer is no (a wrong derivative; newton did not converge)
  2    the command line is wrong (kinds syntax, name, usage, io)
  130  interrupted (Ctrl-C)

Every error is one line on stderr, "autodiff: KIND error: ..." (with --format json also a JSON document on
stdout). Colour: NO_COLOR=1 turns it off, FORCE_COLOR=1 on; TERM=dumb and a pipe mean none. Shell
completion: see the README (eval "$(_AUTODIFF_COMPLETE=bash_source autodiff)").
"""


@click.group(cls=Commands, context_settings=settings(), epilog=EPILOG)
@click.version_option(VERSION, prog_name="autodiff")
@click.option("--debug", is_flag=True, hidden=True, help="Show Python tracebacks (for autodiff's developers).")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Differentiate expressions with PyTorch's autograd semantics, on numpy.

    Run `autodiff COMMAND --help` for the options and examples of each command.
    """
    ctx.ensure_object(dict)["debug"] = debug


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
        from autodiff.app import sympy_parts  # SymPy's units and tensors, never used, as placeholders

        sympy_parts.install()
    try:
        code = cli.main(args=args, prog_name="autodiff", standalone_mode=False)
        code = code if isinstance(code, int) else 0
    except click.exceptions.Exit as done:
        code = done.exit_code
    except SystemExit as done:
        # click answers a closed pipe (EPIPE) itself, with exit 1 after wrapping the streams: it is the
        # reader that went away (`autodiff ... | head`), which is a quiet exit 0 here
        if type(sys.stdout).__name__ != "_PacifyFlushWrapper":
            raise
        code = _closed_pipe() if done.code == 1 else (done.code if isinstance(done.code, int) else 1)
    except click.ClickException as error:
        code = _report_click(error, json_mode)
    except (click.exceptions.Abort, KeyboardInterrupt):
        code = _interrupted(json_mode)
    except BrokenPipeError:
        code = _closed_pipe()
    except OSError as error:  # our own I/O errors are InputErrors: this one is writing the output
        from autodiff.cli.errors import write_failed

        code = write_failed(error)
    except Exception as error:
        code = _report_unexpected(error, json_mode, debug)
    _exit(code, own_process=argv is None and COMMAND_PROCESS)


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


def _report_click(error: click.ClickException, json_mode: bool) -> int:
    from autodiff.cli.errors import report
    from autodiff.engine.errors import UsageError

    message = error.format_message()
    if isinstance(error, click.UsageError) and error.ctx is not None:
        message += f" (see '{error.ctx.command_path} --help')"
    return report(UsageError(message), json_mode)


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


def _exit(code: int, own_process: bool = False) -> None:
    """Flush the output and exit with `code`. In the command's own process (the console script or `python -m
    autodiff.cli`, not a program that calls main), without Python's finalization: the output is flushed and every
    file the command wrote is closed by now, and tearing down some 300 modules and their objects only to exit
    costs ~8 ms of an eval's ~125 (benchmarks/README: "Exiting")."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = _closed_pipe() if code == 0 else code
    except OSError as error:
        from autodiff.cli.errors import write_failed

        code = write_failed(error)
    except ValueError:
        pass
    if own_process:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
