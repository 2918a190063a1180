"""Indexing: `x[index]` recorded as PyTorch records it (SelectBackward0, SliceBackward0, UnsqueezeBackward0,
AliasBackward0, then IndexBackward0 for index tensors, lists and masks: gathers.py), and `x[index] = value`
in place (CopySlices)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import checked_number, operand, tensor_arg, unpacking_error
from ..core.dtypes import BY_NUMPY, TYPE_NAMES
from ..core.graph import Node, edge_node
from ..core.inplace import COPY, COPY_SLICES, FILL_TENSOR, INDEX_PUT, base_of, write_view
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import STATE, check_dims
from ..core.tensor import Tensor
from ..errors import BadValueError, OutOfRangeError, ShapeError, WrongTypeError
from ..transforms.dual_tensors import set_tangent, tangent_of, write_tangent
from .gathers import broadcast_indices, is_advanced, split_index, take_rows
from .gathers import index as advanced_index
from .shapes import ALIAS, SELECT, SLICE, UNSQUEEZE, expand, view


def _normalize_index(x: Tensor, index: Any) -> list[tuple]:
    """Turn a Python index into steps: ('select', dim, i), ('slice', dim, a, b, c), ('unsqueeze', dim)."""
    items = list(index) if isinstance(index, tuple) else [index]
    for item in items:
        if isinstance(item, (Tensor, list, np.ndarray, bool)):
            raise BadValueError(
                "writing at an index that holds a tensor, a list or a boolean is not supported: use integers, "
                "slices, None and ...", hint="use torch.where(mask, value, x) or scatter(...) for a new tensor",
                reason="index")
        if not (item is None or item is Ellipsis or isinstance(item, (int, np.integer, slice))):
            raise BadValueError(f"invalid index {item!r}: use integers, slices (a:b:c), None and ...", reason="index")
    consumed = len([i for i in items if i is not None and i is not Ellipsis])
    if items.count(Ellipsis) > 1:
        raise BadValueError("an index can only have a single ellipsis ('...')", reason="index")
    if consumed > x.ndim:
        raise OutOfRangeError(f"too many indices for tensor of dimension {x.ndim}", reason="index")
    selected = len([i for i in items if not (i is None or i is Ellipsis or isinstance(i, slice))])
    check_dims(x.ndim - selected + items.count(None), "the indexing result")
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items[at:at + 1] = [slice(None)] * (x.ndim - consumed)
    steps, dim, shape = [], 0, list(x._data.shape)
    single = isinstance(index, slice)  # x[:] alone is recorded (SliceBackward0); x[...] is an alias
    for item in items:
        if item is None:
            steps.append(("unsqueeze", dim))
            shape.insert(dim, 1)
            dim += 1
        elif isinstance(item, slice):
            for part in (item.start, item.stop, item.step):
                if part is not None and (isinstance(part, bool) or not isinstance(part, (int, np.integer))):
                    raise BadValueError(f"slice indices must be integers or None, got {part!r}", reason="index")
            if item.step is not None and item.step == 0:
                raise BadValueError("slice step cannot be zero", reason="index")
            if item.step is not None and item.step < 0:
                raise BadValueError("step must be greater than zero (negative steps are not supported)",
                                    reason="index")
            start, stop, step = item.indices(shape[dim])
            if not whole_slice(item, shape[dim]) or single:
                steps.append(("slice", dim, start, stop, step))
                shape[dim] = len(range(start, stop, step))
            dim += 1
        else:
            size, i = shape[dim], int(item)
            if not -size <= i < size:
                raise OutOfRangeError(f"index {i} is out of bounds for dimension {dim} with size {size}",
                                      reason="index")
            steps.append(("select", dim, i % size))
            shape.pop(dim)
    return steps


def whole_slice(item: slice, length: int) -> bool:
    """PyTorch's test for a slice it skips (records nothing for) inside an index: as written, it starts at 0 (or
    None), steps by 1 (or None) and stops at the end or past it. `-3:` on a dim of 3 covers it all, yet is
    recorded (SliceBackward0), as is `::5` on a dim of 1."""
    return (item.start is None or item.start == 0) and (item.step is None or item.step == 1) and (
        item.stop is None or item.stop >= length)


def _as_python(item: Any) -> Any:
    """One item of an index as PyTorch reads it: a 0-d tensor of a whole number is that integer (a select,
    as PyTorch treats a 0-d integer tensor), a tuple inside the index is a sequence (as a list), and so is a range
    (x[range(n), y], as makemore writes it)."""
    if isinstance(item, tuple):
        return [_as_python(i) for i in item]
    if isinstance(item, range):
        return list(item)
    if isinstance(item, Tensor) and item.ndim == 0 and item._data.dtype != np.bool_:
        value = item._data.item()
        if float(value).is_integer():
            return int(value)
    return item


def _items(index: Any) -> list:
    """The index's items as PyTorch reads them; a 0-d bool tensor is the bool (a new dim, kept or emptied)."""
    items = []
    for item in (index if isinstance(index, tuple) else (index,)):
        if isinstance(item, Tensor) and item.ndim == 0 and item._data.dtype == np.bool_:
            items.append(bool(item._data.item()))
        else:
            items.append(_as_python(item))
    return items


