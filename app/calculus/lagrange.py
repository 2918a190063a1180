"""Extrema under a constraint, as a book's Lagrange multipliers exercise: the points of g = c where grad f =
lambda grad g, f at each, and the largest and smallest of them; with g <= c (a closed disk, say) the critical
points of f inside the region too, the absolute extrema then among both.

The numbers are autograd's (float64): Newton's method on the system (grad f - lambda grad g, g - c) = 0, its
Jacobian from the Hessians of f and g, from a grid of starts in the box, all at once. SymPy solves the system
exactly where it can (bounded in time); its points are merged with the numbers' (app.critical_nd does the same
for grad f = 0)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from autodiff.app.calculus.critical import median
from autodiff.app.calculus.pointwise import Function, number
from autodiff.engine.errors import UsageError

STEPS = 100
SIDE = 24  # starts per variable
_RELATION = re.compile(r"(<=|>=|==|=|≤|≥|<|>)")


@dataclass
class Constrained:
    """A point of the constraint where grad f is parallel to grad g."""

    at: dict[str, float]
    value: float
    multiplier: float
    kind: str = "inconclusive"  # along the constraint: maximum, minimum, neither (the Lagrangian's Hessian there)
    exact: dict[str, str] | None = None
    exact_value: str | None = None


@dataclass
class Constraint:
    """g(x, ...) RELATION c, as g - c (a program) and the relation ("=", "<=" or ">=")."""

    text: str
    program: str
    relation: str


def constraint(text: str, read: Any) -> Constraint:
    """`x^2 + y^2 = 1` (on the curve) or `x^2 + y^2 <= 4` (the closed region); `read` reads one side (textbook
    notation, app.notation.read)."""
    depth, parts = 0, []
    pieces = _RELATION.split(text)
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            depth += piece.count("(") - piece.count(")")
        elif depth == 0:
            parts.append(i)
    if len(parts) != 1:
        raise UsageError(f"{{constraint}} {text!r}: give one equation or inequality, e.g. 'x^2 + y^2 = 1' or "
                         "'x^2 + y^2 <= 4'", fields=("constraint",))
    k = parts[0]
    left, relation, right = "".join(pieces[:k]).strip(), pieces[k], "".join(pieces[k + 1:]).strip()
    relation = {"==": "=", "≤": "<=", "≥": ">=", "<": "<=", ">": ">="}.get(relation, relation)
    if not left or not right:
        raise UsageError(f"{{constraint}} {text!r}: both sides are needed, e.g. 'x^2 + y^2 = 1'",
                         fields=("constraint",))
    left, right = read(left), read(right)
    return Constraint(f"{left} {relation} {right}", f"({left}) - ({right})", relation)


def on_constraint(fn: Function, g: Function, box: dict[str, tuple[float, float]]) -> list[Constrained]:
    """The points of g = 0 in the box where grad f = lambda grad g (Newton from a grid of starts)."""
    n = len(fn.variables)
    axes = [np.linspace(a, b, SIDE) for a, b in box.values()]
    x = np.stack([a.reshape(-1) for a in np.meshgrid(*axes, indexing="ij")], axis=1)
    with np.errstate(all="ignore"):
        _, gf, _ = fn.gradient_hessian(x)
        _, gg, _ = g.gradient_hessian(x)
        lam = np.einsum("mi,mi->m", gf, gg) / np.maximum(np.einsum("mi,mi->m", gg, gg), 1e-300)
        z = np.concatenate([x, lam[:, None]], axis=1)
        for _ in range(STEPS):
            residual, jacobian = _system(fn, g, z, n)
            ok = np.isfinite(residual).all(axis=1) & np.isfinite(jacobian).all(axis=(1, 2))
            step = np.zeros_like(z)
            if ok.any():
                step[ok] = np.einsum("mij,mj->mi", np.linalg.pinv(jacobian[ok]), residual[ok])
            z = np.where(ok[:, None], z - step, np.nan)
            if np.nanmax(np.abs(step), initial=0.0) <= 1e-14 * max(1.0, float(np.nanmax(np.abs(z), initial=1.0))):
                break
        residual, _ = _system(fn, g, z, n)
    scale = max(1.0, median(np.abs(gf)[~np.isnan(gf)]) if np.isfinite(gf).any() else 1.0)
    good = np.isfinite(z).all(axis=1) & (np.abs(residual).max(axis=1, initial=0.0) <= 1e-9 * scale)
    low = np.array([a for a, _ in box.values()])
    high = np.array([b for _, b in box.values()])
    good &= ((z[:, :n] >= low - 1e-9 * (high - low)) & (z[:, :n] <= high + 1e-9 * (high - low))).all(axis=1)
    out: list[Constrained] = []
    for row in z[good]:
        p = row[:n]
        if any(np.abs(p - np.array(list(c.at.values()))).max() <= 1e-6 * max(1.0, float(np.abs(p).max()))
               for c in out):
            continue
        size = max(1.0, float(np.abs(p).max()))
        at = {v: 0.0 if abs(c) <= 1e-12 * size else float(c) for v, c in zip(fn.variables, p)}
        lam = float(row[n])
        lam = 0.0 if abs(lam) <= 1e-12 * max(1.0, float(np.abs(row).max())) else lam
        out.append(Constrained(at, fn.value(at), lam, _kind(fn, g, p, lam)))
    return sorted(out, key=lambda c: tuple(c.at.values()))


def _kind(fn: Function, g: Function, p: np.ndarray, lam: float) -> str:
    """Along the constraint: the Hessian of f - lambda g on the tangent space of g = 0 (the bordered Hessian's
    test): positive definite, a local minimum; negative definite, a local maximum; both signs, neither."""
    _, _, hf = fn.gradient_hessian(p.reshape(1, -1))
    _, gg, hg = g.gradient_hessian(p.reshape(1, -1))
    hessian, normal = hf[0] - lam * hg[0], gg[0]
    if not (np.isfinite(hessian).all() and np.isfinite(normal).all()) or not normal.any():
        return "inconclusive"
    tangent = np.linalg.svd(normal.reshape(1, -1))[2][1:].T  # an orthonormal basis of the tangent space
    eigenvalues = np.linalg.eigvalsh(tangent.T @ hessian @ tangent)
    tol = 1e-8 * max(1.0, float(np.abs(hessian).max()))
    if (eigenvalues > tol).all():
        return "minimum"
    if (eigenvalues < -tol).all():
        return "maximum"
    return "neither" if (eigenvalues > tol).any() and (eigenvalues < -tol).any() else "inconclusive"


def _system(fn: Function, g: Function, z: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(grad f - lambda grad g, g) and its Jacobian in (x, lambda), at each row of z."""
    x, lam = z[:, :n], z[:, n]
    _, gf, hf = fn.gradient_hessian(np.nan_to_num(x))
    gv, gg, hg = g.gradient_hessian(np.nan_to_num(x))
    residual = np.concatenate([gf - lam[:, None] * gg, gv[:, None]], axis=1)
    jacobian = np.zeros((len(z), n + 1, n + 1))
    jacobian[:, :n, :n] = hf - lam[:, None, None] * hg
    jacobian[:, :n, n] = -gg
    jacobian[:, n, :n] = gg
    bad = ~np.isfinite(x).all(axis=1)
    residual[bad] = np.nan
    return residual, jacobian


