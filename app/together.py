"""check's vector runs (app/checking.py): a check's points as one vector, and the checks of a batch that run one
program the same way as one vector of all their points.

Checks go together when they check one program and one answer, or formulas of one shape (app/comparison.py's
Shape) whose numbers differ only where a number meets a tensor through + - * / (`lanes`): `1.742*sigmoid(1.742*x)`
and `0.9*sigmoid(0.9*x)`. There each check's number becomes a vector of it, one element per point of the check,
and the run is the one of each check's own, element by element: a tensor times, plus, minus or divided by a
number is the same IEEE operation on each element as by a vector of that number (the engine's op on a Python
number computes with the number in the tensor's dtype, numpy's rule), and so are their gradients. Numbers that
meet each other first (in float64, where Python's float arithmetic is numpy's) may be lanes too, through + - *
and signs; what would differ is left out: a number divided by a tensor (the engine makes it reciprocal(x) * c),
numbers divided or powered by each other (Python raises, or rounds otherwise), powers, calls, whole numbers.
Lanes are found in float64 only (a float32 program rounds a Python number where a vector would be float32)."""

from __future__ import annotations

from typing import Any

import numpy as np

from autodiff import engine
from autodiff.app.comparison import Comparison, compare_each, gradients, second
from autodiff.app.session import Binding, bind
from autodiff.engine import Tensor
from autodiff.engine.errors import AutodiffError
from autodiff.grammar.syntax import number_lanes


class Lanes:
    """What the vectorised run gave at a check's points: the program's values, autograd's derivatives and the
    expectations' values (one of each per point)."""

    def __init__(self, values: np.ndarray, grads: list[np.ndarray], expected: list[np.ndarray],
                 judged: list[list[Comparison]] | None = None) -> None:
        self.values = values
        self.grads = grads
        self.expected = expected
        self.judged = judged  # each expectation's comparison at each point, when made already


def vector_run(program: Any, derivatives: list[Any], variables: dict[str, Any], stacked: dict[str, np.ndarray],
               count: int, order: int) -> Lanes | None:
    """The program, autograd's derivatives of the order and the expectations, run once on `count` points (each
    variable's values a vector, in the default dtype); None when that is not one value per point."""
    try:
        root, leaves = program.run_root([Binding(n, v, variables[n].requires_grad) for n, v in stacked.items()])
        if root.shape != (count,):
            return None
        targets = [leaves[d.name] for d in derivatives]
        ones = np.ones(root.shape)
        grads = gradients(root, targets, ones) if order == 1 else second(root, targets, ones)
        expected = [d.value(stacked) for d in derivatives]
    except AutodiffError:
        return None
    if any(e.shape not in ((), (count,)) for e in expected) or any(g.shape != (count,) for g in grads):
        return None
    return Lanes(root.numpy(force=True), grads, [e if e.shape == (count,) else np.broadcast_to(e, (count,))
                                                 for e in expected])


def together_key(prepared: Any) -> tuple | None:
    """What checks must share for run_together to run their points as one vector (None: this one cannot)."""
    if prepared.stacked is None:
        return None
    request = prepared.request
    common = (tuple((n, v.requires_grad) for n, v in prepared.variables.items()), request.dtype, request.order)
    names = tuple(prepared.variables)
    program = _fixed(prepared.program, names) if request.dtype == "float64" else None
    answers = [_fixed(d.program, names) for d in prepared.derivatives]
    if program is None or any(a is None for a in answers):
        return (request.program, tuple((e.name, e.text) for e in request.expectations), *common)
    return (program, tuple((d.name, a) for d, a in zip(prepared.derivatives, answers)), *common)  # (a tuple first)


