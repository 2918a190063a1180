"""What the calculus commands (critical, tangent, limit, newton, gradient) share: their bindings read as a
point (`x=3 y=pi/4`), intervals (`x=-2:2`, as `table` reads a grid) and constants (`--const a=2`), the
engine in float64, and numbers in JSON (non-finite ones as strings, as everywhere)."""

from __future__ import annotations

import math
import sys
from typing import Any

from autodiff.cli.commandline import binding_texts, binding_value


class Bindings:
    """The command line's bindings: variables at a point, variables over an interval, and constants."""

    def __init__(self, point: dict[str, float] | None = None, texts: dict[str, str] | None = None,
                 intervals: dict[str, tuple[float, float]] | None = None,
                 interval_texts: dict[str, tuple[str, str]] | None = None, constants: list[Any] | None = None) -> None:
        self.point = {} if point is None else point  # NAME=VALUE (and --var)
        self.texts = {} if texts is None else texts  # each VALUE as written (for SymPy's exact numbers)
        self.intervals = {} if intervals is None else intervals  # NAME=A:B
        self.interval_texts = {} if interval_texts is None else interval_texts  # A and B as written
        self.constants = [] if constants is None else constants  # Binding(requires_grad=False)


def scalar(value: Any, what: str) -> float:
    """A bound value as a float (a one-element tensor, a number); a usage error otherwise."""
    from autodiff.engine import Tensor
    from autodiff.engine.errors import UsageError

    if isinstance(value, Tensor) and value.numpy(force=True).size == 1:
        value = float(value.numpy(force=True).reshape(-1)[0])
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UsageError(f"{what} must be a number (calculus questions are about scalar variables)")
    return float(value)


def read_bindings(assignments: tuple[str, ...], options: dict[str, Any], intervals: bool = False) -> Bindings:
    """Read the bindings (the command runs in float64): NAME=VALUE and --var are the variables (a point),
    --const the constants; with `intervals`, NAME=A:B gives a variable's interval."""
    from autodiff.app.session import Binding, constant
    from autodiff.engine.errors import UsageError

    out = Bindings()
    for name, value, _, requires_grad in binding_texts(assignments, options.get("variables", ()),
                                                            options.get("constants", ())):
        if ":" in value and not value.startswith("@"):
            if not intervals or not requires_grad:
                raise UsageError(f"{name}={value}: this command takes a point ({name}=VALUE), not an interval")
            parts = value.split(":")
            if len(parts) != 2 or not all(p.strip() for p in parts):
                raise UsageError(f"{name}={value}: an interval is A:B, e.g. {name}=-2:2")
            a, b = (scalar(constant(p, f"the interval of {name}"), f"the interval of {name}") for p in parts)
            if not (math.isfinite(a) and math.isfinite(b)) or a >= b:
                raise UsageError(f"{name}={value}: an interval A:B needs finite numbers with A < B")
            out.intervals[name] = (a, b)
            out.interval_texts[name] = (parts[0].strip(), parts[1].strip())
        elif requires_grad:
            out.point[name] = scalar(binding_value(name, value, None), f"the value of {name}")
            out.texts[name] = value
        else:
            out.constants.append(Binding(name, binding_value(name, value, options["config"].max_elements), False))
            out.texts[name] = value
    return out


def choose(bound: dict[str, Any], wrt: tuple[str, ...], bindings: Bindings, what: str) -> list[str]:
    """The variables of the question: --wrt, or every bound one. Bound names that --wrt leaves out become
    constants."""
    from autodiff.app.session import Binding
    from autodiff.engine.errors import UsageError

    names = list(wrt) or list(bound)
    for name in names:
        if name not in bound:
            raise UsageError(f"--wrt {name}: give its {what}, e.g. {name}=1")
    for name in list(bound):
        if name not in names:
            value = bound.pop(name)
            if isinstance(value, float):
                bindings.constants.append(Binding(name, value, False))
            else:
                raise UsageError(f"{name} has an interval but is not a variable of the question (--wrt)")
    return names


def sympy_first(needed: bool = True) -> None:
    """Import SymPy at the start of a command that will use it (for the reason cli.memory.prepare imports numpy
    first: SymPy's import, started from deep inside the app's modules, crossed a frame-stack chunk's end 800 to
    2,300 times on CPython before 3.13.13)."""
    if needed:
        import sympy  # noqa: F401


def json_number(value: float | None) -> Any:
    if value is None:
        return None
    value = float(value) + 0.0  # -0.0 as 0.0
    if math.isnan(value) or math.isinf(value):
        return str(value)
    return value


def write_json(document: dict[str, Any]) -> None:
    import json  # only for --format json: not on the start-up of the text answers

    sys.stdout.write(json.dumps(document) + "\n")


def decimal(value: float, digits: int = 10) -> str:
    """A number for text output: 10 significant digits, integers without a point."""
    from autodiff.app.calculus.pointwise import number

    return number(value, digits)


__all__ = ["Bindings", "choose", "decimal", "json_number", "read_bindings", "scalar", "write_json"]
