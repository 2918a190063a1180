"""einsum and tensordot, decomposed as PyTorch decomposes them (aten's einsum and sumproduct_pair, tensordot), so
they record the nodes PyTorch records: each operand's repeated labels taken as diagonals, missing labels
unsqueezed and its dims permuted into one order (output labels, then the contracted ones); operands contracted
left to right, each pair by permute, reshape, bmm, view and permute (or mul when nothing is summed); labels only
one operand has summed first. Their gradients, second derivatives and tangents are those of the parts."""

from __future__ import annotations

import math
from typing import Any

from ..core.coerce import tensor_arg
from ..core.registry import builtin
from ..core.settings import check_dim
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from .arithmetic import mul
from .linalg import bmm, dot, mm
from .rearrange import diagonal, movedim
from .reductions import sum
from .shapes import flatten, permute, reshape, squeeze, unsqueeze, view

# This module uses torch's sum; Python's built-in of that name is not used here.

_LETTERS = 26
_ELLIPSIS = 2 * _LETTERS  # the code of "..." among the labels (A-Z are 0-25, a-z 26-51)


def _code(label: str) -> int:
    return ord(label) - ord("A") if label.isupper() else ord(label) - ord("a") + _LETTERS


def _letter(code: int) -> str:
    return chr(ord("A") + code) if code < _LETTERS else chr(ord("a") + code - _LETTERS)


def _fail(message: str) -> BadValueError:
    return BadValueError(f"einsum(): {message}", reason="einsum")


def _is_label(c: str) -> bool:
    return c.isascii() and c.isalpha()


