"""Numbers for the calculus commands, from autograd in float64: a program as a scalar function of named
variables, its value and partial derivatives at a point (any order, mixed ones included, from nested
engine.grad calls with create_graph), and the same on many points at once when the program is elementwise
(one forward pass and a few backward passes for a whole grid, checked against point-by-point runs).

The engine's default dtype must be float64 (the commands configure it) so that the program's own numbers
are float64 too."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from autodiff import engine
from autodiff.app.session import Binding, EvalRequest, OrderGuard, evaluate, root_tensor
from autodiff.app.textbook.realroots import BACKEND
from autodiff.engine import Tensor
from autodiff.engine.errors import LimitError, UsageError
from autodiff.grammar.syntax import parse

MAX_TERMS = 1_000  # partial derivatives at one point (the multi-indices up to the order)
MAX_POINTWISE = 5_000  # points evaluated one by one when the program is not elementwise


class Function:
    """PROGRAM as f(variables), the other names bound to constants."""

    def __init__(self, text: str, variables: list[str], constants: list[Binding] | None = None,
                 elementwise: bool | None = None) -> None:
        self.text = text
        self.variables = variables
        self.constants = [] if constants is None else constants
        self.elementwise = elementwise  # learned on the first batch
        self.parsed = parse(self.text)

    # ---------------------------------------------------------------- one run
    def run(self, values: dict[str, Any]) -> tuple[Tensor, list[Tensor]]:
        """The root and the variables' leaves, the variables bound to `values` (numbers or arrays)."""
        bindings = [Binding(n, np.asarray(values[n], dtype=np.float64), True) for n in self.variables]
        request = EvalRequest(self.text, [*bindings, *self.constants], parsed=self.parsed, backend=BACKEND)
        with engine.enable_grad(), np.errstate(all="ignore"):
            _, evaluation = evaluate(request)
            root = root_tensor(evaluation)
        leaves = []
        for name in self.variables:
            leaf = evaluation.names.get(name)
            if not isinstance(leaf, Tensor) or not leaf.is_leaf:
                raise UsageError(f"the program assigns {name}: the variable of a calculus question must be one "
                                 f"that the program uses without assigning (rename the assigned one)")
            leaves.append(leaf)
        return root, leaves

    def value(self, point: dict[str, float]) -> float:
        root, _ = self.run(point)
        return _scalar(root, self.variables)

    # ---------------------------------------------------------------- partial derivatives at a point
    def partials(self, point: dict[str, float], order: int) -> dict[tuple[int, ...], float]:
        """Every partial derivative up to `order` at the point, by multi-index (the exponents of each
        variable: (1, 0) is d/dx, (1, 1) is d2/dxdy). Mixed partials are computed once, in the variables'
        order, breadth first (no recursion)."""
        n = len(self.variables)
        count = math.comb(n + order, order)
        if count > MAX_TERMS:
            raise LimitError(f"{count:,} partial derivatives (order {order} in {n} variables), over the limit of "
                             f"{MAX_TERMS:,}", hint="a lower order or fewer variables", reason="terms")
        root, leaves = self.run(point)
        start = (0,) * n
        out = {start: _scalar(root, self.variables)}
        guard = OrderGuard(root, order)
        queue: list[tuple[tuple[int, ...], Tensor | None, int, int]] = [(start, root, 0, guard.size)]
        with engine.enable_grad(), np.errstate(all="ignore"):
            while queue:
                alpha, t, first, size = queue.pop(0)
                if sum(alpha) == order:
                    continue
                grads = _grads(t, leaves[first:], create_graph=sum(alpha) + 1 < order)
                for j, g in zip(range(first, n), grads):
                    beta = tuple(a + (1 if k == j else 0) for k, a in enumerate(alpha))
                    out[beta] = 0.0 if g is None else float(np.asarray(g.numpy(force=True)).reshape(-1)[0])
                    grown = guard.check(g, sum(beta), size) if g is not None and sum(beta) < order else 0
                    queue.append((beta, g, j, grown))
        return out

    # ---------------------------------------------------------------- many points at once
    def batch(self, points: np.ndarray, order: int) -> list[np.ndarray]:
        """For a one-variable function: [f, f', ..., f^(order)] at every point of the 1-D array."""
        def single(row: np.ndarray) -> list[np.ndarray]:
            p = self.partials({self.variables[0]: float(row[0])}, order)
            return [np.array([p[(k,)]]) for k in range(order + 1)]

        return self._batched(points.reshape(-1, 1), lambda p: _one_variable(self, p, order), single)

    def gradient_hessian(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Values (M,), gradients (M, n) and Hessians (M, n, n) at M points (M, n)."""
        n = len(self.variables)
        unit = [tuple(1 if k == i else 0 for k in range(n)) for i in range(n)]

        def single(row: np.ndarray) -> list[np.ndarray]:
            p = self.partials(dict(zip(self.variables, map(float, row))), 2)
            hessian = [[p[tuple(a + b for a, b in zip(unit[i], unit[j]))] for j in range(n)] for i in range(n)]
            return [np.array([p[(0,) * n]]), np.array([[p[u] for u in unit]]), np.array([hessian])]

        f, g, h = self._batched(points, lambda p: _gradient_hessian(self, p), single)
        return f, g, h

    def _batched(self, points: np.ndarray, compute: Any, single: Any) -> Any:
        if self.elementwise is not False:
            try:
                out = compute(points)
                ok = all(np.asarray(a).shape[:1] == points.shape[:1] for a in out)
            except (UsageError, LimitError):
                raise
            except Exception:
                ok = False
            if ok and self.elementwise is None:
                ok = self._same_one_by_one(points, out, single)
            self.elementwise = ok
            if ok:
                return out
        if len(points) > MAX_POINTWISE:
            raise LimitError(f"the program is not elementwise in {', '.join(self.variables)}: {len(points):,} points "
                             f"one by one is over the limit of {MAX_POINTWISE:,}", reason="points")
        pieces = [single(points[i]) for i in range(len(points))]
        return [np.concatenate([p[k] for p in pieces]) for k in range(len(pieces[0]))]

    def _same_one_by_one(self, points: np.ndarray, out: Any, single: Any) -> bool:
        for i in sorted({0, len(points) // 2, len(points) - 1}):
            for whole, one in zip(out, single(points[i])):
                if not np.allclose(one[0], np.asarray(whole)[i], rtol=1e-9, atol=1e-12, equal_nan=True):
                    return False
        return True


def number(value: float, digits: int = 12) -> str:
    """A decimal as the language writes it: 6, -0.5, 1.5e-08 (no trailing zeros)."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.{digits}g}"


def one_sided(fn: Function, point: dict[str, float], name: str, order: int, h: float) -> tuple[float, float]:
    """The order-th derivative in `name` at point - h and point + h (along that variable)."""
    alpha = tuple(order if v == name else 0 for v in fn.variables)
    sides = []
    for step in (-h, h):
        moved = {**point, name: point[name] + step}
        sides.append(fn.partials(moved, order)[alpha])
    return sides[0], sides[1]


def jump(fn: Function, point: dict[str, float], name: str, order: int, h: float | None = None
         ) -> tuple[float, float] | None:
    """(left, right) when the order-th derivative in `name` jumps at the point (a corner, a cusp): the
    difference between its values on either side does not shrink as the two sides close in (for a smooth
    function it shrinks with the distance). None when it is continuous there."""
    x = point[name]
    h = h or 1e-5 * max(1.0, abs(x))
    far = one_sided(fn, point, name, order, h)
    near = one_sided(fn, point, name, order, h / 100)
    if not all(math.isfinite(v) for v in (*far, *near)):
        return near
    gap_far, gap_near = abs(far[1] - far[0]), abs(near[1] - near[0])
    scale = max(1.0, abs(near[0]), abs(near[1]))
    if gap_near <= 1e-6 * scale or gap_near < 0.5 * gap_far:
        return None
    return near


def _scalar(root: Tensor, variables: list[str]) -> float:
    if root.numpy(force=True).size != 1:
        raise UsageError(f"this question needs a scalar function of {', '.join(variables) or 'its variables'}: the "
                         f"program's result has shape {tuple(root.shape)} (reduce it, e.g. with .sum())")
    return float(np.asarray(root.numpy(force=True), dtype=np.float64).reshape(-1)[0])


def _grads(t: Tensor | None, leaves: list[Tensor], create_graph: bool, ones: bool = False) -> list[Tensor | None]:
    """d t / d each leaf (None where t does not depend on it)."""
    if t is None or not t.requires_grad:
        return [None] * len(leaves)
    outputs = engine.ones_like(t) if ones else None
    return list(engine.grad(t, leaves, grad_outputs=outputs, retain_graph=True, create_graph=create_graph,
                            allow_unused=True))


def _data(t: Tensor | None, shape: tuple[int, ...]) -> np.ndarray:
    if t is None:
        return np.zeros(shape)
    return np.broadcast_to(np.asarray(t.numpy(force=True), dtype=np.float64), shape).copy()


def _one_variable(fn: Function, points: np.ndarray, order: int) -> list[np.ndarray]:
    xs = points[:, 0]
    root, (leaf,) = fn.run({fn.variables[0]: xs})
    shape = xs.shape
    if tuple(root.shape) != shape and not (root.numpy(force=True).size == 1 and not root.requires_grad):  # a constant
        raise ValueError("not elementwise")
    out = [_data(root, shape)]
    current: Tensor | None = root
    guard = OrderGuard(root, order)
    with engine.enable_grad(), np.errstate(all="ignore"):
        for k in range(1, order + 1):
            (current,) = _grads(current, [leaf], create_graph=k < order, ones=True)
            out.append(_data(current, shape))
            if current is not None and k < order:
                guard.check(current, k)
    return out


def _gradient_hessian(fn: Function, points: np.ndarray) -> list[np.ndarray]:
    m, n = points.shape
    root, leaves = fn.run({name: points[:, j] for j, name in enumerate(fn.variables)})
    if tuple(root.shape) != (m,) and not (root.numpy(force=True).size == 1 and not root.requires_grad):  # a constant
        raise ValueError("not elementwise")
    hessian = np.zeros((m, n, n))
    gradient = np.zeros((m, n))
    with engine.enable_grad(), np.errstate(all="ignore"):
        firsts = _grads(root, leaves, create_graph=True, ones=True)
        for i, g in enumerate(firsts):
            gradient[:, i] = _data(g, (m,))
            for j, h in enumerate(_grads(g, leaves, create_graph=False, ones=True)):
                hessian[:, i, j] = _data(h, (m,))
    return [_data(root, (m,)), gradient, hessian]


__all__ = ["MAX_POINTWISE", "MAX_TERMS", "Function", "jump", "number", "one_sided"]
