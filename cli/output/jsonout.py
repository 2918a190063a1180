"""The JSON documents of the README's JSON output section, in one convention for every command:

- strict JSON (RFC 8259: every JSON reader takes it), with the non-finite numbers as the strings "nan",
  "inf" and "-inf" (what Python's float() reads back; jq: see the README);
- every number in the shortest decimal that reads back as the same value in its tensor's dtype (a float32
  0.1 is written 0.1, not 0.10000000149011612), at every size: `shortest` finds it for a whole array at
  once (numpy operations, no Python loop over the elements);
- the shape of each command's document is its JSON Schema, docs/schemas/COMMAND.schema.json (versioned by
  its "$id", autodiff/COMMAND/SCHEMA_VERSION).
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Callable
from typing import Any

import numpy as np

from autodiff.engine import Tensor, check_lists

SCHEMA_VERSION = 1

# Arrays larger than this are written piecewise (a few pieces of this many elements at a time), not
# turned into one list of Python floats and one string: a 20M-element gradient took 2.5 GB that way.
PIECE = 1 << 16


class Lazy:
    """An array in a document, turned into JSON only when the document is written (see write)."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray) -> None:
        self.array = array


def lazy(array: np.ndarray | None) -> Any:
    """values(array) for a small array; a Lazy for a large one, written piecewise by write()."""
    if array is None:
        return None
    array = np.asarray(array)
    if array.dtype == np.float64 and not array.shape:  # one float64 number (a check's points): as below, at once
        return number(array.item())
    check_lists(array.shape, "a value")  # zeros(10**12, 0): no element, but 10**12 lists to write
    return Lazy(array) if array.size > PIECE or (array.ndim and array.shape[0] > PIECE) else values(array)


_POWERS = 10.0 ** np.arange(23)  # exact in float64: scaling by them rounds once


def shortest(array: np.ndarray) -> np.ndarray:
    """float64 values whose repr() (what json writes) is, for each float32 element, the shortest decimal that
    reads back as that float32 (0.1 for float32(0.1)); vectorised. For each count of significant digits
    from 1 to 9 (9 always suffice), the elements not yet done are rounded to that many digits, and those
    that read back exactly are done; the nearest float64 to a decimal of at most 9 digits is written back
    as that decimal. Elements outside 1e-14..1e23 (where the scaling would not be exact) take numpy's own
shortest form, one at a time."""
    shape = np.shape(array)
    exact = np.asarray(array, dtype=np.float32).reshape(-1)
    if exact.size == 1:  # one number (a batch line's value, a check's point): the same steps without arrays
        return np.array(shortest_one(float(exact[0]))).reshape(shape)
    with np.errstate(all="ignore"):
        x = exact.astype(np.float64)
        out = x.copy()
        todo = np.isfinite(x) & (x != 0)
        exponent = np.floor(np.log10(np.abs(np.where(todo, x, 1.0)))).astype(np.int64)
        scalable = (exponent >= -14) & (exponent <= 22)  # every scale 10**k it needs is exact (k <= 22)
        rest = todo & ~scalable
        todo &= scalable
        for digits in range(1, 10):
            if not todo.any():
                break
            scale = digits - 1 - exponent  # decimal places to keep (negative: round to tens, hundreds...)
            power = _POWERS[np.minimum(np.abs(scale), 22)]
            up = scale >= 0
            rounded = np.rint(np.where(up, x * power, x / power))
            candidate = np.where(up, rounded / power, rounded * power)
            hit = todo & (candidate.astype(np.float32) == exact)
            out[hit] = candidate[hit]
            todo &= ~hit
    for index in np.flatnonzero(todo | rest):  # beyond 1e-14..1e23, subnormals: numpy's Dragon4, one at a time
        out[index] = float(str(exact[index]))
    return out.reshape(shape)


def shortest_one(value: float) -> float:
    """`shortest` of one float32 value (given as a float), step for step in Python floats (the same IEEE
    operations, rounding half to even as np.rint does; 190 us saved per number, which a batch line pays
    several times)."""
    if value != value or value in (math.inf, -math.inf) or value == 0:
        return value
    exponent = math.floor(math.log10(abs(value)))
    if not -14 <= exponent <= 22:
        return float(str(np.float32(value)))
    for digits in range(1, 10):
        scale = digits - 1 - exponent
        power = _POWERS_LIST[min(abs(scale), 22)]
        candidate = float(round(value * power)) / power if scale >= 0 else float(round(value / power)) * power
        if _FLOAT32.unpack(_FLOAT32.pack(candidate))[0] == value:
            return candidate
    return float(str(np.float32(value)))  # not reached: 9 digits always read back


_POWERS_LIST = [float(p) for p in _POWERS]
_FLOAT32 = struct.Struct("f")


def values(array: np.ndarray | None) -> Any:
    """A number for a 0-d array, nested lists otherwise; nan/inf/-inf as strings; None stays None. float32
    values are written as their shortest decimal (`shortest`), float64 values are Python's repr already."""
    if array is None:
        return None
    array = np.asarray(array)
    if array.dtype == np.float64 and not array.shape:  # one float64 number (a check's points): as below, at once
        return number(array.item())
    check_lists(array.shape, "a value")
    if array.dtype == np.float32:
        array = shortest(array)
    elif array.dtype.kind != "f":
        return array.tolist()
    finite = np.isfinite(array)
    if finite.all():
        return array.tolist()
    out = array.astype(object)
    out[np.isnan(array)] = "nan"
    out[array == np.inf] = "inf"
    out[array == -np.inf] = "-inf"
    return out.tolist()


