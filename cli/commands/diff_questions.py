"""`autodiff diff`'s two other questions: related rates (an equation with the rates it gives, `dx/dt=2`, and
the one rate it does not, app.rates) and the derivative of an inverse function (`--inverse B`, app.inverse)."""

from __future__ import annotations

import sys
from typing import Any

from autodiff.cli.calculus import decimal, json_number, write_json
from autodiff.cli.commandline import output_format


def rate_bindings(assignments: tuple[str, ...]) -> tuple[dict[str, str], str | None, tuple[str, ...]]:
    """The rates given (`dx/dt=2`: {x: "2"}), their time variable, and the other NAME=VALUE arguments."""
    rates: dict[str, str] = {}
    times, rest = set(), []
    for a in assignments:
        left, _, value = a.partition("=")
        found = None
        if value and "/" in left:  # x=2 is a binding: app.calculus.rates is imported for a rate only
            from autodiff.app.calculus.rates import rate_name

            found = rate_name(left)
        if found is None:
            rest.append(a)
            continue
        rates[found[0]] = value
        times.add(found[1])
    if len(times) > 1:
        from autodiff.engine.errors import UsageError

        raise UsageError(f"the rates are with respect to {', '.join(sorted(times))}: give them all in one variable")
    return rates, (times.pop() if times else None), tuple(rest)


def answer(program: str | None, file: str | None, assignments: tuple[str, ...], options: dict[str, Any],
           rates: dict[str, str], time: str | None) -> int:
    """Related rates (an equation and rates) or --inverse B; the answer written, exit 0 (numbers in float64, as
    every calculus command's)."""
    from autodiff.app.config import Config

    with Config("float64").applied():
        return _answer(program, file, assignments, options, rates, time)


def _answer(program: str | None, file: str | None, assignments: tuple[str, ...], options: dict[str, Any],
            rates: dict[str, str], time: str | None) -> int:
    from autodiff.app.calculus.pointwise import Function
    from autodiff.cli.calculus import read_bindings
    from autodiff.cli.reading import read_math
    from autodiff.engine.errors import UsageError

    reading, assignments = read_math(program, file, assignments, options, implicit=bool(rates), show=False)
    bindings = read_bindings(assignments, options, intervals=not rates)
    json = output_format(options["output_format"]) == "json"
    if rates:
        from autodiff.app.calculus.rates import related

        if reading.equation is None:
            raise UsageError("related rates need an equation between the quantities, e.g. 'x^2 + y^2 = 25'")
        found = related(reading.program, Function(reading.program, _names(reading.program, bindings), []),
                        bindings.point, bindings.texts, rates, time or "t")
        return _write_rates(reading, found, json)
    from autodiff.app.calculus.inverse import inverse_derivative
    from autodiff.app.textbook.notation import read

    if reading.equation is not None:
        raise UsageError("--inverse B takes a function y = f(x), not an equation")
    names = sorted(set(_names(reading.program, bindings)) | set(bindings.intervals))
    if len(names) != 1:
        raise UsageError("--inverse B is for a function of one variable")
    text = read(options["inverse"]).program
    b = float(Function(text, [], []).value({}))
    found = inverse_derivative(Function(reading.program, names, bindings.constants), b,
                               bindings.intervals.get(names[0]), reading.program, text)
    return _write_inverse(reading, found, text, json)


def _names(program: str, bindings: Any) -> list[str]:
    from autodiff.app.symbolic.exact import expression

    found = expression(program)
    bound = [n for n in bindings.point]
    return sorted(set(found[1]) | set(bound)) if found else bound


def _write_rates(reading: Any, found: Any, json: bool) -> int:
    shown = decimal(found.value)
    value = shown if found.exact in (None, shown) else f"{found.exact}  ({shown})"
    if json:
        write_json({"read_as": reading.read_as, "derivatives": [], "rates": {
            "time": found.time, "unknown": found.unknown, "differentiated": found.differentiated,
            "formula": found.formula, "value": json_number(found.value), "exact": found.exact,
            "given": {n: json_number(v) for n, v in found.given.items()}}})
        return 0
    lines = [f"read as: {reading.read_as}"] if reading.read_as else []
    lines += [f"d/d{found.time} of both sides: {found.differentiated}", found.formula,
              f"  at the point: {value}"]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _write_inverse(reading: Any, found: Any, b_text: str, json: bool) -> int:
    a = found.at_exact or decimal(found.at)
    d = decimal(found.derivative)
    value = d if found.derivative_exact in (None, d) else f"{found.derivative_exact}  ({d})"
    if json:
        write_json({"read_as": reading.read_as, "derivatives": [], "inverse": {
            "value": json_number(found.value), "at": json_number(found.at), "at_exact": found.at_exact,
            "slope": json_number(found.slope), "derivative": json_number(found.derivative),
            "exact": found.derivative_exact}})
        return 0
    lines = [f"read as: {reading.read_as}"] if reading.read_as else []
    lines += [f"f({a}) = {b_text}, f'({a}) = {decimal(found.slope)}",
              f"(f^-1)'({b_text}) = 1/f'({a}) = {value}"]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


__all__ = ["answer", "rate_bindings"]
