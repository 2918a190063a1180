"""`--batch ... --jobs N`: the lines answered by N worker processes, the answers written in input order, each
exactly as one process writes it.

Each worker is a fresh Python (multiprocessing's "spawn": nothing of this process is shared) that runs the same
command line, so it reads the options and starts the command's answer as this process did (cli/batch.py:
run_batch, which then serves chunks of lines instead of reading them). This process reads the input as it
comes, in chunks of up to CHUNK lines (a chunk goes as soon as no more input is waiting, so a co-process that
writes one line and waits gets its answer), keeps each worker at most two chunks ahead, and writes a chunk's
answers as soon as every chunk before it has been written: the input is never read whole, and a slow line
holds up the writing (not the working) of the lines after it.

Ctrl-C and a closed standard output end this process as they end one without --jobs (the workers ignore
SIGINT, and stop when this process stops: their pipes close)."""

from __future__ import annotations

import contextlib
import io
import signal
import sys
from collections import deque
from typing import IO, Any

CHUNK = 256  # lines at most per chunk (smaller chunks when the input comes slowly); app.batch's CHUNK_LINES too
AHEAD = 2  # chunks in a worker's hands at most

_SERVING: list[Any] = []  # in a worker: the connection to the process that started it


def serving() -> Any:
    """In a worker process: its connection (cli/batch.py then serves chunks instead of reading input); else None."""
    return _SERVING[0] if _SERVING else None


def worker_count(jobs: int) -> int:
    """--jobs N as a number of processes (0: one per core this process may use)."""
    import os

    if jobs != 0:
        return jobs
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run_in_workers(jobs: int, reader: Any, stdin_text: str | None) -> tuple[int, int, int]:
    """Answer every line of `reader` (app.batch.LineReader) in `jobs` workers, writing the answers in order;
    (answered, failed, the first failed line)."""
    import multiprocessing

    from autodiff.cli.commandline import COMMAND_LINE

    context = multiprocessing.get_context("spawn")
    workers = []
    try:
        for _ in range(jobs):
            mine, theirs = context.Pipe()
            process = context.Process(target=_work, args=(list(COMMAND_LINE), stdin_text, theirs), daemon=True)
            process.start()
            theirs.close()
            workers.append((process, mine))
        return _dispatch(reader, [connection for _, connection in workers])
    except BaseException:  # Ctrl-C, a closed output: the workers' lines are not waited for
        for process, _ in workers:
            process.terminate()
        raise
    finally:
        for _, connection in workers:
            connection.close()  # the worker's recv() ends: it returns
        for process, _ in workers:
            process.join(timeout=0.5)
            if process.is_alive():  # still on a line (Ctrl-C, a closed output): not waited for
                process.terminate()


def _dispatch(reader: Any, connections: list[Any]) -> tuple[int, int, int]:
    """The main loop: read, hand out chunks, collect answers, write them in order."""
    from multiprocessing.connection import wait

    waiting = _descriptor(reader.stream)
    given: list[deque[int]] = [deque() for _ in connections]  # each worker's chunks, oldest first
    answers: dict[int, tuple[str, int, int, int]] = {}
    chunks = written = 0
    answered = failed = first = 0
    pending: list[tuple[int, bytes | None]] = []
    while True:
        pending += reader.take(CHUNK - len(pending))
        idle = min(range(len(connections)), key=lambda k: len(given[k]))
        if pending and len(given[idle]) < AHEAD and (len(pending) >= CHUNK or reader.done or (
                waiting is not None and not _ready(waiting))):  # a full chunk, or all the input there is now
            connections[idle].send((chunks, pending))
            given[idle].append(chunks)
            chunks, pending = chunks + 1, []
            continue
        if reader.done and not pending and written == chunks:
            return answered, failed, first
        busy = [connections[k] for k in range(len(connections)) if given[k]]
        can_read = not reader.done and len(pending) < CHUNK
        if can_read and waiting is None:
            reader.fill()
            continue
        ready = wait(busy + ([waiting] if can_read else []))
        if can_read and waiting in ready:
            reader.fill()
        for connection in busy:
            if connection in ready:
                index, text, counts = _received(connection)
                given[connections.index(connection)].popleft()
                answers[index] = (text, *counts)
        while written in answers:
            text, done, bad, first_bad = answers.pop(written)
            sys.stdout.write(text)
            sys.stdout.flush()
            answered, failed, first = answered + done, failed + bad, first or first_bad
            written += 1


def _received(connection: Any) -> tuple[int, str, tuple[int, int, int]]:
    try:
        return connection.recv()
    except EOFError:  # a worker that died (killed, out of memory): not a line's error, the run's
        from autodiff.engine.errors import LimitError

        raise LimitError("a --jobs worker process ended without answering (killed, or out of memory)",
                         hint="run again with fewer --jobs, or without") from None


def _descriptor(stream: IO[bytes]) -> int | None:
    """The file descriptor to wait on for more input, None when reading never waits (a regular file, BytesIO)."""
    import os
    import stat

    try:
        descriptor = stream.fileno()
        return None if stat.S_ISREG(os.fstat(descriptor).st_mode) else descriptor
    except (AttributeError, OSError, io.UnsupportedOperation):
        return None


def _ready(descriptor: int) -> bool:
    import select

    return bool(select.select([descriptor], [], [], 0)[0])


def _work(args: list[str], stdin_text: str | None, connection: Any) -> None:
    """A worker: the command line run again, as `autodiff ARGS` runs it, its batch serving the chunks that come on
    `connection`."""
    from autodiff.cli.main import main

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to answer
    _SERVING.append(connection)
    sys.stdin = io.TextIOWrapper(io.BytesIO((stdin_text or "").encode()))  # the program, if it came from stdin
    sys.stdout = io.StringIO()  # nothing of a worker's reaches the output but through the main process
    sys.argv = ["autodiff", *args]
    with contextlib.suppress(SystemExit):
        main()


def serve(connection: Any, answer_chunk: Any) -> int:
    """In a worker: answer chunks until the main process closes the connection."""
    while True:
        try:
            index, lines = connection.recv()
        except (EOFError, OSError):
            return 0
        connection.send((index, *answer_chunk(lines)))
