"""torch.save and torch.load in a safe format of autodiff's own: a numpy .npz archive (numpy's format for arrays,
read with allow_pickle=False) holding each tensor's values, and the structure around them as JSON. What it keeps:
tensors (their dtype, requires_grad, and whether they were Parameters), numbers, strings, booleans, None, and
lists, tuples and dicts of those: a state_dict, an optimizer's state_dict, a checkpoint dict. Nothing is pickled,
so loading a file runs no code; a whole nn.Module (which PyTorch pickles) is refused with what to save instead.
PyTorch's own .pt files are pickles and are not read."""

from __future__ import annotations

import json
import math
import os
import zipfile
from collections import OrderedDict
from typing import Any

import numpy as np

from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError, WrongTypeError
from autodiff.engine.nn.module import Module, Parameter

FORMAT = "autodiff-save"
VERSION = 1
STRUCTURE = "structure"  # the archive's entry that holds the JSON


class _Writer:
    """Turns an object into JSON-able data, collecting its tensors' arrays."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def encode(self, obj: Any) -> Any:
        """The object as JSON-able data (iterative: a deeply nested checkpoint needs no recursion)."""
        root: list = [None]
        stack: list[tuple[Any, list, int]] = [(obj, root, 0)]
        while stack:
            value, parent, slot = stack.pop()
            parent[slot] = self._encode_one(value, stack)
        return root[0]

    def _encode_one(self, value: Any, stack: list) -> Any:
        if isinstance(value, Tensor):
            name = f"t{len(self.arrays)}"
            self.arrays[name] = np.array(value.detach().numpy(), order="C")  # (ascontiguousarray makes a 0-d array 1-d)
            return {"tensor": name, "requires_grad": value.requires_grad, "parameter": isinstance(value, Parameter)}
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, int):
            return {"int": str(value)}
        if isinstance(value, float):
            return value if math.isfinite(value) else {"float": repr(value)}
        if isinstance(value, (list, tuple)):
            items: list = [None] * len(value)
            stack.extend((item, items, i) for i, item in enumerate(value))
            return {"list" if isinstance(value, list) else "tuple": items}
        if isinstance(value, dict):
            keys = list(value)
            for key in keys:
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    raise WrongTypeError(f"torch.save: a dict key must be a string or an integer here, not "
                                         f"{type(key).__name__}", reason="save")
            items = [None] * len(keys)
            stack.extend((value[key], items, i) for i, key in enumerate(keys))
            return {"dict": [[key, isinstance(key, int)] for key in keys], "values": items,
                    "ordered": isinstance(value, OrderedDict)}
        if isinstance(value, Module):
            raise WrongTypeError("torch.save of a whole nn.Module needs pickle, which autodiff does not use: save its "
                                 "state_dict() and load it into a new model (model.load_state_dict(torch.load(f)))",
                                 reason="save")
        raise WrongTypeError(f"torch.save: autodiff saves tensors, numbers, strings, None and lists, tuples and dicts "
                             f"of them, not {type(value).__name__}", reason="save")


def save(obj: Any, f: Any, pickle_module: Any = None, pickle_protocol: Any = None,
         _use_new_zipfile_serialization: bool = True) -> None:
    """Write obj to f (a path or a binary file) in autodiff's safe format."""
    writer = _Writer()
    document = {"format": FORMAT, "version": VERSION, "object": writer.encode(obj)}
    structure = np.frombuffer(json.dumps(document).encode("utf-8"), dtype=np.uint8)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as out:  # (np.savez would add .npz to a path)
            np.savez(out, **{STRUCTURE: structure}, **writer.arrays)
    else:
        np.savez(f, **{STRUCTURE: structure}, **writer.arrays)


def _leaf(value: Any, arrays: Any) -> Any:
    if not isinstance(value, dict):
        return value
    if "int" in value:
        return int(value["int"])
    if "float" in value:
        return float(value["float"])
    t = (Parameter if value["parameter"] else Tensor)._make(np.array(arrays[value["tensor"]]))
    return t.requires_grad_(True) if value["requires_grad"] else t


def _children(value: Any) -> list | None:
    """A container's encoded items (None for a leaf)."""
    if not isinstance(value, dict):
        return None
    for key in ("list", "tuple", "values"):
        if key in value:
            return value[key]
    return None


def _built(value: dict, items: list) -> Any:
    if "list" in value:
        return items
    if "tuple" in value:
        return tuple(items)
    keys = [int(k) if is_int else k for k, is_int in value["dict"]]
    return (OrderedDict if value["ordered"] else dict)(zip(keys, items))


def _decode(data: Any, arrays: Any) -> Any:
    """The object that _Writer encoded, built in post-order with an explicit stack (no recursion)."""
    stack: list[tuple[Any, bool]] = [(data, False)]
    values: list = []
    while stack:
        value, ready = stack.pop()
        children = _children(value)
        if children is None:
            values.append(_leaf(value, arrays))
        elif not ready:
            stack.append((value, True))
            stack.extend((child, False) for child in reversed(children))
        else:
            items = values[len(values) - len(children):]
            del values[len(values) - len(children):]
            values.append(_built(value, items))
    return values[0]


def load(f: Any, map_location: Any = None, pickle_module: Any = None, *, weights_only: Any = None,
         mmap: Any = None, **pickle_load_args: Any) -> Any:
    """Read what save() wrote (a path or a binary file): never a pickle."""
    try:
        archive = np.load(f, allow_pickle=False)
    except (ValueError, OSError, zipfile.BadZipFile) as error:
        raise BadValueError(f"torch.load: this is not a file autodiff's torch.save wrote ({error}); PyTorch's files "
                            "are pickles, which autodiff does not load", reason="load") from None
    if not isinstance(archive, np.lib.npyio.NpzFile) or STRUCTURE not in archive.files:
        raise BadValueError("torch.load: this is not a file autodiff's torch.save wrote", reason="load")
    with archive:
        document = json.loads(bytes(archive[STRUCTURE]).decode("utf-8"))
        if document.get("format") != FORMAT:
            raise BadValueError("torch.load: this is not a file autodiff's torch.save wrote", reason="load")
        arrays = {name: archive[name] for name in archive.files if name != STRUCTURE}
    return _decode(document["object"], arrays)


__all__ = ["load", "save"]
