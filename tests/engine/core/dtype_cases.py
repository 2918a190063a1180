"""Integer, bool and float16 tensors, written once for both libraries: each case is one expression over torch
or autodiff.engine giving one tensor (or an error). tests/make_dtypes_golden.py runs them with PyTorch into
golden/dtypes.json; test_dtypes.py runs them with the engine against that file, and against torch itself
when it is installed.

The cases: the constructors' inferred dtypes, every unary function and conversion on every dtype, and the
promotion table: every binary operator on every pair of dtypes, with each operand a tensor with dims, a 0-d
tensor or a Python number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64")
FORMS = ("dims", "zero")  # a tensor with dimensions, a 0-d tensor
NUMBERS = (2, 2.5, True)  # the Python numbers of the promotion table


@dataclass
class Lib:
    """torch or autodiff.engine, with what differs between them spelled once."""

    mod: Any
    is_torch: bool

    def dt(self, name: str) -> Any:
        """The dtype object called name (the engine spells torch.bool as engine.bool_)."""
        return getattr(self.mod, name if self.is_torch or name != "bool" else "bool_")

    def array(self, t: Any) -> np.ndarray:
        return t.detach().numpy().copy() if self.is_torch else np.array(t.data, copy=True)

    def left(self, dtype: str, form: str) -> Any:
        """The left operand: [3, 1, 2] (bool: [True, True, False]) in dtype, or its first element as 0-d."""
        values = [True, True, False] if dtype == "bool" else [3, 1, 2]
        return self.mod.tensor(values if form == "dims" else values[0], dtype=self.dt(dtype))

    def right(self, dtype: str, form: str) -> Any:
        """The right operand: [2, 1, 3] (bool: all True, so that it divides), or its first element as 0-d."""
        values = [True, True, True] if dtype == "bool" else [2, 1, 3]
        return self.mod.tensor(values if form == "dims" else values[0], dtype=self.dt(dtype))


@dataclass(frozen=True)
class Case:
    id: str
    fn: Callable[[Lib], Any]


BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "truediv": lambda a, b: a / b,
    "floordiv": lambda a, b: a // b,
    "mod": lambda a, b: a % b,
    "pow": lambda a, b: a**b,
    "lt": lambda a, b: a < b,
}
TENSOR_BINARY = {  # functions whose both operands are tensors
    "maximum": lambda L, a, b: L.mod.maximum(a, b),
    "where": lambda L, a, b: L.mod.where(L.mod.tensor([True, False, True]), a, b),
    "cat": lambda L, a, b: L.mod.cat([a.reshape(-1), b.reshape(-1)]),
}


def _promotion() -> list[Case]:
    cases = []
    for left in DTYPES:
        for lform in FORMS:
            for right in DTYPES:
                for rform in FORMS:
                    for name, op in BINARY.items():
                        cases.append(Case(f"{name}-{left}-{lform}-{right}-{rform}",
                                          lambda L, op=op, a=(left, lform), b=(right, rform):
                                          op(L.left(*a), L.right(*b))))
                    if lform == rform == "dims":
                        for name, fn in TENSOR_BINARY.items():
                            cases.append(Case(f"{name}-{left}-{right}",
                                              lambda L, fn=fn, a=left, b=right:
                                              fn(L, L.left(a, "dims"), L.right(b, "dims"))))
            for number in NUMBERS:
                for name, op in BINARY.items():
                    cases.append(Case(f"{name}-{left}-{lform}-number{number!r}",
                                      lambda L, op=op, a=(left, lform), n=number: op(L.left(*a), n)))
                    cases.append(Case(f"{name}-number{number!r}-{left}-{lform}",
                                      lambda L, op=op, a=(left, lform), n=number: op(n, L.right(*a))))
    return cases


UNARY = {
    "neg": lambda L, x: -x,
    "abs": lambda L, x: x.abs(),
    "sign": lambda L, x: x.sign(),
    "floor": lambda L, x: x.floor(),
    "exp": lambda L, x: x.exp(),
    "sqrt": lambda L, x: x.sqrt(),
    "sigmoid": lambda L, x: x.sigmoid(),
    "sum": lambda L, x: x.sum(),
    "sum_dim": lambda L, x: x.sum(dim=0),
    "prod": lambda L, x: x.prod(),
    "cumsum": lambda L, x: x.cumsum(0),
    "mean": lambda L, x: x.mean(),
    "std": lambda L, x: x.std(),
    "max": lambda L, x: x.max(),
    "amax": lambda L, x: x.amax(0),
    "argmax": lambda L, x: x.argmax(),
    "max_dim_values": lambda L, x: x.max(dim=0)[0],
    "max_dim_indices": lambda L, x: x.max(dim=0)[1],
    "sort": lambda L, x: x.sort()[0],
    "clamp_int": lambda L, x: x.clamp(min=1),
    "clamp_float": lambda L, x: x.clamp(min=1.5),
    "reshape": lambda L, x: x.reshape(3, 1),
    "index": lambda L, x: x[L.mod.tensor([2, 0])],
    "mask": lambda L, x: x[L.mod.tensor([True, False, True])],
    "softmax": lambda L, x: x.softmax(0),
    "matmul": lambda L, x: x @ x,
    "long": lambda L, x: x.long(),
    "int": lambda L, x: x.int(),
    "short": lambda L, x: x.short(),
    "char": lambda L, x: x.char(),
    "byte": lambda L, x: x.byte(),
    "bool": lambda L, x: x.bool(),
    "half": lambda L, x: x.half(),
    "float": lambda L, x: x.float(),
    "double": lambda L, x: x.double(),
    "to_int16": lambda L, x: x.to(L.dt("int16")),
    "type_float64": lambda L, x: x.type(L.dt("float64")),
    "ones_like": lambda L, x: L.mod.ones_like(x),
    "zeros_like": lambda L, x: L.mod.zeros_like(x),
    "full_like": lambda L, x: L.mod.full_like(x, 7),
}


def _unary() -> list[Case]:
    cases = []
    for dtype in DTYPES:
        for name, fn in UNARY.items():
            cases.append(Case(f"{name}-{dtype}", lambda L, fn=fn, d=dtype: fn(L, L.left(d, "dims"))))
    # fractional values made integer: truncated towards zero
    cases.append(Case("long-of-fractions", lambda L: L.mod.tensor([1.7, -1.7, 0.5, -0.5]).long()))
    cases.append(Case("int8-of-fractions", lambda L: L.mod.tensor([1.7, -1.7, 100.9]).to(L.dt("int8"))))
    cases.append(Case("bool-of-floats", lambda L: L.mod.tensor([0.0, -0.0, 0.1, -2.0]).bool()))
    return cases


CONSTRUCTORS = {
    "tensor-ints": lambda L: L.mod.tensor([1, 2, 3]),
    "tensor-int": lambda L: L.mod.tensor(3),
    "tensor-bools": lambda L: L.mod.tensor([True, False]),
    "tensor-bool": lambda L: L.mod.tensor(True),
    "tensor-mixed": lambda L: L.mod.tensor([1, 2.0]),
    "tensor-bool-int": lambda L: L.mod.tensor([True, 2]),
    "tensor-nested": lambda L: L.mod.tensor([[1, 2], [3, 4]]),
    "tensor-empty": lambda L: L.mod.tensor([]),
    "tensor-int-dtype-float": lambda L: L.mod.tensor([1, 2], dtype=L.dt("float64")),
    "tensor-float-dtype-int": lambda L: L.mod.tensor([1.9, -1.9], dtype=L.dt("int32")),
    "tensor-numpy-int32": lambda L: L.mod.tensor(np.array([1, 2], dtype=np.int32)),
    "tensor-numpy-float64": lambda L: L.mod.tensor(np.array([1.5], dtype=np.float64)),
    "tensor-numpy-scalar": lambda L: L.mod.tensor(np.float64(1.5)),
    "tensor-numpy-scalars": lambda L: L.mod.tensor([np.int32(1), np.int32(2)]),
    "tensor-of-0d-ints": lambda L: L.mod.tensor([L.mod.tensor(1), L.mod.tensor(2)]),
    "tensor-of-0d-doubles": lambda L: L.mod.tensor([L.mod.tensor(1.0, dtype=L.dt("float64"))]),
    "tensor-overflow": lambda L: L.mod.tensor([2**63]),
    "tensor-int-requires-grad": lambda L: L.mod.tensor([1, 2], requires_grad=True),
    "empty-int64": lambda L: L.mod.zeros(0, dtype=L.dt("int64")),
    "empty-2d-int32": lambda L: L.mod.zeros(0, 2, dtype=L.dt("int32")),
    "empty-bool": lambda L: L.mod.tensor([], dtype=L.dt("bool")),
    "arange": lambda L: L.mod.arange(5),
    "arange-start": lambda L: L.mod.arange(1, 4),
    "arange-step": lambda L: L.mod.arange(0, 10, 3),
    "arange-negative-step": lambda L: L.mod.arange(10, 0, -3),
    "arange-empty": lambda L: L.mod.arange(0),
    "arange-float-step": lambda L: L.mod.arange(0, 1, 0.25),
    "arange-float-start": lambda L: L.mod.arange(0.0, 5),
    "arange-float-end": lambda L: L.mod.arange(0, 5.0),
    "arange-d2l": lambda L: L.mod.arange(-8.0, 8.0, 0.1),
    "arange-tenths": lambda L: L.mod.arange(0, 3, 0.1),
    "arange-float64": lambda L: L.mod.arange(-3.0, 7.0, 0.13, dtype=L.dt("float64")),
    "arange-int-dtype-float": lambda L: L.mod.arange(5, dtype=L.dt("float32")),
    "arange-dtype-int32": lambda L: L.mod.arange(5, dtype=L.dt("int32")),
    "arange-0d-tensor": lambda L: L.mod.arange(L.mod.tensor(3)),
    "full-int": lambda L: L.mod.full((2,), 7),
    "full-bool": lambda L: L.mod.full((2,), True),
    "full-float": lambda L: L.mod.full((2,), 7.0),
    "full-int-dtype-uint8": lambda L: L.mod.full((2,), -1, dtype=L.dt("uint8")),
    "full-overflow-uint8": lambda L: L.mod.full((2,), 300, dtype=L.dt("uint8")),
    "full-fraction-int64": lambda L: L.mod.full((2,), 1.7, dtype=L.dt("int64")),
    "zeros-int64": lambda L: L.mod.zeros(3, dtype=L.dt("int64")),
    "ones-bool": lambda L: L.mod.ones(2, 2, dtype=L.dt("bool")),
    "ones-uint8": lambda L: L.mod.ones(3, dtype=L.dt("uint8")),
    "zeros-float16": lambda L: L.mod.zeros(2, dtype=L.dt("float16")),
    "eye-int32": lambda L: L.mod.eye(2, dtype=L.dt("int32")),
    "linspace-int64": lambda L: L.mod.linspace(0, 10, 5, dtype=L.dt("int64")),
    "zeros-int-requires-grad": lambda L: L.mod.zeros(2, dtype=L.dt("int64"), requires_grad=True),
    "rand-int64": lambda L: L.mod.rand(2, dtype=L.dt("int64")),
    "randint": lambda L: (L.mod.manual_seed(0), L.mod.randint(0, 10, (5,)))[1],
    "randint-int32": lambda L: (L.mod.manual_seed(0), L.mod.randint(0, 10, (5,), dtype=L.dt("int32")))[1],
    "randperm": lambda L: (L.mod.manual_seed(0), L.mod.randperm(6))[1],
    "multinomial": lambda L: (L.mod.manual_seed(0), L.mod.multinomial(L.mod.tensor([0.2, 0.3, 0.5]), 2))[1],
}


def _in_place(L: Lib) -> Any:
    counts = L.mod.zeros(3, 3, dtype=L.dt("int64"))
    a, b = L.mod.tensor([0, 1, 1]), L.mod.tensor([2, 2, 0])
    counts[a, b] += 1
    return counts


def _int_add_float_inplace(L: Lib) -> Any:
    x = L.mod.tensor([1, 2])
    x += 1.5
    return x


def _int_setitem_float(L: Lib) -> Any:
    x = L.mod.tensor([1, 2, 3])
    x[0] = 7.9
    return x


def _embedding_lookup(L: Lib) -> Any:
    table = L.mod.arange(12.0).reshape(4, 3)
    rows = L.mod.tensor([[0, 3], [2, 2]])
    return table[rows]


MISC = {
    "counts-index-add": _in_place,
    "int-iadd-float": _int_add_float_inplace,
    "int-setitem-float": _int_setitem_float,
    "lookup-by-int-tensor": _embedding_lookup,
    "bool-requires-grad": lambda L: L.mod.tensor([1.0]).bool().requires_grad_(),
    "comparison": lambda L: L.mod.tensor([1.0, 2.0]) > 1.5,
    "mask-sum": lambda L: (L.mod.tensor([1.0, 2.0, 3.0]) > 1.5).sum(),
    "mask-times-float": lambda L: (L.mod.tensor([1.0, 2.0, 3.0]) > 1.5) * L.mod.tensor([1.0, 2.0, 3.0]),
    "int-pow-negative": lambda L: L.mod.tensor([1, 2]) ** -1,
    "int-pow-negative-tensor": lambda L: L.mod.tensor([1, 2, -1, -1]) ** L.mod.tensor([-1, -2, -3, -2]),
    "number-pow-int-negative": lambda L: 2 ** L.mod.tensor([-1, 2]),
    "int-floordiv-zero": lambda L: L.mod.tensor([1, 2]) // 0,
    "int-mod-zero": lambda L: L.mod.tensor([1, 2]) % L.mod.tensor([1, 0]),
    "float-floordiv-zero": lambda L: L.mod.tensor([1.0, -2.0]) // 0,
    "floordiv-negative": lambda L: L.mod.tensor([7, -7, 7, -7]) // L.mod.tensor([2, 2, -2, -2]),
    "mod-negative": lambda L: L.mod.tensor([7, -7, 7, -7]) % L.mod.tensor([2, 2, -2, -2]),
    "div-trunc": lambda L: L.mod.div(L.mod.tensor([7, -7, 7, -7]), L.mod.tensor([2, 2, -2, -2]), rounding_mode="trunc"),
    "div-floor": lambda L: L.mod.div(L.mod.tensor([7, -7]), 2, rounding_mode="floor"),
    "div-floor-float-number": lambda L: L.mod.div(L.mod.tensor([7, -7]), 2.5, rounding_mode="floor"),
    "int8-wraps": lambda L: L.mod.tensor([100], dtype=L.dt("int8")) + 100,
    "uint8-minus": lambda L: L.mod.tensor([1], dtype=L.dt("uint8")) - 2,
    "int-times-float-number": lambda L: L.mod.tensor([1, 2]) * 2.5,
    "int-plus-0d-double": lambda L: L.mod.tensor([1, 2]) + L.mod.tensor(1.0, dtype=L.dt("float64")),
    "float32-plus-0d-double": lambda L: L.mod.tensor([1.0, 2.0]) + L.mod.tensor(1.0, dtype=L.dt("float64")),
    "half-plus-int64": lambda L: L.mod.tensor([1.5], dtype=L.dt("float16")) + L.mod.tensor([2]),
    "item-int": lambda L: L.mod.tensor(L.mod.tensor([7]).item() * 3),
    "trace-int32": lambda L: L.mod.trace(L.mod.tensor([[1, 2], [3, 4]], dtype=L.dt("int32"))),
}


def _one_hot(L: Lib, *args: Any) -> Any:
    fn = L.mod.nn.functional.one_hot if L.is_torch else L.mod.one_hot
    return fn(*args)


def _bce(L: Lib, **options: Any) -> Any:
    fn = L.mod.nn.functional.binary_cross_entropy_with_logits if L.is_torch else L.mod.binary_cross_entropy_with_logits
    x = L.mod.tensor([[0.5, -1.0, 3.0], [2.0, 0.3, -4.0]])
    y = L.mod.tensor([[1.0, 0.0, 0.5], [0.0, 1.0, 1.0]])
    return fn(x, y, **options)


OPS = {  # the ops tutorials use on integer tensors (issue 41, item 5)
    "one-hot": lambda L: _one_hot(L, L.mod.tensor([0, 2, 1])),
    "one-hot-classes": lambda L: _one_hot(L, L.mod.tensor([[0, 2], [3, 3]]), 5),
    "one-hot-float": lambda L: _one_hot(L, L.mod.tensor([0.0, 1.0])),
    "one-hot-negative": lambda L: _one_hot(L, L.mod.tensor([-1, 1])),
    "one-hot-too-small": lambda L: _one_hot(L, L.mod.tensor([1, 5]), 3),
    "bincount": lambda L: L.mod.bincount(L.mod.tensor([1, 1, 3, 0, 3, 3])),
    "bincount-minlength": lambda L: L.mod.bincount(L.mod.tensor([1, 1, 3]), minlength=6),
    "bincount-weights": lambda L: L.mod.bincount(L.mod.tensor([1, 1, 3]), weights=L.mod.tensor([0.5, 1.0, 2.0])),
    "bincount-int-weights": lambda L: L.mod.bincount(L.mod.tensor([1, 1, 3]), weights=L.mod.tensor([1, 2, 3])),
    "bincount-negative": lambda L: L.mod.bincount(L.mod.tensor([-1, 1])),
    "bincount-empty": lambda L: L.mod.bincount(L.mod.zeros(0, dtype=L.dt("int64"))),
    "unique": lambda L: L.mod.unique(L.mod.tensor([3, 1, 3, 2, 2])),
    "unique-counts": lambda L: L.mod.unique(L.mod.tensor([3, 1, 3, 2, 2]), return_counts=True)[1],
    "unique-inverse": lambda L: L.mod.unique(L.mod.tensor([[3.0, 1.0], [3.0, 2.0]]), return_inverse=True)[1],
    "unique-rows": lambda L: L.mod.unique(L.mod.tensor([[1, 2], [1, 2], [0, 1]]), dim=0),
    "index-add": lambda L: L.mod.zeros(3, 2).index_add(0, L.mod.tensor([0, 2, 0]), L.mod.ones(3, 2)),
    "index-add-alpha": lambda L: L.mod.zeros(3).index_add_(0, L.mod.tensor([0, 0]), L.mod.tensor([1.0, 2.0]),
                                                          alpha=2),
    "index-add-int": lambda L: L.mod.zeros(4, dtype=L.dt("int64")).index_add_(0, L.mod.tensor([1, 1, 3]),
                                                                             L.mod.tensor([5, 6, 7])),
    "scatter-add-": lambda L: L.mod.zeros(3).scatter_add_(0, L.mod.tensor([0, 0, 2]), L.mod.tensor([1.0, 2.0, 3.0])),
    "scatter-": lambda L: L.mod.zeros(2, 3).scatter_(1, L.mod.tensor([[2], [0]]), L.mod.tensor([[5.0], [6.0]])),
    "nelement": lambda L: L.mod.tensor(L.mod.zeros(2, 3).nelement()),
    "clamp-tensor-bounds": lambda L: L.mod.tensor([1.0, 5.0, 3.0]).clamp(min=L.mod.tensor([2.0, 2.0, 2.0]),
                                                                       max=L.mod.tensor(4.0)),
    "clamp-int-tensor-bound": lambda L: L.mod.tensor([1, 5, 3]).clamp(L.mod.tensor([2, 2, 2])),
    "clamp-min-above-max": lambda L: L.mod.clamp(L.mod.tensor([1.0, 5.0]), L.mod.tensor([3.0]), L.mod.tensor([2.0])),
    "cumsum-dtype": lambda L: L.mod.tensor([1, 2, 3]).cumsum(0, dtype=L.dt("float32")),
    "sum-dtype-float64": lambda L: L.mod.tensor([1.5, 2.5]).sum(dtype=L.dt("float64")),
    "sum-dtype-int32": lambda L: L.mod.tensor([True, True]).sum(dtype=L.dt("int32")),
    "sum-dtype-truncates": lambda L: L.mod.tensor([1.7, 2.5]).sum(dtype=L.dt("int64")),
    "sum-dim-dtype": lambda L: L.mod.tensor([[1, 2], [3, 4]], dtype=L.dt("int8")).sum(1, dtype=L.dt("int16")),
    "squeeze-dims": lambda L: L.mod.zeros(1, 3, 1, 2).squeeze((0, 2)),
    "squeeze-dims-kept": lambda L: L.mod.zeros(1, 3, 1, 2).squeeze((0, 1)),
    "norm-p0": lambda L: L.mod.tensor([0.0, 1.0, -2.0, 0.0]).norm(p=0),
    "norm-nuc": lambda L: L.mod.tensor([[1.0, 2.0], [3.0, 4.0]]).norm(p="nuc"),
    "norm-nuc-batch": lambda L: L.mod.tensor([[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]]]).norm(p="nuc",
                                                                                                        dim=(1, 2)),
    "norm-nuc-vector": lambda L: L.mod.tensor([1.0, 2.0]).norm(p="nuc"),
    "std-unbiased-positional": lambda L: L.mod.tensor([1.0, 2.0, 4.0]).std(False),
    "var-dim-unbiased-positional": lambda L: L.mod.tensor([[1.0, 2.0], [4.0, 5.0]]).var(0, False),
    "logical-not-int": lambda L: L.mod.logical_not(L.mod.tensor([0, 1, 2])),
    "logical-and-mixed": lambda L: L.mod.logical_and(L.mod.tensor([0, 1, 2]), L.mod.tensor([1.0, 0.0, 2.0])),
    "bitwise-and-int": lambda L: L.mod.tensor([5, 6]) & L.mod.tensor([3, 3]),
    "bitwise-xor-bool": lambda L: L.mod.tensor([True, False]) ^ L.mod.tensor([True, True]),
    "bitwise-not-int": lambda L: ~L.mod.tensor([0, 5]),
    "bitwise-and-float": lambda L: L.mod.tensor([1.0]) & L.mod.tensor([1.0]),
    "bce-pos-weight": lambda L: _bce(L, pos_weight=L.mod.tensor([2.0, 3.0, 0.5])),
    "bce-weight-none": lambda L: _bce(L, weight=L.mod.tensor([1.0, 0.5, 2.0]), reduction="none"),
    "bce-both-sum": lambda L: _bce(L, weight=L.mod.tensor([[1.0], [0.5]]), pos_weight=L.mod.tensor([2.0, 3.0, 0.5]),
                                   reduction="sum"),
    "range": lambda L: L.mod.range(0, 3),
    "range-step": lambda L: L.mod.range(0, 1, 0.1),
    "range-int64": lambda L: L.mod.range(1, 4, dtype=L.dt("int64")),
}


CASES = (_promotion() + _unary() + [Case(f"constructor-{k}", fn) for k, fn in CONSTRUCTORS.items()]
         + [Case(k, fn) for k, fn in MISC.items()] + [Case(f"op-{k}", fn) for k, fn in OPS.items()])
