"""Regenerate tests/engine/core/golden/format.json from PyTorch's own repr (needs torch).

Run: .venv/bin/python tests/make_format_golden.py

Each case records the array (nested lists; "nan", "inf", "-inf" stand for non-finite numbers),
its shape and dtype, the autograd state and default dtype, and what PyTorch prints for it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).parent / "engine" / "core" / "golden" / "format.json"
NAN, INF = math.nan, math.inf

# Ops that leave every value (nan, -0.0 included) untouched but give the result this grad_fn.
IDENTITY_OPS = {
    "MulBackward0": lambda t: t * 1,
    "CloneBackward0": lambda t: t.clone(),
    "ViewBackward0": lambda t: t.view(t.shape),
}


def encode(value):
    """JSON has no nan/inf: spell them as strings, recursively."""
    if isinstance(value, list):
        return [encode(v) for v in value]
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def torch_repr(a: np.ndarray, requires_grad: bool, grad_fn: str | None, default_dtype: str) -> str:
    t = torch.from_numpy(a)
    if requires_grad or grad_fn is not None:
        t = t.requires_grad_()
    if grad_fn is not None:
        t = IDENTITY_OPS[grad_fn](t)
        assert type(t.grad_fn).__name__ == grad_fn
        assert np.array_equal(t.detach().numpy(), a, equal_nan=True)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, default_dtype))
    try:
        return repr(t)
    finally:
        torch.set_default_dtype(previous)


def build_cases() -> list[tuple[str, np.ndarray, dict]]:
    rng = np.random.default_rng(20240613)
    f32, f64 = np.float32, np.float64
    cases: list[tuple[str, np.ndarray, dict]] = []

    def add(name, values, dtype=f32, **options):
        cases.append((name, np.asarray(values, dtype=dtype), options))

    def dyadic(shape):
        """Random multiples of 1/64: exact in float32 and short in JSON, still rounded when printed."""
        return rng.integers(-400, 400, shape) / 64

    # 0-d tensors across magnitudes and kinds.
    ordinary = [0.0, -0.0, 1.0, -1.0, 0.5, 3.14159265, -2.5e-3, 123456.7, 99999999.0]
    extreme = [1e-4, 1e-5, 1e8, 1.5e8, 1e10, 1e-30, 1e30, 1e-45, NAN, INF, -INF]
    for i, v in enumerate(ordinary + extreme):
        add(f"scalar_f32_{i}", v)
    for i, v in enumerate([0.1, 1e-4, 1e300, 5e-324, -7.0, NAN]):
        add(f"scalar_f64_{i}", v, f64)

    # Integer-valued floats: printed as "1." with a width that includes the point.
    add("int_small", [1.0, 2.0, 3.0])
    add("int_mixed_signs", [-1.0, 0.0, 100.0, -25.0])
    add("int_zeros", [0.0, 0.0, 0.0])
    add("int_large_no_sci", [12345678.0, 1.0, -3.0], f64)
    add("int_sci_ratio", [1.0, 5000.0])
    add("int_sci_huge", [1e9, 2e9])
    add("int_2d", [[1.0, -2.0, 3.0], [40.0, 5.0, -600.0]])

    add("mixed_signs", [-1.5, 2.25, -0.125, 3.0])
    add("precision_rounding", [0.12345, 0.99999, 1.00005, -0.00005], f64)

    # The scientific-notation switch and its boundaries.
    add("sci_ratio_exactly_1000", [1.0, 1000.0], f64)
    add("sci_ratio_above_1000", [1.0, 1000.5], f64)
    add("sci_ratio_fraction", [0.5, 600.0])
    add("sci_max_exactly_1e8", [1e8, 2e7], f64)
    add("sci_max_above_1e8", [100000008.0, 2e7])
    add("sci_min_exactly_1e-4_f64", [1e-4, 5e-2], f64)
    add("sci_min_1e-4_f32_rounds_below", [1e-4, 5e-2])
    add("sci_min_below_1e-4", [9e-5, 5e-2], f64)
    add("sci_negative", [-1e-6, 2e-7, -3.5e-5])
    add("sci_2d", [[1e-10, 1.0], [-1e10, 3.0]], f64)

    # nan and inf take no part in choosing the notation or the width.
    add("nan_with_ints", [NAN, 1.0, 2.0])
    add("inf_with_ints", [1.0, INF])
    add("inf_mixture", [INF, -INF, 0.5, NAN])
    add("nan_with_sci", [NAN, 1e-10, 1.0])
    add("inf_with_sci", [-INF, 1e-10, 1e10], f64)
    add("all_nan", [NAN, NAN, NAN])
    add("all_inf", [INF, -INF])
    add("zero_and_nan", [0.0, NAN])
    add("nan_inf_2d", [[NAN, 1.5, -INF], [2.0, INF, -3.25]])

    # Negative zero: excluded from the choice, then printed with its sign.
    add("neg_zero_ints", [-0.0, 0.0, 1.0])
    add("neg_zero_fixed", [-0.0, 1.5])
    add("neg_zero_sci", [-0.0, 1e-10, 0.0])
    add("neg_zero_only", [-0.0, -0.0])

    # Extremes.
    add("tiny_f32", [1e-38, 1e-45, 3e-40])
    add("huge_f32", [3.4e38, -1e38])
    add("tiny_f64", [5e-324, 1e-300], f64)
    add("huge_f64", [1e308, -1.7e308, 1.0], f64)

    # Shapes.
    add("vec_random", rng.standard_normal(7))
    add("mat_random", rng.standard_normal((4, 5)))
    add("mat_single_column", rng.standard_normal((4, 1)))
    add("mat_single_row", rng.standard_normal((1, 4)))
    add("cube_random", rng.standard_normal((2, 3, 4)))
    add("cube_ints", np.arange(24.0).reshape(2, 3, 4) - 12)
    add("tesseract_random", rng.standard_normal((2, 2, 3, 2)))
    add("five_d", rng.standard_normal((2, 1, 2, 1, 2)), f64)
    add("size_one_everything", [[[[7.5]]]])

    # Rows wider than the line width wrap; the width depends on the indentation depth.
    add("wrap_1d", rng.standard_normal(30))
    add("wrap_1d_ints", np.arange(100.0))
    add("wrap_2d", rng.standard_normal((2, 15)) * 10)
    add("wrap_3d", rng.standard_normal((2, 2, 20)))
    add("wrap_sci", rng.standard_normal(12) * 1e6, f64)
    add("wrap_with_nan", [NAN, *np.arange(1.0, 25.0)])

    # Summarised tensors (more than 1000 elements): edge items and "..." rows.
    add("summary_1001", np.arange(1001.0))
    add("summary_1001_random", rng.standard_normal(1001))
    add("summary_40x40", dyadic((40, 40)))
    add("summary_3x500", dyadic((3, 500)))
    add("summary_2x3x400", dyadic((2, 3, 400)), f64)
    add("summary_7x7x7x7", dyadic((7, 7, 7, 7)))
    add("summary_6x6x6x6_nothing_cut", rng.integers(-9, 10, (6, 6, 6, 6)))
    hidden = dyadic((40, 40))
    hidden[20, 20] = 1e12  # not shown, so it must not switch the notation
    add("summary_hidden_outlier", hidden)
    shown = dyadic((40, 40))
    shown[0, 0] = 1e12
    add("summary_shown_outlier", shown)
    add("summary_1x1100", dyadic((1, 1100)))
    add("summary_1100x1", dyadic((1100, 1)) / 1024)

    # Suffixes: dtype, requires_grad, grad_fn and where they go.
    add("f64_dtype_suffix", [1.0, 2.5], f64)
    add("f64_default_no_suffix", [1.0, 2.5], f64, default_dtype="float64")
    add("f32_with_default_f64", [1.0, 2.5], default_dtype="float64")
    add("f32_scalar_with_default_f64", 2.0, default_dtype="float64")
    add("requires_grad", [1.0, 2.0], requires_grad=True)
    add("requires_grad_scalar", 3.5, requires_grad=True)
    add("grad_fn_mul", [[1.0, 2.0], [3.0, 4.0]], grad_fn="MulBackward0")
    add("grad_fn_clone_f64", [0.5, -1.5], f64, grad_fn="CloneBackward0")
    add("grad_fn_view_scalar", 1e-9, grad_fn="ViewBackward0")
    add("requires_grad_multiline_f64", rng.standard_normal((3, 4)), f64, requires_grad=True)
    add("suffix_breaks_line", rng.standard_normal((2, 15)) * 10, f64)
    add("suffix_wraps_with_row", rng.standard_normal(8) * 10, f64, grad_fn="MulBackward0")
    add("suffix_on_new_line", rng.standard_normal(6), f64, grad_fn="CloneBackward0")
    # "tensor([" + 5 elements of width 8 + "]" is 57 columns: the dtype suffix just fits (79 in all).
    add("suffix_fits_exactly", [100.125, -20.5, 300.25, 4.0625, 555.5], f64)
    add("suffix_just_too_long", [100.125, -20.5, 300.25, 4.0625, 555.5, 6.5], f64)
    add("suffix_f32_grad_fn_fits", [1.5, 2.5, 3.5, 4.5, 5.5], grad_fn="MulBackward0")
    add("suffix_f32_grad_fn_breaks", [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5], grad_fn="MulBackward0")
    add("suffix_after_summary", dyadic((40, 40)), f64, requires_grad=True)
    add("suffix_wrapped_1d", rng.standard_normal(9) * 100, f64, grad_fn="MulBackward0")

    # Empty tensors: the shape is printed unless it is 1-D.
    add("empty_1d", np.zeros(0))
    add("empty_0x3", np.zeros((0, 3)))
    add("empty_2x0", np.zeros((2, 0)))
    add("empty_2x0x3", np.zeros((2, 0, 3)))
    add("empty_1d_f64", np.zeros(0), f64)
    add("empty_0x3_f64", np.zeros((0, 3)), f64)
    add("empty_requires_grad", np.zeros(0), requires_grad=True)
    add("empty_f64_with_default_f64", np.zeros((3, 0)), f64, default_dtype="float64")
    add("empty_grad_fn", np.zeros((0, 2)), grad_fn="MulBackward0")
    return cases


def main() -> None:
    records = []
    for name, a, options in build_cases():
        requires_grad = options.get("requires_grad", False)
        grad_fn = options.get("grad_fn")
        default_dtype = options.get("default_dtype", "float32")
        records.append(
            {
                "name": name,
                "data": encode(a.tolist()),
                "shape": list(a.shape),
                "dtype": a.dtype.name,
                "requires_grad": requires_grad,
                "grad_fn": grad_fn,
                "default_dtype": default_dtype,
                "expected": torch_repr(a, requires_grad, grad_fn, default_dtype),
            }
        )
    assert len({r["name"] for r in records}) == len(records), "case names must be unique"
    OUT.parent.mkdir(exist_ok=True)
    # One case per line keeps the file diffable.
    OUT.write_text("[\n" + ",\n".join(json.dumps(r) for r in records) + "\n]\n")
    print(f"wrote {len(records)} cases to {OUT} (torch {torch.__version__})")


if __name__ == "__main__":
    main()
