"""Triangular factorizations and solves: torch.linalg.cholesky (LinalgCholeskyExBackward0), torch.cholesky /
Tensor.cholesky (CholeskyBackward0) and torch.linalg.solve_triangular (LinalgSolveTriangularBackward0), with
PyTorch's backward formulas."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.optable import LINEAR_ALGEBRA, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.return_types import return_type
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from .decompositions import solve_arrays


def _mT(F: Any, x: Any) -> Any:
    return F.transpose(x, -1, -2)


def _cholesky(a: np.ndarray, *, upper: bool) -> np.ndarray:
    try:
        low = np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        order = _failing_order(a)
        raise BadValueError(f"linalg.cholesky: The factorization could not be completed because the input is not "
                            f"positive-definite (the leading minor of order {order} is not positive-definite).",
                            reason="not positive-definite") from None
    return np.ascontiguousarray(np.swapaxes(low, -1, -2) if upper else low)


def _failing_order(a: np.ndarray) -> int:
    """The order of the first leading minor that is not positive-definite (of the first failing matrix)."""
    matrices = a.reshape(-1, *a.shape[-2:])
    for m in matrices:
        for k in range(1, m.shape[-1] + 1):
            try:
                np.linalg.cholesky(m[:k, :k])
            except np.linalg.LinAlgError:
                return k
    return 1


def _cholesky_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's cholesky_backward: phi = tril(L^H gL) with half its diagonal; gA = sym(L^-H phi L^-1)."""
    low, gl = (_mT(F, s.result), _mT(F, g)) if s.upper else (s.result, g)
    n = F.values(low).shape[-1]
    half = (np.tril(np.ones((n, n))) - 0.5 * np.eye(n)).astype(F.values(low).dtype)
    phi = F.matmul(_mT(F, low), gl) * half
    inverse = F.inverse(low)
    grad = F.matmul(F.matmul(_mT(F, inverse), phi), inverse)
    return (grad + _mT(F, grad)) * 0.5


def _cholesky_tangent(F: Any, t: Any, s: Any) -> Any:
    """dL = L phi(L^-1 dA L^-H), phi: the lower triangle with half its diagonal (dU = dL^H for upper)."""
    low = _mT(F, s.result) if s.upper else s.result
    n = F.values(low).shape[-1]
    half = (np.tril(np.ones((n, n))) - 0.5 * np.eye(n)).astype(F.values(low).dtype)
    inverse = F.inverse(low)
    tangent = F.matmul(low, F.matmul(F.matmul(inverse, t.self), _mT(F, inverse)) * half)
    return _mT(F, tangent) if s.upper else tangent


_CHOLESKY_TEXT = "L^-H (tril(L^H grad) with half its diagonal) L^-1, symmetrized"
LINALG_CHOLESKY = declare(Op("linalg_cholesky", "LinalgCholeskyExBackward0", ("self",), _cholesky,
                             (Grad(_cholesky_grad, _CHOLESKY_TEXT),), "the Cholesky factor L (L @ L.mH = A)",
                             group=LINEAR_ALGEBRA, jvp=_cholesky_tangent))
CHOLESKY = declare(Op("cholesky", "CholeskyBackward0", ("self",), _cholesky,
                      (Grad(lambda F, g, s: _cholesky_grad(F, g, s), _CHOLESKY_TEXT),),
                      "the Cholesky factor (torch.cholesky, deprecated)", group=LINEAR_ALGEBRA))


def _square(x: Any, function: str) -> Tensor:
    t = tensor_arg(x, "A")
    if t._data.dtype.kind != "f":
        raise BadValueError(f"{function}: Expected a floating point or complex tensor as input. Got {t.dtype}",
                            reason="dtype")
    if t.ndim < 2:
        raise ShapeError(f"{function}: The input tensor A must have at least 2 dimensions.", reason="matrix")
    rows, cols = t._data.shape[-2:]
    if rows != cols:
        raise ShapeError(f"{function}: A must be batches of square matrices, but they are {rows} by {cols} matrices",
                         reason="matrix")
    return t


@builtin("linalg_cholesky(A, *, upper=False)", ("linalg_cholesky",), method=False)
def linalg_cholesky(A: Any, *, upper: bool = False) -> Tensor:
    """torch.linalg.cholesky: L, lower triangular, with L @ L.mH = A (upper=True: U = L.mH)."""
    return apply(LINALG_CHOLESKY, (_square(A, "linalg.cholesky"),), {"upper": bool(upper)})


@builtin("cholesky(input, upper=False)", ("cholesky",))
def cholesky(input: Any, upper: bool = False) -> Tensor:
    """torch.cholesky (deprecated for torch.linalg.cholesky): CholeskyBackward0."""
    warnings.warn("torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
                  "PyTorch release.", UserWarning, stacklevel=2)
    return apply(CHOLESKY, (_square(input, "cholesky"),), {"upper": bool(upper)})


# ---------------------------------------------------------------------------- solve_triangular
def _mask(n: int, upper: bool, unitriangular: bool) -> np.ndarray:
    """The entries of A a triangular solve reads (its diagonal not, when unitriangular)."""
    offset = int(unitriangular)
    return np.triu(np.ones((n, n)), offset) if upper else np.tril(np.ones((n, n)), -offset)


