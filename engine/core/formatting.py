"""PyTorch's tensor repr, reproduced on numpy arrays.

The rules follow `torch/_tensor_str.py` of PyTorch 2.13 with its default print options; the
output of `format_tensor` is meant to equal `repr(torch.from_numpy(data))` character for character.
"""

from __future__ import annotations

import math

import numpy as np

PRECISION = 4  # digits after the point (fixed) or after the leading digit (scientific), by default
THRESHOLD = 1000  # more elements than this and only the edges of each dimension are printed
EDGEITEMS = 3  # how many leading and trailing items a summarised dimension keeps
LINEWIDTH = 80  # where rows of numbers wrap
# torch.set_printoptions's profiles; the options now in force (set_printoptions changes them)
PROFILES = {"default": {"precision": PRECISION, "threshold": THRESHOLD, "edgeitems": EDGEITEMS, "linewidth": LINEWIDTH},
            "short": {"precision": 2, "threshold": THRESHOLD, "edgeitems": 2, "linewidth": LINEWIDTH},
            "full": {"precision": PRECISION, "threshold": math.inf, "edgeitems": EDGEITEMS, "linewidth": LINEWIDTH}}
_OPTIONS: dict = {**PROFILES["default"], "sci_mode": None}


def set_printoptions(precision: int | None = None, threshold: float | None = None, edgeitems: int | None = None,
                     linewidth: int | None = None, profile: str | None = None, sci_mode: bool | None = None) -> None:
    """torch.set_printoptions: digits after the point, the element count past which only each dimension's edges
    print, how many edge items, the line width, a profile ('default', 'short', 'full') setting the four first,
    and sci_mode (True, False, or None: chosen from the values); as in PyTorch, sci_mode is set by every call."""
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, int)
                                  or not 0 <= precision <= 30):
        from ..errors import BadValueError

        raise BadValueError(f"precision must be a whole number from 0 to 30, got {precision!r}")
    if profile is not None and profile in PROFILES:
        _OPTIONS.update(PROFILES[profile])
    for name, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None:
            _OPTIONS[name] = value
    _OPTIONS["sci_mode"] = sci_mode


PREFIX = "tensor("
FLOAT32 = np.dtype("float32")  # torch.get_default_dtype() unless changed
_INT64, _BOOL = np.dtype(np.int64), np.dtype(np.bool_)


class _ElementFormat:
    """How every element of one tensor is printed: one notation and one common width.

    PyTorch decides both from the nonzero finite elements that will be shown, so zeros, nan
    and inf never influence the choice, and may end up wider than the common width (they are
    then printed unpadded, hence misaligned, exactly as PyTorch does).
    """

    def __init__(self, shown: np.ndarray) -> None:
        flat = shown.reshape(-1)
        self.kind = shown.dtype.kind  # "f", or "b"/"i" for booleans and integers (printed as Python's)
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if self.kind in "biu":
            self.width = max((len(str(v)) for v in flat.tolist()), default=1)
            return
        values = flat[np.isfinite(flat) & (flat != 0)]
        if values.size == 0:
            return
        # PyTorch compares in double; Python floats also let 1e308 / 5e-324 be inf without a warning.
        magnitudes = np.abs(values)
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(np.ceil(values) == values))
        chosen = _OPTIONS["sci_mode"]
        self.sci_mode = (bool(largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4) if chosen is None
                         else bool(chosen))
        # Python floats, not numpy scalars: numpy formats its own scalars differently.
        self.width = max(len(self._text(v)) for v in values.tolist())

    def _text(self, value: float) -> str:
        if self.kind in "biu":
            return str(value)
        if self.sci_mode:
            return f"{value:.{_OPTIONS['precision']}e}"
        if self.int_mode:
            # An integer-valued float keeps a trailing point so it still reads as a float.
            return f"{value:.0f}" if math.isinf(value) or math.isnan(value) else f"{value:.0f}."
        return f"{value:.{_OPTIONS['precision']}f}"

    def __call__(self, value: float) -> str:
        return self._text(value).rjust(self.width)