def getitem(x: Tensor, index: Any) -> Tensor:
    """x[index] with PyTorch's recording: a chain of SelectBackward0/SliceBackward0/UnsqueezeBackward0, then
    IndexBackward0 when the index holds tensors, lists or booleans (advanced indexing)."""
    if isinstance(index, Tensor) and index._data.ndim and index._data.dtype.kind == "i" and x._data.ndim:
        return take_rows(x, index._data)  # x[an integer tensor]: a batch's rows, the common case, checked alone
    items = _items(index)
    index = tuple(items) if isinstance(index, tuple) else items[0]
    if any(is_advanced(item) for item in items):
        basic, where = split_index(x, items)
        return advanced_index(_basic_steps(x, _normalize_index(x, basic)), where)
    result = _basic_steps(x, _normalize_index(x, index))
    return apply(ALIAS, (x,)) if result is x else result


def _basic_steps(x: Tensor, steps: list[tuple]) -> Tensor:
    result = x
    for step in steps:
        if step[0] == "select":
            result = apply(SELECT, (result,), {"dim": step[1], "index": step[2]})
        elif step[0] == "slice":
            result = apply(SLICE, (result,), dict(zip(("dim", "start", "stop", "step"), step[1:])))
        else:
            result = apply(UNSQUEEZE, (result,), {"dim": step[1]})
    return result


def _numpy_index(x: Tensor, index: Any) -> tuple:
    """The numpy basic index equivalent to index, after PyTorch's checks: integers, slices, None and ... mean
    the same in both (negative steps, which differ, are refused by the checks)."""
    _normalize_index(x, index)
    items = index if isinstance(index, tuple) else (index,)
    return tuple(int(i) if isinstance(i, np.integer) else i for i in items)


def setitem(x: Tensor, index: Any, value: Any) -> None:
    """x[index] = value, in place; recorded as CopySlices when a gradient can flow through it (IndexPutBackward0
    for an index of tensors, lists or a mask)."""
    x._check_inplace()
    items = _items(index)
    if any(is_advanced(item) for item in items):
        _setitem_advanced(x, items, value)
        return
    where = _numpy_index(x, tuple(items) if isinstance(index, tuple) else items[0])  # x[t] with a 0-d integer t
    src = _fitted(_written(value, x), x._data[where].shape)
    src_data = src._data if isinstance(src, Tensor) else src
    if base_of(x) is not None:  # a view: CopySlices on its base, AsStridedBackward0 on the view
        write_view(x, where, src, src_data)
        return
    recorded = STATE.grad_enabled and (x._requires_grad or (isinstance(src, Tensor) and src._requires_grad))
    if recorded:
        # x is a non-leaf here (a leaf that requires grad was refused above), so x.grad_fn is its history.
        base_node = x._grad_fn if x._requires_grad else None
        outside = np.ones(x._data.shape, dtype=bool)
        outside[where] = False
        meta = (x._data.shape, x._data.dtype) + (
            (src._data.shape, src._data.dtype) if isinstance(src, Tensor) else (None, None))
        nexts = (base_node, edge_node(src))
        op, params = COPY_SLICES, {"outside": outside, "where": where}
        if _whole_region(x, where):  # the tensor itself, as PyTorch's index reads it: copy_ / fill_
            op = COPY if isinstance(src, Tensor) and src._data.ndim else FILL_TENSOR  # a 0-d tensor: fill_
            node = Node(op, nexts, meta, None, (), None)
        else:  # PyTorch frees CopySlices after a backward pass like a node with saved tensors: so does the plan
            plan = op.saved_for[tuple(n is not None for n in nexts)]
            saved = tuple(v for name, _ in plan for v in (params[name], None, 0))
            node = Node(op, nexts, meta, params, plan, saved)
    with np.errstate(all="ignore"):
        x._data[where] = src_data
    if STATE.forward_level:  # forward AD: the tangent is written the same way
        write_tangent(x, where, src)
    x._bump_version()
    if x._view_stamp is not None:
        x._view_stamp = x._version.value
    if recorded:
        x._grad_fn = node
        x._requires_grad = True


