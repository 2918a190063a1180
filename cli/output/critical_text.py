"""`autodiff critical`'s text output: one line per point, the method, the notes."""

from __future__ import annotations

from typing import Any

from autodiff.cli.calculus import decimal


def _shown(exact: str | None, value: float) -> str:
    plain = decimal(value)
    if exact is None or exact == plain:
        return plain
    try:
        same = abs(float(exact) - value) <= 1e-12 * max(1.0, abs(value))  # 0 for sin(pi)'s 1.2e-16
    except ValueError:
        same = False
    return exact if same else f"{exact} ({plain})"


def _range(result: Any) -> str:
    ranges = ", ".join(f"{n} in [{decimal(a)}, {decimal(b)}]" for n, (a, b) in result.box.items())
    if result.given:
        return ranges
    return f"{ranges} (no interval given: {', '.join(f'{n}=A:B' for n in result.box)} sets it)"


def _chart(result: Any) -> str:
    """increasing on (-1, 10); decreasing on (-10, -1): the ends as the critical points are shown (exact)."""
    exact = {p.x: p.exact for p in result.points if p.exact is not None}

    def end(x: float) -> str:
        return _shown(exact.get(x), x).split(" (")[0] if x in exact else decimal(x)

    parts = []
    for sign in (1, -1):
        pieces = [p for p in result.chart if p.sign == sign]
        if pieces:
            where = " and ".join(f"({end(p.start)}, {end(p.stop)})" for p in pieces)
            parts.append(f"{pieces[0].words(result.order)} on {where}")
    return "  " + "; ".join(parts)


def text(program: str, result: Any) -> str:
    what = "inflection points" if result.order == 2 else "critical points"
    lines = [f"{what} of {program}, {_range(result)}"]
    if result.constraint is not None and "<=" not in result.constraint and ">=" not in result.constraint:
        lines = [f"extrema of {program} subject to {result.constraint}, {_range(result)}"]
    if result.general:
        lines.append(f"  infinitely many: {result.general}")
    one = len(result.variables) == 1
    for p in result.points:
        if one:
            where = f"{result.variables[0]} = {_shown(p.exact, p.x)}"
            lines.append(f"  {where}  f = {_shown(p.exact_value, p.value)}  {p.kind}  ({p.type}; {p.test})")
        else:
            exact = p.exact or {}
            where = ", ".join(f"{n} = {_shown(exact.get(n), v)}" for n, v in p.at.items())
            lines.append(f"  ({where})  f = {_shown(p.exact_value, p.value)}  {p.kind}  ({p.test})")
    for flat in result.flats:
        d = "f''" if result.order == 2 else "f'"
        lines.append(f"  {d} = 0 on all of [{decimal(flat.start)}, {decimal(flat.stop)}]: every point there counts "
                     "(f is " + ("linear" if result.order == 2 else "constant") + " there)")
    if not result.points and not result.flats and not result.general and result.constraint is None:
        lines.append(f"  none: no {what[:-1]} found")
    if result.chart:
        lines.append(_chart(result))
    if result.constraint is not None:
        lines.append(f"on the constraint {result.constraint}: grad f = lambda grad g at")
        for c in result.constrained:
            exact = c.exact or {}
            where = ", ".join(f"{n} = {_shown(exact.get(n), v)}" for n, v in c.at.items())
            kind = {"maximum": "local maximum on it", "minimum": "local minimum on it", "neither": "neither",
                    "inconclusive": "test inconclusive"}[c.kind]
            lines.append(f"  ({where})  f = {_shown(c.exact_value, c.value)}  {kind}  (lambda = "
                         f"{decimal(c.multiplier)})")
        if not result.constrained:
            lines.append("  none found")
    for kind, extrema in result.absolute.items():
        if not one:
            region = " x ".join(f"[{decimal(a)}, {decimal(b)}]" for a, b in result.box.values())
            region = region if result.constraint is None else f"{result.constraint}"
            for e in extrema:
                where = ", ".join(f"{n} = {_shown(e.exact.get(n), v)}" for n, v in e.at.items())
                lines.append(f"absolute {kind} on {region}: f = {_shown(e.exact_value, e.value)} at ({where}), "
                             f"{e.where}")
            continue
        (a, b), = result.box.values()
        for e in extrema:
            lines.append(f"absolute {kind} on [{decimal(a)}, {decimal(b)}]: f = {_shown(e.exact_value, e.value)} at "
                         f"{result.variables[0]} = {_shown(e.exact, e.x)}")
    lines += [f"method: {m}" for m in result.method]
    lines += [f"note: {n}" for n in result.notes]
    return "\n".join(lines) + "\n"
