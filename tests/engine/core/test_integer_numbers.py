"""Python ints beside integer tensors, as PyTorch 2.13 reads them (engine/core/coerce.py: readable,
wrapped_number, checked_number): an int outside [-2**63, 2**64) is an OverflowError for every op; arithmetic,
comparisons and bitwise ops cast the number to the tensor's dtype, wrapping (uint8 + 300 adds 44); clamp's
bounds, pow's exponent, fill_, full, where and masked_fill refuse a number the dtype cannot hold.

Without torch: exact values and error types for a few cases. With torch: every op below against PyTorch for
uint8..int64 and the numbers at the dtypes' edges, and Hypothesis draws more numbers.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autodiff.engine.facade as ours
from autodiff.engine.errors import AutodiffError, BadValueError, NumberOverflowError

DTYPES = ("uint8", "int8", "int16", "int32", "int64", "bool")
NUMBERS = (0, 1, -1, 2, -3, 100, 127, 128, -128, -129, 255, 256, -255, -256, 259, 300, -300, 32767, 32768, -32769,
           65536, 2**31 - 1, 2**31, -2**31 - 1, 2**32 + 3, 2**40, 2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64 - 1,
           2**64, 2**70, -2**70)
MASK = [True, False, True]


def _where(m, t, n, number_first):
    mask = m.tensor(MASK)
    return m.where(mask, n, t) if number_first else m.where(mask, t, n)


OPS = {
    "add": lambda m, t, n: t + n, "radd": lambda m, t, n: n + t, "sub": lambda m, t, n: t - n,
    "rsub": lambda m, t, n: n - t, "mul": lambda m, t, n: t * n, "rmul": lambda m, t, n: n * t,
    "floordiv": lambda m, t, n: t // n, "rfloordiv": lambda m, t, n: n // t, "truediv": lambda m, t, n: t / n,
    "remainder": lambda m, t, n: t % n, "rremainder": lambda m, t, n: n % t, "fmod": lambda m, t, n: m.fmod(t, n),
    "div_trunc": lambda m, t, n: m.div(t, n, rounding_mode="trunc"),
    "div_floor": lambda m, t, n: m.div(t, n, rounding_mode="floor"),
    "pow": lambda m, t, n: t ** n, "rpow": lambda m, t, n: n ** t,
    "eq": lambda m, t, n: t == n, "ne": lambda m, t, n: t != n, "lt": lambda m, t, n: t < n,
    "le": lambda m, t, n: t <= n, "gt": lambda m, t, n: t > n, "ge": lambda m, t, n: n <= t,
    "and": lambda m, t, n: t & n, "ror": lambda m, t, n: n | t, "xor": lambda m, t, n: t ^ n,
    "clamp_min": lambda m, t, n: m.clamp(t, min=n), "clamp_max": lambda m, t, n: m.clamp(t, max=n),
    "clamp": lambda m, t, n: m.clamp(t, 0, n), "clip": lambda m, t, n: t.clip(n, n),
    "where": lambda m, t, n: _where(m, t, n, False), "where_number_first": lambda m, t, n: _where(m, t, n, True),
    "fill_": lambda m, t, n: t.fill_(n), "masked_fill": lambda m, t, n: t.masked_fill(m.tensor(MASK), n),
    "full": lambda m, t, n: m.full((2,), n, dtype=t.dtype), "add_": lambda m, t, n: t.add_(n),
    "sub_": lambda m, t, n: t.sub_(n), "mul_": lambda m, t, n: t.mul_(n),
}


def _setitem(m, t, n):
    t[1:] = n  # (past int64: ValueError, 'Overflow when unpacking long long', for every dtype)
    return t


OPS.update({
    "setitem": _setitem, "clamp_min_function": lambda m, t, n: m.clamp_min(t, n),
    "clamp_max_method": lambda m, t, n: t.clamp_max(n), "full_like": lambda m, t, n: m.full_like(t, n),
    "tensor": lambda m, t, n: m.tensor([1, n], dtype=t.dtype) if -2**63 <= n < 2**63 else m.tensor([]),
    "new_full": lambda m, t, n: t.new_full((2,), n),
    "lshift": lambda m, t, n: t << n, "rshift": lambda m, t, n: t >> n, "rlshift": lambda m, t, n: n << t,
    "rrshift": lambda m, t, n: n >> t, "bitwise_left_shift": lambda m, t, n: m.bitwise_left_shift(t, n),
    "bitwise_right_shift_": lambda m, t, n: t.bitwise_right_shift_(n), "ilshift": lambda m, t, n: t.__ilshift__(n),
})


def outcome(m, op: str, dtype: str, n: int, engine: bool) -> tuple:
    """What op gives with module m: ('value', dtype, values), or ('error', the built-in exception's name)."""
    t = m.tensor([3, 2, 100], dtype=getattr(m, dtype))
    try:
        result = OPS[op](m, t, n)
    except Exception as error:  # the exception's type is what is compared
        if engine and not isinstance(error, AutodiffError):
            raise AssertionError(f"{op} {dtype} {n}: an untyped {type(error).__name__}: {error}") from error
        for kind in (OverflowError, RuntimeError, TypeError, ValueError):
            if isinstance(error, kind):
                return ("error", kind.__name__)
        return ("error", type(error).__name__)
    return ("value", str(result.dtype), result.tolist())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", sorted(OPS))
def test_numbers_at_the_edges_as_pytorch(op: str, dtype: str) -> None:
    torch = pytest.importorskip("torch")
    wrong = [(n, mine, theirs) for n in NUMBERS
             if (mine := outcome(ours, op, dtype, n, True)) != (theirs := outcome(torch, op, dtype, n, False))]
    assert not wrong, "\n".join(f"{op} {dtype} {n}: ours {mine}, PyTorch {theirs}" for n, mine, theirs in wrong)


@settings(max_examples=60, deadline=None)
@given(op=st.sampled_from(sorted(OPS)), dtype=st.sampled_from(DTYPES),
       n=st.one_of(st.integers(-2**65, 2**65), st.integers(-70_000, 70_000)))
def test_drawn_numbers_as_pytorch(op: str, dtype: str, n: int) -> None:
    torch = pytest.importorskip("torch")
    assert outcome(ours, op, dtype, n, True) == outcome(torch, op, dtype, n, False)


# ---------------------------------------------------------------------------- without torch: exact values
@pytest.mark.parametrize(("op", "dtype", "n", "expected"), [
    ("add", "uint8", 300, [47, 46, 144]),  # 300 is 44 in uint8
    ("add", "int64", 2**63, [3 - 2**63, 2 - 2**63, 100 - 2**63]),
    ("sub", "uint8", 300, [215, 214, 56]),
    ("rsub", "int8", 300, [41, 42, -56]),
    ("mul", "int8", 1000, [-72, -48, -96]),
    ("fmod", "uint8", 300, [3, 2, 12]),  # fmod by 44
    ("remainder", "int8", 200, [-53, -54, -12]),  # 200 is -56 in int8
    ("floordiv", "int32", 2**32 + 3, [1, 0, 33]),  # 2**32 + 3 is 3 in int32
    ("lt", "uint8", 300, [True, True, False]),  # against 44
    ("eq", "int8", 259, [True, False, False]),  # 259 is 3 in int8
    ("and", "uint8", 300, [0, 0, 36]),
    ("clamp_min", "uint8", -1, [255, 255, 255]),  # -1 is 255: unsigned types take negatives down to -max
    ("fill_", "uint8", -255, [1, 1, 1]),
    ("full", "int64", 2**63 - 1, [2**63 - 1, 2**63 - 1]),
    ("fill_", "int64", 2**62 + 1, [2**62 + 1] * 3),  # exactly, not through a float
    ("pow", "uint8", 255, [171, 0, 0]),
])
def test_exact_values(op: str, dtype: str, n: int, expected: list) -> None:
    result = OPS[op](ours, ours.tensor([3, 2, 100], dtype=getattr(ours, dtype)), n)
    assert result.tolist() == expected
    assert result.dtype == (ours.bool if isinstance(expected[0], bool) else getattr(ours, dtype))


@pytest.mark.parametrize(("dtype", "values", "n", "left", "right"), [
    ("uint8", [3, 2, 100], 1, [6, 4, 200], [1, 1, 50]),
    ("uint8", [3, 2, 100], 300, [0, 0, 0], [0, 0, 0]),  # 300 is 44 in uint8: past the width
    ("uint8", [3, 2, 100], 256, [3, 2, 100], [3, 2, 100]),  # 256 is 0
    ("int8", [3, -2, 100], 7, [-128, 0, 0], [0, -1, 0]),
    ("int8", [3, -2, 100], 8, [0, 0, 0], [0, -1, 0]),  # past the width: 0, or the sign for >>
    ("int64", [3, -2, 100], -1, [0, 0, 0], [0, -1, 0]),
    ("int64", [3, -2, 100], 63, [-2**63, 0, 0], [0, -1, 0]),
])
def test_shifts(dtype: str, values: list, n: int, left: list, right: list) -> None:
    t = ours.tensor(values, dtype=getattr(ours, dtype))
    assert ((t << n).tolist(), (t >> n).tolist()) == (left, right)
    assert (t << n).dtype == getattr(ours, dtype)
    t <<= n
    assert t.tolist() == left


@pytest.mark.parametrize("shift", [lambda: ours.tensor([1.5]) << 1, lambda: ours.tensor([True]) << ours.tensor([True]),
                                   lambda: ours.tensor([1]) >> 1.5])
def test_shifts_are_for_integers(shift) -> None:
    with pytest.raises(BadValueError, match="not implemented for"):  # PyTorch's "lshift_cpu" not implemented ...
        shift()


@pytest.mark.parametrize(("op", "dtype", "n"), [
    ("clamp_max", "uint8", 256), ("clamp_min", "uint8", -256), ("clamp", "int8", 128), ("pow", "uint8", 300),
    ("pow", "int64", 2**63), ("where", "uint8", 300), ("where_number_first", "int8", -129), ("fill_", "uint8", 300),
    ("masked_fill", "int16", 2**15), ("full", "int32", 2**31), ("full", "int64", 2**63),
])
def test_a_number_the_dtype_cannot_hold_is_refused(op: str, dtype: str, n: int) -> None:
    with pytest.raises(BadValueError, match="without overflow") as caught:
        OPS[op](ours, ours.tensor([3, 2, 100], dtype=getattr(ours, dtype)), n)
    assert isinstance(caught.value, RuntimeError) and caught.value.reason == "overflow"


@pytest.mark.parametrize("op", ["add", "lt", "fmod", "clamp_min", "pow", "where", "fill_", "full", "and"])
@pytest.mark.parametrize("n", [2**64, 2**70, -2**63 - 1, -2**70])
def test_an_int_no_tensor_can_read_is_an_overflow_error(op: str, n: int) -> None:
    with pytest.raises(NumberOverflowError, match=f"int too {'big' if n > 0 else 'small'} to convert") as caught:
        OPS[op](ours, ours.tensor([3, 2, 100], dtype=ours.uint8), n)
    assert isinstance(caught.value, OverflowError) and not isinstance(caught.value, RuntimeError)
    assert caught.value.kind == "value"


def test_an_int_past_int64_on_a_float_tensor_is_an_overflow_error() -> None:
    with pytest.raises(OverflowError):
        ours.tensor([1.0, 2.0]) + 2**70
    assert (ours.tensor([1.0, 2.0]) + 2**63).tolist() == [2.0**63, 2.0**63]


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "float32", "bool"])
@pytest.mark.parametrize("n", [2**63, 2**64 - 1, 2**70, -2**63 - 1])
def test_an_int_past_int64_written_by_index_is_a_value_error(dtype: str, n: int) -> None:
    """x[i] = n reads n as an int64, whatever x's dtype: past it, PyTorch's ValueError (not a RuntimeError)."""
    x = ours.zeros(3, dtype=getattr(ours, dtype))
    for index in (1, slice(None), ours.tensor([True, False, True])):
        with pytest.raises(ValueError, match="Overflow when unpacking long long") as caught:
            x[index] = n
        assert not isinstance(caught.value, RuntimeError)
    x[1] = 2**63 - 1 if dtype == "int64" else 1  # the largest int64 is read
    assert x.tolist()[1] == (2**63 - 1 if dtype == "int64" else 1)


def test_a_run_script_shows_the_value_error() -> None:
    from scripting import run_script

    code, _, err = run_script("import torch\nx = torch.zeros(3, dtype=torch.int64)\nx[0] = 2**63\n")
    assert code == 1 and err.strip().splitlines()[-1].startswith("ValueError: Overflow when unpacking long long")
