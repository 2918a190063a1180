"""torch.optim.LBFGS: L-BFGS driven by a closure that re-evaluates the loss, with PyTorch's (2.13) two-loop recursion,
stopping rules and optional strong-Wolfe line search, step for step. The flat gradient and directions are numpy
arrays of the parameters' dtype and PyTorch's 0-d tensors (ys, ro, H_diag, gtd, ...) numpy scalars of that dtype,
which numpy (2.x) keeps in that dtype when a Python float joins them, as PyTorch does; the dot products are BLAS's,
so the parameters equal PyTorch's within a few ulps rather than bit for bit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ..core.modes import enable_grad
from ..core.tensor import Tensor
from ..errors import BadValueError, InvalidArgumentError
from .optimizer import Optimizer, add, require_lr, write

MEMORY = ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad", "prev_loss", "al")


def as_tensor(value: Any) -> Any:
    """An array or numpy number (or a list of them) as tensors, as PyTorch keeps LBFGS's state."""
    if isinstance(value, list):
        return [as_tensor(v) for v in value] if any(isinstance(v, (np.ndarray, np.generic)) for v in value) else value
    return Tensor._make(np.asarray(value)) if isinstance(value, (np.ndarray, np.generic)) else value


def as_array(value: Any) -> Any:
    """The state's tensors (or a list of them) as the arrays the iterations compute with."""
    if isinstance(value, list):
        return [as_array(v) for v in value] if any(isinstance(v, Tensor) for v in value) else value
    return value._data if isinstance(value, Tensor) else value


def cubic_interpolate(x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any, bounds: Any = None) -> Any:
    """The minimiser of the cubic through two points with their slopes, within bounds (PyTorch's formula)."""
    xmin_bound, xmax_bound = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square >= 0:
        d2 = np.sqrt(d2_square)
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.0


class LineSearch:
    """PyTorch's _strong_wolfe: a bracketing phase, then a zoom phase by cubic interpolation."""

    def __init__(self, obj_func: Callable[[Any, Any, np.ndarray], tuple[float, np.ndarray]], x: Any, d: np.ndarray,
                 f: float, g: np.ndarray, gtd: Any, tolerance_change: float, max_ls: int) -> None:
        self.obj_func, self.x, self.d, self.f, self.g, self.gtd = obj_func, x, d, f, g.copy(), gtd
        self.c1, self.c2, self.tolerance_change, self.max_ls = 1e-4, 0.9, tolerance_change, max_ls
        self.evals = 0
        self.ls_iter = 0

    def evaluate(self, t: Any) -> tuple[float, np.ndarray, Any]:
        f_new, g_new = self.obj_func(self.x, t, self.d)
        self.evals += 1
        return f_new, g_new, g_new.dot(self.d)

    def bracket(self, t: Any) -> tuple[list, list, list, list, bool]:
        """The first phase: an interval that holds a point of the Wolfe conditions (or that point)."""
        f, gtd = self.f, self.gtd
        f_new, g_new, gtd_new = self.evaluate(t)
        t_prev, f_prev, g_prev, gtd_prev = 0, f, self.g, gtd
        while self.ls_iter < self.max_ls:
            if f_new > f + self.c1 * t * gtd or (self.ls_iter > 1 and f_new >= f_prev):
                return [t_prev, t], [f_prev, f_new], [g_prev, g_new.copy()], [gtd_prev, gtd_new], False
            if abs(gtd_new) <= -self.c2 * gtd:
                return [t], [f_new], [g_new], [], True
            if gtd_new >= 0:
                return [t_prev, t], [f_prev, f_new], [g_prev, g_new.copy()], [gtd_prev, gtd_new], False
            min_step = t + 0.01 * (t - t_prev)
            max_step = t * 10
            tmp = t
            t = cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))
            t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, g_new.copy(), gtd_new
            f_new, g_new, gtd_new = self.evaluate(t)
            self.ls_iter += 1
        return [0, t], [f, f_new], [self.g, g_new], [gtd_prev, gtd_new], False

    def search(self, t: Any) -> tuple[float, np.ndarray, Any, int]:
        """(loss, flat gradient, step) at the step found, and the closure's evaluations."""
        bracket, bracket_f, bracket_g, bracket_gtd, done = self.bracket(t)
        d_norm = np.abs(self.d).max()
        insuf_progress = False
        low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
        while not done and self.ls_iter < self.max_ls:
            if abs(bracket[1] - bracket[0]) * d_norm < self.tolerance_change:
                break
            t = cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
            t, insuf_progress = self.nudge(t, bracket, insuf_progress)
            f_new, g_new, gtd_new = self.evaluate(t)
            self.ls_iter += 1
            if f_new > self.f + self.c1 * t * self.gtd or f_new >= bracket_f[low]:
                bracket[high], bracket_f[high], bracket_g[high], bracket_gtd[high] = t, f_new, g_new.copy(), gtd_new
                low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
                continue
            if abs(gtd_new) <= -self.c2 * self.gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low], bracket_g[low], bracket_gtd[low] = t, f_new, g_new.copy(), gtd_new
        return bracket_f[low], bracket_g[low], bracket[low], self.evals

    @staticmethod
    def nudge(t: Any, bracket: list, insuf_progress: bool) -> tuple[Any, bool]:
        """t moved away from the bracket's ends when it is too close to one (PyTorch's safeguard)."""
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) >= eps:
            return t, False
        if insuf_progress or t >= max(bracket) or t <= min(bracket):
            t = max(bracket) - eps if abs(t - max(bracket)) < abs(t - min(bracket)) else min(bracket) + eps
            return t, False
        return t, True


