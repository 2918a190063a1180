"""The points of a check (app/checking.py): each variable's VALUE drawn again at every sample, or, for a fixed
value, points around it. A batch line's variables are plain numbers (x=-1.995429), whose points are worked out
here as the draws would make them, without binding a leaf for every sample."""

from __future__ import annotations

from typing import Any

import numpy as np

from autodiff import engine
from autodiff.app.comparison import Variable
from autodiff.app.session import Binding, as_tensor
from autodiff.engine import Tensor


class Sampling:
    """The points of a check: each variable's VALUE drawn again, or, for a fixed value, points around it."""

    def __init__(self, variables: dict[str, Variable]) -> None:
        self.variables = variables
        self.first: dict[str, np.ndarray] = {}
        self.fixed: list[str] = []  # variables whose VALUE gives the same point every time
        self.points: list[dict[str, np.ndarray]] = []
        self.root_shape: tuple[int, ...] = ()

    def bindings(self, sample: int) -> list[Binding]:
        out = []
        for v in self.variables.values():
            value = v.draw()
            if sample > 1 and v.requires_grad:
                drawn = np.asarray(as_tensor(value, f"the value of {v.name}").numpy(force=True), dtype=np.float64)
                if v.name in self.fixed or (sample == 2 and np.array_equal(drawn, self.first[v.name],
                                                                           equal_nan=True)):
                    # A fixed VALUE (x=1.2) would check the same point N times: sample around it instead,
                    # so a derivative that agrees only at that point is still caught.
                    if v.name not in self.fixed:
                        self.fixed.append(v.name)
                    value = around(self.first[v.name], sample, drawn.shape)
            out.append(Binding(v.name, value, v.requires_grad))
        return out

    def stacked(self, samples: int) -> dict[str, np.ndarray] | None:
        """Every variable's value at each of the samples (a vector of the default dtype), as `bindings` draws them
        one sample after another, when every VALUE is a plain number (app.literals); None otherwise, nothing
        drawn. A number gives the same value at every draw, so from the second sample on each variable is
        fixed and its points are around it (drawn in the same order: sample by sample, variable by variable)."""
        numbers = [v.number() for v in self.variables.values()]
        if samples < 2 or any(n is None for n in numbers):
            return None
        columns: dict[str, list[Any]] = {}
        dtype = engine.get_default_dtype()
        for v, number in zip(self.variables.values(), numbers):
            value = np.array(number).astype(dtype)  # as_tensor's value of a number: int64 or float64, in the dtype
            self.first[v.name] = value.astype(np.float64)
            columns[v.name] = [value]
        self.fixed = [v.name for v in self.variables.values() if v.requires_grad]
        firsts = {name: float(value) for name, value in self.first.items()}
        for sample in range(2, samples + 1):
            for v in self.variables.values():
                column = columns[v.name]
                column.append(_around_number(firsts[v.name], sample) if v.requires_grad else column[0])
        return {name: np.array([np.float64(c) for c in column]).astype(dtype) for name, column in columns.items()}

    def seen(self, root: Tensor, leaves: dict[str, Tensor], checked: bool = True) -> dict[str, np.ndarray]:
        """Record a point that was reached (checked, or not because the program is not defined there)."""
        self.root_shape = tuple(root.shape)
        point = {name: np.array(t.numpy(force=True), copy=True) for name, t in leaves.items()}
        if checked:
            self.points.append(point)
        self.first = self.first or {name: values.astype(np.float64) for name, values in point.items()}
        return point


SPREAD = (-1.0, 0.25, -3.0)  # samples 2, 3 and 4 around a fixed value: its mirror, smaller, larger and negative


def around(value: np.ndarray, sample: int, shape: tuple[int, ...]) -> np.ndarray:
    """The sample-th point around a fixed value: -value, value/4, -3*value (both signs and several magnitudes,
    so 1/abs(x) for d/dx log(abs(x)) is caught with any seed), then value + randn()."""
    if 2 <= sample <= 1 + len(SPREAD) and np.any(value != 0):
        return value * SPREAD[sample - 2]
    return value + engine.randn(*shape, dtype="float64").numpy(force=True)


def _around_number(value: float, sample: int) -> float:
    """around() of a scalar, on Python floats (the same IEEE operations: the same number)."""
    if 2 <= sample <= 1 + len(SPREAD) and value != 0:  # (nan != 0, as np.any(nan != 0))
        return value * SPREAD[sample - 2]
    return value + engine.randn(dtype="float64").item()


__all__ = ["SPREAD", "Sampling", "around"]