def exact_points(program: str, constraint_program: str, names: list[str], texts: dict[str, str],
                 points: list[Constrained], seconds: float = 6.0) -> list[str]:
    """SymPy's exact solutions of the system, attached to the numbers' points (and added where the numbers
    missed one); notes on what SymPy could not do."""
    import sympy

    from autodiff.app.calculus.critical_exact import exact_text
    from autodiff.app.symbolic import exact as X

    found_f, found_g = X.expression(program, names), X.expression(constraint_program, names)
    if not found_f or not found_g:
        return ["no exact solution: " + (found_f.reason if not found_f else found_g.reason)]
    f, g = (X.with_constants(e[0], names, texts) for e in (found_f, found_g))
    if f is None or g is None:
        return ["no exact solution: a constant is not an exact number"]
    symbols, lam = [X.symbol(n) for n in names], sympy.Symbol("lambda_", real=True)
    equations = [sympy.diff(f, s) - lam * sympy.diff(g, s) for s in symbols] + [g]
    solve = sympy.solve
    solutions = X.bounded(lambda: solve(equations, [*symbols, lam], dict=True), seconds)
    if isinstance(solutions, X.TimedOut):
        return [f"no exact solution: {solutions.reason}"]
    for solution in solutions:
        values = [solution.get(s) for s in symbols]
        if any(v is None or not X.is_real_number(v) for v in values):
            continue
        decimals = np.array([X.decimal(v) for v in values])
        for point in points:
            if np.abs(decimals - np.array(list(point.at.values()))).max() <= 1e-7 * max(1.0, np.abs(decimals).max()):
                point.exact = {n: exact_text(v) or number(float(d)) for n, v, d in zip(names, values, decimals)}
                value = X.at(f, dict(zip(names, values)), seconds=1.0)
                point.exact_value = None if isinstance(value, X.TimedOut) or value is None else exact_text(value)
    return []


