"""Turning errors into what the user sees: one line on stderr (plus a caret excerpt for syntax errors),
a JSON document in JSON mode, and the documented exit code for each kind. The only place that maps
kinds to exit codes."""

from __future__ import annotations

import sys
from typing import Any

from autodiff.engine.errors import AutodiffError

EXIT_CODES = {"syntax": 2, "name": 2, "usage": 2, "io": 2, "shape": 1, "autograd": 1, "value": 1, "limit": 1}

# The engine's and the language's hints speak Python (retain_graph=True); on the command line the fix is an
# option, chosen by the error's reason code.
_CLI_HINTS = {
    "kept_passes": "--format plain keeps only what it prints; or fewer --repeat, or raise --max-elements",
    "explain": "explain a smaller example (the steps are the same for any size), or raise --max-elements",
    "second_backward": "add --retain-graph to keep the graph for another pass",
    "no_grad": "bind the variables with --var NAME=VALUE (not --const) so the result requires grad",
    "input_no_grad": "bind the variables with --var NAME=VALUE (not --const) so the result requires grad",
    "steps": "a loop that never ends? if not, raise the limit with --max-steps N",
}


_ELEMENTS_HINT = "raise the limit (--max-elements) or use smaller sizes"
# What to do when the root needs no grad, so no backward pass ran
NO_GRAD_ADVICE = "bind a variable with --var NAME=VALUE (or requires_grad=True) to differentiate"


def exit_code(error: AutodiffError) -> int:
    return EXIT_CODES.get(error.kind, 1)


def worded(error: AutodiffError) -> AutodiffError:
    """The error with the settings it names ({order}) worded as the command line's options (--order)."""
    if error.fields:
        from autodiff.cli.commandline import spelled

        error.named({field: spelled(field) for field in error.fields})
    return error


def cli_hint(error: AutodiffError) -> str | None:
    """The hint in the command line's vocabulary (options instead of Python keyword arguments)."""
    reason = error.reason
    if reason == "elements" and not error.hint:
        return _ELEMENTS_HINT
    if reason in _CLI_HINTS:
        return _CLI_HINTS[reason]
    if reason == "implicit_nonscalar":
        shape = error.details.get("shape", ())
        ones = f"ones({', '.join(str(n) for n in shape)})"
        return f"pass --grad-tensor '{ones}' (the output's shape) or reduce the output with .sum()"
    if reason == "builtin_as_value":
        return f"bind the variable with --var {error.details.get('shown', '')}=VALUE, or use another name"
    if reason == "unbound_name":
        return f"bind it with --var {error.details.get('shown', '')}=VALUE, or assign it first"
    if reason == "grad_shape":
        shape = error.details.get("shape", ())
        if len(shape) == 0 or all(n == 1 for n in shape):
            return "leave out --grad-tensor: a one-element output gets the gradient 1"
        return f"give --grad-tensor the output's shape {tuple(shape)}"
    return error.hint


def summary(error: AutodiffError) -> str:
    """The one-line message (a syntax error's message also carries its excerpt lines)."""
    return cut(str(error.details.get("summary") or error.message.split("\n", 1)[0]))


MAX_MESSAGE = 1_000  # characters of a message: a name or value quoted from the input cannot make it longer


def cut(text: str, width: int = MAX_MESSAGE) -> str:
    """A message as it is shown: at most `width` characters (a 100,000-character name is cut, with '...')."""
    return text if len(text) <= width else f"{text[:width - 3]}..."


def excerpt(error: AutodiffError) -> str | None:
    text = error.details.get("excerpt")
    if text:
        return str(text)
    parts = error.message.split("\n", 1)
    return parts[1] if len(parts) > 1 else None


def error_line(error: AutodiffError, python_hints: bool = False) -> str:
    """`autodiff: KIND error at line L, column C: message (hint)`. Scripts (`autodiff run`, the REPL) pass
    python_hints: their fix is Python's (retain_graph=True), not an option (--retain-graph)."""
    worded(error)
    where = ""
    if error.line is not None:
        where = f" at line {error.line}" + (f", column {error.column}" if error.column is not None else "")
    hint = cli_hint(error)
    if python_hints:  # a script's fix is Python's (retain_graph=True); but `autodiff run` has --max-elements too
        hint = error.hint or (hint if error.reason in ("elements", "steps") else None)
    text = f"autodiff: {error.kind} error{where}: {summary(error)}"
    return f"{text} (hint: {cut(hint)})" if hint else text


def error_document(error: AutodiffError) -> dict[str, Any]:
    worded(error)
    body: dict[str, Any] = {"kind": error.kind, "message": summary(error)}
    hint = cli_hint(error)
    if hint:
        body["hint"] = cut(hint)
    if error.line is not None:
        body["line"] = error.line
        if error.column is not None:
            body["column"] = error.column
    return {"error": body}


def report(error: AutodiffError, json_mode: bool, python_hints: bool = False) -> int:
    """Write the error where the user will see it; return the exit code."""
    lines = [error_line(error, python_hints)]
    detail = excerpt(error)
    if detail:
        lines.append(detail)
    write_stderr("\n".join(lines) + "\n")
    try:
        if json_mode:
            import json  # only for a failure in JSON mode: eval's text output never imports it

            sys.stdout.write(json.dumps(error_document(error)) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as failure:  # the error document cannot be written either (a full disk): say so, once
        return write_failed(failure)
    return exit_code(error)


def write_stderr(text: str) -> None:
    """Write to stderr; when stderr itself cannot be written (2>/dev/full, closed), there is nowhere to say so:
    the exit code still tells the error's kind. What stderr still buffers is dropped (no failure at exit)."""
    import contextlib
    import os

    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process


def write_failed(error: OSError) -> int:
    """The output could not be written (/dev/full, a full disk, a closed descriptor): one line on stderr, the
    `io` exit code; standard output is pointed at /dev/null so that nothing fails again at exit."""
    import contextlib
    import os

    write_stderr(f"autodiff: io error: cannot write the output ({error.strerror or error})\n")
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    with contextlib.suppress(OSError):  # drop what the failed stream still buffers
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    return EXIT_CODES["io"]
