"""`autodiff eval`: the command and its options; its body is cli/commands/eval_entry.py (imported when it runs)."""

from __future__ import annotations

from typing import Any

import click

from autodiff.cli.options import (
    ProgramCommand,
    backward_option,
    batch_options,
    engine_options,
    format_option,
    grad_tensor_option,
    option,
    order_option,
    program_options,
    retain_graph_option,
    settings,
    watch_options,
    wrt_option,
)

EPILOG_EVAL = """\b
Examples:
  autodiff eval '(2*x)**3' x=1.5
  autodiff eval 'y = x**2; z = x**3' --var 'x=[1.0]' --backward y --backward z
  autodiff eval 'y = 2*x; z = y**3' --var 'x=[[1, 2], [3, 4]]' --grad-tensor 'ones(2, 2)'
  autodiff eval 'out = ((2*x)**3).mean()' --var 'x=randn(2, 2)' --seed 0 --retain-graph --repeat 2
  autodiff eval 'c = a + b; e = c * d' a=2 b=3 d=4 --trace
  autodiff eval 'sin(x)' x=0.6 --order 3 --format json
  printf '{"x": 1}\\n{"x": 2}\\n' | autodiff eval '(2*x)**3' --batch -
  printf '{"program": "x**2*sin(x)", "x": 1.5}\\n' | autodiff eval --batch -
"""


@click.command("eval", cls=ProgramCommand, epilog=EPILOG_EVAL, context_settings=settings())
@program_options
@grad_tensor_option()
@retain_graph_option()
@backward_option()
@option("--repeat", type=int, default=1, show_default=True, help="Run the backward sequence N times.")
@option("--zero-grad", is_flag=True, help="Zero every leaf's .grad before each backward call.")
@option("--retain-grad", "retain_grad", multiple=True, metavar="NAME", help="Keep .grad on a non-leaf.")
@order_option("The N-th derivative (of one leaf: --wrt NAME picks it).")
@wrt_option(multiple=False)
@watch_options
@format_option()
@engine_options()
@option("--digits", type=click.IntRange(0, 30), metavar="N",
        help="Digits after the point in pretty and plain output (default 4, as PyTorch prints).")
@batch_options("Evaluate")
def eval_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int | None:
    """Evaluate PROGRAM, run backward, and show the gradients.

    PROGRAM is the program text ('-' reads it from standard input); NAME=VALUE arguments after it bind
    variables like --var.
    """
    from autodiff.cli.commands.eval_entry import eval_body

    return eval_body(program, assignments, file, options)

COMMANDS = [eval_command]