def _whole_region(x: Tensor, where: tuple) -> bool:
    """Whether PyTorch's index gives x itself (every item a slice it skips, or ...): its write is then x's own
    copy_/fill_ (CopyBackwards, FillBackward3), any other (y[-2:] = v, though it covers y) a CopySlices."""
    if not all(isinstance(w, slice) or w is Ellipsis for w in where):
        return False
    named = [w for w in where if w is not Ellipsis]
    dims = list(range(len(named)))
    if Ellipsis in where:
        at = where.index(Ellipsis)
        dims = dims[:at] + [x.ndim - len(named) + i for i in range(at, len(named))]
    return all(whole_slice(w, x._data.shape[d]) for w, d in zip(named, dims))


def _written(value: Any, x: Tensor) -> Any:
    """The value of x[index] = value: a tensor, or a number as x's dtype holds it (uint8 and 300 is refused)."""
    if type(value) is int and not -2**63 <= value < 2**63:  # PyTorch reads x[i] = n's int as an int64, any dtype
        raise unpacking_error()
    src = operand(value)
    return src if isinstance(src, Tensor) else checked_number(src, x._data.dtype, ("float32",))  # (as PyTorch)


def _fitted(src: Any, shape: tuple[int, ...]) -> Any:
    """The value written into a region of `shape`: as PyTorch's setitem, a tensor's leading 1-sized dims are
    dropped by a view, and the rest is expanded to the region; both are recorded (ViewBackward0,
    ExpandBackward0)."""
    if not isinstance(src, Tensor) or not src._data.ndim or src._data.shape == shape:
        return src
    lead = 0
    while lead < src._data.ndim and src._data.shape[lead] == 1:
        lead += 1
    stripped = src._data.shape[lead:]
    try:
        ok = np.broadcast_shapes(stripped, shape) == shape
    except ValueError:
        ok = False
    if not ok:
        raise ShapeError(
            f"shape mismatch: value tensor of shape {tuple(src.shape)} cannot be broadcast to indexing "
            f"result of shape {tuple(shape)}", reason="setitem", shapes=(src.shape, shape))
    src = view(src, stripped)
    return expand(src, shape) if stripped != shape else src


def _setitem_advanced(x: Tensor, items: list, value: Any, accumulate: bool = False, source: Tensor | None = None
                      ) -> None:
    """x[mask] = v, x[[0, 2]] = v, x[:, idx] = v: PyTorch's index_put_, recorded as IndexPutBackward0 (the
    written positions' gradient goes to the value, summed to its shape; the rest to what x held). With accumulate,
    the value is added (duplicate indices add up) and all of the gradient also goes to what x held; `source` is
    the tensor whose history x continues (torch.index_put writes into a copy of it)."""
    basic, where = split_index(x, items)
    broadcast_indices(where)
    if any(not (isinstance(b, slice) and b == slice(None)) for b in basic):
        raise BadValueError(
            "writing at an index of tensors, lists or a mask combined with integers, None or partial slices is "
            "not supported", hint="index the part first and write into it: x[0][mask] = v", reason="index")
    region = x._data[where].shape
    src = _written(value, x)
    src_data = src._data if isinstance(src, Tensor) else src
    try:
        fits = np.broadcast_shapes(np.shape(src_data), region) == region
    except ValueError:
        fits = False
    if not fits:
        raise ShapeError(f"shape mismatch: value tensor of shape {tuple(np.shape(src_data))} cannot be broadcast to "
                         f"indexing result of shape {tuple(region)}", reason="setitem",
                         shapes=(np.shape(src_data), region))
    source = x if source is None else source
    recorded = STATE.grad_enabled and (source._requires_grad or (isinstance(src, Tensor) and src._requires_grad))
    if base_of(x) is not None:
        if recorded:
            raise BadValueError(
                "writing at an index of tensors, lists or a mask into a view that requires grad is not supported",
                hint="write into the tensor the view was taken from, or use torch.where(mask, value, x)",
                reason="index")
        if accumulate:  # the view's new values, written whole
            total = np.array(x._data)
            np.add.at(total, where, src_data)
            where, src, src_data = (Ellipsis,), total, total
        write_view(x, where, src, src_data)
        return
    node = _index_put_node(x, where, src, accumulate, source, items) if recorded else None
    with np.errstate(all="ignore"):
        if accumulate:
            np.add.at(x._data, where, src_data)
        else:
            x._data[where] = src_data
    if STATE.forward_level:
        _add_tangent(x, items, src) if accumulate else write_tangent(x, where, src)
    x._bump_version()
    if x._view_stamp is not None:
        x._view_stamp = x._version.value
    if node is not None:
        x._grad_fn = node
        x._requires_grad = True


