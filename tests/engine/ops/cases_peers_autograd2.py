"""HIPS autograd's systematic tests (tests/test_systematic.py), ported: see cases_peers.py and
cases_peers_autograd.py (float64, second derivatives, PyTorch as the reference).

autograd's helpers sweep each function over a fixed set of inputs: `stat_check` (a reduction) over a number, a
0-d array and arrays of shapes (3,), (2, 3), (1, 3) with axis None, 0 or 1 and keepdims both ways;
`unary_ufunc_check` over a number at 0.4 of the way through the test's limits and arrays of shapes (2,),
(3, 2), (1, 2) inside them; `binary_ufunc_check` over every pair of those operands (broadcast together).
`combo_check` takes every combination: so do the loops here (complex inputs excepted: autodiff has none).
"""

from __future__ import annotations

import itertools
from typing import Any

# numpy's reduction -> PyTorch's spelling; None: the reduction over all elements has no dim argument
STATS = {"max": "amax", "min": "amin", "mean": "mean", "sum": "sum", "prod": "prod",
         "var": "var", "std": "std"}
UNARY = {  # autograd's test -> (PyTorch's program, limits)
    "test_sin": ("torch.sin(x)", (-2, 2)), "test_abs": ("torch.abs(x)", (0.1, 4.0)),
    "test_absolute": ("torch.absolute(x)", (0.1, 4.0)), "test_arccosh": ("torch.arccosh(x)", (1.1, 4.0)),
    "test_arcsinh": ("torch.arcsinh(x)", (-0.9, 0.9)), "test_arctanh": ("torch.arctanh(x)", (-0.9, 0.9)),
    "test_ceil": ("torch.ceil(x)", (-1.5, 1.5)), "test_cos": ("torch.cos(x)", (-2, 2)),
    "test_cosh": ("torch.cosh(x)", (-2, 2)), "test_deg2rad": ("torch.deg2rad(x)", (-2, 2)),
    "test_degrees": ("torch.rad2deg(x) / 50.0", (-2, 2)), "test_exp": ("torch.exp(x)", (-2, 2)),
    "test_exp2": ("torch.exp2(x)", (-2, 2)), "test_expm1": ("torch.expm1(x)", (-2, 2)),
    "test_floor": ("torch.floor(x)", (-1.5, 1.5)), "test_log": ("torch.log(x)", (0.2, 2.0)),
    "test_log10": ("torch.log10(x)", (0.2, 2.0)), "test_log1p": ("torch.log1p(x)", (0.2, 2.0)),
    "test_log2": ("torch.log2(x)", (0.2, 2.0)), "test_rad2deg": ("torch.rad2deg(x) / 50.0", (-2, 2)),
    "test_radians": ("torch.deg2rad(x)", (-2, 2)), "test_sign": ("torch.sign(x)", (-2, 2)),
    "test_sinh": ("torch.sinh(x)", (-2, 2)), "test_sqrt": ("torch.sqrt(x)", (1.0, 3.0)),
    "test_square": ("torch.square(x)", (-2, 2)), "test_tan": ("torch.tan(x)", (-1.1, 1.1)),
    "test_tanh": ("torch.tanh(x)", (-2, 2)),
}
BINARY = {  # autograd's test -> (PyTorch's program, limits of x, limits of y)
    "test_add": ("torch.add(x, y)", (-2, 2), (-2, 2)),
    "test_logaddexp": ("torch.logaddexp(x, y)", (-2, 2), (-2, 2)),
    "test_logaddexp2": ("torch.logaddexp2(x, y)", (-2, 2), (-2, 2)),
    "test_remainder": ("torch.remainder(x, y)", (-0.9, 0.9), (0.7, 1.9)),
    "test_true_divide": ("torch.true_divide(x, y)", (-2, 2), (0.8, 1.2)),
    "test_mod": ("torch.remainder(x, y)", (-2, 2), (0.8, 2.1)),
    "test_true_divide_neg": ("torch.true_divide(x, y)", (-2, 2), (-2.0, -0.3)),
    "test_mod_neg": ("torch.remainder(x, y)", (-2, 2), (-2.0, -0.3)),
    "test_op_mul": ("x * y", (-2, 2), (-2, 2)), "test_op_add": ("x + y", (-2, 2), (-2, 2)),
    "test_op_sub": ("x - y", (-2, 2), (-2, 2)), "test_op_mod": ("x % y", (-2, 2), (0.3, 2.0)),
    "test_op_mod_neg": ("x % y", (-2, 2), (-2.0, -0.3)),
}
# `%` on tensors is refused by the language on purpose (README: "`%` and `//` work on numbers, not tensors")
PERCENT = "unsupported: % on tensors (the language's choice)"
SHAPES = ((2,), (3, 2), (1, 2))


def _stat_rows() -> list[tuple]:
    rows = []
    for test, fn in STATS.items():
        name = f"test_{test}"
        extra = ", correction=0" if fn in ("var", "std") else ""  # numpy's ddof=0
        rows += [(name, f"torch.{fn}(x{extra})", 3.5), (name, f"torch.{fn}(x{extra})", ())]
        combos = [(s, a, k) for s in ((3,), (2, 3), (1, 3)) for a in (None, 0) for k in (True, False)]
        combos += [(s, 1, k) for s in ((2, 3), (1, 3)) for k in (True, False)]
        for shape, axis, keep in combos:
            if axis is None and not keep:
                rows.append((name, f"torch.{fn}(x{extra})", shape))
            elif axis is None:
                dims = "dim=()" if fn in ("amax", "amin") else f"dim={tuple(range(len(shape)))}"
                program = (f"torch.{fn}(x{extra}).reshape({(1,) * len(shape)})" if fn == "prod"
                           else f"torch.{fn}(x, {dims}{extra}, keepdim=True)")
                rows.append((name, program, shape))
            else:
                rows.append((name, f"torch.{fn}(x, dim={axis}{extra}, keepdim={keep})", shape))
    return rows


def _unary_rows() -> list[tuple]:
    rows = []
    for test, (program, (low, high)) in UNARY.items():
        rows.append((test, program, low + 0.4 * (high - low)))
        rows += [(test, program, shape, {"low": low, "high": high}) for shape in SHAPES]
    return rows


def table(P: Any) -> Any:
    t = P.table_of("autograd", "tests/test_systematic.py", _stat_rows() + _unary_rows(), order=2)
    for test, (program, xlim, ylim) in BINARY.items():  # binary_ufunc_check: every pair of operands
        xs = [xlim[0] + 0.6 * (xlim[1] - xlim[0]), *SHAPES]
        ys = [ylim[0] + 0.7 * (ylim[1] - ylim[0]), *SHAPES]
        for i, (x, y) in enumerate(itertools.product(xs, ys)):
            where = f"autograd:{test}:{i}"
            t.add(test, program, _values(P, f"{where}:x", x, xlim), _values(P, f"{where}:y", y, ylim), order=2,
                  expect=PERCENT if "%" in program else "agree")
    return t


def _values(P: Any, key: str, x: Any, limits: tuple[float, float]) -> Any:
    """A number as it is; a shape: values drawn inside the limits (each input of a pair has its own)."""
    return P.uniform(key, x, limits[0], limits[1], P.F64).tolist() if isinstance(x, tuple) else x
