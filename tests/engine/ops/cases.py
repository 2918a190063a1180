"""The op cases shared by tests/make_golden.py (which runs them with PyTorch) and test_ops_golden.py.

A case is a function `fn(lib, *inputs)` written only with API that torch and autodiff.engine both
have (module functions, methods, operators, indexing, keyword arguments), its inputs (float64 numpy
arrays, made by formulas here so that no random generator can drift), the dtype of each input tensor
and which inputs require grad. `run_case` runs a case with either library and describes the result
in a form both can produce: value, dtype, every input's .grad and the backward graph.

Input values are distinct and nonzero (no accidental ties or kinks) unless the case is about the tie
or the kink, which its id then says.
"""

from __future__ import annotations

import math
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

F32, F64 = "float32", "float64"
# The ids of the cases of cases_vocabulary.py (issue 31) start with one of these
VOCABULARY_PREFIXES = ("regression_", "v31_")


# ---------------------------------------------------------------------------- input values
def values(*shape: int, offset: int = 0, scale: float = 1.0) -> np.ndarray:
    """Distinct nonzero multiples of 1/32 in [-1.5, 1.5] (times scale), exact in float32."""
    n = math.prod(shape)
    if n > 97:
        raise ValueError("values() makes at most 97 distinct numbers")
    k = (np.arange(n) * 37 + offset * 11) % 97 - 48  # a permutation of -48..48
    k = np.where(k == 0, 49, k)
    return (k / 32.0 * scale).reshape(shape)


def positive(*shape: int, offset: int = 0) -> np.ndarray:
    """Distinct multiples of 1/40 in [0.2, 2.6]: for log, sqrt, reciprocal, fractional powers."""
    n = math.prod(shape)
    if n > 97:
        raise ValueError("positive() makes at most 97 distinct numbers")
    k = (np.arange(n) * 37 + offset * 11) % 97
    return ((k + 8) / 40.0).reshape(shape)


def array(data: Any) -> np.ndarray:
    return np.array(data, dtype=np.float64)


def output_gradient(case_id: str, shape: tuple[int, ...]) -> np.ndarray:
    """The `gradient` given to backward for a case whose output has more than one element."""
    n = math.prod(shape)
    k = (np.arange(n) * 29 + zlib.crc32(case_id.encode())) % 17 - 8
    k = np.where(k == 0, 9, k)
    return (k / 4.0).reshape(shape)


# ---------------------------------------------------------------------------- the case type
@dataclass(frozen=True)
class Case:
    id: str
    fn: Callable[..., Any]
    inputs: tuple[np.ndarray, ...]
    requires_grad: tuple[bool, ...]
    dtypes: tuple[str, ...]
    # The engine's graph where it differs from PyTorch's by a documented design choice (see `note`).
    engine_graph: tuple[dict, ...] | None = None
    note: str = ""


CASES: list[Case] = []


def case(case_id: str, fn: Callable[..., Any], *inputs: Any, grad: tuple[bool, ...] | None = None,
         dtype: str | tuple[str, ...] = F64, engine_graph: list[dict] | None = None, note: str = "") -> None:
    arrays = tuple(array(x) for x in inputs)
    dtypes = (dtype,) * len(arrays) if isinstance(dtype, str) else tuple(dtype)
    flags = (True,) * len(arrays) if grad is None else tuple(grad)
    if len(dtypes) != len(arrays) or len(flags) != len(arrays):
        raise ValueError(f"case {case_id}: one dtype and one requires_grad flag per input")
    if any(c.id == case_id for c in CASES):
        raise ValueError(f"duplicate case id {case_id}")
    CASES.append(Case(case_id, fn, arrays, flags, dtypes,
                      None if engine_graph is None else tuple(engine_graph), note))


# ---------------------------------------------------------------------------- running a case
def strip_prefix(name: str) -> str:
    """torch names two nodes 'torch::autograd::AccumulateGrad' / '...::CopySlices'; the engine does not."""
    return name.removeprefix("torch::autograd::")


def canonical_graph(root: Any, leaves: list[Any]) -> list[dict]:
    """The backward graph from `root` as a depth-first preorder list (a shared node appears once).

    Each node: its name, its next_functions as [index in this list, input_nr] (None for (None, 0)),
    and for AccumulateGrad the position in `leaves` of its variable (None if it is not one of them).
    """
    order: dict[Any, int] = {}
    nodes: list[Any] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node in order:
            continue
        order[node] = len(nodes)
        nodes.append(node)
        stack.extend(reversed([nxt for nxt, _ in node.next_functions if nxt is not None]))
    described = []
    for node in nodes:
        entry: dict[str, Any] = {
            "name": strip_prefix(node.name()),
            "next": [None if nxt is None else [order[nxt], nr] for nxt, nr in node.next_functions],
        }
        if entry["name"] == "AccumulateGrad":
            entry["variable"] = next((i for i, leaf in enumerate(leaves) if leaf is node.variable), None)
        described.append(entry)
    return described


def make_inputs(lib: Any, c: Case) -> list[Any]:
    return [lib.tensor(x, dtype=getattr(lib, dt), requires_grad=rg)
            for x, dt, rg in zip(c.inputs, c.dtypes, c.requires_grad)]


def to_numpy(t: Any) -> np.ndarray:
    try:
        return np.asarray(t.detach().numpy())
    except RuntimeError:  # torch's ZeroTensor (a tangent known to be 0: slogdet's sign) needs force=True
        return np.asarray(t.detach().numpy(force=True))


def dtype_name(t: Any) -> str:
    return str(t.dtype).removeprefix("torch.")


def run_case(lib: Any, c: Case) -> dict:
    """Run a case (forward, then backward with its gradient) and describe what happened."""
    leaves = make_inputs(lib, c)
    out = c.fn(lib, *leaves)
    graph = canonical_graph(out.grad_fn, leaves) if out.grad_fn is not None else []
    value = to_numpy(out).copy()
    shape = tuple(out.shape)
    if math.prod(shape) == 1:
        out.backward()
    else:
        out.backward(lib.tensor(output_gradient(c.id, shape), dtype=out.dtype))
    grads = [None if t.grad is None else to_numpy(t.grad) for t in leaves]
    return {"value": value, "dtype": dtype_name(out), "grads": grads,
            "grad_dtypes": [None if t.grad is None else dtype_name(t.grad) for t in leaves], "graph": graph}


def tangent_input(x: np.ndarray) -> np.ndarray:
    """The tangent a forward-mode run gives an input: fixed values of its shape, none of them 0."""
    return (np.cos(np.arange(x.size) * 1.7 + 0.3) + 1.25).reshape(x.shape)


def run_forward(lib: Any, fwad: Any, c: Case) -> dict:
    """Run a case in forward mode: each float input that requires grad becomes a dual tensor (make_dual) with
    `tangent_input`'s tangent; the result's value and tangent (None: it has none), or the error's class."""
    leaves = make_inputs(lib, c)
    try:
        with fwad.dual_level():
            duals = [fwad.make_dual(x, lib.tensor(tangent_input(data), dtype=x.dtype))
                     if rg and dt.startswith("float") else x
                     for x, data, dt, rg in zip(leaves, c.inputs, c.dtypes, c.requires_grad)]
            out = c.fn(lib, *duals)
            primal, tangent = fwad.unpack_dual(out)
            return {"value": to_numpy(primal).copy(),
                    "tangent": None if tangent is None else to_numpy(tangent).copy()}
    except Exception as error:  # the class of any failure is the record
        return {"error": type(error).__name__}