def _triangle(F: Any, a: Any, upper: bool, unitriangular: bool) -> Any:
    n = F.values(a).shape[-1]
    dtype = F.values(a).dtype
    out = a * _mask(n, upper, unitriangular).astype(dtype)
    return out + np.eye(n, dtype=dtype) if unitriangular else out


def _solve_triangular(a: np.ndarray, b: np.ndarray, *, upper: bool, left: bool, unitriangular: bool) -> np.ndarray:
    n = a.shape[-1]
    tri = a * _mask(n, upper, unitriangular).astype(a.dtype) + (np.eye(n, dtype=a.dtype) if unitriangular else 0)
    return np.ascontiguousarray(solve_arrays(tri, b, left))


def _b_grad(F: Any, g: Any, s: Any) -> Any:
    """gB = solve_triangular(A^H, grad, upper=not upper, left, unitriangular)."""
    return F.solve(_mT(F, _triangle(F, s.self, s.upper, s.unitriangular)), g, s.left)


def _a_grad(F: Any, g: Any, s: Any) -> Any:
    """gA = -gB X^H (left) or -X^H gB, in A's triangle (without its diagonal when unitriangular)."""
    gb = _b_grad(F, g, s)
    grad = -F.matmul(gb, _mT(F, s.result)) if s.left else -F.matmul(_mT(F, s.result), gb)
    n = F.values(s.self).shape[-1]
    return F.where(_mask(n, s.upper, s.unitriangular) != 0, grad, 0.0)


def _solve_triangular_tangent(F: Any, t: Any, s: Any) -> Any:
    """dX = solve_triangular(A, dB - dA X) (left), solve_triangular(A, dB - X dA, left=False); dA in A's triangle."""
    n = F.values(s.self).shape[-1]
    da = t.self * _mask(n, s.upper, s.unitriangular).astype(F.values(s.self).dtype)
    moved = F.matmul(da, s.result) if s.left else F.matmul(s.result, da)
    return F.solve(_triangle(F, s.self, s.upper, s.unitriangular), t.B - moved, s.left)


SOLVE_TRIANGULAR = declare(Op(
    "solve_triangular", "LinalgSolveTriangularBackward0", ("self", "B"), _solve_triangular,
    (Grad(_a_grad, "-gB @ result.mH (left), -result.mH @ gB, in A's triangle"),
     Grad(_b_grad, "solve_triangular(A.mH, grad, upper=not upper, left, unitriangular)")),
    "X with A @ X = B (or X @ A = B), A triangular", group=LINEAR_ALGEBRA, jvp=_solve_triangular_tangent))


@builtin("solve_triangular(A, B, *, upper, left=True, unitriangular=False)", ("solve_triangular",), method=False)
def solve_triangular(A: Any, B: Any, *, upper: bool, left: bool = True, unitriangular: bool = False) -> Tensor:
    """torch.linalg.solve_triangular: X with A @ X = B (left=False: X @ A = B), reading only A's triangle."""
    a, b = _square(A, "linalg.solve_triangular"), tensor_arg(B, "B")
    if b.ndim < 2:
        raise ShapeError("linalg.solve_triangular: The input tensor B must have at least 2 dimensions.",
                         reason="matrix")
    if a._data.dtype != b._data.dtype:
        raise BadValueError(f"linalg.solve_triangular: Expected A and B to have the same dtype, but found A of type "
                            f"{a.dtype} and B of type {b.dtype} instead", reason="dtype")
    n = a._data.shape[-1]
    inner = b._data.shape[-2] if left else b._data.shape[-1]
    if inner != n:
        raise ShapeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                         f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {'x'.join(map(str, b._data.shape[-2:]))})",
                         reason="matrix")
    return apply(SOLVE_TRIANGULAR, (a, b), {"upper": bool(upper), "left": bool(left),
                                            "unitriangular": bool(unitriangular)})


# ---------------------------------------------------------------------------- qr
QrResult = return_type("linalg_qr", ("Q", "R"))
_QR_MODES = ("reduced", "complete", "r")


