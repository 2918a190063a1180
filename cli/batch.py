"""`autodiff eval PROGRAM --batch FILE|-`: one program, parsed once, evaluated once per line of JSON bindings.

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
from collections.abc import Iterator
from typing import IO, Any

# The documented error kinds for what can be wrong with a line itself (errors of the program's run keep theirs).
_NOT_UTF8 = "the line is not UTF-8 text"


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
            batch = _Batch(program, assignments, options)
        stream, close = _open_input(options["batch"])
    except AutodiffError as error:
        return report(error, json_mode=True)
    try:
        with np.errstate(all="ignore"):
            failed = batch.run(stream, sys.stdout)
    finally:
        if close:
            stream.close()
    if failed:
        first = batch.first_failure
        sys.stderr.write(f"autodiff: {failed} of {batch.answered} input lines failed (the first at line {first}; "
                         "see its error document on stdout)\n")
        return 1
    return 0


class _Batch:
    """The parts of a run that every line shares: the parsed program, the options, the default bindings."""

    def __init__(self, program: str, assignments: tuple[str, ...], options: dict[str, Any]) -> None:
        from autodiff.cli import eval_run as commands
        from autodiff.engine.errors import UsageError
        from autodiff.grammar.syntax import parse

        if options.get("output_format") not in (None, "json"):
            raise UsageError(f"--batch writes one JSON document per line; drop --format {options['output_format']}")
        self.options = options
        self.seed = options["config"].seed
        self.line_limit, self.line_option = line_limit(options.get("max_line_bytes"), options["config"].max_elements)
        self.program = program
        self.request = commands.eval_request(program, assignments, options)
        self.request.parsed = parse(program)  # once, for every line
        self.defaults = list(self.request.bindings)
        self.answered = 0
        self.first_failure: int | None = None

    def run(self, stream: IO[bytes], out: IO[str]) -> int:
        """Answer every non-blank line of `stream` on `out`; the number of lines that failed."""
        from autodiff.cli import jsonout

        failed = 0
        write, flush = out.write, out.flush
        for number, raw in enumerate(_lines(stream, self.line_limit), 1):
            if raw is not None and not raw.strip():
                continue
            document, ok = self.answer(number, raw)
            if not ok:
                failed += 1
                if self.first_failure is None:
                    self.first_failure = number
            self.answered += 1
            jsonout.write(document, write)  # large arrays piecewise
            write("\n")
            flush()  # a co-process waits for this line before it sends the next
        return failed

    def answer(self, number: int, raw: bytes | None) -> tuple[dict[str, Any], bool]:
        """The document for one input line (None: a line too long to read), and whether it succeeded."""
        from autodiff.cli import eval_run as commands
        from autodiff.cli.errors import error_document
        from autodiff.cli.limit_notes import eval_notes
        from autodiff.engine.errors import AutodiffError, LimitError

        try:
            if raw is None:
                option = self.line_option
                why = option if option == "--max-line-bytes" else "room for --max-elements numbers"
                raise LimitError(f"the line is longer than {self.line_limit:,} bytes ({why}); the rest of it is "
                                 "skipped unread", hint=f"raise {self.line_option}", reason="line")
            bindings = line_bindings(raw, self.options["config"].max_elements)
            if self.seed is not None:
                from autodiff import engine

                engine.manual_seed(self.seed)
            request = self.request  # shared: only the bindings (and --explain's observer) change per line
            request.bindings = self.defaults + bindings
            result, graph, steps = commands.evaluate(request, self.options)
            document = commands.json_document(result, graph if self.options["trace"] else None, steps)
            warnings = eval_notes(self.program, request, result, self.options)
            if warnings:  # as `autodiff eval` warns for the same input
                document["warnings"] = warnings
            return {"line": number, **document}, True
        except AutodiffError as error:
            return {"line": number, **error_document(error)}, False
        except (MemoryError, RecursionError) as error:
            from autodiff.engine.errors import LimitError

            what = "out of memory" if isinstance(error, MemoryError) else "the line's values are nested too deeply"
            return {"line": number, **error_document(LimitError(what, hint="lower the sizes"))}, False
        except Exception as error:  # a bug must not cost the other lines their answers
            from autodiff.engine.errors import BadValueError

            bug = BadValueError(f"internal error ({type(error).__name__}: {error}); please report it, with the line")
            return {"line": number, **error_document(bug)}, False


MAX_LINE_BYTES = 32 << 20  # --max-line-bytes by default


def line_limit(max_line_bytes: str | int | None, max_elements: int) -> tuple[int, str]:
    """The longest input line read, and the option that sets it: --max-line-bytes (32 MiB by default), or
    less when --max-elements allows fewer numbers (24 characters each, and a megabyte)."""
    from autodiff.cli.options import parse_bytes
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


def _lines(stream: IO[bytes], limit: int) -> Iterator[bytes | None]:
    """The stream's lines; None in place of a line over `limit` bytes. The None comes as soon as the limit is
    reached (so the line is answered at once, even an endless one like /dev/zero's); the rest of the line
    is then skipped, a megabyte at a time, without being held (a 10 GB line must not be loaded to be refused)."""
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            del raw
            yield None
            rest = b"x"
            while rest and not rest.endswith(b"\n"):
                rest = stream.readline(1 << 20)
        else:
            yield raw


def line_bindings(raw: bytes, max_elements: int | None) -> list[Any]:
    """The bindings of one input line: a JSON object whose values are numbers or nested lists of numbers."""
    import json

    from autodiff.app.session import Binding
    from autodiff.engine.errors import BadValueError, InputError, LimitError, ParseError, UsageError

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(_NOT_UTF8) from None
    try:
        data = json.loads(text.strip())
    except json.JSONDecodeError as error:
        raise ParseError(f"the line is not JSON: {error.msg} at column {error.colno}",
                         hint='write one JSON object of bindings per line, e.g. {"x": [1, 2], "y": 3}') from None
    except RecursionError:
        raise LimitError("the line's JSON is nested too deeply", reason="nesting") from None
    if not isinstance(data, dict):
        raise BadValueError(f"the line is {_json_type(data)}, not a JSON object of bindings",
                            hint='write one JSON object of bindings per line, e.g. {"x": [1, 2], "y": 3}')
    bindings = []
    for name, value in data.items():
        if not name.isidentifier() or name.startswith("_"):
            raise UsageError(f"{name!r} is not a valid name to bind (letters, digits and _, not starting with _)")
        problem = _not_numbers(value)
        if problem:
            raise BadValueError(f"the value of {name} {problem}: give a number or (nested) lists of numbers")
        if isinstance(value, list) and max_elements is not None:
            _check_size(name, value, max_elements)
        bindings.append(Binding(name, value, True))
    return bindings


def _not_numbers(value: Any) -> str | None:
    """What is wrong with a JSON value that should be numbers or nested lists of numbers, if anything."""
    kind = type(value)
    if kind is int or kind is float:
        return None
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is list:
            stack.extend(item)
        elif kind is not int and kind is not float:
            return f"holds {_json_type(item)}" if item is not value else f"is {_json_type(item)}"
    return None


def _check_size(name: str, value: list, max_elements: int) -> None:
    from autodiff.engine.errors import LimitError

    count, level = 1, value
    while isinstance(level, list):  # a rectangular array's size, by its first elements
        count *= len(level)
        level = level[0] if level else None
    if count > max_elements:
        raise LimitError(f"the value of {name} has {count:,} elements; the limit is {max_elements:,}",
                         hint="raise --max-elements", reason="elements")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "a number"


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
