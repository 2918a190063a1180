"""The `autodiff` command group and its entry point: every failure mapped to its message and exit code.

Start-up matters (a one-shot command should cost little more than importing numpy), so the heavy
parts (the engine, the grammar, Rich) are imported inside the commands that use them.
"""

from __future__ import annotations

import os
import signal
import sys

import click

from autodiff.cli import interrupted_while_starting
from autodiff.cli.options import settings


@click.group(context_settings=settings())
@click.version_option(package_name="autodiff-cli", prog_name="autodiff")
@click.option("--debug", is_flag=True, hidden=True, help="Show Python tracebacks (for autodiff's developers).")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Differentiate expressions with PyTorch's autograd semantics, on numpy.

    Run `autodiff COMMAND --help` for the options and examples of each command.
    """
    ctx.ensure_object(dict)["debug"] = debug


# Every command lives in its own module (each imports its heavy parts only when it runs).
def _register() -> None:
    from autodiff.cli import (
        check_cmd,
        critical_cmd,
        diff_cmd,
        eval_cmd,
        gradient_cmd,
        graph_cmd,
        limit_cmd,
        matrix_cmd,
        newton_cmd,
        ops_cmd,
        plot_cmd,
        run_cmd,
        table_cmd,
        tangent_cmd,
    )

    for module in (eval_cmd, graph_cmd, check_cmd, diff_cmd, matrix_cmd, table_cmd, plot_cmd, ops_cmd, run_cmd,
                   tangent_cmd, gradient_cmd, newton_cmd, critical_cmd, limit_cmd):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command; map every failure to its message and exit code, never a traceback."""
    args = sys.argv[1:] if argv is None else argv
    if signal.getsignal(signal.SIGINT) is interrupted_while_starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # from here on Ctrl-C is a KeyboardInterrupt
    _standard_streams()
    debug = "--debug" in args
    json_mode = _json_requested(args)
    if argv is None:  # the process is ours (not a test calling main in its own process)
        problem = _cap_memory()
        if problem is not None:
            from autodiff.cli.errors import report
            from autodiff.engine.errors import UsageError

            _exit(report(UsageError(problem), json_mode))
        from autodiff.engine.allocator import cache_freed_memory

        cache_freed_memory()  # large arrays reuse freed memory instead of faulting in fresh pages
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
    _exit(code)


def _interrupted(json_mode: bool) -> int:
    """Ctrl-C: exit 130 with `autodiff: interrupted`; in JSON mode stdout still gets a document (on a line of
    its own) so that a reader always has one."""
    sys.stderr.write("autodiff: interrupted\n")
    if json_mode:
        import contextlib

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


MEMORY_SHARE = 0.5  # the default cap: this share of the machine's available memory (and swap), per process
MIN_MEMORY = 32 << 20  # AUTODIFF_MAX_MEMORY leaves at least this much above what the process holds at start


def _cap_memory() -> str | None:
    """Cap the process's data memory (Linux, RLIMIT_DATA): what it holds after start-up, plus half of what
    the machine has available, or AUTODIFF_MAX_MEMORY=BYTES in all. --max-elements bounds each tensor;
    this bounds them all together, so that a program holding many large tensors gets a `limit` error
    instead of the kernel's out-of-memory killer, and leaves the machine usable. A bad AUTODIFF_MAX_MEMORY
    is returned as a usage error's message; otherwise best effort: where the numbers cannot be read or the
    limit set, nothing changes."""
    from autodiff.cli.options import parse_bytes
    from autodiff.engine.allocator import data_bytes, warm_blas

    text = os.environ.get("AUTODIFF_MAX_MEMORY", "").strip()
    requested = None
    if text:
        requested = parse_bytes(text)
        if requested is None:
            return (f"AUTODIFF_MAX_MEMORY={text[:60]!r} is not a size: give bytes, e.g. 2000000000, or with a unit "
                    "K, M, G or T (powers of 1024), e.g. 2G")
    try:
        import resource

        warm_blas()  # numpy and BLAS take their start-up memory and buffers before the cap can refuse them
        held = data_bytes()
        if held is None:
            return None
        if requested is not None:
            if requested < held + MIN_MEMORY:
                return (f"AUTODIFF_MAX_MEMORY={text[:60]} is too small: autodiff holds {held >> 20} MiB after "
                        f"start-up and needs at least {(held + MIN_MEMORY + (1 << 20) - 1) >> 20} MiB")
            cap = requested
        else:
            cap = held + int(MEMORY_SHARE * _available_memory())
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))
    except (ImportError, OSError, ValueError, KeyError):
        pass
    return None


def _available_memory() -> int:
    """The machine's available memory and free swap (/proc/meminfo)."""
    with open("/proc/meminfo") as f:
        info = {key: int(rest.split()[0]) * 1024 for key, _, rest in (line.partition(":") for line in f)}
    return info["MemAvailable"] + info.get("SwapFree", 0)


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
    except OSError as error:
        from autodiff.cli.errors import write_failed

        code = write_failed(error)
    except ValueError:
        pass
    sys.exit(code)
