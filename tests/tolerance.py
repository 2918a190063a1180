"""The suite's one numeric tolerance, and the comparisons that use it (`from tolerance import ...`).

numpy's and PyTorch's last digits depend on the CPU: their transcendental kernels (exp, log, atan, ... in
float64 too) have one implementation per instruction set (AVX-512, AVX2, SSE), float32 sums and matmuls
add in the order their SIMD width and thread split give, and BLAS picks its kernel per CPU model. So a test
never compares their numbers digit for digit: numbers are compared as numbers, within TOLERANCE for their
dtype; exact text stays exact only where the text is ours (messages, names, structure).

`numbers_differ(actual, expected)` compares two printed outputs token by token: the text between numbers
must be identical, and each pair of numbers equal within the tolerance, widened by one unit of the last
digit printed when both are printed to the same fixed precision (PyTorch's 4 decimals, `%.6g`), since a
value one ulp either side of a rounding boundary prints one unit apart.

tests/conftest.py registers this file as the module `tolerance` (the tests folders are not packages).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Tolerance:
    """|actual - expected| <= atol + rtol * |expected| (numpy.isclose's rule)."""

    rtol: float
    atol: float


# Relative: float64 1e-10 (about 450,000 ulps, so a chain of ops and a sum in another order stay inside,
# while a wrong formula does not); float32 1e-5 (84 ulps); the half types a few ulps of their 2**-10 and 2**-7.
TOLERANCE = {
    "float64": Tolerance(rtol=1e-10, atol=1e-12),
    "float32": Tolerance(rtol=1e-5, atol=1e-6),
    "float16": Tolerance(rtol=4e-3, atol=1e-5),
    "bfloat16": Tolerance(rtol=3.2e-2, atol=1e-5),
}


def tolerance(dtype: str | np.dtype = "float64") -> Tolerance:
    """The tolerance for numbers of `dtype` (a name such as "float32", or a numpy dtype); exact for the rest."""
    name = dtype if isinstance(dtype, str) else str(np.dtype(dtype))
    return TOLERANCE.get(name.removeprefix("torch."), Tolerance(rtol=0.0, atol=0.0))


def close(actual: float, expected: float, dtype: str = "float64") -> bool:
    """Two numbers equal within the tolerance of `dtype`; nan equals nan, infinities equal themselves."""
    if math.isnan(actual) or math.isnan(expected):
        return math.isnan(actual) and math.isnan(expected)
    if math.isinf(actual) or math.isinf(expected):
        return actual == expected
    t = tolerance(dtype)
    return abs(actual - expected) <= t.atol + t.rtol * abs(expected)


def assert_close(actual, expected, dtype: str | None = None, what: str = "") -> None:
    """Arrays (or numbers) of the same shape, equal within the tolerance of `dtype` (default: the
    expected array's dtype); nan matches nan."""
    expected = np.asarray(expected)
    actual = np.asarray(actual)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    t = tolerance(dtype or (expected.dtype if expected.dtype.kind == "f" else "float64"))
    np.testing.assert_allclose(actual.astype(np.float64), expected.astype(np.float64), rtol=t.rtol, atol=t.atol,
                               equal_nan=True, err_msg=what)


def assert_same_json(actual, expected, dtype: str = "float64", where: str = "") -> None:
    """Two decoded JSON documents: the same keys, strings, booleans, nulls and integers; floats within the
    tolerance of `dtype` (the spellings "nan", "inf", "-inf" are strings, so compared exactly)."""
    stack = [(actual, expected, where or "$")]
    while stack:
        a, e, path = stack.pop()
        if isinstance(e, float) or isinstance(a, float):
            assert isinstance(a, (int, float)) and isinstance(e, (int, float)) and not isinstance(a, bool), \
                f"{path}: {a!r} != {e!r}"
            assert close(float(a), float(e), dtype), f"{path}: {a!r} != {e!r} (tolerance of {dtype})"
        elif isinstance(e, dict):
            assert isinstance(a, dict) and list(a) == list(e), f"{path}: keys {list(a)[:8]} != {list(e)[:8]}"
            stack.extend((a[k], e[k], f"{path}.{k}") for k in e)
        elif isinstance(e, list):
            assert isinstance(a, list) and len(a) == len(e), f"{path}: {a!r:.200} != {e!r:.200}"
            stack.extend((x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, e)))
        else:
            assert type(a) is type(e) and a == e, f"{path}: {a!r} != {e!r}"


