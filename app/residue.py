"""When a computed number prints as 0: the rounding residue of an exact 0 (cos(pi/2) is 6.1e-17 in float64).

The rule, for every command's text output (pretty and plain; JSON keeps the raw number):

- -0 prints as 0; nan and inf as they are.
- A float64 value v computed from inputs x_1 .. x_n prints as 0 when |v| <= ULPS * EPSILON * S, where
  EPSILON = 2**-52 (the spacing of float64 numbers at 1) and S = sum_j |x_j| * |dv/dx_j|: how far v moves
  when each input moves by its own relative rounding. A value that small is within the inputs' rounding of 0;
  its sign and digits are noise. ULPS = 32: the points of a `table` grid are decimals of 15 significant
  digits (up to 22.5 units in the last place from the point meant, pi/2 for `x=0:pi:pi/2`), plus a few more
  for the program's own rounding.
- `table` and `tangent` compute one derivative more for S (tangent's polynomial is built from the
  derivatives as printed).
- Where dv/dx is not at hand (the last column of a table of order 10, a Jacobian's or a Hessian's entries),
  S is the largest input's |x| times the largest derivative beside v of the same output (the row of the
  matrix; the column before, in the table): in the functions whose exact zeros come out as residues (sin,
  cos, tan, exp, polynomials at their roots) the derivatives next to each other are of one size.
- EPSILON is float32's (2**-23) for float32 values (jacobian and hessian follow PyTorch's float32 default).
- A table's constants (a=pi/2) are not counted among the inputs: only the grid variable's rounding is.
- `diff`, which has the formula, asks SymPy instead (`exact`): a value of magnitude 1e-12 or less prints as
  0 when the formula's exact value at the point is 0.

Plain Python and numpy only: no SymPy (only `diff`'s `exact` question, passed in by its caller, uses it).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

EPSILON = 2.0**-52
ULPS = 32
EXACT_BELOW = 1e-12  # diff: a value this small may be a residue of an exact 0, asked of SymPy


def tolerance(scale: float) -> float:
    """The largest magnitude that prints as 0 for a value whose scale (S above) is `scale`."""
    return ULPS * EPSILON * abs(scale)


def printed(value: float, scale: float | None = None, exact: Callable[[], str | None] | None = None) -> float:
    """The value as text output shows it: 0 for -0 and for a residue of 0 (see the module's text); `scale`:
    S, when known; `exact`: the exact value's text, asked only for a value of magnitude EXACT_BELOW or less."""
    value = float(value) + 0.0  # -0 is 0
    if value == 0 or not math.isfinite(value):
        return value
    if scale is not None and math.isfinite(scale) and abs(value) <= tolerance(scale):
        return 0.0
    if exact is not None and abs(value) <= EXACT_BELOW and exact() == "0":
        return 0.0
    return value


def printed_all(values: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """`printed` elementwise (no `exact`): values and their scales S, arrays of one shape; float32 values with
    float32's EPSILON. Returns float64 numbers."""
    values = np.asarray(values)
    epsilon = 2.0**-23 if values.dtype == np.float32 else EPSILON
    values = values.astype(np.float64) + 0.0
    scales = np.abs(np.asarray(scales, dtype=np.float64))
    with np.errstate(all="ignore"):
        residue = np.isfinite(values) & np.isfinite(scales) & (np.abs(values) <= ULPS * epsilon * scales)
    return np.where(residue, 0.0, values)


def point_scales(point: dict[str, float], gradient: dict[str, float]) -> tuple[float, float]:
    """At a point with its gradient: S of the function's value (sum of |x| * |df/dx|) and, the second
    derivatives not at hand, S of each first derivative (the largest |x| times the largest |df/dx|)."""
    pairs = [(abs(x), abs(gradient[n])) for n, x in point.items() if n in gradient]
    pairs = [(x, g) for x, g in pairs if math.isfinite(x) and math.isfinite(g)]
    value = sum(x * g for x, g in pairs)
    derivative = max((x for x, _ in pairs), default=0.0) * max((g for _, g in pairs), default=0.0)
    return value, derivative


def taylor_scales(derivatives: dict[tuple[int, ...], float], point: list[float]) -> dict[tuple[int, ...], float]:
    """S for each partial derivative D^a f at a point (a: the powers of the variables), from the derivatives of one
    order more (sum of |x_i| * |D^(a + e_i) f|); for the highest order, the largest |x| times the largest
    derivative of the order below."""
    top = max(map(sum, derivatives), default=0)
    largest = max((abs(x) for x in point if math.isfinite(x)), default=0.0)
    below = max((abs(d) for a, d in derivatives.items() if sum(a) == top - 1 and math.isfinite(d)), default=0.0)
    scales = {}
    for alpha in derivatives:
        nexts = [tuple(p + (i == j) for j, p in enumerate(alpha)) for i in range(len(alpha))]
        if sum(alpha) < top and all(n in derivatives for n in nexts):
            terms = [abs(x) * abs(derivatives[n]) for x, n in zip(point, nexts)]
            scales[alpha] = sum(t for t in terms if math.isfinite(t))
        else:
            scales[alpha] = largest * below
    return scales


def row_scales(matrix: np.ndarray, inputs: float) -> np.ndarray:
    """S for each entry of a matrix of derivatives (rows: outputs) whose own derivatives are not at hand: the
    largest input's size (`inputs`) times the largest finite entry of its row."""
    matrix = np.abs(np.asarray(matrix, dtype=np.float64))
    finite = np.where(np.isfinite(matrix), matrix, 0.0)
    largest = finite.max(axis=-1, keepdims=True) if finite.size else finite
    with np.errstate(all="ignore"):
        return np.broadcast_to(abs(inputs) * largest, matrix.shape)


def table_scales(grid: np.ndarray, columns: list[np.ndarray], following: np.ndarray | None) -> list[np.ndarray]:
    """S for each column of a table (the value, then derivatives 1 .. n) over `grid`: |x| times the next
    column (`following`: derivative n + 1, when computed; else the column before the last stands in)."""
    x = np.abs(np.asarray(grid, dtype=np.float64))
    nexts = [*columns[1:], following if following is not None else columns[-2] if len(columns) > 1 else None]
    scales = []
    for after in nexts:
        size = np.abs(np.asarray(after, dtype=np.float64)) if after is not None else np.zeros(x.shape)
        with np.errstate(all="ignore"):  # an inf scale (sinh(710) * 710) is left out by printed_all
            scales.append(x * np.where(np.isfinite(size), size, 0.0))
    return scales
