"""A batch: one JSON object per input line, answered one by one (each in a fresh graph with fresh leaves), a
line that fails answered with its error while the rest go on; a line too long to read is refused without
being held (a 10 GB line is not loaded to be refused).

A line holds bindings (`{"x": [1, 2], "y": 3}`) and, optionally, its own program and settings:
`{"program": "x**2*sin(x)", "x": 1.5}`, `{"program": ..., "expect": {"x": "2*x*sin(x) + ..."}}` for a
check. The keys are `program`, `bindings` (an object of bindings, for a variable whose name is one of these
keys) and the command's own settings (`LineSettings`); every other key binds a variable. Programs are
parsed once (session.parsed remembers the last few hundred), so a batch of lines of a few
different programs costs little more than lines of one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any, ClassVar

from autodiff import engine
from autodiff.app.names import name_problem
from autodiff.app.session import Binding, EvalRequest, parsed
from autodiff.engine.errors import AutodiffError, BadValueError, LimitError, UsageError


@dataclass
class Line:
    """One input line, read: its program (None: the command line's), its bindings and its settings."""

    program: str | None
    bindings: list[Binding]
    settings: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------- a line's settings
# A setting's checker takes (key, JSON value) and returns the value or raises a UsageError naming the key.
Checker = Callable[[str, Any], Any]


def choice(*allowed: str) -> Checker:
    def check(key: str, value: Any) -> Any:
        if value not in allowed:
            raise UsageError(f"the line's {key!r} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
        return value
    return check


def whole(low: int, high: int | None = None) -> Checker:
    def check(key: str, value: Any) -> Any:
        if type(value) is not int or value < low or (high is not None and value > high):
            most = f" and at most {high}" if high is not None else ""
            raise UsageError(f"the line's {key!r} must be a whole number of at least {low}{most}, got {value!r}")
        return value
    return check


def number(key: str, value: Any) -> Any:
    if type(value) not in (int, float):
        raise UsageError(f"the line's {key!r} must be a number, got {value!r}")
    return float(value)


def texts(key: str, value: Any) -> Any:
    """A string, or a list of strings (one per item)."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(v, str) for v in items):
        raise UsageError(f"the line's {key!r} must be a string or a list of strings")
    return items


def named_texts(key: str, value: Any) -> Any:
    """An object of name: text (a check's expectations: {"x": "2*x"})."""
    if not isinstance(value, dict) or not value or not all(isinstance(v, str) for v in value.values()):
        raise UsageError(f"the line's {key!r} must be an object of NAME: EXPR strings, e.g. {{\"x\": \"2*x\"}}")
    return dict(value)


LineSettings = Mapping[str, Checker]


# What answers several lines at once (eval's lines of one elementwise program, cli/commands/eval_batch.py): given a
# chunk's (position, line) pairs, the documents of those it answered, by position; the others are answered alone.
Together = Callable[[list[tuple[int, Line]]], dict[int, Any]]
CHUNK_LINES = 256  # lines read ahead at most for `together` (only those already waiting: a co-process is answered);
# no more than session.parsed remembers, so that the lines a chunk leaves alone find their program parsed
CHUNK_BYTES = 1 << 20  # and at most about this many bytes of them
SHORT_LINE = 4096  # longer lines are not offered to `together` (they are read one at a time, when answered)


class Batch:
    """The lines of a stream, each read (bindings, program, the command's settings) and answered by `answer`.
    `line_limit` bytes is the longest line read (`limit_field` names the setting that makes it). With `together`,
    the lines already waiting are read as a chunk and answered together where it can."""

    def __init__(self, line_limit: int, limit_field: str, settings: LineSettings | None = None,
                 together: Together | None = None) -> None:
        self.line_limit, self.limit_field = line_limit, limit_field
        self.settings: LineSettings = settings or {}
        self.together = together

    def answers(self, stream: IO[bytes], answer: Callable[[Line], Any],
                max_elements: int | None) -> Iterator[tuple[int, Any, AutodiffError | None]]:
        """(line number, answer(line) or None, its error or None) for every non-blank line."""
        if self.together is not None:
            yield from self._chunked(stream, answer, max_elements)
            return
        for number_, raw in enumerate(lines(stream, self.line_limit), 1):
            if raw is not None and not raw.strip():
                continue
            yield self.answer_line(number_, raw, answer, max_elements)

    def _chunked(self, stream: IO[bytes], answer: Callable[[Line], Any],
                 max_elements: int | None) -> Iterator[tuple[int, Any, AutodiffError | None]]:
        """answers(), a chunk of the lines already waiting at a time (numbered as `lines` numbers them)."""
        reader = LineReader(stream, self.line_limit)
        while True:
            chunk: list[tuple[int, bytes | None]] = []
            size = 0
            while len(chunk) < CHUNK_LINES and size < CHUNK_BYTES:
                taken = reader.take(1)
                if not taken:
                    break
                chunk += taken
                size += len(taken[0][1] or b"")
            if chunk:
                yield from self.answer_lines(chunk, answer, max_elements)
            elif reader.done:
                return
            else:
                reader.fill()  # waits for more input only when every line read so far is answered

    def answer_lines(self, chunk: list[tuple[int, bytes | None]], answer: Callable[[Line], Any],
                     max_elements: int | None) -> list[tuple[int, Any, AutodiffError | None]]:
        """answer_line for each (number, raw line) of a chunk; with `together`, its short lines are read first and
        those it can answer answered together (a long line is read when it is answered, as answer_line reads)."""
        read: dict[int, tuple[Any, AutodiffError | None]] = {}
        answered: dict[int, Any] = {}
        if self.together is not None:
            read = {i: guarded(lambda raw=raw: self._read(raw, max_elements))
                    for i, (_, raw) in enumerate(chunk) if raw is not None and len(raw) <= SHORT_LINE}
            try:
                answered = self.together([(i, line) for i, (line, error) in read.items() if error is None])
            except Exception:  # never costs an answer: the lines are answered one by one
                answered = {}
        out = []
        for i, (number_, raw) in enumerate(chunk):
            if i not in read:
                out.append(self.answer_line(number_, raw, answer, max_elements))
                continue
            line, error = read[i]
            if error is not None:
                out.append((number_, None, error))
            elif i in answered:
                out.append((number_, answered[i], None))
            else:
                out.append((number_, *guarded(lambda line=line: answer(line))))
        return out

    def answer_line(self, number: int, raw: bytes | None, answer: Callable[[Line], Any],
                    max_elements: int | None) -> tuple[int, Any, AutodiffError | None]:
        """(number, answer(line) or None, its error or None) for one line (None: a line over the limit)."""
        document, error = guarded(lambda: answer(self._read(raw, max_elements)))
        return number, document, error

    def _read(self, raw: bytes | None, max_elements: int | None) -> Line:
        if raw is None:
            why = "{max_line_bytes}" if self.limit_field == "max_line_bytes" else "room for {max_elements} numbers"
            raise LimitError(f"the line is longer than {self.line_limit:,} bytes ({why}); the rest of it is skipped "
                             "unread", hint=f"raise {{{self.limit_field}}}", reason="line",
                             fields=("max_line_bytes", "max_elements"))
        return read_line(raw, max_elements, self.settings)


def guarded(work: Callable[[], Any]) -> tuple[Any, AutodiffError | None]:
    """(work(), None), or (None, the error) when it fails: a bug must not cost the other lines their answers."""
    try:
        return work(), None
    except AutodiffError as error:
        return None, error
    except (MemoryError, RecursionError) as error:
        what = "out of memory" if isinstance(error, MemoryError) else "the line's values are nested too deeply"
        return None, LimitError(what, hint="lower the sizes")
    except Exception as error:
        return None, BadValueError(f"internal error ({type(error).__name__}: {error}); please report it, with the line")


class EvalLines:
    """`eval`'s lines: the command line's request (its program parsed once) with each line's bindings over its
    default bindings (and the line's own program, when it has one), re-seeded first when a seed is set (so a
    line's answer is the one the program gives for it alone)."""

    SETTINGS: ClassVar[LineSettings] = {"dtype": choice("float32", "float64"), "order": whole(1), "seed": whole(0)}

    def __init__(self, request: EvalRequest, seed: int | None) -> None:
        self.request = request
        if request.program is not None and request.parsed is None:
            request.parsed = parsed(request.program)  # once, for every line
        self.defaults = list(request.bindings)
        self.program, self.parsed = request.program, request.parsed
        self.seed = seed

    def request_for(self, line: Line) -> EvalRequest:
        """The request of one line (the shared one, its bindings, program and order replaced)."""
        request = self.request
        if line.program is not None:
            request.program, request.parsed = line.program, parsed(line.program)
        else:
            request.program, request.parsed = self.program, self.parsed
        if request.program is None:
            raise UsageError('the line has no "program", and no PROGRAM was given on the command line',
                             hint='give each line its program, e.g. {"program": "x**2", "x": 3}')
        seed = line.settings.get("seed", self.seed)
        if seed is not None:
            engine.manual_seed(seed)
        request.bindings = self.defaults + line.bindings  # shared: only the bindings (and an observer) change
        return request


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


class LineReader:
    """The lines of a stream read in blocks, as they come: `take()` gives the (number, line) pairs complete so far
    (numbered as `lines` numbers them, blank lines counted but not given; None for a line over `limit` bytes, as
    soon as the limit is passed, the rest of it skipped unheld), `fill()` reads one more block (blocking at most
    once: a caller that waits for the stream first never blocks), `done` once the stream has ended."""

    BLOCK = 1 << 16

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self.stream, self.limit = stream, limit
        self.read = getattr(stream, "read1", stream.read)
        self.buffer = bytearray()
        self.number = 0  # of the last line taken
        self.skipping = False  # inside a line over the limit: its bytes are dropped up to its end
        self.done = False

    def fill(self) -> None:
        block = self.read(self.BLOCK)
        if not block:
            self.done = True
        else:
            self.buffer += block

    def take(self, most: int) -> list[tuple[int, bytes | None]]:
        """Up to `most` complete lines (the last line too, once the stream has ended)."""
        out: list[tuple[int, bytes | None]] = []
        while len(out) < most:
            end = self.buffer.find(b"\n")
            if self.skipping:
                if end < 0:
                    self.buffer.clear()
                    return out
                del self.buffer[:end + 1]
                self.skipping = False
                continue
            if end < 0 and len(self.buffer) > self.limit:  # a line over the limit: answered now, the rest skipped
                self.number += 1
                out.append((self.number, None))
                self.buffer.clear()
                self.skipping = True
                continue
            if end < 0 and not (self.done and self.buffer):
                return out
            size = len(self.buffer) if end < 0 else end + 1
            raw = bytes(self.buffer[:size])
            del self.buffer[:size]
            self.number += 1
            if len(raw.rstrip(b"\n")) > self.limit:
                out.append((self.number, None))
            elif raw.strip():
                out.append((self.number, raw))
        return out


def read_line(raw: bytes, max_elements: int | None, settings: LineSettings) -> Line:
    """One input line: a JSON object of bindings (numbers or nested lists of numbers), with optionally its own
    `program` and the command's settings."""
    data = _json_object(raw)
    program = data.pop("program", None)
    if program is not None and (not isinstance(program, str) or not program.strip()):
        raise UsageError('the line\'s "program" must be the program\'s text, a non-empty string')
    chosen = {key: settings[key](key, data.pop(key)) for key in list(data) if key in settings}
    extra = data.pop("bindings", {})
    if not isinstance(extra, dict):
        raise UsageError('the line\'s "bindings" must be an object of NAME: VALUE')
    twice = sorted(set(data) & set(extra))
    if twice:
        raise UsageError(f"{twice[0]} is bound twice (as a key of the line and in its \"bindings\"): bind it once")
    return Line(program, line_bindings({**data, **extra}, max_elements), chosen)


def _json_object(raw: bytes) -> dict[str, Any]:
    import json

    from autodiff.engine.errors import InputError, ParseError

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the line is not UTF-8 text") from None
    try:
        data = json.loads(text.strip(), parse_int=_json_integer)
    except json.JSONDecodeError as error:
        raise ParseError(f"the line is not JSON: {error.msg} at column {error.colno}",
                         hint='write one JSON object of bindings per line, e.g. {"x": [1, 2], "y": 3}') from None
    except RecursionError:
        raise LimitError("the line's JSON is nested too deeply", reason="nesting") from None
    if not isinstance(data, dict):
        raise BadValueError(f"the line is {_json_type(data)}, not a JSON object of bindings",
                            hint='write one JSON object of bindings per line, e.g. {"x": [1, 2], "y": 3}')
    return data


def _json_integer(text: str) -> int | float:
    """A JSON integer as the language reads the same literal on the command line: the parser's digit limit,
    and a float past 2**63, inf past float's range (so `{"x": 12345678901234567890123456789}` is what
    `x=12345678901234567890123456789` is)."""
    from autodiff.grammar.syntax import MAX_INT_DIGITS

    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise LimitError(f"the integer has {digits:,} digits; the limit is {MAX_INT_DIGITS:,}", reason="size")
    value = int(text)
    if abs(value) < 2**63:
        return value
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def line_bindings(data: dict[str, Any], max_elements: int | None) -> list[Binding]:
    """The bindings of one input line: values that are numbers or nested lists of numbers."""
    bindings = []
    for name, value in data.items():
        problem = name_problem(name, "a valid name to bind")
        if problem:
            raise UsageError(problem)
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