def _qr(a: np.ndarray, *, mode: str) -> tuple[np.ndarray, np.ndarray]:
    q, r = np.linalg.qr(a, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        q = np.zeros((0,), dtype=a.dtype)
    return np.ascontiguousarray(q, dtype=a.dtype), np.ascontiguousarray(r, dtype=a.dtype)


def _qr_square_grad(F: Any, gq: Any, gr: Any, q: Any, r: Any) -> Any:
    """gA = (gQ + Q copyltu(M)) R^-H with M = R gR^H - gQ^H Q (copyltu: M's lower triangle mirrored)."""
    m = F.matmul(r, _mT(F, gr)) - F.matmul(_mT(F, gq), q)
    n = F.values(m).shape[-1]
    lower, strict = np.tril(np.ones((n, n))) != 0, np.tril(np.ones((n, n)), -1) != 0
    copied = F.where(lower, m, 0.0) + _mT(F, F.where(strict, m, 0.0))
    return F.solve(_mT(F, r), gq + F.matmul(q, copied), False)


def _qr_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's linalg_qr_backward: the square/tall case, and for a wide A = [X | Y] the square case of X with
    gQ + Y gR_Y^H, and Q gR_Y for Y."""
    if s.mode == "r":
        raise BadValueError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
                            "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.",
                            reason="qr")
    rows, cols = s.input_shape[-2:]
    if s.mode == "complete" and rows > cols:
        raise BadValueError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.",
                            reason="qr")
    gq = F.zeros_like(s.Q) if g[0] is None else g[0]
    gr = F.zeros_like(s.R) if g[1] is None else g[1]
    if rows >= cols:
        return _qr_square_grad(F, gq, gr, s.Q, s.R)
    last, head, tail = len(s.input_shape) - 1, (Ellipsis, slice(0, rows)), (Ellipsis, slice(rows, cols))
    y, gr_y = F.matmul(s.Q, F.index(s.R, tail)), F.index(gr, tail)  # Y = Q R_Y (A itself is not saved)
    gx = _qr_square_grad(F, gq + F.matmul(y, _mT(F, gr_y)), F.index(gr, head), s.Q, F.index(s.R, head))
    shape = tuple(s.input_shape)
    return (F.slice_backward(gx, shape, last, 0, rows, 1)
            + F.slice_backward(F.matmul(s.Q, gr_y), shape, last, rows, cols, 1))


def _qr_square_tangent(F: Any, da: Any, q: Any, r: Any) -> tuple:
    """C = Q^H dA R^-1; Q^H dQ = X, its strictly lower part made skew; dR = (C - X) R; dQ = dA R^-1 - Q (C - X)."""
    da_r = F.solve(r, da, False)
    c = F.matmul(_mT(F, q), da_r)
    n = F.values(c).shape[-1]
    low = F.where(np.tril(np.ones((n, n)), -1) != 0, c, 0.0)
    upper = c - (low - _mT(F, low))
    return da_r - F.matmul(q, upper), F.matmul(upper, r)


def _qr_tangent(F: Any, t: Any, s: Any) -> tuple:
    """PyTorch's linalg_qr_jvp: the square/tall case; for a wide A = [X | Y], X's, then dR_Y = Q^H (dY - dQ R_Y)."""
    if s.mode == "r":
        raise BadValueError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
                            "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.",
                            reason="qr")
    rows, cols = s.input_shape[-2:]
    if rows >= cols:
        if s.mode == "complete" and rows > cols:
            raise BadValueError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.",
                                reason="qr")
        return _qr_square_tangent(F, t.self, s.Q, s.R)
    head, tail = (Ellipsis, slice(0, rows)), (Ellipsis, slice(rows, cols))
    dq, dr_x = _qr_square_tangent(F, F.index(t.self, head), s.Q, F.index(s.R, head))
    dr_y = F.matmul(_mT(F, s.Q), F.index(t.self, tail) - F.matmul(dq, F.index(s.R, tail)))
    shape, last = tuple(s.R.shape if hasattr(s.R, "shape") else F.values(s.R).shape), len(s.input_shape) - 1
    return dq, (F.slice_backward(dr_x, shape, last, 0, rows, 1) + F.slice_backward(dr_y, shape, last, rows, cols, 1))


QR = declare(Op("linalg_qr", "LinalgQrBackward0", ("self",), _qr,
                (Grad(_qr_grad, "(gQ + Q copyltu(R gR^H - gQ^H Q)) R^-H (tall); [X | Y] split when wide"),),
                "(Q, R): A = Q R, Q with orthonormal columns, R upper triangular", group=LINEAR_ALGEBRA,
                outputs=("Q", "R"), jvp=_qr_tangent))


@builtin("linalg_qr(A, mode='reduced')", ("linalg_qr",), method=False)
def linalg_qr(A: Any, mode: str = "reduced") -> Any:
    """torch.linalg.qr: (Q, R) with A = Q R; mode 'reduced', 'complete' or 'r' (R only, Q empty)."""
    a = tensor_arg(A, "A")
    if a._data.dtype.kind != "f":
        raise BadValueError(f"linalg.qr: Expected a floating point or complex tensor as input. Got {a.dtype}",
                            reason="dtype")
    if a.ndim < 2:
        raise ShapeError("linalg.qr: The input tensor A must have at least 2 dimensions.", reason="matrix")
    if mode not in _QR_MODES:
        raise BadValueError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                            "or 'complete'", reason="qr")
    return QrResult(*apply(QR, (a,), {"mode": mode}))


OldQrResult = return_type("qr", ("Q", "R"))


@builtin("qr(input, some=True)", ("linalg_qr",))
def qr(input: Any, some: bool = True) -> Any:
    """torch.qr (deprecated for torch.linalg.qr): (Q, R), reduced when some, else complete."""
    warnings.warn("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
                  "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = "
                  "torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else "
                  "'complete')", UserWarning, stacklevel=2)
    return OldQrResult(*linalg_qr(input, "reduced" if some else "complete"))
