"""`--batch FILE|-` of `eval`, `check` and `diff`: one JSON document per input line (the loop is app/batch.py;
this module reads the options, starts the command's answer and writes each line's document).

Every input line is a JSON object: bindings (`{"x": [1, 2], "y": 3}`; each name binds a fresh leaf that
requires grad, over the command line's NAME=VALUE/--var/--const bindings, which apply to every line),
optionally the line's own `"program"` (instead of PROGRAM) and the command's own keys (eval: `dtype`,
`order`, `seed`; check: `expect`, `samples`, `rtol`, `atol`, `order`, `dtype`, `seed`; diff: `wrt`,
`order`). Every output line is the document the one-shot command prints under `--format json` for that
line, with `"line": N` first, or `{"line": N, "error": {...}}`, written and flushed as soon as it is known,
so a reader at the other end of a pipe can use it as a co-process. N is the line's number in the input,
blank lines included (they are skipped, not answered), so `sed -n Np` finds the line an answer belongs to.

Each line runs in a fresh graph with fresh leaves; with --seed (or the line's `seed`), the random generator
is re-seeded before each line, so a line's answer is the same as the command gives for it alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import IO, Any

# What a command gives run_batch: the settings its lines may carry, and the answer to one line (a document); and
# optionally what answers several lines at once (app.batch.Together).
Answering = tuple[Any, Callable[[Any], dict[str, Any]]] | tuple[Any, Callable[[Any], dict[str, Any]], Any]


def run_batch(options: dict[str, Any], start: Callable[[], Answering], stdin_text: str | None = None) -> int:
    """Answer every input line; return the exit code (1 if any line failed, else 0). With --jobs N (N != 1),
    in N worker processes (cli/batchjobs.py), which run the same command line (`stdin_text`: the program, when
    it was read from standard input, for them to read again).

    Mistakes that concern every line (the program does not parse, a bad option or default binding, an
    unreadable FILE) stop before the first line: `start` raises them, and they give one error document on
    stdout, the message on stderr and the documented exit code for their kind.
    """
    import numpy as np

    from autodiff.app.batch import Batch
    from autodiff.cli import batchjobs
    from autodiff.cli.errors import report
    from autodiff.engine.errors import AutodiffError, UsageError

    try:
        if options.get("output_format") not in (None, "json"):
            raise UsageError(f"--batch writes one JSON document per line; drop --format {options['output_format']}")
        limit, option = line_limit(options.get("max_line_bytes"), _max_elements(options))
        with np.errstate(all="ignore"):
            settings, answer, *together = start()
        batch = Batch(limit, "max_line_bytes" if option == "--max-line-bytes" else "max_elements", settings,
                      together[0] if together else None)
        if batchjobs.serving() is not None:  # a worker of --jobs: the main process sends the lines
            return batchjobs.serve(batchjobs.serving(), lambda lines: _answer_chunk(batch, answer, lines, options))
        stream, close = _open_input(options["batch"])
    except AutodiffError as error:
        return report(error, json_mode=True)
    jobs = 1 if options.get("jobs") is None else batchjobs.worker_count(options["jobs"])
    try:
        with np.errstate(all="ignore"):
            if jobs == 1:
                answered, failed, first = _write_answers(batch, answer, stream, options)
            else:
                from autodiff.app.batch import LineReader

                answered, failed, first = batchjobs.run_in_workers(jobs, LineReader(stream, limit), stdin_text)
    except AutodiffError as error:  # a worker that died
        return report(error, json_mode=True)
    finally:
        if close:
            stream.close()
    if failed:
        sys.stderr.write(f"autodiff: {failed} of {answered} input lines failed (the first at line {first}; "
                         "see its error document on stdout)\n")
        return 1
    return 0


def _write_answers(batch: Any, answer: Callable[[Any], dict[str, Any]], stream: IO[bytes],
                   options: dict[str, Any]) -> tuple[int, int, int]:
    """Write one JSON document per line, flushed at once (a co-process waits for it); (answered, failed,
    the first failed line)."""
    from autodiff.cli.errors import error_document
    from autodiff.cli.output import jsonout

    answered = failed = first = 0
    write, flush = sys.stdout.write, sys.stdout.flush
    for number, document, error in batch.answers(stream, answer, _max_elements(options)):
        if error is not None:
            document = error_document(error)
            failed += 1
            first = first or number
        answered += 1
        jsonout.write({"line": number, **document}, write)  # large arrays piecewise
        write("\n")
        flush()
    return answered, failed, first


def _answer_chunk(batch: Any, answer: Callable[[Any], dict[str, Any]], lines: list[tuple[int, bytes | None]],
                  options: dict[str, Any]) -> tuple[str, tuple[int, int, int]]:
    """In a --jobs worker: the answers to a chunk of lines, written as _write_answers writes them, and (answered,
    failed, the first failed line)."""
    import numpy as np

    from autodiff.cli.errors import error_document
    from autodiff.cli.output import jsonout

    out: list[str] = []
    failed = first = 0
    with np.errstate(all="ignore"):
        for number, document, error in batch.answer_lines(lines, answer, _max_elements(options)):
            if error is not None:
                document = error_document(error)
                failed += 1
                first = first or number
            jsonout.write({"line": number, **document}, out.append)
            out.append("\n")
    return "".join(out), (len(lines), failed, first)


def _max_elements(options: dict[str, Any]) -> int:
    """The element limit of the command (its config's; diff has none of its own: the default)."""
    from autodiff.app.config import DEFAULT_MAX_ELEMENTS

    config = options.get("config")
    return DEFAULT_MAX_ELEMENTS if config is None or config.max_elements is None else config.max_elements


def binding_text(name: str, value: Any) -> str:
    """A line's JSON value as NAME=VALUE text of the language (for the commands that read bindings as text):
    numbers as Python writes them (nan, inf and -inf are the language's constants)."""
    import json

    text = json.dumps(value, allow_nan=True) if isinstance(value, list) else repr(value)
    return f"{name}={text.replace('NaN', 'nan').replace('Infinity', 'inf')}"


def line_options(line: Any, program: str | None, assignments: tuple[str, ...], options: dict[str, Any]
                 ) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """For the commands that read bindings as text (check, diff): the line's program (or PROGRAM), the
    options with the line's settings in place, and the NAME=VALUE bindings (the line's replace the command
    line's of the same name)."""
    from autodiff.engine.errors import UsageError

    text = line.program if line.program is not None else program
    if text is None:
        raise UsageError('the line has no "program", and no PROGRAM was given on the command line',
                         hint='give each line its program, e.g. {"program": "x**2", "x": 3}')
    names = {b.name for b in line.bindings}

    def kept(texts: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(t for t in texts if t.split("=", 1)[0].strip() not in names)

    mine = {**options, "variables": kept(options["variables"]), "constants": kept(options["constants"])}
    mine.update((key, value) for key, value in line.settings.items() if key != "seed")
    if "seed" in line.settings:
        mine["config"] = options["config"].but(seed=line.settings["seed"])
    return text, mine, kept(assignments) + tuple(binding_text(b.name, b.value) for b in line.bindings)


def eval_answering(program: str | None, assignments: tuple[str, ...], options: dict[str, Any]) -> Answering:
    """`eval --batch`: the program (if given) parsed once, the default bindings evaluated once; each line's
    document is `eval --format json`'s, its warnings included."""
    from autodiff.app.batch import EvalLines
    from autodiff.cli.commands import eval_run as commands
    from autodiff.cli.commands.eval_batch import Together
    from autodiff.cli.output.limit_notes import eval_notes

    lines = EvalLines(commands.eval_request(program, assignments, options), options["config"].seed)
    defaults: dict[str, list[Any]] = {}  # the default bindings evaluated in each dtype (for the float64 re-run)

    def again(request: Any, mine: dict[str, Any]) -> Any:
        """The line's request made again in the dtype now in force, its default bindings evaluated in it."""
        from autodiff import engine

        dtype = engine.get_default_dtype().name
        if dtype not in defaults:
            defaults[dtype] = commands.eval_request(request.program, assignments, mine).bindings
        own = request.bindings[len(lines.defaults):]
        return request.rebound(defaults[dtype] + own)

    def answer(line: Any) -> dict[str, Any]:
        import contextlib

        config = options["config"]
        dtype = line.settings.get("dtype", config.dtype)
        mine = options if dtype == config.dtype else {**options, "config": config.but(dtype=dtype)}
        with mine["config"].applied() if mine is not options else contextlib.nullcontext():
            request = lines.request_for(line)
            request.order = line.settings.get("order", options["order"])
            result, graph, steps = commands.evaluate(request, mine)
            texts = commands.texts_of(request.program, assignments, options)
            warnings = result.warnings + commands.precision_warnings(texts, mine, result,
                                                                     lambda: again(request, mine))
            warnings += eval_notes(request.program, request, result, mine)
        document = commands.json_document(result, graph if options["trace"] else None, steps)
        if warnings:  # as `autodiff eval` warns for the same input
            document["warnings"] = warnings
        return document

    return lines.SETTINGS, answer, Together(lines, assignments, options)


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
