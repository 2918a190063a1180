"""`autodiff eval PROGRAM --batch FILE|-`: one program, parsed once, evaluated once per line of JSON bindings
(the loop is app/batch.py; this module reads the options and writes each line's document).

Every input line is a JSON object of bindings (`{"x": [1, 2], "y": 3}`); each name binds a fresh leaf that
requires grad, over the command line's NAME=VALUE/--var/--const bindings (which apply to every line). Every
output line is that line's eval JSON document (README: JSON output) with `"line": N` first, or
`{"line": N, "error": {...}}`, written and flushed as soon as it is known, so a reader at the other end of
a pipe can use it as a co-process. N is the line's number in the input, blank lines included (they are
skipped, not answered), so `sed -n Np` finds the line an answer belongs to.

Each line runs in a fresh graph with fresh leaves; with --seed, the random generator is re-seeded before
each line, so a line's answer is the same as `autodiff eval` gives for it alone.
"""

from __future__ import annotations

import sys
from typing import IO, Any


def run_batch(program: str, assignments: tuple[str, ...], options: dict[str, Any]) -> int:
    """Evaluate the program once per input line; return the exit code (1 if any line failed, else 0).

    Mistakes that concern every line (the program does not parse, a bad option or default binding, an
    unreadable FILE) stop before the first line: one error document on stdout, the message on stderr
    and the documented exit code for its kind.
    """
    import numpy as np

    from autodiff.cli.errors import report
    from autodiff.engine.errors import AutodiffError

    try:
        with np.errstate(all="ignore"):
            batch = _batch(program, assignments, options)
        stream, close = _open_input(options["batch"])
    except AutodiffError as error:
        return report(error, json_mode=True)
    try:
        with np.errstate(all="ignore"):
            answered, failed, first = _write_answers(program, batch, stream, options)
    finally:
        if close:
            stream.close()
    if failed:
        sys.stderr.write(f"autodiff: {failed} of {answered} input lines failed (the first at line {first}; "
                         "see its error document on stdout)\n")
        return 1
    return 0


def _batch(program: str, assignments: tuple[str, ...], options: dict[str, Any]) -> Any:
    """The app's Batch for these options (the program parsed and the default bindings evaluated once)."""
    from autodiff.app.batch import Batch
    from autodiff.cli import eval_run as commands
    from autodiff.engine.errors import UsageError

    if options.get("output_format") not in (None, "json"):
        raise UsageError(f"--batch writes one JSON document per line; drop --format {options['output_format']}")
    config = options["config"]
    limit, option = line_limit(options.get("max_line_bytes"), config.max_elements)
    field = "max_line_bytes" if option == "--max-line-bytes" else "max_elements"
    return Batch(commands.eval_request(program, assignments, options), config.seed, limit, field)


def _write_answers(program: str, batch: Any, stream: IO[bytes], options: dict[str, Any]) -> tuple[int, int, int]:
    """Write one JSON document per line, flushed at once (a co-process waits for it); (answered, failed,
    the first failed line)."""
    from autodiff.cli import eval_run as commands
    from autodiff.cli import jsonout
    from autodiff.cli.errors import error_document
    from autodiff.cli.limit_notes import eval_notes

    def run(request: Any) -> dict[str, Any]:
        result, graph, steps = commands.evaluate(request, options)
        document = commands.json_document(result, graph if options["trace"] else None, steps)
        warnings = eval_notes(program, request, result, options)
        if warnings:  # as `autodiff eval` warns for the same input
            document["warnings"] = warnings
        return document

    answered = failed = first = 0
    write, flush = sys.stdout.write, sys.stdout.flush
    for number, document, error in batch.answers(stream, run, options["config"].max_elements):
        if error is not None:
            document = error_document(error)
            failed += 1
            first = first or number
        answered += 1
        jsonout.write({"line": number, **document}, write)  # large arrays piecewise
        write("\n")
        flush()
    return answered, failed, first


MAX_LINE_BYTES = 32 << 20  # --max-line-bytes by default


def line_limit(max_line_bytes: str | int | None, max_elements: int) -> tuple[int, str]:
    """The longest input line read, and the option that sets it: --max-line-bytes (32 MiB by default), or
    less when --max-elements allows fewer numbers (24 characters each, and a megabyte)."""
    from autodiff.cli.memory import parse_bytes
    from autodiff.engine.errors import UsageError

    if max_line_bytes is None:
        limit = MAX_LINE_BYTES
    elif isinstance(max_line_bytes, int):
        limit = max_line_bytes
    else:
        parsed = parse_bytes(max_line_bytes)
        if parsed is None:
            raise UsageError(f"--max-line-bytes {max_line_bytes[:60]!r} is not a size: give bytes, e.g. 1000000, "
                             "or with a unit K, M, G (powers of 1024), e.g. 64M")
        limit = parsed
    by_elements = 24 * max_elements + (1 << 20)
    return (limit, "--max-line-bytes") if limit <= by_elements else (by_elements, "--max-elements")


def _open_input(path: str) -> tuple[IO[bytes], bool]:
    """The input lines as bytes (decoded line by line, so one bad line does not end the run)."""
    from autodiff.engine.errors import InputError

    if path == "-":
        return sys.stdin.buffer, False
    try:
        return open(path, "rb"), True  # closed by run_batch
    except OSError as error:
        raise InputError(f"--batch {path}: cannot read it ({error.strerror or error})") from None
    except ValueError:  # a NUL character in the path
        raise InputError(f"--batch {path!r}: cannot read it (the path contains a NUL character)") from None
