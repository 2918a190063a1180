"""Lines of one program answered together (eval's batch mode): when the program is elementwise in the lines'
variables, and every line binds the same names to plain numbers, one run on vectors of the lines' values gives
each line exactly what its own run gives, so K lines cost two runs instead of 3K.

Why the answers are the same: an elementwise program (grammar.syntax.elementwise, which check's samples use too:
arithmetic + - * / ** and one-argument elementwise functions of the variables, numbers and constants) records the
same operations, in the same order, on a vector of K values as on one value, and numpy computes each element of an
elementwise operation from that element alone, with the same instructions whether the array holds one element
or K (tests/app/test_stacking.py checks it for every one of those functions, and the batch's answers against one-shot
runs). Nothing mixes the lanes: no reduction, no indexing, no matrix product, no randomness, no comparison; the
backward pass of an elementwise graph is elementwise too, and no leaf is shared between lanes (every variable is
a line's own, so no gradient is summed over lanes).

The runs are the program's tape (grammar/interpreter/tape.py: the calls the interpreter makes, without its
walk of the tree). Two runs: the lines' own run in float32 (the default dtype) with its backward pass, and one
float64 run whose first K lanes are the lines' values (the precision check's re-run, app/precision.py) and whose
last K are the same values rounded to float32 (the noise check's run, app/noise.py). Anything unexpected (an
error in either run, a root that is not one value per lane) gives None: the caller answers those lines one by
one, as before.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from autodiff import engine
from autodiff.app.config import Config
from autodiff.app.noise import lost, lost_one
from autodiff.app.precision import PRECISION_RTOL, LostDigits
from autodiff.app.session import Binding, as_tensor, bind, grads_of
from autodiff.engine import Tensor
from autodiff.grammar.interpreter import Tape, compile_elementwise
from autodiff.grammar.syntax import Program, elementwise

MAX_LANES = 1024  # lines run together at most (far below the engine's parallel threshold: one core's numpy)
EXACT_INTEGER = 2**24  # integers up to this size are the same number in float32, float64 and a Python float


def stackable(program: Program, variables: list[str]) -> Tape | None:
    """The program's tape when its lines may run together with these variables (see the module's text)."""
    return compile_elementwise(program, variables) if elementwise(program, variables) else None


def plain_number(value: object) -> bool:
    """A value a line may bind in a stacked run: a float, or an integer that every dtype holds exactly."""
    kind = type(value)
    return kind is float or (kind is int and -EXACT_INTEGER <= value <= EXACT_INTEGER)  # type: ignore[operator]


@dataclass
class Lanes:
    """What K lines' runs gave, lane i being line i: the float32 run's root, its backward pass's gradients (the
    pass's, of the leaves; and every named tensor's .grad, None where there is none), and the float64 runs' root
    and gradients (the precision check's) and root on float32-rounded inputs (the noise check's)."""

    root_name: str | None
    requires_grad: bool
    grad_fn: str | None
    root: np.ndarray
    passed: dict[str, np.ndarray | None]
    grads: dict[str, np.ndarray | None]
    root64: np.ndarray
    grads64: dict[str, np.ndarray | None]
    noise64: np.ndarray


def run_together(tape: Tape, names: list[str], columns: list[np.ndarray], config: Config) -> Lanes | None:
    """The runs of K lines of an elementwise program (its tape: grammar's compile_elementwise of a program that
    grammar.syntax.elementwise admits), `columns[j]` holding the K values (float64) of variable names[j]; None
    when they do not give one value per lane (the lines are then answered one by one)."""
    count = len(columns[0])
    try:
        low = _run(tape, names, columns, count)
        rounded = [column.astype(np.float32).astype(np.float64) for column in columns]
        with _float64(config).applied():
            high = _run(tape, names, [np.concatenate(pair) for pair in zip(columns, rounded)], 2 * count)
    except Exception:  # anything unexpected: the lines are answered one by one, which says what went wrong
        return None
    if low is None or high is None:
        return None
    root, root_name, leaves, grads = low
    root64 = high[0].numpy(force=True)
    return Lanes(root_name, root.requires_grad, root.grad_fn.name() if root.grad_fn else None,
                 root.numpy(force=True), {name: grads[name] for name in leaves}, grads, root64[:count],
                 {name: None if g is None else g[:count] for name, g in high[3].items()}, root64[count:])


@functools.lru_cache(maxsize=8)
def _float64(config: Config) -> Config:
    """The settings of the precision check's re-run (app.precision.lost_digits runs it in these)."""
    return config.but(dtype="float64")


def _run(tape: Tape, names: list[str], columns: list[np.ndarray], count: int) -> tuple | None:
    """One run on vectors of `count` lanes with its backward pass, as app.session.run_eval runs a request with
    these bindings and a gradient of ones for the root: (root, its name, the names of the leaves whose .grad the
    pass fills, every named tensor's .grad after it); None when the root is not one value a lane."""
    dtype = engine.get_default_dtype()
    with engine.detect_anomaly(False), engine.enable_grad():
        values: dict[str, object] = dict(bind([Binding(name, column, True) for name, column in zip(names, columns)]))
        root, root_name = tape.run(values)
        if not isinstance(root, Tensor) or root.shape != (count,) or root.dtype != dtype or not root.requires_grad:
            return None
        named = {name: t for name, t in values.items() if isinstance(t, Tensor)}
        root.backward(as_tensor(np.ones(count), "{grad_tensor}", ("grad_tensor",)), retain_graph=None)
        leaves = [name for name, t in named.items() if t.requires_grad and (t.is_leaf or t.retains_grad)]
        grads = grads_of(named)
    if any(g is not None and g.shape != (count,) for g in grads.values()):
        return None
    return root, root_name, leaves, grads


def lost_digits_by_lane(lanes: Lanes) -> list[list[LostDigits]]:
    """app.precision.lost_digits for every lane: the scalar values float32 got wrong (the root, then each named
    tensor's .grad, in that order), compared as it compares them (as Python floats)."""
    found: list[list[LostDigits]] = [[] for _ in range(len(lanes.root))]
    pairs = [("the root", lanes.root, lanes.root64)]
    pairs += [(f"{name}.grad", lanes.grads.get(name), lanes.grads64.get(name)) for name in lanes.grads]
    for what, low, high in pairs:
        if low is None or high is None:
            continue
        for lane, (a, b) in enumerate(zip(low.tolist(), high.tolist())):
            if math.isfinite(a) and math.isfinite(b) and abs(a - b) > PRECISION_RTOL * abs(b):
                found[lane].append(LostDigits(what, a, b))
    return found


def noise_by_lane(lanes: Lanes) -> np.ndarray:
    """app.noise.eval_noise for every lane: where the float32 root keeps no digit of the float64 root computed
    from the float32-rounded inputs."""
    if len(lanes.root) < 16:  # a few lanes: in Python floats, the same operations
        return np.array([lost_one(low, high) for low, high in zip(lanes.root.tolist(), lanes.noise64.tolist())])
    return lost(np.asarray(lanes.root, dtype=np.float64), lanes.noise64)


__all__ = ["MAX_LANES", "Lanes", "lost_digits_by_lane", "noise_by_lane", "plain_number", "run_together", "stackable"]