def numbers(array: np.ndarray) -> list[Any]:
    """[values(element) for element in a 1-d array], at once: float32 elements by `shortest` over the whole array
    (which writes each element as shortest_one writes it alone: tests/cli/test_jsonout.py)."""
    kind = array.dtype
    if kind == np.float32:
        if len(array) < 16:  # a few numbers: without the arrays of the vectorised steps
            return [number(shortest_one(v)) for v in array.tolist()]
        array = shortest(array)
    elif kind.kind != "f":
        return array.tolist()
    return [number(v) for v in array.tolist()]


def number(value: float | None) -> Any:
    """One Python number in the convention (nan, inf, -inf as strings); None stays None."""
    if value is None or (value == value and value not in (np.inf, -np.inf)):
        return value
    return "nan" if value != value else ("inf" if value > 0 else "-inf")


def tensor_summary(name: str | None, t: Tensor) -> dict[str, Any]:
    return {
        "name": name,
        "value": lazy(t.numpy(force=True)),
        "shape": list(t.shape),
        "dtype": t.dtype.name,
        "requires_grad": t.requires_grad,
        "grad_fn": t.grad_fn.name() if t.grad_fn is not None else None,
    }


def graph_document(graph: Any) -> dict[str, Any]:
    nodes = []
    for n in graph.nodes:
        record: dict[str, Any] = {"id": n.id, "name": n.name, "next": [list(e) if e else None for e in n.next]}
        if n.name == "AccumulateGrad":
            record["variable"] = n.variable
        nodes.append(record)
    return {"root": graph.root, "nodes": nodes}


def step_document(step: Any) -> dict[str, Any]:
    """One --explain step: the node (id as in `graph`), what it received, what each input got and why."""
    document: dict[str, Any] = {
        "step": step.index + 1,
        "pass": step.pass_number,
        "node": step.node_id,
        "name": step.name,
        "grad_in": lazy(step.grad_in),
        "received": [{"from_step": c.from_step + 1, "from_node": c.from_node, "values": lazy(c.values)}
                     for c in step.received],
        "grads_out": [lazy(r.result) for r in step.rules],
        "rules": [{"input": r.input, "rule": r.rule, "worked": r.worked or None,
                   "reduced_from": list(r.reduced_from) if r.reduced_from else None} for r in step.rules],
    }
    if step.name == "AccumulateGrad":
        document["variable"] = step.tensor
        document["grad_before"] = lazy(step.leaf_before)
        document["grad_after"] = lazy(step.leaf_after)
    return document


def dumps(document: Any) -> str:
    return json.dumps(document, allow_nan=False, default=_eager)


def _eager(item: Any) -> Any:
    if isinstance(item, Lazy):
        return values(item.array)
    raise TypeError(f"{type(item).__name__} is not JSON")


class _HasLazy(Exception):
    pass


def _refuse_lazy(item: Any) -> Any:
    if isinstance(item, Lazy):
        raise _HasLazy
    raise TypeError(f"{type(item).__name__} is not JSON")


class _Raw(str):
    """Text written as it is (brackets, separators, keys)."""


def write(document: Any, out: Callable[[str], Any]) -> None:
    """Write the document as dumps() gives it, but large arrays (Lazy) piecewise: the memory it takes is a
    piece's, not the whole document's. Iterative: a container without a Lazy in it is written in one go."""
    stack: list[Any] = [document]
    while stack:
        item = stack.pop()
        if type(item) is _Raw:
            out(item)
            continue
        if isinstance(item, Lazy):
            _write_array(item.array, out)
            continue
        try:
            out(json.dumps(item, allow_nan=False, default=_refuse_lazy))
            continue
        except _HasLazy:
            pass
        parts: list[Any] = []
        if isinstance(item, dict):
            parts.append(_Raw("{"))
            for i, (key, value) in enumerate(item.items()):
                parts.append(_Raw((", " if i else "") + json.dumps(str(key)) + ": "))
                parts.append(value)
            parts.append(_Raw("}"))
        else:
            parts.append(_Raw("["))
            for i, value in enumerate(item):
                if i:
                    parts.append(_Raw(", "))
                parts.append(value)
            parts.append(_Raw("]"))
        stack.extend(reversed(parts))


def _write_array(array: np.ndarray, out: Callable[[str], Any]) -> None:
    """values(array) as JSON text, a piece of about PIECE elements at a time (rows of the first axis; a row
    too large for one piece is opened in turn). Iterative."""
    if array.ndim == 0:
        out(json.dumps(values(array), allow_nan=False))
        return
    out("[")
    frames: list[list[Any]] = [[array, 0]]
    while frames:
        frame = frames[-1]
        current, start = frame
        count = current.shape[0]
        if start >= count:
            out("]")
            frames.pop()
            continue
        if start:
            out(", ")
        row = current[start]
        if row.ndim and row.size > PIECE:  # one row is too large for a piece: write it row by row
            frame[1] = start + 1
            out("[")
            frames.append([row, 0])
            continue
        stop = min(count, start + max(1, PIECE // max(1, row.size)))
        text = json.dumps(values(current[start:stop]), allow_nan=False)
        out(text[1:-1])
        frame[1] = stop