# A number as printed by Python, numpy or PyTorch: not glued to a name (x1, float32, SumBackward0, 0x1f).
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w.])|(?<![\w.])[-+]?(?:nan|inf)\b")


def _last_digit_unit(token: str) -> tuple[float, int, str]:
    """(one unit of the last digit written, significant digits written, the token's layout)."""
    mantissa, _, exponent = token.lower().partition("e")
    digits = mantissa.lstrip("+-")
    whole, point, fraction = digits.partition(".")
    significant = len((whole + fraction).lstrip("0")) or 1
    unit = 10.0 ** (int(exponent or 0) - len(fraction))
    layout = f"{len(fraction)}{point}e{len(exponent)}" if exponent else f"{len(fraction)}{point}"
    return unit, significant, layout


def numbers_match(actual: str, expected: str, dtype: str = "float32") -> bool:
    """Two number tokens: equal within the tolerance of `dtype`, or within one unit of their last digit when
    both are printed at the same fixed precision with at least 4 significant digits (a value on the other
    side of a rounding boundary). Integers (no point, no exponent) must be equal."""
    a, e = float(actual), float(expected)
    if close(a, e, dtype):
        return True
    if not any(c in expected.lower() for c in ".e") or not any(c in actual.lower() for c in ".e"):
        return False
    unit_a, digits_a, layout_a = _last_digit_unit(actual)
    unit_e, digits_e, layout_e = _last_digit_unit(expected)
    if layout_a != layout_e or min(digits_a, digits_e) < 4 or math.isinf(a) or math.isinf(e):
        return False
    return abs(a - e) <= max(unit_a, unit_e) * (1 + 1e-9)


def numbers_differ(actual: str, expected: str, dtype: str = "float32") -> str | None:
    """None when two printed outputs are the same text with the same numbers (within the tolerance);
    otherwise a description of the first difference (line, the two tokens). The lead's example-output
    comparisons and every test of numpy's or PyTorch's printed numbers use this."""
    for number, (line_a, line_e) in enumerate(_zip_lines(actual, expected), start=1):
        if line_a == line_e:
            continue
        text_a, nums_a = NUMBER.split(line_a), NUMBER.findall(line_a)
        text_e, nums_e = NUMBER.split(line_e), NUMBER.findall(line_e)
        if text_a != text_e or len(nums_a) != len(nums_e):
            return f"line {number}: the text differs:\n  got      {line_a!r}\n  expected {line_e!r}"
        for a, e in zip(nums_a, nums_e):
            if not numbers_match(a, e, dtype):
                return (f"line {number}: {a} != {e} (beyond the {dtype} tolerance):\n  got      {line_a!r}\n"
                        f"  expected {line_e!r}")
    return None


def _zip_lines(actual: str, expected: str):
    lines_a, lines_e = actual.split("\n"), expected.split("\n")
    if len(lines_a) != len(lines_e):
        width = max(len(lines_a), len(lines_e))
        lines_a += ["<no line>"] * (width - len(lines_a))
        lines_e += ["<no line>"] * (width - len(lines_e))
    return zip(lines_a, lines_e)


def assert_same_numbers(actual: str, expected: str, dtype: str = "float32") -> None:
    """assert numbers_differ(actual, expected, dtype) is None, with the difference as the message."""
    difference = numbers_differ(actual, expected, dtype)
    assert difference is None, difference
