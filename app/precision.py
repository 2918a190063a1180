"""Has float32 lost the digits? In float32 (the default, as PyTorch), a small program is run again in float64,
and every scalar result or gradient that differs by more than 1e-3 relative is reported."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from autodiff.app.config import Config
from autodiff.app.session import EvalRequest, EvalResult, run_eval
from autodiff.engine import Tensor

PRECISION_CHECK_ELEMENTS = 100_000  # programs up to this size are run again in float64 to check float32
PRECISION_RTOL = 1e-3


class LostDigits(NamedTuple):
    """A value float32 got wrong: what it is ("the root", "x.grad"), float32's value and float64's."""

    what: str
    float32: float
    float64: float


def lost_digits(result: EvalResult, rebuild: Callable[[], EvalRequest], config: Config) -> list[LostDigits]:
    """The scalar values of a float32 run that float64 gives differently (more than PRECISION_RTOL relative).
    `rebuild` makes the same request again (its bindings evaluated in float64); nothing when the run was not
    float32, the program is large, or the second run fails."""
    if config.dtype != "float32":
        return []
    tensors = [t for t in result.evaluation.names.values() if isinstance(t, Tensor)]
    if sum(t.numpy(force=True).size for t in tensors) > PRECISION_CHECK_ELEMENTS:
        return []
    try:
        with config.but(dtype="float64").applied():
            again = run_eval(rebuild())
    except Exception:  # the check is a courtesy: a failure of its own run never fails the command
        return []
    pairs = [("the root", result.root.numpy(force=True), again.root.numpy(force=True))]
    pairs += [(f"{name}.grad", result.grads.get(name), again.grads.get(name)) for name in result.grads]
    found = []
    for what, low, high in pairs:
        if low is None or high is None or np.asarray(low).size != 1 or np.asarray(high).size != 1:
            continue
        a, b = float(np.asarray(low).reshape(-1)[0]), float(np.asarray(high).reshape(-1)[0])
        if np.isfinite(a) and np.isfinite(b) and abs(a - b) > PRECISION_RTOL * abs(b):
            found.append(LostDigits(what, a, b))
    return found
