"""`autodiff table`: a program's value and derivatives up to order N at every point of a grid.

The grid is evaluated as one vector when the program is elementwise (one backward pass for all points,
with create_graph for the higher orders), which is checked at a few points against a point-by-point run;
otherwise every point is its own run. Points where the program is not defined (nan, inf) are kept."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from autodiff.app.session import Binding, EvalRequest, run_eval
from autodiff.app.textbook.realroots import BACKEND
from autodiff.engine.errors import AutodiffError, LimitError, UsageError

MAX_ROWS = 100_001


@dataclass
class Table:
    wrt: str
    order: int
    grid: np.ndarray
    values: np.ndarray
    derivatives: list[np.ndarray]  # one array per order
    vectorized: bool
    notes: list[str] = field(default_factory=list)


def grid(start: float, stop: float, step: float | None) -> np.ndarray:
    """START, START+STEP, ... up to STOP (included when on the grid); STEP defaults to a tenth of the range."""
    for name, value in (("START", start), ("STOP", stop)):
        if not math.isfinite(value):
            raise UsageError(f"the grid's {name} must be a finite number, got {value}")
    if step is None:
        step = (stop - start) / 10 if stop != start else 1.0
    if not math.isfinite(step) or step == 0 or (stop - start) * step < 0:
        raise UsageError(f"the grid's STEP must move from {start} towards {stop}, got {step}")
    with np.errstate(all="ignore"):  # 0:1e300:1e-300 has 1e600 points: inf, checked before any integer
        ratio = float(np.float64(stop) / step - np.float64(start) / step)
    if not math.isfinite(ratio) or ratio >= MAX_ROWS:
        shown = "more than 1e308" if not math.isfinite(ratio) else \
            f"{ratio + 1:,.0f}" if ratio < 1e15 else f"about {ratio:.3g}"
        raise LimitError(f"the grid has {shown} points, over the limit of {MAX_ROWS:,}", hint="use a larger STEP",
                         reason="rows")
    count = math.floor(ratio * (1 + 1e-12) + 1e-9) + 1
    if count > MAX_ROWS:
        raise LimitError(f"the grid has {count:,} points, over the limit of {MAX_ROWS:,}", hint="use a larger STEP",
                         reason="rows")
    steps = np.arange(count, dtype=np.float64)
    with np.errstate(all="ignore"):
        points = start + step * steps
        if not np.isfinite(points).all():  # -1e308:1e308:1e307: the steps overflow, the points do not
            points = 2 * (start / 2 + (step / 2) * steps)
    return np.array([float(f"{v:.15g}") for v in points])  # 0.1 * 3 is 0.3 on the grid, not 0.30000000000000004


def _run(program: str, wrt: str, x: np.ndarray, constants: list[Binding], order: int) -> tuple[np.ndarray, list]:
    gradient = None if x.ndim == 0 else np.ones(x.shape)
    request = EvalRequest(program, [Binding(wrt, x, True), *constants], grad_tensor=gradient, order=order,
                          backend=BACKEND)
    result = run_eval(request)
    root = np.asarray(result.root.numpy(force=True), dtype=np.float64)
    if result.skipped_backward or not result.passes:
        zeros = np.zeros(root.shape)
        return root, [zeros for _ in range(order)]
    derivatives = [np.asarray(p.grads[wrt], dtype=np.float64) if p.grads.get(wrt) is not None
                   else np.zeros(x.shape) for p in result.passes]
    return root, derivatives


def table(program: str, wrt: str, points: np.ndarray, constants: list[Binding], order: int) -> Table:
    """The value and derivatives 1..order at each point."""
    if not 1 <= order <= 10:
        raise UsageError(f"{{order}} must be between 1 and 10, got {order}", fields=("order",))
    notes: list[str] = []
    try:
        values, derivatives = _run(program, wrt, points.copy(), constants, order)
        vectorized = values.shape == points.shape and all(d.shape == points.shape for d in derivatives)
    except Exception:
        vectorized = False
    if vectorized:
        for i in sorted({0, len(points) // 2, len(points) - 1}):  # an elementwise program gives the same
            value, ders = _run(program, wrt, np.asarray(points[i]), constants, order)
            same = np.allclose(value.reshape(-1)[:1], values[i], rtol=1e-6, atol=1e-9, equal_nan=True) and all(
                np.allclose(d.reshape(-1)[:1], full[i], rtol=1e-6, atol=1e-9, equal_nan=True)
                for d, full in zip(ders, derivatives))
            if not same or value.size != 1:
                vectorized = False
                break
    if not vectorized:
        values = np.empty(points.shape)
        derivatives = [np.empty(points.shape) for _ in range(order)]
        for i, x in enumerate(points):
            value, ders = _run(program, wrt, np.asarray(x), constants, order)
            if value.size != 1:
                raise UsageError(f"table needs a scalar program: at {wrt} = {x} the result has shape "
                                 f"{tuple(value.shape)} (reduce it, e.g. with .sum())")
            values[i] = float(value.reshape(-1)[0])
            for full, d in zip(derivatives, ders):
                full[i] = float(np.asarray(d).reshape(-1)[0])
        notes.append("evaluated point by point (the program is not elementwise in the grid variable)")
    return Table(wrt, order, points, values, derivatives, vectorized, notes)


def table_and_next(program: str, wrt: str, points: np.ndarray, constants: list[Binding], order: int
                   ) -> tuple[Table, np.ndarray | None]:
    """The table, and derivative order + 1 at each point when it can be had (below order 10, and when the
    program has it): the scales of app.residue, which decide what prints as 0."""
    if 1 <= order < 10:
        try:
            more = table(program, wrt, points, constants, order + 1)
        except AutodiffError:
            pass
        else:
            following = more.derivatives.pop()
            more.order = order
            return more, following
    return table(program, wrt, points, constants, order), None


__all__ = ["MAX_ROWS", "Table", "grid", "table", "table_and_next"]
