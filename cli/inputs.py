"""Reading `@PATH` values: numeric arrays from .npy (never pickled), .json or .csv files."""

from __future__ import annotations

import json
import math
import os
import re
import tokenize
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
        except (ValueError, SyntaxError, OSError, TypeError, tokenize.TokenError, RecursionError, MemoryError) as error:
            # numpy's message may quote its parser's objects (<ast.Call object at 0x...>): say what is wrong instead
            reason = ("its header is not a plain Python literal" if "malformed node" in str(error) else
                      "its header is not a complete Python literal" if isinstance(error, tokenize.TokenError) else
                      "its header is nested too deeply" if isinstance(error, (RecursionError, MemoryError)) else
                      _short(str(error)))
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


_NUMBER_CHARS = b"0123456789.-+eE"
_ALLOWED = b"[]," + _NUMBER_CHARS + b" \t\r\n"
_WHITESPACE = b" \t\r\n"
# Every byte as its class, so that the checks below are substring searches (regular expressions over a
# 100 MB file take seconds): n a number's character (z for 0, d another digit in _TOKENS), w whitespace.
_CLASSES = bytes.maketrans(_NUMBER_CHARS + _WHITESPACE, b"n" * len(_NUMBER_CHARS) + b"w" * len(_WHITESPACE))
_TOKENS = bytes.maketrans(b"0123456789E", b"zddddddddde")
# what numpy's parser takes but JSON's numbers do not: .5, -.5, 1., 1.e5, +1, 01, -01, empty values
_NOT_JSON_NUMBERS = (b",.", b"-.", b".,", b".e", b",+", b",zd", b",zz", b",-zd", b",-zz", b",,", b",-,")
FAST_JSON_FROM = 1 << 20  # files from this size are read without a Python object per list and per number


def _load_json(path: str) -> np.ndarray:
    if os.path.getsize(path) >= FAST_JSON_FROM:
        try:
            array = _json_array(path)
        except ValueError as error:  # brackets, commas and numbers only, but not an array of numbers
            raise InputError(f"@{path}: the JSON must be a number or rectangular nested lists of numbers "
                             f"({error})") from None
        if array is not None:
            return array
        # NaN, Infinity, other values or numbers too large: json.load reads it, or says what is wrong
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
    found = _not_a_number(data)
    if found is not None:  # numpy would read null as nan, true as 1 and "1.5" as 1.5
        raise InputError(f"@{path}: the JSON must be a number or nested lists of numbers, not {found}")
    try:
        array = np.array(data, dtype=np.float64)
    except (ValueError, TypeError):
        raise InputError(f"@{path}: the JSON must be a number or rectangular nested lists of numbers") from None
    except OverflowError:
        raise InputError(f"@{path}: a number in the JSON is too large for a float (at most about 1.8e308)") from None
    return array


def _not_a_number(data: object) -> str | None:
    """What in the JSON is neither a number nor a list (null, true, a string, an object), or None: iteratively."""
    stack = [data]
    while stack:
        item = stack.pop()
        if type(item) is list:
            stack.extend(item)
        elif type(item) not in (int, float):
            return {type(None): "null", bool: "true or false", str: "a string", dict: "an object"}.get(
                type(item), type(item).__name__)
    return None


def _json_array(path: str) -> np.ndarray | None:
    """The array of a JSON file made of brackets, commas and numbers only, read without making a Python
    object per list and per number (json.load takes about 35 bytes of memory per byte of `[[], [], ...]`):
    the shape comes from the first element at each depth, the brackets must be exactly those of that shape,
    and numpy parses the numbers. None when the text holds anything else (NaN, Infinity, strings, objects)
    or a number too large for a float: json.load then reads it. ValueError, saying why, when it is only
    brackets, commas and numbers but not a rectangular array of JSON numbers."""
    with open(path, "rb") as f:
        data = f.read()
    if data.translate(None, _ALLOWED):  # NaN, Infinity, strings, objects, ...
        return None
    numbers_before = _number_runs(data.translate(_CLASSES))
    compact = data.translate(None, _WHITESPACE)
    del data
    classes = compact.translate(_CLASSES)
    if _number_runs(classes) != numbers_before:
        raise ValueError("two numbers with only whitespace between them")
    if classes.startswith(b"n") or classes.endswith(b"n") or b"]n" in classes or b"n[" in classes:
        raise ValueError("a number outside the brackets, or next to one without a comma")
    del classes
    shape = _json_shape(compact)
    numbers = compact.translate(None, b"[]")
    del compact
    size = math.prod(shape)
    if size == 0:
        if numbers.strip(b","):
            raise ValueError("the lists are not all of the same length")
        return np.zeros(shape)
    tokens = b"," + numbers.translate(_TOKENS) + b","
    if any(pattern in tokens for pattern in _NOT_JSON_NUMBERS):
        raise ValueError("a value that is not a JSON number, or a missing one")
    del tokens
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            values = np.fromstring(numbers, dtype=np.float64, sep=",")
        except (ValueError, DeprecationWarning):
            raise ValueError("a value that is not a JSON number") from None
    if values.size != size:
        raise ValueError("the lists are not all of the same length")
    if not np.isfinite(values).all():  # 1e999 is inf, 10**309 an error: json.load says which
        return None
    return values.reshape(shape)


def _json_shape(compact: bytes) -> list[int]:
    """The shape of a JSON array of numbers (no whitespace) from its brackets and commas alone: the first
    element at each depth gives the sizes, and the brackets must be exactly those of that shape."""
    skeleton = compact.translate(None, _NUMBER_CHARS)
    ndim = 0
    while ndim < min(len(skeleton), 65) and skeleton[ndim] == ord("["):
        ndim += 1
    if ndim == 0 or ndim > 64:
        raise ValueError("not one array of at most 64 dimensions")
    first = compact[ndim - 1:compact.find(b"]", ndim - 1) + 1]  # the first innermost list: "[1,2,3]" or "[]"
    shape = [0 if first == b"[]" else first.count(b",") + 1]
    inner = b"[" + b"," * max(shape[0] - 1, 0) + b"]"  # its brackets and commas
    for depth in range(ndim - 2, -1, -1):  # each enclosing list: copies of the list inside, up to its "]"
        end = skeleton.find(inner + b"]", depth)
        if end < 0:
            raise ValueError("the lists are not all of the same length")
        count = (end - depth) // (len(inner) + 1) + 1
        shape.append(count)
        inner = b"[" + (inner + b",") * (count - 1) + inner + b"]"
    if inner != skeleton:
        raise ValueError("the lists are not all of the same length")
    shape.reverse()
    return shape


def _number_runs(classes: bytes) -> int:
    """How many numbers (runs of n) a text of _CLASSES holds (each run starts after another class)."""
    return sum(classes.count(start) for start in (b"[n", b"]n", b",n", b"wn")) + classes.startswith(b"n")


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
