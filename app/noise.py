"""Is a value rounding noise? `eval` and `table` ask it where a result may be the cancellation of nearly
equal numbers (exp(x) - 1 - x at x = 1e-8) rather than the function's value, or its limit.

The test: run the same program in float32 and in float64 on the same inputs (rounded to float32 first, so
that the input's own rounding does not count). float32 keeps about 7 digits, float64 about 16, and rounding
errors are amplified alike in both: where the float32 result keeps no correct digit at all (off by half its
size or more, or of the other sign), float64 has lost at least 7 of its 16 digits to the same amplification,
and what is left may be noise. Overflow and underflow of float32 are not counted."""

from __future__ import annotations

import numpy as np

from autodiff import engine
from autodiff.app.session import Binding, EvalRequest, run_eval
from autodiff.app.table import table
from autodiff.engine import Tensor

FLOAT32_TINY = 1e-30  # below this (or above 1/this) float32 under- or overflows: not cancellation
FLOAT32_HUGE = 1e30


def to_float32(value: object) -> object:
    """A binding's value rounded to float32 (kept as float64 numbers)."""
    if isinstance(value, Tensor):
        value = value.data
    if isinstance(value, (int, float, list, tuple, np.ndarray)) and not isinstance(value, bool):
        with np.errstate(all="ignore"):  # past float32's range: inf, as PyTorch's cast
            return np.asarray(value, dtype=np.float64).astype(np.float32).astype(np.float64)
    return value


def lost(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Where float32's result (low) keeps no digit of float64's (high)."""
    low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    with np.errstate(all="ignore"):
        size = np.maximum(np.abs(low), np.abs(high))
        usable = np.isfinite(low) & np.isfinite(high) & (size < FLOAT32_HUGE) & (
            (np.abs(high) > FLOAT32_TINY) | (np.abs(low) > FLOAT32_TINY))
        return usable & (np.abs(low - high) > 0.5 * np.abs(high))


def _in_dtype(dtype: str, work: object) -> object:
    previous = engine.get_default_dtype()
    engine.set_default_dtype(dtype)
    try:
        return work()  # type: ignore[operator]
    finally:
        engine.set_default_dtype(previous)


def table_noise(program: str, wrt: str, points: np.ndarray, constants: list[Binding]) -> np.ndarray:
    """For each grid point: is the value there rounding noise (see the module's text)?"""
    x = np.asarray(to_float32(points))
    rounded = [Binding(c.name, to_float32(c.value), c.requires_grad) for c in constants]
    try:
        with np.errstate(all="ignore"):
            high = _in_dtype("float64", lambda: table(program, wrt, x, rounded, 1).values)
            low = _in_dtype("float32", lambda: table(program, wrt, x, rounded, 1).values)
    except Exception:  # the check is advice: a program that fails in float32 is simply not checked
        return np.zeros(points.shape, dtype=bool)
    return lost(low, high)


def eval_noise(request: EvalRequest, float32_root: np.ndarray | None = None) -> tuple[float, float] | None:
    """(float64 value, float32 value) of a scalar root when the float32 one keeps no digit; else None.
    `float32_root`: the root of the request's own run when it ran in float32 (the same run: not made again)."""
    bindings = [Binding(b.name, to_float32(b.value), b.requires_grad) for b in request.bindings]
    again = EvalRequest(request.program, bindings, parsed=request.parsed)
    try:
        with np.errstate(all="ignore"):
            high = _in_dtype("float64", lambda: run_eval(again).root.data)
            low = float32_root if float32_root is not None else _in_dtype("float32", lambda: run_eval(again).root.data)
    except Exception:
        return None
    if np.asarray(high).size != 1 or np.asarray(low).size != 1:
        return None
    a, b = float(np.asarray(high).reshape(-1)[0]), float(np.asarray(low).reshape(-1)[0])
    return (a, b) if bool(lost(np.asarray(b), np.asarray(a))) else None


__all__ = ["eval_noise", "lost", "table_noise", "to_float32"]
