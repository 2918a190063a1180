"""`autodiff run FILE|- [ARGS...]` and `autodiff repl`: the user's own Python, run by CPython with `torch` answered
by autodiff's engine (app/script.py). --trace and --explain report each backward pass of the script on stderr, as
it ends, with the line of the script that recorded each node."""

from __future__ import annotations

import sys
from typing import Any

import click

from autodiff.cli.options import engine_options, settings, watch_options

EPILOG_RUN = """\b
Examples:
  autodiff run examples/seeds/05_backward_chain.py
  autodiff run --trace train.py --epochs 3      (options after FILE are the script's: sys.argv)
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


# ---------------------------------------------------------------------------- autodiff run
@click.command("run", epilog=EPILOG_RUN, context_settings={**settings(), "ignore_unknown_options": True,
                                                           "allow_interspersed_args": False})
@click.argument("file", metavar="FILE|-")
@click.argument("args", nargs=-1, type=click.UNPROCESSED, metavar="[ARGS]...")
@engine_options(max_elements=None)
@watch_options
def run_command(file: str, args: tuple[str, ...], dtype: str, config: Any, trace: bool, explain: bool,
                detect_anomaly: bool) -> int:
    """Run a Python script (FILE or '-') with `import torch` answered by autodiff's engine.

    FILE runs as `python FILE ARGS` would run it (ARGS are its sys.argv) and prints what it prints under
    PyTorch: tensors in PyTorch's repr, gradients, graphs of grad_fn nodes. torch, torch.nn,
    torch.nn.functional, torch.optim, torch.autograd, torch.func, torch.linalg, torch.utils.data and functorch
    are autodiff's; every other module (numpy, math, random, matplotlib, ...) is the real one. An uncaught
    exception prints as Python prints it, with the script's frames, and the exit code is 1.

    This runs Python with your rights, as `python` does: a script can do anything you can. It is not a
    sandbox: run only code you trust. (Every other command reads its program with autodiff's own grammar and
    never runs Python.)
    """
    from autodiff.cli.commandline import read_file_bytes, read_stdin_bytes

    source = read_stdin_bytes("the script on standard input") if file == "-" else read_file_bytes(file, "the script")
    return _run(source, "<stdin>" if file == "-" else file, list(args), trace, explain, detect_anomaly)




def _run(source: bytes, filename: str, argv: list[str], trace: bool, explain: bool, detect_anomaly: bool) -> int:
    from autodiff.app.script import run_source

    watch = None
    if trace or explain:
        from autodiff.app.passes import PassWatch

        watch = PassWatch(explain, lambda report: _report_pass(report, trace, explain))
    if detect_anomaly:
        from autodiff import engine
        from autodiff.app.script import locate

        with engine.detect_anomaly(), engine.record_origins(locate):
            return run_source(source, filename, argv, watch)
    return run_source(source, filename, argv, watch)


def _report_pass(report: Any, trace: bool, explain: bool) -> None:
    """One backward pass of the script, on stderr (what the script printed so far comes first)."""
    from autodiff.cli.output import text

    sys.stdout.flush()
    where = f" at {report.where}" if report.where is not None else ""
    doc = text.Doc()
    doc.line((f"backward {report.number}: {', '.join(report.roots)}{where}", "title"))
    if trace:
        labels = {node_id: [("  ", ""), (f"({origin})", "muted")] for node_id, origin in report.origins.items()}
        text.tree_lines(doc, report.graph, pretty=False, labels=labels)
    if explain and report.steps is not None:
        from autodiff.cli.output.explain_text import step_lines

        step_lines(doc, report.steps)
    sys.stderr.write(doc.plain())
    sys.stderr.flush()


# ---------------------------------------------------------------------------- autodiff repl
@click.command("repl", epilog=EPILOG_REPL, context_settings=settings())
@engine_options(max_elements=None)
def repl_command(dtype: str, config: Any) -> int:
    """Python's interactive console with `import torch` answered by autodiff's engine.

    Line editing, Tab completion and a history kept between sessions (in $XDG_STATE_HOME/autodiff/history,
    ~/.local/state/autodiff/history by default), blocks, Ctrl-C (cancels the input) and Ctrl-D (ends the
    session) work as in Python's console. Standard input that is not a terminal runs as a script would
    (`autodiff run -`).

    This runs Python with your rights, as `python` does: it is not a sandbox. (Every other command reads its
    program with autodiff's own grammar and never runs Python.)
    """
    if not sys.stdin.isatty():
        from autodiff.cli.commandline import read_stdin_bytes

        return _run(read_stdin_bytes("the session on standard input"), "<stdin>", [], False, False, False)
    from autodiff import cli
    from autodiff.app.script import console

    banner = (f"autodiff {cli.VERSION} (Python {sys.version.split()[0]}): `import torch` is autodiff's engine.\n"
              f"This is Python with your rights, not a sandbox. Ctrl-D ends the session.")
    return console(banner)



COMMANDS: list[click.Command] = [run_command, repl_command]
