"""`eval --batch`: the lines of one elementwise program answered together (app/stacking.py says when that gives
every line the answer of its own run, and runs them). Each line's document and warnings are built here from its
lane, as cli/batch.py's `answer` builds them from a run of its own; lines that cannot go together (another
program, settings of their own, arrays, an option that watches the backward pass) are left to `answer`."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from autodiff.app.batch import EvalLines, Line
from autodiff.app.session import parsed
from autodiff.app.stacking import MAX_LANES, lost_digits_by_lane, noise_by_lane, plain_number, run_together, stackable
from autodiff.cli.commands.eval_run import lost_digits_text, texts_of
from autodiff.cli.output import jsonout
from autodiff.cli.output.limit_notes import binding_notes, noise_note, noise_texts

PROOFS_KEPT = 1024  # programs (with their variables) whose proof is remembered

# eval's options, at these values, leave one backward pass from the root and report nothing but values
PLAIN_OPTIONS = {"trace": False, "explain": False, "grad_tensor": None, "retain_graph": False, "repeat": 1,
                 "zero_grad": False, "order": 1, "wrt": None, "detect_anomaly": False}

Key = tuple[str, tuple[str, ...]]


class Together:
    """Answers for the lines that can be run together: called with a chunk's (position, line) pairs, it gives
    {position: document} for those it answered."""

    def __init__(self, lines: EvalLines, assignments: tuple[str, ...], options: dict[str, Any]) -> None:
        self.lines, self.assignments, self.options = lines, assignments, options
        self.enabled = (not lines.defaults and options["config"].dtype == "float32" and not options["backward"]
                        and not options["retain_grad"]
                        and all(options.get(key) == value for key, value in PLAIN_OPTIONS.items()))
        self.proofs: dict[Key, Any] = {}

    def __call__(self, chunk: list[tuple[int, Line]]) -> dict[int, dict[str, Any]]:
        if not self.enabled:
            return {}
        groups: dict[Key, list[tuple[int, Line]]] = {}
        for position, line in chunk:
            key = self._key(line)
            if key is not None:
                groups.setdefault(key, []).append((position, line))
        answered: dict[int, dict[str, Any]] = {}
        for key, members in groups.items():
            tape = self._proof(key)
            if tape is None:
                continue
            for start in range(0, len(members), MAX_LANES):
                answered.update(self._answer(key, tape, members[start:start + MAX_LANES]))
        return answered

    def _key(self, line: Line) -> Key | None:
        """The program and variable names of a line that may go with others (None: it goes alone)."""
        program = line.program if line.program is not None else self.lines.program
        if program is None or line.settings or not line.bindings:
            return None
        if not all(plain_number(b.value) for b in line.bindings):
            return None
        return program, tuple(b.name for b in line.bindings)

    def _proof(self, key: Key) -> Any:
        """The program's tape when its lines may run together with these variables (else None), remembered."""
        if key in self.proofs:
            return self.proofs[key]
        try:
            tree = parsed(key[0])
        except Exception:  # answered alone, with its error
            tree = None
        proven = None if tree is None else stackable(tree, list(key[1]))
        if len(self.proofs) >= PROOFS_KEPT:
            self.proofs.clear()
        self.proofs[key] = proven
        return proven

    def _answer(self, key: Key, tape: Any, members: list[tuple[int, Line]]) -> dict[int, dict[str, Any]]:
        program, names = key
        columns = [np.array([line.bindings[j].value for _, line in members], dtype=np.float64)
                   for j in range(len(names))]
        lanes = run_together(tape, list(names), columns, self.options["config"])
        if lanes is None:
            return {}
        random = any("rand" in t for t in texts_of(program, self.assignments, self.options))
        lost = None if random else lost_digits_by_lane(lanes)
        noisy = None if any("rand" in t for t in noise_texts(program, self.options)) else noise_by_lane(lanes)
        answered = {}
        documents = lane_documents(lanes)
        for lane, (position, line) in enumerate(members):
            document = documents[lane]
            warnings = [] if lost is None else [lost_digits_text(item) for item in lost[lane]]
            notes = [] if all(math.isfinite(b.value) for b in line.bindings) else binding_notes(program, line.bindings)
            if not notes and noisy is not None and noisy[lane]:
                notes.append(noise_note(float(lanes.root[lane])))
            if warnings or notes:
                document["warnings"] = warnings + notes
            answered[position] = document
        return answered


def lane_documents(lanes: Any) -> list[dict[str, Any]]:
    """Each line's `eval --format json` document from its lane (what commands.json_document makes of its own
    run); the numbers of all lanes written at once (jsonout.numbers)."""
    root = jsonout.numbers(lanes.root)
    grads = {name: None if g is None else jsonout.numbers(g) for name, g in lanes.grads.items()}
    passed = list(lanes.passed)
    dtype = lanes.root.dtype.name
    return [{
        "root": {"name": lanes.root_name, "value": root[lane], "shape": [], "dtype": dtype,
                 "requires_grad": lanes.requires_grad, "grad_fn": lanes.grad_fn},
        "passes": [{"root": lanes.root_name, "grads": {n: None if grads[n] is None else grads[n][lane]
                                                        for n in passed}}],
        "grads": {n: None if g is None else g[lane] for n, g in grads.items()},
    } for lane in range(len(root))]


__all__ = ["Together", "lane_documents"]