# ---------------------------------------------------------------------------- the cases
A23, B23 = values(2, 3), values(2, 3, offset=1)
P23, Q23 = positive(2, 3), positive(2, 3, offset=1)
V4, W4 = values(4), values(4, offset=2)
A234 = values(2, 3, 4, offset=3)

# add, sub, mul, div: tensor with tensor, with Python numbers on either side, module function, method
case("add", lambda L, x, y: x + y, A23, B23)
case("add_function", lambda L, x, y: L.add(x, y), A23, B23)
case("add_method", lambda L, x, y: x.add(y), A23, B23)
case("add_number_right", lambda L, x: x + 2.5, A23)
case("add_number_left", lambda L, x: 2 + x, A23)
case("add_function_number", lambda L, x: L.add(x, 3), A23)
case("add_other_no_grad", lambda L, x, y: x + y, A23, B23, grad=(True, False))
case("add_self_no_grad", lambda L, x, y: x + y, A23, B23, grad=(False, True))
case("sub", lambda L, x, y: x - y, A23, B23)
case("sub_function", lambda L, x, y: L.sub(x, y), A23, B23)
case("sub_method", lambda L, x, y: x.sub(y), A23, B23)
case("sub_number_right", lambda L, x: x - 2, A23)
case("rsub_number_left", lambda L, x: 2 - x, A23)
case("rsub_float_left", lambda L, x: 0.25 - x, A23)
case("sub_function_number", lambda L, x: L.sub(x, 1.5), A23)
# alpha scales other (AddBackward0/SubBackward0 with _saved_alpha); rsub is other - alpha * input
case("add_alpha", lambda L, x, y: L.add(x, y, alpha=2.5), A23, B23)
case("add_alpha_method", lambda L, x, y: x.add(y, alpha=-3), A23, B23)
case("add_alpha_number", lambda L, x: L.add(x, 3, alpha=2), A23)
case("add_alpha_inplace", lambda L, x, y: (x * 1).add_(y, alpha=2), A23, B23)
case("sub_alpha", lambda L, x, y: L.sub(x, y, alpha=0.5), A23, B23)
case("sub_alpha_method_other_only", lambda L, x, y: x.sub(y, alpha=2), A23, B23, grad=(False, True))
case("sub_alpha_inplace", lambda L, x, y: (x * 1).sub_(y, alpha=-1.5), A23, B23)
case("rsub_tensor", lambda L, x, y: L.rsub(x, y), A23, B23)
case("rsub_tensor_alpha", lambda L, x, y: L.rsub(x, y, alpha=1.5), A23, B23)
case("rsub_number_alpha", lambda L, x: L.rsub(x, 2, alpha=3), A23)
# floor_divide has no derivative (PyTorch's NotImplemented node): its value, through an input without grad
case("floor_divide_values", lambda L, x, y: x * L.floor_divide(y, 0.375), A23, B23, grad=(True, False))
case("floor_divide_method_values", lambda L, x, y: x * y.floor_divide(x.detach()), A23, B23, grad=(True, False))
# masked_fill with a 0-d tensor value (MaskedFillBackward1), in place; index_put(_) with accumulate
case("masked_fill_tensor_value", lambda L, x, v: x.masked_fill(x > 0, v.sum()), A23, [0.5, 0.25])
case("masked_fill_inplace", lambda L, x: (x * 1).masked_fill_(x.detach() > 0, 2.5), A23)
case("masked_fill_inplace_tensor", lambda L, x, v: (x * 2).masked_fill_(x.detach() < 0, v.sum()), A23, [0.75, 0.5])
case("index_put_inplace", lambda L, x, v: (x * 1).index_put_((L.tensor([0, 2, 0]),), v), values(4),
     values(3, offset=1))
case("index_put_accumulate", lambda L, x, v: L.index_put(x, (L.tensor([0, 2, 0]),), v, accumulate=True), values(4),
     values(3, offset=1))
case("index_put_method_2d", lambda L, x, v: x.index_put((L.tensor([1, 0]), L.tensor([2, 2])), v, True), A23,
     [1.5, -0.5])
case("index_put_mask", lambda L, x, v: x.index_put((x.detach() > 0,), v.sum()), A23, [0.25, 1.0])
case("index_put_inplace_accumulate_no_grad_values", lambda L, x, v: (x * 1).index_put_((L.tensor([1, 1]),), v,
     accumulate=True), values(4), values(2, offset=2), grad=(True, False))
case("div_floor_inplace", lambda L, x, y: (x * 1).div_(y, rounding_mode="floor") + x, A23, B23)
case("mul", lambda L, x, y: x * y, A23, B23)
case("mul_function", lambda L, x, y: L.mul(x, y), A23, B23)
case("mul_method_number", lambda L, x: x.mul(2), A23)
case("mul_number_right", lambda L, x: x * 3, A23)
case("mul_number_left", lambda L, x: 3.5 * x, A23)
case("mul_other_no_grad", lambda L, x, y: x * y, A23, B23, grad=(True, False))
case("div", lambda L, x, y: x / y, A23, P23)
case("div_function", lambda L, x, y: L.div(x, y), A23, P23)
case("div_method", lambda L, x, y: x.div(y), A23, P23)
case("div_number_right", lambda L, x: x / 4, A23)
case("div_number_left", lambda L, x: 2 / x, P23)
case("div_function_number", lambda L, x: L.div(x, 0.5), A23)
case("div_self_no_grad", lambda L, x, y: x / y, A23, P23, grad=(False, True))

# pow: number exponent (PowBackward0), tensor exponent (PowBackward1), number base (PowBackward2)
for exponent, label in [(0, "0"), (1, "1"), (2, "2"), (3, "3"), (0.5, "0_5"), (-1, "minus1"), (-2, "minus2"),
                        (2.5, "2_5")]:
    case(f"pow_{label}", lambda L, x, e=exponent: x ** e, P23)
case("pow_2_negative_base", lambda L, x: x ** 2, A23)
case("pow_3_negative_base", lambda L, x: x ** 3.0, A23)
case("pow_function", lambda L, x: L.pow(x, 2), A23)
case("pow_method", lambda L, x: x.pow(3), A23)
case("square", lambda L, x: L.square(x), A23)
case("square_method", lambda L, x: x.square(), A23)
case("pow_tensor", lambda L, x, y: x ** y, P23, A23)
case("pow_tensor_function", lambda L, x, y: L.pow(x, y), P23, A23)
case("pow_tensor_exponent_no_grad", lambda L, x, y: x ** y, P23, A23, grad=(True, False))
case("pow_number_base", lambda L, x: 2 ** x, A23)
case("pow_number_base_float", lambda L, x: 0.5 ** x, A23)
case("pow_function_number_base", lambda L, x: L.pow(3, x), A23)

# maximum / minimum (ties share the gradient half and half)
TIE_X, TIE_Y = [[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]], [[1.0, 2.0, 0.5], [-3.0, 0.25, -4.0]]
case("maximum", lambda L, x, y: L.maximum(x, y), A23, B23)
case("minimum", lambda L, x, y: L.minimum(x, y), A23, B23)
case("maximum_ties", lambda L, x, y: L.maximum(x, y), TIE_X, TIE_Y)
case("minimum_ties", lambda L, x, y: L.minimum(x, y), TIE_X, TIE_Y)
case("maximum_method", lambda L, x, y: x.maximum(y), A23, B23)
case("minimum_method", lambda L, x, y: x.minimum(y), A23, B23)
case("max_of_two_tensors", lambda L, x, y: L.max(x, y), A23, B23)
case("min_of_two_tensors", lambda L, x, y: L.min(x, y), A23, B23)