def run_together(group: list[Any]) -> list[Lanes] | None:
    """The vectorised runs of checks of one together_key, as one run on all their points (an elementwise program
    computes each point from that point alone: the same numbers as each check's own run); each check's Lanes, or
    None (then each check runs its own)."""
    first, key = group[0], together_key(group[0])
    if key is None or any(together_key(p) != key for p in group[1:]):
        return None
    counts = [p.samples for p in group]
    stacked = {n: np.concatenate([p.stacked[n] for p in group]) for n in first.stacked}
    with engine.settings(default_dtype=first.request.dtype), np.errstate(all="ignore"):
        program, derivatives = first.program, first.derivatives
        if isinstance(key[0], tuple) and len(group) > 1:  # formulas of one shape: their numbers in lanes
            names = tuple(first.variables)
            program = _Laned(_tape([p.program for p in group], names, counts), None)
            derivatives = [_Laned(_tape([p.derivatives[i].program for p in group], names, counts), d.name)
                           for i, d in enumerate(first.derivatives)]
            if program.tape is None or any(d.tape is None for d in derivatives):
                return None
        lanes = vector_run(program, derivatives, first.variables, stacked, sum(counts), first.request.order)
    if lanes is None:
        return None
    tolerance = first.tolerance if all(p.tolerance == first.tolerance for p in group) else None
    judged = None if tolerance is None else \
        [compare_each(e, g, *tolerance) for e, g in zip(lanes.expected, lanes.grads)]  # elementwise too
    out, start = [], 0
    for count in counts:
        part = slice(start, start + count)
        out.append(Lanes(lanes.values[part], [g[part] for g in lanes.grads], [e[part] for e in lanes.expected],
                         None if judged is None else [j[part] for j in judged]))
        start += count
    return out


class _Laned:
    """A program or an expectation of checks run together: the shape's tape, its lanes vectors of the checks'
    numbers. As vector_run asks them: the program's run_root, an expectation's name and value."""

    def __init__(self, tape: Any, name: str | None) -> None:
        self.tape, self.name = tape, name

    def run_root(self, bindings: list[Binding]) -> tuple[Tensor, dict[str, Tensor]]:
        leaves = bind(bindings)
        root = self._run(dict(leaves))
        if not isinstance(root, Tensor):
            raise AutodiffError("the root is not a tensor")  # (each check runs its own, which says what it is)
        return root, leaves

    def value(self, point: dict[str, np.ndarray]) -> np.ndarray:
        """The expectation's values, as app.checking's _Derivative computes them."""
        with engine.settings(default_dtype="float64"), engine.no_grad():
            value = self._run({n: engine.tensor(v, dtype="float64") for n, v in point.items()})
            if type(value) in (int, float):
                value = engine.tensor(value, dtype="float64")
        if not isinstance(value, Tensor):
            raise AutodiffError("the value is not a tensor")
        return np.asarray(value.numpy(force=True), dtype=np.float64)

    def _run(self, names: dict[str, Any]) -> Any:
        try:
            return self.tape.run(names)[0]
        except Exception as error:  # each check runs its own, which says what went wrong
            raise AutodiffError(f"the run failed ({type(error).__name__})") from None


def _tape(programs: list[Any], names: tuple[str, ...], counts: list[int]) -> Any:
    """The shape's tape with its numbers: each lane a vector of the programs' numbers (each repeated for its check's
    points), the others the first program's (all the same)."""
    first = programs[0]
    tape = first.shape.tape(names, first.backend)
    lanes = _lanes(first, names)
    if tape is None or lanes is None:
        return None
    dtype = engine.get_default_dtype()
    values = [engine.tensor(np.repeat(np.array([p.numbers[i] for p in programs], dtype=np.float64), counts),
                            dtype=dtype) if lane else first.numbers[i] for i, lane in enumerate(lanes)]
    return tape.renumbered(values)


def _fixed(program: Any, names: tuple[str, ...]) -> tuple | None:
    """The program's shape with the numbers that are no lanes, as written: what checks run together share."""
    lanes = _lanes(program, names) if program.shape is not None and program.numbers is not None else None
    if lanes is None:
        return None
    return program.shape.key, tuple(w for w, lane in zip(program.written, lanes) if not lane)


def _lanes(program: Any, names: tuple[str, ...]) -> list[bool] | None:
    """For each number of the program's shape (in the order written), whether it is a lane (see the module's
    text); None when the shape has no tape with these names (remembered by the shape)."""
    memo = program.shape.memo
    if ("lanes", names) not in memo:
        tree = program.shape.tree
        memo["lanes", names] = number_lanes(tree, names) if program.shape.tape(names, program.backend) is not None \
            else None
    return memo["lanes", names]


__all__ = ["Lanes", "run_together", "together_key", "vector_run"]
