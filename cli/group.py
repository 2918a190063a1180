"""The `autodiff` command group (click): the table of commands, each loaded from its module when used (click's
documented lazily loaded subcommands), and the group's help."""

from __future__ import annotations

import click

from autodiff.cli import VERSION
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
    "repl": ("run_cmd", "Python's interactive console with `import torch` answered by autodiff's engine."),
    "run": ("run_cmd", "Run a Python script (FILE or '-') with `import torch` answered by autodiff's engine."),
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

        module = importlib.import_module(f"autodiff.cli.commands.{entry[0]}")
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
  autodiff run examples/basics/17_gradient_descent.py
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


def report_click(error: click.ClickException, json_mode: bool) -> int:
    """A command line click refused, reported as autodiff's usage error (exit 2), naming the help to read."""
    from autodiff.cli.errors import report
    from autodiff.engine.errors import UsageError

    message = error.format_message()
    if isinstance(error, click.UsageError) and error.ctx is not None:
        message += f" (see '{error.ctx.command_path} --help')"
    return report(UsageError(message), json_mode)