# elementwise with one input
case("neg_operator", lambda L, x: -x, A23)
case("neg_function", lambda L, x: L.neg(x), A23)
case("neg_method", lambda L, x: x.neg(), A23)
case("pos_operator", lambda L, x: +x * 1, A23)
case("exp", lambda L, x: L.exp(x), A23)
case("exp_method", lambda L, x: x.exp(), A23)
case("log", lambda L, x: L.log(x), P23)
case("log_method", lambda L, x: x.log(), P23)
case("sin", lambda L, x: L.sin(x), A23)
case("sin_method", lambda L, x: x.sin(), A23)
case("cos", lambda L, x: L.cos(x), A23)
case("cos_method", lambda L, x: x.cos(), A23)
case("tan", lambda L, x: L.tan(x), values(2, 3, scale=0.8))
case("tan_method", lambda L, x: x.tan(), values(2, 3, scale=0.8))
case("tanh", lambda L, x: L.tanh(x), A23)
case("tanh_method", lambda L, x: x.tanh(), A23)
case("sigmoid", lambda L, x: L.sigmoid(x), A23)
case("sigmoid_method", lambda L, x: x.sigmoid(), A23)
case("relu", lambda L, x: L.relu(x), A23)
case("relu_method", lambda L, x: x.relu(), A23)
case("relu_kink_at_zero", lambda L, x: L.relu(x), [-1.0, 0.0, 2.0])
case("sqrt", lambda L, x: L.sqrt(x), P23)
case("sqrt_method", lambda L, x: x.sqrt(), P23)
case("abs", lambda L, x: L.abs(x), A23)
case("abs_method", lambda L, x: x.abs(), A23)
case("abs_operator", lambda L, x: abs(x), A23)
case("abs_kink_at_zero", lambda L, x: L.abs(x), [-1.0, 0.0, 2.0])
case("sign", lambda L, x: L.sign(x) * x, [-1.0, 0.0, 2.0])
case("sign_method", lambda L, x: x.sign(), A23)
case("reciprocal", lambda L, x: L.reciprocal(x), P23)
case("reciprocal_method", lambda L, x: x.reciprocal(), A23)
case("clone", lambda L, x: L.clone(x), A23)
case("clone_method", lambda L, x: x.clone() * x, A23)

# clamp: min only, max only, both; values exactly at a bound get the gradient (PyTorch's choice)
CLAMP_X = [[-1.0, -0.5, 0.0], [0.25, 0.5, 1.0]]
case("clamp_min", lambda L, x: L.clamp(x, min=-0.5), CLAMP_X)
case("clamp_max", lambda L, x: L.clamp(x, max=0.5), CLAMP_X)
case("clamp_both", lambda L, x: L.clamp(x, -0.5, 0.5), CLAMP_X)
case("clamp_method_min", lambda L, x: x.clamp(min=0.1), A23)
case("clamp_method_both", lambda L, x: x.clamp(min=-0.2, max=0.3), A23)
# clamp with tensor bounds (ClampBackward0: each bound gets the gradient where it binds; scaled so nothing ties)
case("clamp_tensor_bounds", lambda L, x, lo, hi: x.clamp(lo, hi), A23, values(3, offset=4, scale=0.49),
     values(2, 1, offset=5, scale=0.51))
case("clamp_tensor_min", lambda L, x, lo: L.clamp(x, min=lo), A23, values(3, offset=6, scale=0.49))

# reductions
case("sum_all", lambda L, x: x.sum(), A23)
case("sum_function", lambda L, x: L.sum(x), A23)
case("sum_dim0", lambda L, x: x.sum(0), A23)
case("sum_dim_negative", lambda L, x: x.sum(dim=-1), A23)
case("sum_dim_tuple", lambda L, x: x.sum(dim=(0, 2)), A234)
case("sum_dim_tuple_negative_keepdim", lambda L, x: L.sum(x, dim=(-1, 0), keepdim=True), A234)
case("sum_keepdim", lambda L, x: x.sum(1, keepdim=True), A23)
case("sum_0d", lambda L, x: x.sum(), 1.5)
case("sum_0d_dim", lambda L, x: x.sum(0) * x.sum(dim=[-1], keepdim=True), 1.5)
case("sum_empty_dim_list_reduces_all", lambda L, x: x.sum(dim=()), A23)
case("mean_0d_dim", lambda L, x: x.mean(-1), 1.5)
case("max_0d_dim", lambda L, x: x.max(0).values * x.min(dim=-1, keepdim=True)[0], 1.5)
case("squeeze_0d_dim", lambda L, x: x.squeeze(0), 1.5)
case("transpose_0d", lambda L, x: x.transpose(0, -1), 1.5)
case("mean_all", lambda L, x: x.mean(), A23)
case("mean_function", lambda L, x: L.mean(x), A234)
case("mean_dim0", lambda L, x: x.mean(0), A23)
case("mean_dim_negative", lambda L, x: x.mean(dim=-1), A23)
case("mean_dim_tuple", lambda L, x: L.mean(x, dim=(0, 2)), A234)
case("mean_keepdim", lambda L, x: x.mean(dim=1, keepdim=True), A234)
MAX_TIES = [[1.0, 3.0, -2.0], [3.0, 0.0, 3.0]]
case("max_all", lambda L, x: x.max(), A23)
case("max_all_function", lambda L, x: L.max(x), A23)
case("max_all_ties", lambda L, x: x.max(), MAX_TIES)
case("min_all", lambda L, x: x.min(), A23)
case("min_all_function", lambda L, x: L.min(x), A23)
case("min_all_ties", lambda L, x: x.min(), [[1.0, -3.0, 2.0], [-3.0, 0.0, 5.0]])
case("max_dim", lambda L, x: x.max(dim=1).values, A23)
case("max_dim_function_index0", lambda L, x: L.max(x, 0)[0], A23)
case("max_dim_keepdim", lambda L, x: x.max(1, keepdim=True)[0], A234)
case("max_dim_ties", lambda L, x: x.max(dim=1).values, MAX_TIES)
case("min_dim", lambda L, x: x.min(dim=-1).values, A23)
case("min_dim_function", lambda L, x: L.min(x, dim=0).values, A234)
case("min_dim_keepdim_ties", lambda L, x: x.min(0, keepdim=True).values, [[1.0, 2.0], [1.0, 0.0]])
case("softmax_dim0", lambda L, x: L.softmax(x, dim=0), A23)
case("softmax_dim1", lambda L, x: L.softmax(x, 1), A23)
case("softmax_method_negative_dim", lambda L, x: x.softmax(-1), A234)
case("softmax_3d_middle", lambda L, x: x.softmax(dim=1), A234)
case("log_softmax_dim0", lambda L, x: L.log_softmax(x, dim=0), A23)
case("log_softmax_dim1", lambda L, x: L.log_softmax(x, 1), A23)
case("log_softmax_method", lambda L, x: x.log_softmax(dim=-1), A234)
case("log_softmax_3d_first", lambda L, x: x.log_softmax(0), A234)