def _operand_labels(lhs: str, count: int) -> list[list[int]]:
    """Each operand's labels (as codes, _ELLIPSIS for "...") from the equation's left-hand side."""
    labels: list[list[int]] = [[] for _ in range(count)]
    current, ellipsis, i = 0, False, 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            if ellipsis:
                raise _fail(f"found '.' for operand {current} for which an ellipsis was already found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise _fail(f"found '.' for operand {current} that is not part of any ellipsis")
            labels[current].append(_ELLIPSIS)
            ellipsis, i = True, i + 2
        elif c == ",":
            current, ellipsis = current + 1, False
            if current >= count:
                raise _fail("fewer operands were provided than specified in the equation")
        elif c != " ":
            if not _is_label(c):
                raise _fail(f"invalid subscript given at index {i} in the equation string, subscripts must be in "
                            "[a-zA-Z]")
            labels[current].append(_code(c))
        i += 1
    if current != count - 1:
        raise _fail("more operands were provided than specified in the equation")
    return labels


def _counts(labels: list[list[int]], operands: list[Tensor]) -> tuple[list[int], int]:
    """How many operands each label appears in (with repeats), and the most dims an ellipsis covers."""
    count = [0] * _ELLIPSIS
    ellipsis_dims = 0
    for i, (mine, x) in enumerate(zip(labels, operands)):
        named = len([s for s in mine if s != _ELLIPSIS])
        has = _ELLIPSIS in mine
        for s in mine:
            if s != _ELLIPSIS:
                count[s] += 1
        if has:
            ellipsis_dims = max(ellipsis_dims, x.ndim - named)
        if (named > x.ndim) if has else (named != x.ndim):
            relation = "is more than" if has else "does not match"
            tail = "" if has else " and no ellipsis was given"
            raise _fail(f"the number of subscripts in the equation ({named}) {relation} the number of dimensions "
                        f"({x.ndim}) for operand {i}{tail}")
    return count, ellipsis_dims


def _positions(equation: str, count: list[int], ellipsis_dims: int) -> tuple[list[int], int, int, int]:
    """Where each label goes in the aligned order (output labels first, then the contracted ones), where the
    ellipsis dims start, how many dims the output has, and how many the aligned order has."""
    place = [-1] * _ELLIPSIS
    at, ellipsis_at, ellipsis_out = 0, 0, False
    if "->" not in equation:  # implicit output: the ellipsis, then the labels seen once, in order
        at, ellipsis_out = ellipsis_dims, True
        for s in range(_ELLIPSIS):
            if count[s] == 1:
                place[s], at = at, at + 1
    else:
        lhs = equation.split("->", 1)[0]
        rhs = equation.split("->", 1)[1]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == ".":
                if ellipsis_out:
                    raise _fail("found '.' for output but an ellipsis (...) was already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise _fail("found '.' for output that is not part of any ellipsis (...)")
                ellipsis_at, at, ellipsis_out, i = at, at + ellipsis_dims, True, i + 2
            elif c != " ":
                if not _is_label(c):
                    raise _fail(f"invalid subscript given at index {len(lhs) + 2 + i} in the equation string, "
                                "subscripts must be in [a-zA-Z]")
                s = _code(c)
                if count[s] == 0 or place[s] != -1:
                    why = "appears more than once in the output" if place[s] != -1 else \
                        "does not appear in the equation for any input operand"
                    raise _fail(f"output subscript {c} {why}")
                place[s], at = at, at + 1
            i += 1
    out_dims = at
    if not ellipsis_out:
        ellipsis_at, at = at, at + ellipsis_dims
    for s in range(_ELLIPSIS):
        if count[s] > 0 and place[s] == -1:
            place[s], at = at, at + 1
    return place, ellipsis_at, out_dims, at


def _align(x: Tensor, i: int, mine: list[int], layout: tuple, sizes: dict, dim_counts: list[int]) -> Tensor:
    """Operand i with its repeated labels taken as diagonals, its missing labels unsqueezed and its dims permuted
    into the aligned order; counts, per aligned dim, the operands in which it is not 1."""
    place, ellipsis_at, ellipsis_dims, total = layout
    permutation = [-1] * total
    dim = 0
    for s in mine:
        if s == _ELLIPSIS:
            covered = x.ndim - (len(mine) - 1)
            for j in range(ellipsis_dims - covered, ellipsis_dims):
                size = x.shape[dim]
                if size != 1:
                    seen = sizes.get(("...", j), 1)
                    if seen not in (1, size):
                        raise _fail(f"dimension {dim} covered by ellipsis in operand {i}has size {size} which does "
                                    f"not broadcast with previously seen ellipsis with size {seen} for the "
                                    "respective dimension")
                    sizes[("...", j)] = size
                    dim_counts[ellipsis_at + j] += 1
                permutation[ellipsis_at + j], dim = dim, dim + 1
        elif permutation[place[s]] == -1:
            size = x.shape[dim]
            if size != 1:
                seen = sizes.get(s, 1)
                if seen not in (1, size):
                    raise _fail(f"subscript {_letter(s)} has size {size} for operand {i} which does not broadcast "
                                f"with previously seen size {seen}")
                sizes[s] = size
                dim_counts[place[s]] += 1
            permutation[place[s]], dim = dim, dim + 1
        else:  # a repeated label: the diagonal
            before = permutation[place[s]]
            if x.shape[dim] != x.shape[before]:
                raise _fail(f"subscript {_letter(s)} is repeated for operand {i} but the sizes don't match, "
                            f"{x.shape[dim]} != {x.shape[before]}")
            x = movedim(diagonal(x, 0, before, dim), -1, before)
    for k, value in enumerate(permutation):
        if value == -1:
            x = unsqueeze(x, dim)
            permutation[k], dim = dim, dim + 1
    return permute(x, permutation)


def sumproduct_pair(left: Tensor, right: Tensor, summed: list[int]) -> Tensor:
    """(left * right).sum(summed, keepdim=True) for operands of the same number of dims, by permute, reshape, bmm,
    view and permute (aten's sumproduct_pair)."""
    if not summed:
        return mul(left, right)
    lro: list[int] = []
    lo: list[int] = []
    ro: list[int] = []
    sum_size = 1
    for i in range(left.ndim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if sl and sr and left.shape[i] != right.shape[i]:
            raise _fail("non-broadcast dimensions must match")
        if i in summed:
            if sl and sr:
                sum_size *= left.shape[i]
            elif sl:
                left = sum(left, i, True)
            elif sr:
                right = sum(right, i, True)
        elif sl and sr:
            lro.append(i)
        elif sl:
            lo.append(i)
        else:
            ro.append(i)
    if lo and ro and ro[-1] < lo[0]:  # right's dims all come first in the output: bmm(right, left) is in order
        left, right, lo, ro = right, left, ro, lo
    lro_size = math.prod(left.shape[d] for d in lro)
    lo_size = math.prod(left.shape[d] for d in lo)
    ro_size = math.prod(right.shape[d] for d in ro)
    out_size = [left.shape[d] for d in lro + lo] + [1] * len(summed) + [right.shape[d] for d in ro]
    order = lro + lo + summed + ro
    back = [order.index(d) for d in range(len(order))]
    a = reshape(permute(left, lro + lo + summed + ro), lro_size, lo_size, sum_size)
    b = reshape(permute(right, lro + summed + ro + lo), lro_size, sum_size, ro_size)
    return permute(view(bmm(a, b), tuple(out_size)), back)


def _operands(equation: Any, operands: tuple) -> tuple[str, list[Tensor]]:
    """The equation and the operands of torch.einsum's call forms: (equation, *operands), (equation, [operands])
    and the sublist form (operand, [labels], operand, [labels], ..., [output labels])."""
    if isinstance(equation, Tensor):
        args = (equation, *operands)
        if len(args) < 2:
            raise _fail("must specify the equation string and at least one operand, or at least one operand and "
                        "its subscripts list")
        parts = [_sublist(labels) for labels in args[1::2]]
        equation = ",".join(parts) + ("->" + _sublist(args[-1]) if len(args) % 2 == 1 else "")
        operands = args[:-1:2] if len(args) % 2 == 1 else args[::2]
    elif not isinstance(equation, str):
        raise BadValueError(f"einsum(): the equation must be a string, got {type(equation).__name__}",
                            reason="einsum")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise _fail("must provide at least one operand")
    return equation, [tensor_arg(x, "operand") for x in operands]


def _sublist(labels: Any) -> str:
    if not isinstance(labels, (list, tuple)):
        raise _fail(f"expected a list of subscripts, got {type(labels).__name__}")
    out = []
    for n in labels:
        if n is Ellipsis:
            out.append("...")
        elif isinstance(n, int) and not isinstance(n, bool) and 0 <= n < _ELLIPSIS:
            out.append(_letter(n))
        else:
            raise _fail("subscript in subscript list is not within the valid range [0, 52)")
    return "".join(out)


@builtin("einsum(equation, *operands)", ("diagonal", "permute", "unsqueeze", "sum_dim", "mul", "view",
                                         "reshape_alias", "clone", "unsafe_view", "bmm"), method=False,
         summary="Einstein summation: the operands' products summed over the labels the output lacks")
def einsum(equation: Any, *operands: Any) -> Tensor:
    equation, xs = _operands(equation, operands)
    labels = _operand_labels(equation.split("->", 1)[0], len(xs))
    count, ellipsis_dims = _counts(labels, xs)
    place, ellipsis_at, out_dims, total = _positions(equation, count, ellipsis_dims)
    sizes: dict = {}
    dim_counts = [0] * total
    layout = (place, ellipsis_at, ellipsis_dims, total)
    ops = [_align(x, i, mine, layout, sizes, dim_counts) for i, (x, mine) in enumerate(zip(xs, labels))]
    while len(ops) > 1:  # left to right, each result first in line again
        a, b = ops.pop(0), ops.pop(0)
        summed, a_only, b_only = [], [], []
        for dim in range(out_dims, total):
            if a.shape[dim] != 1 and b.shape[dim] != 1:
                dim_counts[dim] -= 1
                if dim_counts[dim] == 1:
                    summed.append(dim)
                    dim_counts[dim] = 0
            elif dim_counts[dim] == 1:
                if a.shape[dim] != 1:
                    a_only.append(dim)
                    dim_counts[dim] = 0
                elif b.shape[dim] != 1:
                    b_only.append(dim)
                    dim_counts[dim] = 0
        if a_only:
            a = sum(a, a_only, True)
        if b_only:
            b = sum(b, b_only, True)
        ops.insert(0, sumproduct_pair(a, b, summed))
    if total > out_dims:
        if len(xs) > 1:
            return view(ops[0], tuple(ops[0].shape[:out_dims]))
        return sum(ops[0], list(range(out_dims, total)))
    return ops[0]


def _tensordot_dims(a: Tensor, b: Tensor, dims: Any) -> tuple[list[int], list[int]]:
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, bool) or not isinstance(dims, (int, list, tuple)):
        raise BadValueError(f"tensordot expects dims to be an int or a pair of lists, got {dims!r}",
                            reason="tensordot")
    if isinstance(dims, int):
        if dims < 0:
            raise BadValueError(f"tensordot expects dims >= 0, but got dims={dims}", reason="tensordot")
        if dims > min(a.ndim, b.ndim):
            raise BadValueError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}", reason="tensordot")
        return list(range(-dims, 0)), list(range(dims))
    if len(dims) != 2:
        raise BadValueError("tensordot expects dims to be a pair of dim lists", reason="tensordot")
    first, second = ([d] if isinstance(d, int) else list(d) for d in dims)
    if len(first) != len(second):
        raise BadValueError("both dimension lists should have same length", reason="tensordot")
    return first, second


@builtin("tensordot(a, b, dims=2)", ("sum_dim", "permute", "view", "reshape_alias", "clone", "unsafe_view", "mm",
                                    "dot", "squeeze", "mul", "sum"),
         method=False, summary="the sum over the given dims of a's and b's products (dims=n: a's last n, b's first n)")
def tensordot(a: Any, b: Any, dims: Any = 2) -> Tensor:
    x, y = tensor_arg(a, "a"), tensor_arg(b, "b")
    first, second = _tensordot_dims(x, y, dims)
    if x.dtype != y.dtype:
        raise BadValueError("both inputs should have same dtype", reason="dtype")
    given = list(zip(first, second))
    first = [check_dim(d, x.ndim) for d in first]
    second = [check_dim(d, y.ndim) for d in second]
    t1, t2, contracted = x, y, 1
    for d1, d2, (g1, g2) in zip(first, second, given):
        s1, s2 = x.shape[d1], y.shape[d2]
        if s2 == 1:
            t1 = sum(t1, d1, True)
        elif s1 == 1:
            t2 = sum(t2, d2, True)
        elif s1 != s2:
            raise ShapeError(f"contracted dimensions need to match, but first has size {s1} in dim {g1} and second "
                             f"has size {s2} in dim {g2}", reason="tensordot", shapes=(x.shape, y.shape))
        else:
            contracted *= s1
    keep1 = [i for i in range(x.ndim) if i not in first]
    keep2 = [i for i in range(y.ndim) if i not in second]
    size1, size2 = math.prod(t1.shape[i] for i in keep1), math.prod(t2.shape[i] for i in keep2)
    out = [t1.shape[i] for i in keep1] + [t2.shape[i] for i in keep2]
    if size1 == 1 and size2 == 1:  # a full contraction: a dot product (or mul and sum)
        t1, t2 = permute(t1, keep1 + first), permute(t2, second + keep2)
        if t1._data.flags.c_contiguous and t2._data.flags.c_contiguous:
            return reshape(dot(flatten(t1), flatten(t2)), tuple(out))
        return reshape(sum(mul(squeeze(t1), squeeze(t2))), tuple(out))
    m1 = reshape(permute(t1, keep1 + first), size1, contracted)
    m2 = reshape(permute(t2, second + keep2), contracted, size2)
    return reshape(mm(m1, m2), tuple(out))
