"""What `eval` and `table` say when a value is not what a student may take it for: a value computed at inf or
nan is floating-point arithmetic there, not a limit; a value that float32 cannot reproduce at all may be
cancellation noise (app.noise)."""

from __future__ import annotations

from typing import Any

import numpy as np

NOISE_CHECK_ELEMENTS = 100_000  # programs up to this size are run again in float32 and float64
NOISE_CHECK_ROWS = 10_001


def _random(texts: list[str]) -> bool:
    return any("rand" in t for t in texts)


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'" if text else "PROGRAM"


def eval_notes(program: str, request: Any, result: Any, options: dict[str, Any]) -> list[str]:
    """Warnings for `eval`: bound values that are inf or nan; a root that may be rounding noise."""
    from autodiff.engine import Tensor

    notes = binding_notes(program, request.bindings)
    tensors = [t for t in result.evaluation.names.values() if isinstance(t, Tensor)]
    if notes or _random(noise_texts(program, options)) or \
            sum(t.numpy(force=True).size for t in tensors) > NOISE_CHECK_ELEMENTS:
        return notes
    from autodiff.app.noise import eval_noise

    config = options.get("config")
    float32 = config is not None and config.dtype == "float32"
    found = eval_noise(request, result.root.numpy(force=True) if float32 else None)
    if found is not None:
        notes.append(noise_note(found[1]))
    return notes


def noise_texts(program: str, options: dict[str, Any]) -> list[str]:
    """The texts whose "rand" turns the noise check off (a random program's draws would differ)."""
    return [program, *[str(v) for v in options.get("variables", ())], *[str(c) for c in options.get("constants", ())]]


def binding_notes(program: str, bindings: list[Any]) -> list[str]:
    """The warnings for bound values that are inf or nan (arithmetic at inf is not a limit)."""
    from autodiff.engine import Tensor

    notes = []
    for binding in bindings:
        value = binding.value.numpy(force=True) if isinstance(binding.value, Tensor) else binding.value
        try:
            array = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            continue
        if array.size and not np.isfinite(array).all():
            kind = "nan" if np.isnan(array).any() else "inf" if (array == np.inf).any() else "-inf"
            if kind == "nan":
                notes.append(f"{binding.name} is nan: every value computed from it is nan (not a number), not a limit")
            else:
                notes.append(f"{binding.name} = {kind}: this is floating-point arithmetic at {kind} (1 - 1/inf is "
                             f"exactly 1, inf - inf is nan), not the limit as {binding.name} -> {kind}; for the limit: "
                             f"autodiff limit {_quoted(program)} {binding.name}={kind}")
    return notes


def noise_note(float32_value: float) -> str:
    """The warning for a root that may be rounding noise (app.noise: float32 keeps none of its digits)."""
    return (f"the root may be rounding noise: the same program in float32 keeps none of its digits here (it "
            f"gives {float32_value:.6g}), so float64 has lost at least 7 of its 16 to cancellation (the program "
            "subtracts nearly equal numbers) and its last digits, or all of them, may be noise: not the "
            "function's value, nor its limit (autodiff limit finds a limit)")


def table_noise(program: str, wrt: str, points: Any, constants: list[Any], texts: list[str]) -> Any:
    """For `table`: which rows may be rounding noise (None when the check does not apply)."""
    if _random([program, *texts]) or len(points) > NOISE_CHECK_ROWS:
        return None
    from autodiff.app.noise import table_noise as check

    flags = check(program, wrt, points, constants)
    return flags if flags.any() else None


__all__ = ["binding_notes", "eval_notes", "noise_note", "noise_texts", "table_noise"]