# matrix products, recorded as PyTorch's at::matmul decomposes them (_matmul_impl): dot, mv, unsqueeze/mm/squeeze_,
# mm; a batch folded into the rows of an mm or mv (should_fold), or expanded and reshaped around a bmm
M34, N45 = values(3, 4, offset=4), values(4, 5, offset=5)
case("matmul_dot", lambda L, a, b: a @ b, V4, W4)
case("matmul_function_dot", lambda L, a, b: L.matmul(a, b), V4, W4)
case("dot", lambda L, a, b: L.dot(a, b), V4, W4)
case("dot_method", lambda L, a, b: a.dot(b), V4, W4)
case("matmul_mv", lambda L, m, v: m @ v, M34, V4)
case("mv", lambda L, m, v: L.mv(m, v), M34, V4)
case("mv_method", lambda L, m, v: m.mv(v), M34, V4)
case("matmul_vm", lambda L, v, m: v @ m, V4, N45)
case("matmul_mm", lambda L, a, b: a @ b, M34, N45)
case("matmul_method", lambda L, a, b: a.matmul(b), M34, N45)
case("mm", lambda L, a, b: L.mm(a, b), M34, N45)
case("mm_method", lambda L, a, b: a.mm(b), M34, N45)
case("mm_second_no_grad", lambda L, a, b: a @ b, M34, N45, grad=(True, False))
case("mm_first_no_grad", lambda L, a, b: a @ b, M34, N45, grad=(False, True))
case("matmul_batched_3d_2d", lambda L, a, b: a @ b, A234, N45)
case("matmul_batched_3d_3d", lambda L, a, b: L.matmul(a, b), A234, values(2, 4, 2, offset=6))
case("matmul_batched_broadcast", lambda L, a, b: a @ b, values(2, 1, 2, 3), values(3, 3, 2, offset=7))
case("matmul_batched_3d_1d", lambda L, a, v: a @ v, A234, V4)
case("matmul_batched_1d_3d", lambda L, v, b: v @ b, values(3), A234)
case("matmul_batched_2d_3d", lambda L, a, b: a @ b, values(5, 3), A234)
case("matmul_batched_3d_2d_matrix_no_grad", lambda L, a, b: a @ b, A234, N45, grad=(True, False))
case("matmul_batched_3d_2d_batch_no_grad", lambda L, a, b: a @ b, A234, N45, grad=(False, True))
case("matmul_batched_transposed_3d_2d", lambda L, a, b: a.transpose(1, 2) @ b, values(2, 4, 3), N45)
case("matmul_batched_transposed_3d_2d_no_grad", lambda L, a, b: a.transpose(1, 2) @ b, values(2, 4, 3), N45,
     grad=(True, False))
case("matmul_batched_3d_transposed_2d", lambda L, a, b: a @ b.t(), A234, values(5, 4))
case("matmul_batched_2d_3d_first_no_grad", lambda L, a, b: a @ b, values(5, 3), A234, grad=(False, True))
case("matmul_batched_2d_3d_second_no_grad", lambda L, a, b: a @ b, values(5, 3), A234, grad=(True, False))
case("matmul_batched_1d_3d_first_no_grad", lambda L, v, b: v @ b, values(3), A234, grad=(False, True))
case("matmul_batched_3d_1d_transposed_no_grad", lambda L, a, v: a.transpose(1, 2) @ v, values(2, 4, 3), V4,
     grad=(True, False))
case("matmul_batched_4d_2d", lambda L, a, b: a @ b, values(2, 2, 3, 4), N45)
case("matmul_batched_1d_4d", lambda L, v, b: v @ b, values(3), values(2, 2, 3, 4))
case("matmul_batched_4d_1d", lambda L, a, v: a @ v, values(2, 2, 3, 4), V4)
case("matmul_batched_batch_of_one_squeezed", lambda L, a, b: a @ b, A234, values(1, 4, 2, offset=3))
case("matmul_batched_batch_of_one_no_grad", lambda L, a, b: a @ b, A234, values(1, 4, 2, offset=3),
     grad=(True, False))
case("matmul_batched_first_batch_of_one", lambda L, a, b: a @ b, values(1, 2, 3), values(4, 3, 2, offset=3))
case("matmul_batched_4d_4d", lambda L, a, b: a @ b, values(2, 3, 2, 4), values(2, 3, 4, 2, offset=5))
case("matmul_batched_4d_3d_broadcast", lambda L, a, b: a @ b, values(2, 1, 2, 4), values(3, 4, 2, offset=5))
case("matmul_batched_3d_3d_transposed", lambda L, a, b: a.transpose(1, 2) @ b.transpose(1, 2), values(2, 4, 3),
     values(2, 2, 4, offset=2))
case("matmul_batched_row_2d_3d_no_copy", lambda L, a, b: a @ b, values(1, 3), A234)
case("matmul_batched_2d_3d_column_no_copy", lambda L, a, b: a @ b, values(5, 3), values(2, 3, 1, offset=4))
case("matmul_batched_3d_3d_float32", lambda L, a, b: a @ b, A234, values(2, 4, 2, offset=6), dtype=F32)
case("matmul_batched_3d_2d_float32", lambda L, a, b: a @ b, A234, N45, dtype=F32)
case("double_backward_mm", lambda L, a, b: _grad_graph(L, a, lambda x: (x @ b) * (x @ b)), M34, N45,
     grad=(True, False))
case("double_backward_mm_transposed", lambda L, a, b: _grad_graph(L, a, lambda x: (x.t() @ b) ** 2),
     values(4, 3), N45, grad=(True, False))
case("double_backward_mv", lambda L, a, v: _grad_graph(L, a, lambda x: (x @ v) ** 2), M34, V4, grad=(True, False))
case("double_backward_vm", lambda L, v, b: _grad_graph(L, v, lambda x: (x @ b) ** 2), V4, N45, grad=(True, False))
case("double_backward_bmm", lambda L, a, b: _grad_graph(L, a, lambda x: (x @ b) ** 2), A234,
     values(2, 4, 2, offset=6), grad=(True, False))
case("double_backward_matmul_folded", lambda L, a, b: _grad_graph(L, a, lambda x: (x @ b) ** 2), A234, N45,
     grad=(True, False))
case("double_backward_matmul_2d_3d", lambda L, a, b: _grad_graph(L, a, lambda x: (x @ b) ** 2), values(5, 3),
     A234, grad=(True, False))

