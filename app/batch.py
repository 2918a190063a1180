"""A batch: one program, parsed once, run once per line of JSON bindings (`{"x": [1, 2], "y": 3}`), each line
over the default bindings, in a fresh graph with fresh leaves, re-seeded first when a seed is set (so a line's
answer is the one the program gives for it alone). A line that fails is answered with its error and the rest
go on; a line too long to read is refused without being held (a 10 GB line is not loaded to be refused).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO, Any

from autodiff import engine
from autodiff.app.session import EvalRequest
from autodiff.engine.errors import AutodiffError, BadValueError, LimitError


class Batch:
    """The parts of a run that every line shares: the request (its program parsed once), its default bindings,
    the seed, and the longest line read (`line_limit` bytes; `limit_field` names the setting that makes it)."""

    def __init__(self, request: EvalRequest, seed: int | None, line_limit: int, limit_field: str) -> None:
        from autodiff.grammar.syntax import parse

        self.request = request
        if request.parsed is None:
            request.parsed = parse(request.program)  # once, for every line
        self.defaults = list(request.bindings)
        self.seed = seed
        self.line_limit, self.limit_field = line_limit, limit_field

    def answers(self, stream: IO[bytes], run: Callable[[EvalRequest], Any],
                max_elements: int | None) -> Iterator[tuple[int, Any, AutodiffError | None]]:
        """(line number, run(request) for the line or None, its error or None) for every non-blank line."""
        for number, raw in enumerate(lines(stream, self.line_limit), 1):
            if raw is not None and not raw.strip():
                continue
            try:
                yield number, self._answer(raw, run, max_elements), None
            except AutodiffError as error:
                yield number, None, error
            except (MemoryError, RecursionError) as error:
                what = "out of memory" if isinstance(error, MemoryError) else "the line's values are nested too deeply"
                yield number, None, LimitError(what, hint="lower the sizes")
            except Exception as error:  # a bug must not cost the other lines their answers
                yield number, None, BadValueError(f"internal error ({type(error).__name__}: {error}); please report "
                                                  "it, with the line")

    def _answer(self, raw: bytes | None, run: Callable[[EvalRequest], Any], max_elements: int | None) -> Any:
        if raw is None:
            why = "{max_line_bytes}" if self.limit_field == "max_line_bytes" else "room for {max_elements} numbers"
            raise LimitError(f"the line is longer than {self.line_limit:,} bytes ({why}); the rest of it is skipped "
                             "unread", hint=f"raise {{{self.limit_field}}}", reason="line",
                             fields=("max_line_bytes", "max_elements"))
        bindings = line_bindings(raw, max_elements)
        if self.seed is not None:
            engine.manual_seed(self.seed)
        self.request.bindings = self.defaults + bindings  # shared: only the bindings (and an observer) change
        return run(self.request)


def lines(stream: IO[bytes], limit: int) -> Iterator[bytes | None]:
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
        raise InputError("the line is not UTF-8 text") from None
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
                         hint="raise {max_elements}", reason="elements", fields=("max_elements",))


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
