"""Reading `@PATH` values: numeric arrays from .npy (never pickled), .json or .csv files."""

from __future__ import annotations

import json
import math
import os
import re
import warnings

import numpy as np

from autodiff.engine.errors import InputError, LimitError

SUFFIXES = (".npy", ".json", ".csv")


def load_array(path: str, max_elements: int | None) -> np.ndarray:
    """The float64 array stored at path; InputError (kind io) when it cannot be read as numbers."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUFFIXES:
        raise InputError(f"@{path}: unsupported file type {suffix or '(none)'!r}; use .npy, .json or .csv")
    if not os.path.isfile(path):
        what = ("is a directory, not a file" if os.path.isdir(path) else
                "is not a regular file" if os.path.exists(path) else
                "is a loop of symbolic links" if _is_link_loop(path) else "does not exist")
        raise InputError(f"@{path}: the file {what}")
    try:
        if suffix == ".npy":
            return _load_npy(path, max_elements)
        _check_text_size(path, max_elements)
        if suffix == ".json":
            return _load_json(path)
        return _load_csv(path)
    except OSError as error:
        raise InputError(f"@{path}: cannot read the file ({error.strerror or error})") from None


def _is_link_loop(path: str) -> bool:
    import errno

    try:
        os.stat(path)
    except OSError as error:
        return error.errno == errno.ELOOP
    except ValueError:  # a NUL character in the path
        return False
    return False


def _short(text: str, width: int = 80) -> str:
    """Text quoted in a message, cut to one short line."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _load_npy(path: str, max_elements: int | None) -> np.ndarray:
    with open(path, "rb") as f:
        try:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(f)
            else:
                shape, _, dtype = np.lib.format.read_array_header_2_0(f)
        except (ValueError, SyntaxError, OSError, TypeError) as error:
            # numpy's message may quote its parser's objects (<ast.Call object at 0x...>): say what is wrong instead
            reason = ("its header is not a plain Python literal" if "malformed node" in str(error)
                      else _short(str(error)))
            raise InputError(f"@{path}: not a valid .npy file ({reason})") from None
        data_bytes = os.fstat(f.fileno()).st_size - f.tell()
    if not isinstance(shape, tuple) or not all(type(n) is int and n >= 0 for n in shape):
        raise InputError(f"@{path}: not a valid .npy file (its header's shape {_short(repr(shape))} is not a tuple of "
                         "sizes)")
    if dtype.hasobject:
        raise InputError(f"@{path}: the .npy file holds Python objects (a pickle); autodiff never loads pickles")
    if dtype.kind not in "biuf":
        raise InputError(f"@{path}: the .npy file holds {dtype} values; numbers are needed")
    _check_count(path, shape, max_elements)
    if data_bytes < math.prod(shape) * dtype.itemsize:  # before numpy allocates for what is not there
        raise InputError(f"@{path}: the .npy file is truncated: its header promises {math.prod(shape):,} values of "
                         f"{dtype.itemsize} bytes, the file holds {max(data_bytes, 0):,} bytes of data")
    try:
        array = np.load(path, allow_pickle=False)
    except ValueError as error:
        raise InputError(f"@{path}: cannot load the .npy file ({error})") from None
    return np.asarray(array, dtype=np.float64)


def _check_count(path: str, shape: tuple[int, ...], max_elements: int | None) -> None:
    count = math.prod(shape)
    if max_elements is not None and count > max_elements:
        raise LimitError(f"@{path}: {count:,} elements is over the limit of {max_elements:,}",
                         hint="raise --max-elements", reason="elements")


def _check_text_size(path: str, max_elements: int | None) -> None:
    # A number takes at least two characters in a text file ("1,"), so this bounds the element count
    # before anything is read.
    if max_elements is not None and os.path.getsize(path) > 2 * max_elements + 1024:
        raise LimitError(f"@{path}: the file is too large for the element limit of {max_elements:,}",
                         hint="raise --max-elements", reason="elements")


def _load_json(path: str) -> np.ndarray:
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except (ValueError, RecursionError) as error:
            raise InputError(f"@{path}: not valid JSON ({error})") from None
    depth = 0
    inner = data
    while isinstance(inner, list) and inner and depth <= 64:
        depth, inner = depth + 1, inner[0]
    if depth > 64:
        raise InputError(f"@{path}: the JSON's lists are nested more than 64 deep; a tensor has at most 64 dimensions")
    try:
        array = np.array(data, dtype=np.float64)
    except (ValueError, TypeError):
        raise InputError(f"@{path}: the JSON must be a number or rectangular nested lists of numbers") from None
    except OverflowError:
        raise InputError(f"@{path}: a number in the JSON is too large for a float (at most about 1.8e308)") from None
    return array


def _load_csv(path: str) -> np.ndarray:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numpy warns about a file without data: refused below instead
            array = np.loadtxt(path, delimiter=",", dtype=np.float64, ndmin=2, comments="#")
    except ValueError as error:
        # numpy's message quotes the field it could not read: say where it is, never what the file holds
        found = re.search(r"at row (\d+), column (\d+)", str(error))
        where = f": row {int(found[1]) + 1}, column {found[2]} is not a number" if found else ""
        raise InputError(f"@{path}: not a rectangular CSV of numbers{where}") from None
    if array.size == 0:
        raise InputError(f"@{path}: the CSV file holds no numbers")
    return array