class LBFGS(Optimizer):
    """torch.optim.LBFGS: one parameter group; step(closure) runs up to max_iter iterations."""

    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1, "max_iter": 20, "max_eval": None, "tolerance_grad": 1e-7, "tolerance_change": 1e-9,
        "history_size": 100, "line_search_fn": None}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "max_iter", "max_eval", "tolerance_grad", "tolerance_change",
                                             "history_size", "line_search_fn")

    def __init__(self, params: Any, *args: Any, **options: Any) -> None:
        super().__init__(params, *args, **options)
        if len(self.param_groups) != 1:
            raise InvalidArgumentError("LBFGS doesn't support per-parameter options (parameter groups)")
        self.params = self.param_groups[0]["params"]

    def check(self, options: dict[str, Any]) -> None:
        """PyTorch's check of lr; max_eval defaults to max_iter * 5 // 4 (set here, before the groups take it)."""
        require_lr(options)
        if options["max_eval"] is None:
            options["max_eval"] = options["max_iter"] * 5 // 4

    def flat_grad(self) -> np.ndarray:
        return np.concatenate([np.zeros(p._data.size, p._data.dtype) if p.grad is None
                               else p.grad._data.reshape(-1) for p in self.params])

    def add_grad(self, step_size: Any, update: np.ndarray) -> None:
        """Each parameter plus step_size times its slice of update (PyTorch's add_ with alpha)."""
        offset = 0
        for p in self.params:
            size = p._data.size
            write(p, add(p._data, update[offset:offset + size].reshape(p._data.shape), float(step_size)))
            offset += size

    def directional_evaluate(self, closure: Callable[[], Any], x: list[np.ndarray], t: Any,
                             d: np.ndarray) -> tuple[float, np.ndarray]:
        """The loss and flat gradient at the parameters plus t * d; the parameters put back to x."""
        self.add_grad(t, d)
        with enable_grad():
            loss = float(closure())
        flat_grad = self.flat_grad()
        for p, data in zip(self.params, x):
            write(p, data)
        return loss, flat_grad

    def step(self, closure: Any) -> Any:  # type: ignore[override]
        """Up to max_iter L-BFGS iterations; returns the closure's first loss."""
        group = self.param_groups[0]
        state = self.state.setdefault(self.params[0], {})
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        with enable_grad():
            orig_loss = closure()
        loss = float(orig_loss)
        state["func_evals"] += 1
        flat_grad = self.flat_grad()
        if np.abs(flat_grad).max() <= group["tolerance_grad"]:
            return orig_loss
        memory = {key: as_array(state.get(key)) for key in MEMORY}
        self.iterate(closure, group, state, memory, loss, flat_grad)
        state.update({key: as_tensor(value) for key, value in memory.items() if key != "al" or value is not None})
        return orig_loss

    def direction(self, state: dict[str, Any], memory: dict[str, Any], flat_grad: np.ndarray) -> None:
        """The next search direction d: -gradient at first, then by the two-loop recursion over the history."""
        if state["n_iter"] == 1:
            memory.update(d=-flat_grad, old_dirs=[], old_stps=[], ro=[], H_diag=1)
            return
        old_dirs, old_stps, ro = memory["old_dirs"], memory["old_stps"], memory["ro"]
        y = flat_grad - memory["prev_flat_grad"]
        s = memory["d"] * memory["t"]
        ys = y.dot(s)
        if ys > 1e-10:
            if len(old_dirs) == self.param_groups[0]["history_size"]:
                old_dirs.pop(0)
                old_stps.pop(0)
                ro.pop(0)
            old_dirs.append(y)
            old_stps.append(s)
            ro.append(1.0 / ys)
            memory["H_diag"] = ys / y.dot(y)
        if memory["al"] is None:
            memory["al"] = [None] * self.param_groups[0]["history_size"]
        al = memory["al"]
        q = -flat_grad
        for i in range(len(old_dirs) - 1, -1, -1):
            al[i] = old_stps[i].dot(q) * ro[i]
            q = add(q, old_dirs[i], -float(al[i]))
        r = q * np.asarray(memory["H_diag"], q.dtype)
        for i in range(len(old_dirs)):
            be_i = old_dirs[i].dot(r) * ro[i]
            r = add(r, old_stps[i], float(al[i] - be_i))
        memory["d"] = r

    def iterate(self, closure: Callable[[], Any], group: dict[str, Any], state: dict[str, Any],
                memory: dict[str, Any], loss: float, flat_grad: np.ndarray) -> None:
        """PyTorch's loop of iterations, with its stopping rules."""
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        current_evals, n_iter, t = 1, 0, memory["t"]
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            self.direction(state, memory, flat_grad)
            d = memory["d"]
            memory["prev_flat_grad"] = flat_grad.copy()
            memory["prev_loss"] = loss
            t = min(1.0, 1.0 / np.abs(flat_grad).sum()) * lr if state["n_iter"] == 1 else lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:
                break
            ls_func_evals = 0
            opt_cond = False
            if group["line_search_fn"] is not None:
                if group["line_search_fn"] != "strong_wolfe":
                    raise BadValueError("only 'strong_wolfe' is supported")
                x_init = [p._data.copy() for p in self.params]

                def obj_func(x: Any, step: Any, direction: np.ndarray) -> tuple[float, np.ndarray]:
                    return self.directional_evaluate(closure, x, step, direction)

                search = LineSearch(obj_func, x_init, d, loss, flat_grad, gtd, tolerance_change,
                                    max_eval - current_evals)
                loss, flat_grad, t, ls_func_evals = search.search(t)
                self.add_grad(t, d)
                opt_cond = np.abs(flat_grad).max() <= tolerance_grad
            else:
                self.add_grad(t, d)
                if n_iter != max_iter:
                    with enable_grad():
                        loss = float(closure())
                    flat_grad = self.flat_grad()
                    opt_cond = np.abs(flat_grad).max() <= tolerance_grad
                    ls_func_evals = 1
            memory["t"] = t
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if np.abs(d * np.asarray(t, d.dtype)).max() <= tolerance_change or abs(loss - memory["prev_loss"]) < \
                    tolerance_change:
                break
        memory["t"] = t
