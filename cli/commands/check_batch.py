"""`check --batch`: the waiting lines that check one program the same way (its expectations, variables, dtype and
order) run their points together, as one vector (app/checking.py's run_together); each line's document is built
from its own points as cli/commands/check_run.py builds it for a line alone. A line whose points are drawn as it
runs (values that are not plain numbers, a program that is not elementwise, one sample) is answered in its turn,
as alone; a line that fails is left to be answered alone, which reports it as before.

The random points stay each line's own: every line that goes with others is seeded (its seed, --seed or a fresh
one) and draws its points before any run, and nothing after draws again. So that no line sees the generator in
another state than in turn, a chunk is answered line by line when one of its lines could draw without being
seeded first (one sample and no seed), or when a binding of the command line is not a number."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff.app.batch import Line
from autodiff.engine.errors import AutodiffError

MOST_POINTS = 8192  # points run as one vector at most (lines of --samples 10000 go alone)


# What Together is given to read a line: its check prepared (app.checking.prepare_check), and what makes the
# line's document of that check's report; it raises the line's error when the line cannot be checked.
Preparing = Callable[[Line], tuple[Any, Callable[[Any], dict[str, Any]]]]


class Together:
    """Answers for the lines of a chunk that can run together: {position: document}."""

    def __init__(self, assignments: tuple[str, ...], options: dict[str, Any], prepare: Preparing) -> None:
        self.options, self.prepare = options, prepare
        self.enabled = options.get("antiderivative") is None and _numbers_only(assignments, options)

    def __call__(self, chunk: list[tuple[int, Line]]) -> dict[int, dict[str, Any]]:
        if not self.enabled or len(chunk) < 2 or any(self._unseeded(line) for _, line in chunk):
            return {}
        from autodiff.app.checking import together_key

        groups: dict[Any, list[tuple[int, Any]]] = {}
        answered: dict[int, dict[str, Any]] = {}
        for position, line in chunk:
            try:  # a line that fails is answered alone, which reports its failure
                prepared = self.prepare(line)
            except AutodiffError:
                continue
            key = together_key(prepared[0])
            if key is not None:
                groups.setdefault(key, []).append((position, prepared))
            else:  # its points are drawn as it runs: finished now, right after its seed, as alone
                answered.update(_answer([(position, prepared)]))
        for members in groups.values():
            run: list[tuple[int, Any]] = []
            points = 0
            for member in members:
                if run and points + member[1][0].samples > MOST_POINTS:
                    answered.update(_answer(run))
                    run, points = [], 0
                run.append(member)
                points += member[1][0].samples
            answered.update(_answer(run))
        return answered

    def _unseeded(self, line: Line) -> bool:
        samples = line.settings.get("samples", self.options["samples"])
        return samples == 1 and line.settings.get("seed", self.options["config"].seed) is None


def _answer(members: list[tuple[int, Any]]) -> dict[int, dict[str, Any]]:
    """The documents of lines of one together_key, their points run as one vector (when there are several)."""
    from autodiff.app.checking import finish_check, run_together

    lanes = run_together([prepared for _, (prepared, _) in members]) if len(members) > 1 else None
    out: dict[int, dict[str, Any]] = {}
    for i, (position, (prepared, document)) in enumerate(members):
        try:
            report = finish_check(prepared, None if lanes is None else lanes[i])
        except AutodiffError:
            continue
        out[position] = document(report)
    return out


def _numbers_only(assignments: tuple[str, ...], options: dict[str, Any]) -> bool:
    """Whether every binding of the command line is a number as written (nothing that draws random numbers)."""
    from autodiff.app.comparison import Variable
    from autodiff.cli.commandline import binding_texts

    try:
        texts = binding_texts(assignments, options["variables"], options["constants"])
    except AutodiffError:
        return False
    return all(Variable(name, text=value).number() is not None for name, value, _, _ in texts)