# shapes and views
case("t", lambda L, x: L.t(x), A23)
case("t_method", lambda L, x: x.t() * 2, A23)
case("t_1d", lambda L, x: x.t(), V4)
case("transpose", lambda L, x: x.transpose(0, 1), A23)
case("transpose_function_negative", lambda L, x: L.transpose(x, -1, 0), A234)
case("T_property", lambda L, x: x.T, A23)
case("mT_property", lambda L, x: x.mT, A234)
case("permute", lambda L, x: x.permute(2, 0, 1), A234)
case("permute_tuple", lambda L, x: L.permute(x, (1, 0, 2)), A234)
case("reshape_view", lambda L, x: x.reshape(6), A23)
case("reshape_infer", lambda L, x: x.reshape(-1, 2), A23)
case("reshape_tuple_function", lambda L, x: L.reshape(x, (3, 2)), A23)
case("reshape_copy_of_transposed", lambda L, x: x.t().reshape(6), A23)
case("reshape_copy_of_permuted", lambda L, x: x.permute(2, 1, 0).reshape(4, 6), A234)
case("reshape_alias_of_stepped", lambda L, x: x[::2].reshape(-1), values(5))
case("reshape_alias_same_shape", lambda L, x: x.t().reshape(3, 2), A23)
case("reshape_alias_add_dim", lambda L, x: L.reshape(x[:, 1:], (2, 2, 1)), A23)
case("flatten_alias_of_sliced", lambda L, x: x[:, :, 1:].flatten(0, 1), A234)
case("flatten_copy_of_sliced", lambda L, x: x[..., 1:].flatten(), A23)
case("view_of_transposed_same_shape", lambda L, x: x.t().view(3, 2), A23)
case("view", lambda L, x: x.view(3, 2), A23)
case("view_infer", lambda L, x: x.view(-1), A234)
case("flatten", lambda L, x: x.flatten(), A234)
case("flatten_function_start", lambda L, x: L.flatten(x, 1), A234)
case("unsqueeze0", lambda L, x: x.unsqueeze(0), A23)
case("unsqueeze_function_negative", lambda L, x: L.unsqueeze(x, -1), A23)
case("squeeze_all", lambda L, x: x.squeeze(), values(2, 1, 3, 1))
case("squeeze_function", lambda L, x: L.squeeze(x), values(1, 3))
case("squeeze_dim", lambda L, x: x.squeeze(1), values(2, 1, 3))
case("squeeze_dim_not_one", lambda L, x: x.squeeze(0), values(2, 1, 3))
case("squeeze_dims", lambda L, x: x.squeeze((0, 2)), values(1, 3, 1, 2))  # SqueezeBackward2
case("index_add", lambda L, x, s: x.index_add(1, L.tensor([2, 0, 2]), s, alpha=1.5), A23, values(2, 3, offset=2))
case("expand", lambda L, x: x.expand(3, 4), values(3, 1))
case("expand_new_dims", lambda L, x: x.expand(2, -1, -1), values(3, 1))
case("expand_tuple", lambda L, x: x.expand((2, 3)), values(3))
case("detach_in_expression", lambda L, x: x * x.detach(), A23)
case("detach_function", lambda L, x: L.detach(x) * L.sin(x), A23)
case("to_float32", lambda L, x: x.float(), A23)
case("to_float64", lambda L, x: x.double() * 2, A23, dtype=F32)
case("to_method_dtype", lambda L, x: x.to(L.float32) * x.to(L.float32), A23)

# indexing: SelectBackward0 / SliceBackward0 / UnsqueezeBackward0 / AliasBackward0 chains
case("index_int", lambda L, x: x[0], A23)
case("index_negative_int", lambda L, x: x[-1], A23)
case("index_column", lambda L, x: x[:, 0], A23)
case("index_int_and_slice", lambda L, x: x[-1, 1:], A23)
case("index_slice_prefix", lambda L, x: x[0:1], A23)
case("index_full_slice", lambda L, x: x[:], A23)
case("index_step", lambda L, x: x[::2], values(5, 2))
case("index_two_slices", lambda L, x: x[1:, :1], values(3, 3))
case("index_none", lambda L, x: x[None], A23)
case("index_ellipsis", lambda L, x: x[..., 0], A234)
case("index_full_slices_alias", lambda L, x: x[:, :], A23)
case("index_ellipsis_alias", lambda L, x: x[...], A23)
case("index_ellipsis_none", lambda L, x: x[..., None], A23)
case("index_scalar_element", lambda L, x: x[1, 2], A23)
case("index_3d_mixed", lambda L, x: x[1, :, 1:3], A234)
case("index_used_twice", lambda L, x: x[0] * x[1], A23)

# index writes: CopySlices
case("setitem_tutorial_vector", lambda L, x: _tutorial_vector(L, x), [[0.3725], [0.4378]])
case("setitem_into_result", lambda L, x: _write_number(L, x), A23)
case("setitem_tensor_with_grad", lambda L, x, v: _write_row(L, x, v), A23, [0.5, -1.0, 2.0])
case("setitem_value_no_grad", lambda L, x, v: _write_row(L, x, v), A23, [0.5, -1.0, 2.0], grad=(True, False))
case("setitem_broadcast_value", lambda L, x, s: _write_column(L, x, s), A23, 0.75)
case("setitem_leading_one_dims", lambda L, x: _write_leading_ones(L, x), values(1, 3))
case("setitem_value_broadcast_rows", lambda L, v: _write_rows(L, v), values(1, 3))
case("setitem_mask", lambda L, x, s: _write_mask(L, x, s), A23, 0.75)
case("setitem_index_list", lambda L, x, v: _write_index_list(L, x, v), A23, [0.5, -1.0, 2.0])
case("setitem_value_broadcast_columns", lambda L, x, c: _write_columns(L, x, c), A23, values(2, 1, offset=3))
# in-place writes (ZeroBackward0, FillBackward2), a view written in place or read after its base was
# (CopySlices on the base, AsStridedBackward0 on the view), and .grad kept by a create_graph pass
case("inplace_zero", lambda L, x: _zeroed(L, x) * x, A23)
case("inplace_fill", lambda L, x: _filled(L, x) * x, A23)
case("inplace_zero_view", lambda L, x: _zeroed_view(L, x), values(4))
case("forward_ad_unpacked_primal", lambda L, x: _unpacked_primal(L, x), values(3))
case("view_after_base_write", lambda L, x: _view_after_write(L, x), values(4))
# create_graph: the backward pass records PyTorch's fused backward kernels (double-backward names)
case("double_backward_tanh", lambda L, x: _grad_graph(L, x, L.tanh), values(3))
case("double_backward_sigmoid", lambda L, x: _grad_graph(L, x, L.sigmoid), values(3))
case("double_backward_relu", lambda L, x: _grad_graph(L, x, lambda t: L.relu(t * t - 1)), values(3))
case("double_backward_abs", lambda L, x: _grad_graph(L, x, lambda t: L.abs(t * t - 1)), values(3))
case("double_backward_sign", lambda L, x: _grad_graph(L, x, lambda t: L.sign(t) * t), values(3))
case("double_backward_tan", lambda L, x: _grad_graph(L, x, L.tan), values(3))
case("double_backward_softmax", lambda L, x: _grad_graph(L, x, lambda t: L.softmax(t, 1) * t), A23)
case("double_backward_log_softmax", lambda L, x: _grad_graph(L, x, lambda t: L.log_softmax(t, 0) * t), A23)
case("double_backward_mse_loss", lambda L, x, y: _grad_graph(L, x, lambda t: _functional(L).mse_loss(t * t, y)),
     A23, B23, grad=(True, False))
case("double_backward_pow_tensor", lambda L, x, y: _grad_graph(L, x, lambda t: (t * t + 1) ** y), A23, B23)
case("double_backward_through_a_written_view", lambda L, x: _grad_graph(L, x, _zeroed_view_of_exp), values(4),
     engine_graph=[
         {"name": "MulBackward0", "next": [[1, 0], [9, 0]]},
         {"name": "CopyBackwards", "next": [None, [2, 0]]},
         {"name": "AddBackward0", "next": [[3, 0], [15, 0]]},
         {"name": "AddBackward0", "next": [[4, 0], [10, 0]]},
         {"name": "SliceBackwardBackward0", "next": [[5, 0]]},
         {"name": "MulBackward0", "next": [None, [6, 0]]},
         {"name": "AsStridedBackward0", "next": [[7, 0]]},
         {"name": "CopySlices", "next": [[8, 0]]},
         {"name": "MulBackward0", "next": [[9, 0], [9, 0]]},
         {"name": "AccumulateGrad", "next": [], "variable": 0},
         {"name": "MulBackward0", "next": [[11, 0], [9, 0]]},
         {"name": "WhereBackward0", "next": [[12, 0], None]},
         {"name": "AsStridedScatterBackward0", "next": [[13, 0]]},
         {"name": "MulBackward0", "next": [None, [14, 0]]},
         {"name": "SliceBackward0", "next": [[9, 0]]},
         {"name": "MulBackward0", "next": [[11, 0], [9, 0]]},
     ],
     note="create_graph through a view written in place: PyTorch records its composite backward as "
          "CopySlices/CopyBackwards/AsStridedBackward0 nodes, the engine as WhereBackward0 and "
          "AsStridedScatterBackward0 (the same values)")
