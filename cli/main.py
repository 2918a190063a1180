"""The `autodiff` command: options in, an engine run through autodiff.grammar, renderers out.

Start-up matters (a one-shot command should cost little more than importing numpy), so the heavy
parts (the engine, the grammar, Rich) are imported inside the commands that use them.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

import click

from autodiff.cli import _interrupted_while_starting

EPILOG_EVAL = """\b
Examples:
  autodiff eval '(2*x)**3' x=1.5
  autodiff eval 'y = x**2; z = x**3' --var x=[1.0] --backward y --backward z
  autodiff eval 'y = 2*x; z = y**3' --var 'x=[[1, 2], [3, 4]]' --grad-tensor 'ones(2, 2)'
  autodiff eval 'out = ((2*x)**3).mean()' --var 'x=randn(2, 2)' --seed 0 --retain-graph --repeat 2
  autodiff eval 'c = a + b; e = c * d' a=2 b=3 d=4 --trace
  autodiff eval 'sin(x)' x=0.6 --order 3 --format json
  printf '{"x": 1}\\n{"x": 2}\\n' | autodiff eval '(2*x)**3' --batch -
"""


def _settings() -> dict[str, Any]:
    return {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(context_settings=_settings())
@click.version_option(package_name="autodiff-cli", prog_name="autodiff")
@click.option("--debug", is_flag=True, hidden=True, help="Show Python tracebacks (for autodiff's developers).")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Differentiate expressions with PyTorch's autograd semantics, on numpy.

    Run `autodiff COMMAND --help` for the options and examples of each command.
    """
    ctx.ensure_object(dict)["debug"] = debug


def _read_program(program: str | None, file: str | None) -> str:
    from autodiff.engine.errors import UsageError

    if file is not None:
        return read_file(file, f"--file {file}")
    if program is None:
        raise UsageError("no PROGRAM given: pass it as the first argument, '-' for standard input, or --file PATH")
    if program == "-":
        return read_stdin("the program on standard input")
    return program


def read_file(path: str, what: str, it: str = "it") -> str:
    """A program's or script's text from a file (see read_source)."""
    from autodiff.engine.errors import InputError

    try:
        with open(path, "rb") as f:
            return read_source(f, what)
    except OSError as error:
        raise InputError(f"{what}: cannot read {it} ({error.strerror or error})") from None
    except ValueError:  # a NUL character in the path
        raise InputError(f"{what}: cannot read {it} (the path contains a NUL character)") from None


