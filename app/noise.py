"""Is a value rounding noise? `eval` and `table` ask it where a result may be the cancellation of nearly
equal numbers (exp(x) - 1 - x at x = 1e-8) rather than the function's value, or its limit.

The test: run the same program in float32 and in float64 on the same inputs (rounded to float32 first, so
that the input's own rounding does not count). float32 keeps about 7 digits, float64 about 16, and rounding
errors are amplified alike in both: where the float32 result keeps no correct digit at all (off by half its
size or more, or of the other sign), float64 has lost at least 7 of its 16 digits to the same amplification,
and what is left may be noise. Overflow and underflow of float32 are not counted.

That test misses rounding that erases everything in both precisions alike: (1 - 1/x)**x at x = 1e17 is 1 in
float32 and float64 (1 - 1e-17 rounds to 1), where the limit is 1/e. `table` also bounds float64's own
rounding inside the program, to first order, by the backward pass: an intermediate u (an input of a node,
not the grid variable or a constant as given) is off by up to |u| * eps, which moves the value by
|d value / d u| * |u| * eps; where those add up to half the value or more, no digit is left."""

from __future__ import annotations

import math

import numpy as np

from autodiff import engine
from autodiff.app.notices import program_warnings
from autodiff.app.session import Binding, EvalRequest, evaluate, root_tensor, run_eval
from autodiff.app.textbook.realroots import BACKEND
from autodiff.engine import Tensor

FLOAT32_TINY = 1e-30  # below this (or above 1/this) float32 under- or overflows: not cancellation
FLOAT32_HUGE = 1e30


def to_float32(value: object) -> object:
    """A binding's value rounded to float32 (kept as float64 numbers)."""
    if isinstance(value, Tensor):
        value = value.numpy(force=True)
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


def lost_one(low: float, high: float) -> bool:
    """`lost` of one pair of Python floats, in the same IEEE operations (without making arrays)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return False
    if not (max(abs(low), abs(high)) < FLOAT32_HUGE and (abs(high) > FLOAT32_TINY or abs(low) > FLOAT32_TINY)):
        return False
    return abs(low - high) > 0.5 * abs(high)


def _in_dtype(dtype: str, work: object) -> object:
    previous = engine.get_default_dtype()
    engine.set_default_dtype(dtype)
    try:
        return work()  # type: ignore[operator]
    finally:
        engine.set_default_dtype(previous)


def table_noise(program: str, wrt: str, points: np.ndarray, constants: list[Binding]) -> np.ndarray:
    """For each grid point: is the value there rounding noise (see the module's text)?"""
    from autodiff.app.calculus.table import table  # `table` itself asks this (eval's checks need no table)

    x = np.asarray(to_float32(points))
    rounded = [Binding(c.name, to_float32(c.value), c.requires_grad) for c in constants]
    try:
        with np.errstate(all="ignore"):
            high = _in_dtype("float64", lambda: table(program, wrt, x, rounded, 1).values)
            low = _in_dtype("float32", lambda: table(program, wrt, x, rounded, 1).values)
    except Exception:  # the check is advice: a program that fails in float32 is simply not checked
        return rounding_noise(program, wrt, points, constants)
    return lost(low, high) | rounding_noise(program, wrt, points, constants)


def rounding_noise(program: str, wrt: str, points: np.ndarray, constants: list[Binding]) -> np.ndarray:
    """For each grid point: does float64's rounding of the program's intermediate values bound the value's
    error at half its size or more (see the module's text)? An elementwise program only (else all False)."""
    eps = float(np.finfo(np.float64).eps)
    bound = np.zeros(points.shape)

    def observe(node: object, grad: object, outputs: object) -> None:
        saved = node.saved_values() if hasattr(node, "saved_values") else None  # type: ignore[attr-defined]
        if not saved or not outputs:
            return
        inputs = node.op.inputs  # type: ignore[attr-defined]
        for (source, _), name, g in zip(node.next_functions, inputs, outputs):  # type: ignore[attr-defined]
            if g is None or source is None or source.name() == "AccumulateGrad" or name not in saved:
                continue
            part = np.abs(np.asarray(g, dtype=np.float64)) * np.abs(np.asarray(saved[name], dtype=np.float64))
            if part.shape == bound.shape:
                bound[...] += part * eps

    request = EvalRequest(program, [Binding(wrt, np.asarray(points, dtype=np.float64), True), *constants],
                          grad_tensor=np.ones(points.shape), observe=observe, backend=BACKEND)
    try:
        with np.errstate(all="ignore"):
            root = _in_dtype("float64", lambda: run_eval(request).root.numpy(force=True))
            values = np.asarray(root, dtype=np.float64)
    except Exception:  # advice, as above
        return np.zeros(points.shape, dtype=bool)
    if values.shape != points.shape:
        return np.zeros(points.shape, dtype=bool)
    with np.errstate(all="ignore"):
        return np.isfinite(bound) & np.isfinite(values) & (values != 0) & (bound >= 0.5 * np.abs(values))


def eval_noise(request: EvalRequest, float32_root: np.ndarray | None = None) -> tuple[float, float] | None:
    """(float64 value, float32 value) of a scalar root when the float32 one keeps no digit; else None.
    `float32_root`: the root of the request's own run when it ran in float32 (the same run: not made again)."""
    bindings = [Binding(b.name, to_float32(b.value), b.requires_grad) for b in request.bindings]
    again = EvalRequest(request.program, bindings, parsed=request.parsed)
    try:
        with np.errstate(all="ignore"):
            high = _in_dtype("float64", lambda: _root(again))
            low = float32_root if float32_root is not None else _in_dtype("float32", lambda: _root(again))
    except Exception:
        return None
    if np.asarray(high).size != 1 or np.asarray(low).size != 1:
        return None
    a, b = float(np.asarray(high).reshape(-1)[0]), float(np.asarray(low).reshape(-1)[0])
    return (a, b) if bool(lost(np.asarray(b), np.asarray(a))) else None


__all__ = ["eval_noise", "lost", "lost_one", "rounding_noise", "table_noise", "to_float32"]


def _root(request: EvalRequest) -> np.ndarray:
    """The root's values of the program run forward only (as run_eval records it, with grad enabled; the check
    needs no backward pass; its warnings were the run's own, told there)."""
    with engine.enable_grad(), program_warnings([]):
        _, evaluation = evaluate(request)
        return root_tensor(evaluation).numpy(force=True)