case("grad_kept_by_create_graph", lambda L, x: _create_graph_grad(L, x), values(3))
# the calculus vocabulary
UNIT = [0.3, -0.6, 0.8]
for _name, _inputs in (("asin", UNIT), ("acos", UNIT), ("atan", [0.3, -2.0, 5.0]), ("sinh", [0.3, -2.0, 1.5]),
                       ("cosh", [0.3, -2.0, 1.5]), ("asinh", [0.3, -2.0, 1.5]), ("acosh", [1.5, 3.0, 1.1]),
                       ("atanh", UNIT), ("log2", [0.3, 2.0, 8.0]), ("log10", [0.3, 2.0, 100.0]),
                       ("log1p", [0.3, -0.5, 2.0]), ("expm1", [0.3, -2.0, 1e-3]), ("exp2", [0.3, -2.0, 3.0]),
                       ("erf", [0.3, -1.2, 2.0]), ("erfc", [0.3, -1.2, 2.0]), ("rsqrt", [0.3, 2.0, 4.0]),
                       ("floor", [0.3, -1.2, 2.5]), ("ceil", [0.3, -1.2, 2.5]), ("round", [0.3, -1.7, 2.6]),
                       ("trunc", [0.3, -1.2, 2.5]), ("frac", [0.3, -1.2, 2.5])):
    case(f"calculus_{_name}", (lambda n: lambda L, x: getattr(L, n)(x))(_name), _inputs)
case("calculus_atan2", lambda L, y, x: L.atan2(y, x), [1.0, -0.5, 0.0], [0.3, -2.0, -1.0])
case("calculus_hypot", lambda L, x, y: L.hypot(x, y), [1.0, -0.5, 3.0], [0.3, -2.0, 4.0])
case("calculus_where", lambda L, x: L.where(x > 0, x * x, -x), [-1.0, 0.5, 2.0])
# the loss functions of torch.nn.functional (module functions in the engine)
for _name, _x in (("mse_loss", [0.5, -1.0, 2.0]), ("l1_loss", [0.5, -1.0, 2.0]),
                  ("binary_cross_entropy", [0.25, 0.75, 0.5]), ("binary_cross_entropy_with_logits", [0.5, -1.0, 2.0])):
    for _reduction in ("mean", "sum", "none"):
        case(f"loss_{_name}_{_reduction}",
             (lambda n, r: lambda L, x, y: getattr(_functional(L), n)(x, y, reduction=r))(_name, _reduction),
             _x, [1.0, 0.0, 0.375])
case("loss_target_without_grad", lambda L, x, y: _functional(L).mse_loss(x, y), [0.5, -1.0, 2.0], [1.0, 0.0, 0.375],
     grad=(True, False))
case("loss_float32", lambda L, x, y: _functional(L).binary_cross_entropy_with_logits(x, y), [0.5, -1.0, 2.0],
     [1.0, 0.0, 0.375], dtype=F32)
case("calculus_where_number_sides", lambda L, x: L.where(x > 0, x, 0.0) * 2, [-1.0, 0.5, 2.0])
# aliases (torch has numpy's arc- spellings) and the functions recorded as primitive ops (torch has no sec,
# csc, cot, cbrt, ln: the same ops spelt out)
for _name, _inputs in (("arcsin", UNIT), ("arccos", UNIT), ("arctan", UNIT), ("arcsinh", UNIT),
                       ("arccosh", [1.5, 3.0, 1.1]), ("arctanh", UNIT)):
    case(f"alias_{_name}", (lambda n: lambda L, x: getattr(L, n)(x))(_name), _inputs)
case("alias_arctan2", lambda L, y, x: L.arctan2(y, x), [1.0, -0.5, 0.0], [0.3, -2.0, -1.0])
case("alias_ln", lambda L, x: _either(L, "ln", lambda t: L.log(t))(x), [0.3, 2.0, 8.0])
case("composite_sec", lambda L, x: _either(L, "sec", lambda t: L.reciprocal(L.cos(t)))(x), UNIT)
case("composite_csc", lambda L, x: _either(L, "csc", lambda t: L.reciprocal(L.sin(t)))(x), UNIT)
case("composite_cot", lambda L, x: _either(L, "cot", lambda t: L.reciprocal(L.tan(t)))(x), UNIT)
BEYOND_ONE = [1.5, -2.0, 3.0]
case("composite_asec", lambda L, x: _either(L, "asec", lambda t: L.acos(L.reciprocal(t)))(x), BEYOND_ONE)
case("composite_acsc", lambda L, x: _either(L, "acsc", lambda t: L.asin(L.reciprocal(t)))(x), BEYOND_ONE)
case("composite_acot", lambda L, x: _either(L, "acot", lambda t: L.atan(L.reciprocal(t)))(x), UNIT)
for _name, _of in (("arcsec", "acos"), ("arccsc", "asin"), ("arccot", "atan")):
    case(f"alias_{_name}", (lambda n, f: lambda L, x: _either(L, n, lambda t: getattr(L, f)(L.reciprocal(t)))(x))(
        _name, _of), BEYOND_ONE)
case("composite_cbrt", lambda L, x: _either(L, "cbrt", lambda t: L.sign(t) * L.abs(t) ** (1.0 / 3.0))(x),
     [-8.0, 0.5, 27.0])


def _functional(L: Any) -> Any:
    """torch.nn.functional for torch; the engine's module, which has the loss functions itself."""
    return L.nn.functional if L.__name__ == "torch" else L


