"""torch.utils.data's default_collate and default_convert, with PyTorch's rules: tensors are stacked, numpy
arrays become tensors and are stacked, Python ints collate to an int64 tensor and floats to a float64 one,
strings stay a list, and mappings, named tuples and sequences are collated field by field (a tuple of fields
becomes a list, as in PyTorch)."""

from __future__ import annotations

import collections.abc
import copy
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from autodiff.engine import Tensor, stack, tensor
from autodiff.engine.core.dtypes import float64
from autodiff.engine.errors import BadValueError, WrongTypeError

from ..tensors import as_tensor

NUMPY_STRINGS = re.compile(r"[SaUO]")  # numpy dtypes of strings and objects, which do not collate
COLLATE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def _tensors(batch: list, **_: Any) -> Tensor:
    return stack(batch, 0)


def _arrays(batch: list, *, collate_fn_map: dict) -> Any:
    if NUMPY_STRINGS.search(batch[0].dtype.str) is not None:
        raise WrongTypeError(COLLATE_ERROR.format(batch[0].dtype), reason="collate")
    return collate([as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def _numpy_scalars(batch: list, **_: Any) -> Tensor:
    return as_tensor(np.array(batch))


def _floats(batch: list, **_: Any) -> Tensor:
    return tensor(batch, dtype=float64)


def _ints(batch: list, **_: Any) -> Tensor:
    return tensor(batch)


def _strings(batch: list, **_: Any) -> list:
    return batch


default_collate_fn_map: dict[Any, Callable[..., Any]] = {
    Tensor: _tensors, np.ndarray: _arrays, (np.bool_, np.number, np.object_): _numpy_scalars, float: _floats,
    int: _ints, str: _strings, bytes: _strings}


def _mapping(batch: list, collate_fn_map: dict | None) -> Any:
    elem = batch[0]
    fields = {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map) for key in elem}
    try:
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)
            clone.update(fields)
            return clone
        return type(elem)(fields)
    except TypeError:
        return fields


def _sequence(batch: list, collate_fn_map: dict | None) -> Any:
    elem = batch[0]
    size = len(elem)
    if not all(len(sample) == size for sample in batch):
        raise BadValueError("each element in list of batch should be of equal size", reason="collate")
    columns = [collate(list(samples), collate_fn_map=collate_fn_map) for samples in zip(*batch)]
    if isinstance(elem, tuple):
        return columns  # a list, as PyTorch gives it (for backwards compatibility there)
    try:
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            for i, column in enumerate(columns):
                clone[i] = column
            return clone
        return type(elem)(columns)
    except TypeError:
        return columns


def collate(batch: list, *, collate_fn_map: dict | None = None) -> Any:
    """A batch of samples as one sample of batches, each element type collated by collate_fn_map's function."""
    elem = batch[0]
    if collate_fn_map is not None:
        if type(elem) in collate_fn_map:
            return collate_fn_map[type(elem)](batch, collate_fn_map=collate_fn_map)
        for kind, function in collate_fn_map.items():
            if isinstance(elem, kind):
                return function(batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        return _mapping(batch, collate_fn_map)
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a named tuple
        return type(elem)(*(collate(list(samples), collate_fn_map=collate_fn_map) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        return _sequence(batch, collate_fn_map)
    raise WrongTypeError(COLLATE_ERROR.format(type(elem)), reason="collate")


def default_collate(batch: list) -> Any:
    """Samples put together into a batch, with PyTorch's rules (see the module's docstring)."""
    return collate(batch, collate_fn_map=default_collate_fn_map)


def default_convert(data: Any) -> Any:
    """One sample as a DataLoader without batching gives it: numpy arrays and numbers become tensors."""
    kind = type(data)
    if isinstance(data, Tensor):
        return data
    if kind.__module__ == "numpy" and kind.__name__ not in ("str_", "string_"):
        if kind.__name__ == "ndarray" and NUMPY_STRINGS.search(data.dtype.str) is not None:
            return data
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return kind(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return [default_convert(d) for d in data]
    return data


__all__ = ["collate", "default_collate", "default_collate_fn_map", "default_convert"]