def _edge_indices(size: int, cut: bool) -> np.ndarray:
    """The positions a dimension shows: all of them, or its first and last EDGEITEMS."""
    if not cut:
        return np.arange(size)
    edge = _OPTIONS["edgeitems"]
    return np.r_[0:edge, size - edge : size]


def _join_vector(items: list[str], indent: int, width: int) -> str:
    """A 1-D row: as many elements per line as fit in LINEWIDTH (measured with the common width)."""
    per_line = max(1, (_OPTIONS["linewidth"] - indent) // (width + 2))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _body(data: np.ndarray) -> str:
    """The bracketed numbers of a non-empty tensor, without prefix or suffixes."""
    ndim = data.ndim
    summarize = data.size > _OPTIONS["threshold"]
    cuts = [summarize and n > 2 * _OPTIONS["edgeitems"] for n in data.shape]
    # Only the items that will be printed are gathered and converted, so a huge tensor costs
    # no more than a small one; the notation is chosen from these items only, as PyTorch does.
    shown = data[np.ix_(*map(_edge_indices, data.shape, cuts))] if ndim else data
    fmt = _ElementFormat(shown)
    if ndim == 0:
        return fmt(shown.item())

    # Build the text from the innermost dimension outwards: `pieces` holds one string per
    # index of the dimensions not yet joined, in C order, so each step joins consecutive runs.
    pieces = [fmt(v) for v in shown.reshape(-1).tolist()]
    for axis in range(ndim - 1, -1, -1):
        indent = len(PREFIX) + axis  # one column deeper per enclosing bracket
        run = shown.shape[axis]
        groups = [pieces[i : i + run] for i in range(0, len(pieces), run)]
        if cuts[axis]:
            # The ellipsis is an element of its own: in a row it counts toward the wrapping.
            marker = " ..." if axis == ndim - 1 else "..."
            edge = _OPTIONS["edgeitems"]
            groups = [[*g[:edge], marker, *g[edge:]] for g in groups]
        if axis == ndim - 1:
            pieces = [_join_vector(g, indent, fmt.width) for g in groups]
        else:
            # Sub-tensors of a k-D tensor are separated by k-1 newlines (blank lines for 3-D+).
            sep = "," + "\n" * (ndim - axis - 1) + " " * (indent + 1)
            pieces = ["[" + sep.join(g) + "]" for g in groups]
    return pieces[0]


def _add_suffixes(text: str, suffixes: list[str]) -> str:
    """Append `, suffix` items, moving one to a new line when it would pass LINEWIDTH.

    PyTorch measures the last line as two columns longer than it is (and not the lines it
    starts itself); the arithmetic below keeps that quirk because it decides the breaks.
    """
    parts = [text]
    last_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_len + len(suffix) + 2 > _OPTIONS["linewidth"]:
            parts.append(",\n" + " " * len(PREFIX) + suffix)
            last_len = len(PREFIX) + len(suffix)
        else:
            parts.append(", " + suffix)
            last_len += len(suffix) + 2
    return "".join(parts) + ")"


def format_tensor(
    data: np.ndarray,
    *,
    requires_grad: bool = False,
    grad_fn: str | None = None,
    default_dtype: np.dtype = FLOAT32,
    tangent: str | None = None,
) -> str:
    """The text PyTorch 2.13's repr() prints for a tensor holding `data`.

    `grad_fn` is the node's class name (e.g. "MulBackward0"); `requires_grad` is only shown for
    tensors without one, like PyTorch's leaves. `default_dtype` plays `torch.get_default_dtype()`:
    the dtype is printed only when it differs.
    """
    data = np.asarray(data)
    suffixes = []
    if data.size == 0:
        # An empty tensor shows its shape unless it is 1-D, like numpy.
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
        body = "[]"
    else:
        body = _body(data)
    # the dtype is shown unless it is the default float, or int64 or bool with values (as PyTorch: an empty
    # tensor has no values to tell an int64 or bool one apart)
    usual = (np.dtype(default_dtype),) if data.size == 0 else (np.dtype(default_dtype), _INT64, _BOOL)
    if data.dtype not in usual:
        suffixes.append(f"dtype=torch.{data.dtype.name}")
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:  # forward AD's (PyTorch formats it with f"{tangent}": a 0-d one as its number)
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(PREFIX + body, suffixes)