def _add_tangent(x: Tensor, items: list, src: Any) -> None:
    """Forward AD of an accumulating write: x's new tangent is its tangent (or zeros) with src's added at the
    indices, by index_put itself (recorded when the tangents require grad: forward-over-reverse)."""
    theirs = tangent_of(src)
    if theirs is None:
        return
    mine = tangent_of(x)
    set_tangent(x, index_put(Tensor._make(np.zeros_like(x._data)) if mine is None else mine, items, theirs,
                             accumulate=True))


def _index_put_node(x: Tensor, where: tuple, src: Any, accumulate: bool, source: Tensor, items: list) -> Node:
    outside = np.ones(x._data.shape, dtype=bool)
    if not accumulate:
        outside[where] = False
    meta = (x._data.shape, x._data.dtype) + (
        (src._data.shape, src._data.dtype) if isinstance(src, Tensor) else (None, None))
    nexts = (edge_node(source), edge_node(src))
    # accumulate and indices are read by grad_fn._saved_accumulate and _saved_indices, as PyTorch's
    indices = tuple(item for item in items if isinstance(item, Tensor))
    params = {"outside": outside, "where": where, "accumulate": accumulate, "indices": indices}
    plan = INDEX_PUT.saved_for[tuple(n is not None for n in nexts)]
    saved = tuple(v for name, _ in plan for v in (params[name], None, 0))
    return Node(INDEX_PUT, nexts, meta, params, plan, saved)


# ---------------------------------------------------------------------------- index_put
def _put_arguments(x: Tensor, indices: Any, values: Any, name: str) -> list:
    """index_put's indices (a tuple or list of index tensors) and values (a tensor of x's dtype), as PyTorch
    checks them."""
    if not isinstance(indices, (tuple, list)):
        raise WrongTypeError(f"{name}(): argument 'indices' (position 1) must be tuple of Tensors, not "
                             f"{type(indices).__name__}", hint="give a tuple: x.index_put_((idx,), values)",
                             reason="arguments")
    for at, item in enumerate(indices):
        if not isinstance(item, Tensor):
            raise WrongTypeError(f"expected Tensor as element {at} in argument 0, but got {type(item).__name__}",
                                 reason="arguments")
        if item._data.dtype.kind not in "biu":
            raise OutOfRangeError("tensors used as indices must be long, int, byte or bool tensors", reason="index")
    if len(indices) > x.ndim and not any(item._data.dtype.kind == "b" for item in indices):
        raise OutOfRangeError(f"too many indices for tensor of dimension {x.ndim} (got {len(indices)})",
                              reason="index")
    if not isinstance(values, Tensor):
        raise WrongTypeError(f"{name}(): argument 'values' (position 2) must be Tensor, not {type(values).__name__}",
                             reason="arguments")
    if values._data.dtype != x._data.dtype:
        mine, theirs = (TYPE_NAMES[BY_NUMPY[d]] for d in (x._data.dtype, values._data.dtype))
        raise BadValueError(f"Index put requires the source and destination dtypes match, got {mine} for the "
                            f"destination and {theirs} for the source.", hint="convert the values first: "
                            "values.to(x.dtype)", reason="index_put_dtype")
    return list(indices)


def index_put_(input: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """x.index_put_(indices, values, accumulate=False): x[indices] = values (added with accumulate), in place."""
    items = _put_arguments(input, indices, values, "index_put_")
    input._check_inplace()
    _setitem_advanced(input, items, values, bool(accumulate))
    return input


@builtin("index_put(input, indices, values, accumulate=False)", ("index_put_",))
def index_put(input: Any, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """A copy of input with values written at indices (a tuple of index tensors), or added with accumulate=True;
    recorded as IndexPutBackward0 on input itself."""
    x = tensor_arg(input)
    items = _put_arguments(x, indices, values, "index_put")
    out = Tensor._make(np.array(x._data, order="C"))
    if STATE.forward_level and tangent_of(x) is not None:
        set_tangent(out, tangent_of(x).clone())  # (recorded: forward-over-reverse differentiates through it)
    _setitem_advanced(out, items, values, bool(accumulate), source=x)
    return out