def read_stdin(what: str) -> str:
    """A program's or script's text from standard input (see read_source)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # already text (a test harness's stream)
        return sys.stdin.read()
    return read_source(stream, what)


def read_source(stream: Any, what: str) -> str:
    """Text from a binary stream, decoded here as UTF-8 whatever the locale (Python's own decoding of stdin
    depends on it). No more is read than the parser accepts: a 10 GB file or an endless pipe is refused,
    not loaded."""
    from autodiff.engine.errors import InputError, LimitError
    from autodiff.grammar.parser import MAX_SOURCE_CHARS

    most = 4 * MAX_SOURCE_CHARS  # UTF-8 takes at most 4 bytes a character
    data = stream.read(most + 1)
    if len(data) > most:
        raise LimitError(f"{what}: the text is over the limit of {MAX_SOURCE_CHARS:,} characters", reason="source")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{what}: not UTF-8 text (byte {error.start + 1} is 0x{data[error.start]:02x})") from None


def _split_binding(text: str, option: str) -> tuple[str, str]:
    from autodiff.engine.errors import UsageError

    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name or not value.strip():
        raise UsageError(f"{option} {text!r}: expected NAME=VALUE, e.g. x=1.5 or 'x=[1, 2]'")
    if not name.isidentifier() or name.startswith("_"):
        raise UsageError(f"{option} {text!r}: {name!r} is not a valid name")
    return name, value.strip()


def _binding_value(name: str, text: str, max_elements: int | None) -> Any:
    """A VALUE: `@PATH` to a .npy/.json/.csv file, or a constant expression of the language."""
    if text.startswith("@"):
        from autodiff.cli.inputs import load_array

        return load_array(text[1:], max_elements)
    from autodiff.grammar.session import constant

    return constant(text, f"the value of {name}")


def _configure_engine(dtype: str, seed: int | None, max_elements: int) -> None:
    from autodiff import engine
    from autodiff.engine.errors import UsageError

    if seed is not None and seed < 0:
        raise UsageError(f"--seed must be a non-negative integer, got {seed}")

    engine.set_default_dtype(dtype)
    engine.set_max_elements(max_elements)
    if seed is not None:
        engine.manual_seed(seed)


def _format(choice: str | None) -> str:
    if choice:
        return choice
    return "pretty" if sys.stdout.isatty() else "plain"


@cli.command("eval", epilog=EPILOG_EVAL, context_settings=_settings())
@click.argument("program", required=False)
@click.argument("assignments", nargs=-1)
@click.option("-f", "--file", "file", metavar="PATH", help="Read the program from a file.")
@click.option("--var", "variables", multiple=True, metavar="NAME=VALUE",
              help="Bind a leaf tensor that requires grad (VALUE: 3, [1, 2], randn(2, 2), @data.npy).")
@click.option("--const", "constants", multiple=True, metavar="NAME=VALUE", help="Bind a tensor that needs no grad.")
@click.option("--grad-tensor", "--gradient", "grad_tensor", metavar="VALUE",
              help="The gradient argument of backward (for a non-scalar output).")
@click.option("--retain-graph", is_flag=True, help="Keep the graph's saved values so backward can run again.")
@click.option("--backward", "backward", multiple=True, metavar="NAME",
              help="Run backward from this named tensor (repeatable, in order; default: the root).")
@click.option("--repeat", type=int, default=1, show_default=True, help="Run the backward sequence N times.")
@click.option("--zero-grad", is_flag=True, help="Zero every leaf's .grad before each backward call.")
@click.option("--retain-grad", "retain_grad", multiple=True, metavar="NAME", help="Keep .grad on a non-leaf.")
@click.option("--order", type=int, default=1, show_default=True, help="N-th derivative (one leaf).")
@click.option("--detect-anomaly", is_flag=True, help="Stop at the first backward node that returns nan.")
@click.option("--trace", is_flag=True, help="Show the backward graph.")
@click.option("--explain", is_flag=True, help="Replay the backward pass step by step.")
@click.option("--format", "output_format", type=click.Choice(["pretty", "plain", "json"]),
              help="Output format (default: pretty on a terminal, plain when piped).")
@click.option("--dtype", type=click.Choice(["float32", "float64"]), default="float32", show_default=True)
@click.option("--seed", type=int, help="Seed for rand/randn.")
@click.option("--max-elements", type=int, default=50_000_000, show_default=True,
              help="Refuse tensors with more elements.")
@click.option("--batch", metavar="FILE", help="Parse once, evaluate once per JSON line of bindings ('-': stdin).")
def eval_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int | None:
    """Evaluate PROGRAM, run backward, and show the gradients.

    PROGRAM is the program text ('-' reads it from standard input); NAME=VALUE arguments after it bind
    variables like --var.
    """
    if file is not None and program is not None:
        assignments = (program, *assignments)
        program = None
    if program == "-" and options["batch"] == "-":
        from autodiff.engine.errors import UsageError

        raise UsageError("the program and --batch cannot both read standard input: give the program as an "
                         "argument or with --file")
    text = _read_program(program, file)
    if options["batch"] is not None:
        from autodiff.cli.batch import run_batch

        return run_batch(text, assignments, options)
    from autodiff.cli import commands

    commands.run_eval_command(text, assignments, options)


# The other commands live in their own modules (each imports its heavy parts only when it runs).
def _register() -> None:
    from autodiff.cli import check_cmd, graph_cmd, ops_cmd, run_cmd

    for module in (graph_cmd, check_cmd, ops_cmd, run_cmd):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command; map every failure to its message and exit code, never a traceback."""
    args = sys.argv[1:] if argv is None else argv
    if signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # from here on Ctrl-C is a KeyboardInterrupt
    _standard_streams()
    if argv is None:  # the process is ours (not a test calling main in its own process)
        _cap_memory()
        from autodiff.engine.allocator import cache_freed_memory

        cache_freed_memory()  # large arrays reuse freed memory instead of faulting in fresh pages
    debug = "--debug" in args
    json_mode = _json_requested(args)
    try:
        code = cli.main(args=args, prog_name="autodiff", standalone_mode=False)
        code = code if isinstance(code, int) else 0
    except click.exceptions.Exit as done:
        code = done.exit_code
    except click.ClickException as error:
        code = _report_click(error, json_mode)
    except click.exceptions.Abort:
        sys.stderr.write("autodiff: interrupted\n")
        code = 130
    except KeyboardInterrupt:
        sys.stderr.write("autodiff: interrupted\n")
        code = 130
    except BrokenPipeError:
        code = _closed_pipe()
    except Exception as error:
        code = _report_unexpected(error, json_mode, debug)
    _exit(code)


def _standard_streams() -> None:
    """A standard stream the caller closed (`autodiff ... >&-`) is None in Python: make it an empty input or
    a sink, so that nothing fails on it (and no file opened later takes its descriptor)."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115 - lives as long as the process


def _cap_memory() -> None:
    """Cap the process's data memory at what the machine can give it (Linux; AUTODIFF_MAX_MEMORY=BYTES sets
    the cap). --max-elements bounds each tensor; this bounds them all together, so that a program holding
    many large tensors gets a `limit` error (numpy's MemoryError) instead of the kernel's out-of-memory
    killer. Best effort: where the numbers cannot be read or the limit set, nothing changes."""
    try:
        import resource

        cap = int(os.environ.get("AUTODIFF_MAX_MEMORY") or _free_memory())
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))
    except (ImportError, OSError, ValueError, KeyError):
        pass


def _free_memory() -> int:
    """Bytes this process may hold: what it holds now, plus the machine's available memory and swap."""
    with open("/proc/meminfo") as f:
        info = {key: int(rest.split()[0]) * 1024 for key, _, rest in (line.partition(":") for line in f)}
    with open("/proc/self/status") as f:
        held = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmData:"))
    return held + info["MemAvailable"] + info.get("SwapFree", 0)


def _json_requested(args: list[str]) -> bool:
    if "eval" in args and any(arg == "--batch" or arg.startswith("--batch=") for arg in args):
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


def _exit(code: int) -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = _closed_pipe() if code == 0 else code
    except (OSError, ValueError):
        pass
    sys.exit(code)