def _either(L: Any, name: str, spelt_out: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """L's function `name` (the engine's), or the same ops spelt out (torch, which has no such function)."""
    function = getattr(L, name, None)
    return function if function is not None else spelt_out


# reductions and linear algebra of the calculus vocabulary; stack and cat
M3 = [[2.0, 1.0, 0.5], [0.3, 3.0, 1.0], [1.0, 0.2, 4.0]]
case("reduce_prod", lambda L, x: L.prod(x), A23)
case("reduce_prod_dim", lambda L, x: L.prod(x, 1), A23)
case("reduce_prod_with_zero", lambda L, x: L.prod(x, 0, keepdim=True), [[1.0, 0.0], [3.0, 4.0]])
case("reduce_var", lambda L, x: L.var(x), A23)
case("reduce_var_dim", lambda L, x: L.var(x, 1, keepdim=True), A23)
case("reduce_std", lambda L, x: L.std(x), A23)
case("reduce_std_dim_biased", lambda L, x: L.std(x, 0, correction=0), A23)
case("reduce_logsumexp", lambda L, x: L.logsumexp(x, 1), A23)
case("reduce_amax", lambda L, x: L.amax(x), [[1.0, 3.0], [3.0, 2.0]])
case("reduce_amin_dim", lambda L, x: L.amin(x, 1), [[1.0, 3.0], [3.0, 2.0]])
case("reduce_norm", lambda L, x: L.norm(x), A23)
case("reduce_norm_dim", lambda L, x: L.norm(x, dim=1), A23)
case("reduce_norm_nuclear", lambda L, x: L.norm(x, p="nuc"), values(3, 3))
case("nuclear_norm_batch", lambda L, x: L.nuclear_norm(x, dim=(1, 2)), values(2, 3, 2))
case("reduce_cumsum", lambda L, x: L.cumsum(x, 1), A23)
case("reduce_cumprod", lambda L, x: L.cumprod(x, 0), A23)
case("linalg_trace", lambda L, x: L.trace(x), M3)
case("linalg_det", lambda L, x: L.det(x), M3)
case("linalg_inverse", lambda L, x: L.inverse(x), M3)
case("linalg_outer", lambda L, a, b: L.outer(a, b), [1.0, 2.0], [0.5, -1.0, 3.0])
case("linalg_diag_of_vector", lambda L, x: L.diag(x), [1.0, 2.0, 3.0])
case("linalg_diag_of_matrix", lambda L, x: L.diag(x), M3)
case("stack_two", lambda L, x, y: L.stack([x * x * y, 5 * x + L.sin(y)]), [1.0, 2.0], [0.5, -1.0])
case("stack_dim1", lambda L, x, y: L.stack([x, y, x * y], 1), A23, B23)
case("cat_three", lambda L, x, y: L.cat([x, y * 2, x * y], 1), A23, B23)
# nan through the masked rules (PyTorch lets the gradient through where a comparison with nan is false)
NAN_INPUT = [-1.0, 2.0, 0.5]
case("relu_of_nan", lambda L, x: L.relu(L.log(x)), NAN_INPUT)
case("abs_of_nan", lambda L, x: L.abs(L.log(x)), NAN_INPUT)
case("sign_of_nan", lambda L, x: L.sign(L.log(x)) + x, NAN_INPUT)
case("maximum_with_nan", lambda L, x, y: L.maximum(L.log(x), y), NAN_INPUT, [0.5, 0.5, 0.5])
case("minimum_with_nan", lambda L, x, y: L.minimum(L.log(x), y), NAN_INPUT, [0.5, 0.5, 0.5])
case("clamp_of_nan", lambda L, x: L.clamp(L.log(x), min=0.0), NAN_INPUT)
# an integer tensor (max's indices) with a float one: the float dtype, not float64
case("indices_plus_float", lambda L, x: L.max(x, 1).indices + x[:, 0], A23)
case("setitem_none_then_int", lambda L, x: _write_none_int(L, x), A23)
case("setitem_none_value", lambda L, x, v: _write_none(L, x, v), values(2), values(1, 2, offset=3))
# the functions with a number first wrap it as a tensor (the operators record RsubBackward1 / reciprocal)
case("function_div_number_first", lambda L, x: L.div(2.0, x), A23)
case("function_sub_number_first", lambda L, x: L.sub(2.0, x), A23)
case("function_mul_number_first", lambda L, x: L.mul(2.0, x), A23)
case("function_add_number_first", lambda L, x: L.add(2.0, x), A23)
case("setitem_whole_tensor", lambda L, x, v: _write_whole(L, x, v), A23, B23)
case("setitem_whole_tensor_number", lambda L, x: _write_whole_number(L, x), A23)


def _write_none_int(L: Any, x: Any) -> Any:
    y = x * 2
    y[None, 0] = 9.0
    return y


def _write_none(L: Any, x: Any, v: Any) -> Any:
    y = x * 2
    y[None] = v
    return y


def _zeroed(L: Any, x: Any) -> Any:
    y = x * 2
    y.zero_()
    return y


def _filled(L: Any, x: Any) -> Any:
    y = x * 2
    y.fill_(5.0)
    return y


def _unpacked_primal(L: Any, x: Any) -> Any:
    """A dual tensor's primal, unpacked inside a forward-AD level: a view PyTorch records as Identity."""
    fwad = getattr(L.autograd, "forward_ad", None)  # torch.autograd.forward_ad; the engine's transforms room
    if fwad is None:
        from autodiff.engine.transforms import forward_ad as fwad
    with fwad.dual_level():
        dual = fwad.make_dual(x * 2, L.ones_like(x))
        return fwad.unpack_dual(dual).primal * 3


def _zeroed_view(L: Any, x: Any) -> Any:
    y = x * 2
    v = y[1:3]
    v.zero_()
    return v * x[0:2] + y[1:3]


def _view_after_write(L: Any, x: Any) -> Any:
    y = x * 2
    v = y[1:]
    y[0] = 5.0
    return v * 3


def _grad_graph(L: Any, x: Any, fn: Any) -> Any:
    fn(x).sum().backward(create_graph=True)
    return x.grad * x


def _zeroed_view_of_exp(x: Any) -> Any:
    y = x * x
    v = y[1:3]
    v.zero_()
    return v * x[0:2]


def _create_graph_grad(L: Any, x: Any) -> Any:
    (x ** 3).sum().backward(create_graph=True)
    return x.grad * x


def _tutorial_vector(L: Any, x: Any) -> Any:
    y = L.zeros(3, 1, dtype=x.dtype)
    y[0] = x[0] ** 2
    y[1] = x[1] ** 3
    y[2] = x[1] ** 4
    return y


def _write_number(L: Any, x: Any) -> Any:
    y = x * 2
    y[0, 1] = 5.0
    return y


def _write_row(L: Any, x: Any, v: Any) -> Any:
    y = x.clone()
    y[1] = v * 3
    return y.exp()


def _write_mask(L: Any, x: Any, s: Any) -> Any:
    y = x * 2
    y[y > 0] = s  # index_put_: IndexPutBackward0
    return y.exp()


def _write_index_list(L: Any, x: Any, v: Any) -> Any:
    y = x.clone()
    y[[1, 0]] = v * 3
    return y * y


def _write_column(L: Any, x: Any, s: Any) -> Any:
    y = x * 2
    y[:, 0] = s
    return y


def _write_leading_ones(L: Any, x: Any) -> Any:
    y = L.zeros(2, 3, dtype=x.dtype)
    y[1] = x
    return y


def _write_rows(L: Any, v: Any) -> Any:
    y = L.zeros(3, 3, dtype=v.dtype)
    y[0:2] = v
    return y


def _write_columns(L: Any, x: Any, c: Any) -> Any:
    y = x * 2
    y[:, 1:] = c
    return y


def _write_whole(L: Any, x: Any, v: Any) -> Any:
    y = x * 2
    y[:, :] = v * 3
    return y


def _write_whole_number(L: Any, x: Any) -> Any:
    y = x * 2
    y[...] = 5.0
    return y


# memory layout: reshape records a view (ViewBackward0) when the layout allows, else a copy
# (UnsafeViewBackward0 over CloneBackward0), so every op must leave its result in PyTorch's layout
case("layout_sum_of_permuted", lambda L, x: x.permute(2, 1, 0).sum(0).reshape(-1), A234)
case("layout_mean_keepdim_of_permuted", lambda L, x: x.permute(2, 1, 0).mean(1, keepdim=True).reshape(-1), A234)
case("layout_softmax_of_transposed", lambda L, x: L.softmax(x.t(), dim=0).reshape(-1), A23)
case("layout_log_softmax_of_transposed", lambda L, x: L.log_softmax(x.t(), dim=1).reshape(-1), A23)
case("layout_number_base_of_transposed", lambda L, x: (2 ** x.t()).reshape(-1), A23)
case("layout_pow_1_of_transposed", lambda L, x: (x.t() ** 1).reshape(-1), A23)
case("layout_pow_0_of_expanded", lambda L, x: (x.expand(3, 4) ** 0).reshape(-1), values(1, 4))
case("layout_exp_of_transposed", lambda L, x: L.exp(x.t()).reshape(-1), A23)
case("layout_clone_of_transposed", lambda L, x: x.t().clone().reshape(-1), A23)
case("layout_clone_of_expanded", lambda L, x: x.expand(3, 4).clone().reshape(-1), values(1, 4))
case("layout_float_of_expanded", lambda L, x: x.expand(3, 4).float().reshape(-1), values(1, 4))
case("layout_max_dim_of_permuted", lambda L, x: x.permute(2, 1, 0).max(0)[0].reshape(-1), A234)
case("layout_matmul_of_transposed", lambda L, a, b: (a.t() @ b.t()).reshape(-1), M34, values(5, 3))
case("layout_slice_of_transposed", lambda L, x: x.t()[1:].reshape(-1), A23)
case("layout_mixed_binary", lambda L, x, y: (x.t() + y).reshape(-1), A23, values(3, 2))
case("layout_mixed_binary_broadcast", lambda L, x, y: (y * x.permute(2, 1, 0)).reshape(-1), A234, values(3, 1))
case("layout_zeros_like_of_transposed", lambda L, x: (L.zeros_like(x.t()) * x.t()).reshape(-1), A23)

# broadcasting in every binary op
BINARY = {
    "add": lambda L, a, b: a + b,
    "sub": lambda L, a, b: a - b,
    "mul": lambda L, a, b: a * b,
    "div": lambda L, a, b: a / b,
    "pow": lambda L, a, b: a ** b,
    "maximum": lambda L, a, b: L.maximum(a, b),
    "minimum": lambda L, a, b: L.minimum(a, b),
}
SHAPE_PAIRS = {"3x1_1x4": ((3, 1), (1, 4)), "0d_2x3": ((), (2, 3)), "4_2x4": ((4,), (2, 4))}
for op_name, fn in BINARY.items():
    for pair_name, (sa, sb) in SHAPE_PAIRS.items():
        first = positive(*sa, offset=8) if op_name == "pow" else values(*sa, offset=8)
        second = positive(*sb, offset=9) if op_name == "div" else values(*sb, offset=9)
        case(f"broadcast_{op_name}_{pair_name}", fn, first, second)
        case(f"broadcast_{op_name}_{pair_name}_swapped", fn,
             positive(*sb, offset=9) if op_name == "pow" else values(*sb, offset=9),
             positive(*sa, offset=8) if op_name == "div" else values(*sa, offset=8))

# float32, and PyTorch's promotion rules between float32 and float64
case("f32_mul_broadcast", lambda L, a, b: a * b, values(3, 1), values(1, 4), dtype=F32)
case("f32_sin_exp", lambda L, x: L.sin(x) * L.exp(x), A23, dtype=F32)
case("f32_number_ops", lambda L, x: (2.5 - x) / 3 + 0.1 * x ** 2, A23, dtype=F32)
case("f32_pow_number_base", lambda L, x: 1.5 ** x, A23, dtype=F32)
case("f32_matmul", lambda L, a, b: a @ b, M34, N45, dtype=F32)
case("f32_softmax_mean", lambda L, x: L.softmax(x, dim=1).mean(0), A23, dtype=F32)
case("f32_log_sqrt", lambda L, x: L.log(x) + L.sqrt(x), P23, dtype=F32)
case("f32_tuple_reduction", lambda L, x: x.sum(dim=(0, 2)), A234, dtype=F32)
case("f32_pow_tensor", lambda L, a, b: a ** b, P23, B23, dtype=F32)
case("f32_tanh_sigmoid", lambda L, x: L.tanh(x) + L.sigmoid(x), A23, dtype=F32)
case("f32_implicit_scalar", lambda L, x: ((2 * x) ** 3).mean(), A23, dtype=F32)
case("mixed_0d_f64_times_f32", lambda L, s, x: s * x, 1.25, A23, dtype=(F64, F32))
case("mixed_f32_plus_0d_f64", lambda L, x, s: x + s, A23, 1.25, dtype=(F32, F64))
case("mixed_0d_f32_times_f64", lambda L, s, x: s * x, 1.25, A23, dtype=(F32, F64))
case("mixed_f32_times_f64_same_rank", lambda L, a, b: a * b, A23, B23, dtype=(F32, F64))
case("mixed_0d_f32_times_0d_f64", lambda L, a, b: a * b, 1.25, -0.5, dtype=(F32, F64))
case("mixed_0d_f64_max_f32", lambda L, s, x: L.maximum(s, x), 0.25, A23, dtype=(F64, F32))

# composite expressions (diamonds: a value used more than once)
case("diamond_square_plus_self", lambda L, x: _diamond(x), A23)
case("diamond_deep", lambda L, x: _deep_diamond(L, x), A23)
case("tutorial_2x_cubed_mean", lambda L, x: ((2 * x) ** 3).mean(), [[-0.7452, 1.5727], [0.1702, 0.7374]])
case("graph_article", lambda L, a, b, d: (a + b) * d, 2.0, 3.0, 4.0)
case("mlp", lambda L, X, W1, b1, W2: (L.relu(X @ W1 + b1) @ W2).sum(), values(5, 3), values(3, 4, offset=2),
     values(4, offset=3), values(4, 2, offset=4))
case("cross_entropy", lambda L, z, t: -(L.log_softmax(z, dim=1) * t).sum(1).mean(), values(3, 4),
     [[0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]], grad=(True, False))
case("normalize", lambda L, x: (x - x.mean(1, keepdim=True)) / (x * x).sum(1, keepdim=True).sqrt(), A234)
case("same_leaf_both_operands", lambda L, x: x * x + x / (1 + x * x), A23)
case("chain_of_views", lambda L, x: x.t().unsqueeze(0).expand(2, 3, 2).sum(0).reshape(-1)[1:4], A23)


def _diamond(x: Any) -> Any:
    y = x * x
    return y + y


def _deep_diamond(L: Any, x: Any) -> Any:
    a = x * 2
    b = L.exp(a)
    c = L.sin(a)
    d = b * c + a
    return (d * b).sum(0)


def _register_more() -> None:
    """The cases of cases_vocabulary.py (issue 31's vocabulary), cases_nn.py (issue 28's torch.nn functions) and
    cases_peer_regressions.py (what the port of the peers' op tests found), cases_differences.py (issue 44's
    last differences from PyTorch), cases_surface.py (issue 41's ops) and cases_special.py (the special and
    pointwise functions), added to this table."""
    import importlib.util
    from pathlib import Path

    for name in ("cases_vocabulary", "cases_nn", "cases_peer_regressions", "cases_differences", "cases_surface",
                 "cases_special", "cases_nn_layers", "cases_linalg"):
        spec = importlib.util.spec_from_file_location(f"autodiff_engine_{name}", Path(__file__).with_name(f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.register(sys.modules[__name__])


_register_more()