def unbounded(g: Function, box: dict[str, tuple[float, float]]) -> bool:
    """Does g = 0 reach the faces of a box 100 times the given one (the curve or surface is not bounded: its
    largest and smallest values found need not be extrema)? g's sign on points of those faces (a fixed sample)."""
    n = len(box)
    wide = max(1.0, *(abs(v) for ends in box.values() for v in ends)) * 100
    rng = np.random.default_rng(0)
    faces = []
    for i in range(n):
        for side in (-wide, wide):
            points = rng.uniform(-wide, wide, size=(800, n))
            points[:, i] = side
            faces.append(points)
    with np.errstate(all="ignore"):
        values = np.concatenate([g.gradient_hessian(face)[0] for face in faces])
    finite = values[np.isfinite(values)]
    return bool(finite.size and finite.min() < 0 < finite.max())


def constrained(result: Any, fn: Function, g: Function, rule: Constraint, program: str, texts: dict[str, str],
                exact: bool = True) -> None:
    """Add to a critical-points result (app.extrema.Critical, several variables) the points of the constraint
    where grad f = lambda grad g, and the absolute extrema: on the curve (g = c), or on the region (g <= c:
    the critical points inside it too)."""
    from autodiff.app.calculus.extrema_nd import ExtremumND

    result.constraint = rule.text
    result.constrained = on_constraint(fn, g, result.box)
    if exact:
        result.notes += exact_points(program, rule.program, fn.variables, texts, result.constrained)
        if any(c.exact for c in result.constrained):
            result.method.append("exact: SymPy's solve of grad f = lambda grad g, g = 0")
    result.method.append(f"numbers: Newton's method on grad f = lambda grad g, g = 0 (autograd, float64) from a grid "
                         f"of {SIDE}^{len(fn.variables)} starts in the box")
    if rule.relation == "=":  # the answer is on the curve: the free critical points are not part of it
        result.points, result.method = [], [m for m in result.method if "grad f = 0" not in m]
        result.general = None
    candidates = [ExtremumND(c.at, c.value, "on the constraint's boundary" if rule.relation != "=" else
                             "on the constraint", c.exact or {}, c.exact_value) for c in result.constrained]
    if rule.relation != "=":
        sign = 1.0 if rule.relation == "<=" else -1.0
        inside = [p for p in result.points if sign * g.value(p.at) < 0]
        result.points = inside
        candidates += [ExtremumND(p.at, p.value, "a critical point inside") for p in inside]
    result.absolute = {}
    finite = [c for c in candidates if math.isfinite(c.value)]
    if not finite:
        return
    if unbounded(g, result.box):
        result.notes.append("the constraint is not bounded (it reaches far outside the box): no absolute extrema "
                            "claimed; each point's kind along the constraint is its local one")
        return
    for kind, best in (("maximum", max(c.value for c in finite)), ("minimum", min(c.value for c in finite))):
        result.absolute[kind] = [c for c in finite if abs(c.value - best) <= 1e-9 * max(1.0, abs(best))]


__all__ = ["Constrained", "Constraint", "constrained", "constraint", "exact_points", "on_constraint", "unbounded"]
