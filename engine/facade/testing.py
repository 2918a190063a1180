"""torch.testing.assert_close: two tensors (or numbers, or sequences of them) equal within PyTorch's default
tolerances for their dtype, or an AssertionError that says where they differ."""

from __future__ import annotations

from typing import Any

import numpy as np

from autodiff.engine import Tensor

# PyTorch's defaults (rtol, atol) by dtype
TOLERANCES = {np.dtype(np.float16): (1e-3, 1e-5), np.dtype(np.float32): (1.3e-6, 1e-5),
              np.dtype(np.float64): (1e-7, 1e-7)}


def _array(value: Any) -> np.ndarray:
    return value.detach().numpy() if isinstance(value, Tensor) else np.asarray(value)


def assert_close(actual: Any, expected: Any, *, rtol: float | None = None, atol: float | None = None,
                 equal_nan: bool = False, check_dtype: bool = True, msg: Any = None, **ignored: Any) -> None:
    """Raise AssertionError unless actual and expected are close (PyTorch's rules and default tolerances)."""
    if isinstance(actual, (list, tuple)) and isinstance(expected, (list, tuple)):
        if len(actual) != len(expected):
            raise AssertionError(f"The length of the sequences mismatch: {len(actual)} != {len(expected)}")
        for a, b in zip(actual, expected):
            assert_close(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=check_dtype, msg=msg)
        return
    a, b = _array(actual), _array(expected)
    if a.shape != b.shape:
        raise AssertionError(msg or f"The values for attribute 'shape' do not match: {a.shape} != {b.shape}.")
    if check_dtype and isinstance(actual, Tensor) and isinstance(expected, Tensor) and a.dtype != b.dtype:
        raise AssertionError(msg or f"The values for attribute 'dtype' do not match: {a.dtype} != {b.dtype}.")
    default = TOLERANCES.get(a.dtype, (0.0, 0.0)) if a.dtype.kind == "f" else (0.0, 0.0)
    rtol = default[0] if rtol is None else rtol
    atol = default[1] if atol is None else atol
    close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if not close.all():
        bad = int((~close).sum())
        diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
        raise AssertionError(msg or f"Tensor-likes are not close!\n\nMismatched elements: {bad} / {a.size} "
                             f"({100 * bad / max(a.size, 1):.1f}%)\nGreatest absolute difference: "
                             f"{np.nanmax(diff) if diff.size else 0} (up to {atol} allowed)")


__all__ = ["assert_close"]
