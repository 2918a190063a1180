"""torch.linalg's solvers and decompositions: solve (LinalgSolveExBackward0), slogdet (LinalgSlogdetBackward0),
pinv (LinalgPinvBackward0), eigh and eigvalsh (LinalgEighBackward0), svd and svdvals (LinalgSvdBackward0), and
torch's own spellings of them (torch.slogdet, logdet, pinverse, torch.svd). Each works on a matrix or a batch of
them (..., m, n); the gradients are PyTorch's (FunctionsManual.cpp: linalg_solve_backward, slogdet_backward,
pinv_backward, linalg_eig_backward, svd_backward), written in the formulas' vocabulary so they can be
differentiated again, and so are the tangents of forward mode.

Eigenvectors and singular vectors are determined up to their sign only: LAPACK picks it, and numpy's LAPACK
(OpenBLAS) may pick the other sign than PyTorch's (MKL) for some of them. The eigenvalues and singular values,
and every function of the vectors that does not depend on their sign (U @ diag(S) @ Vh, V * V), are PyTorch's."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.optable import LINEAR_ALGEBRA, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.return_types import return_type
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..kernels.allocator import blas_call
from .logic import where
from .shapes import permute, transpose

SlogdetResult = return_type("slogdet", ("sign", "logabsdet"))
LinalgSlogdetResult = return_type("linalg_slogdet", ("sign", "logabsdet"))
EighResult = return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
SvdResult = return_type("svd", ("U", "S", "V"))
LinalgSvdResult = return_type("linalg_svd", ("U", "S", "Vh"))

_TYPE_NAMES = {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int", "bool": "Bool"}


# ---------------------------------------------------------------------------- arrays
def _mT(x: Any) -> Any:
    return np.swapaxes(x, -1, -2)


def is_vector_rhs(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> bool:
    """Whether B of A X = B is a vector (or a batch of them): PyTorch's linalg_solve_is_vector_rhs."""
    return len(b_shape) == 1 or (len(a_shape) - 1 == len(b_shape) and tuple(b_shape) == tuple(a_shape[:-1]))


def solve_arrays(a: np.ndarray, b: np.ndarray, left: bool = True) -> np.ndarray:
    """X with A X = B (left) or X A = B, B a matrix or a vector (or batches of them)."""
    if not left:
        a = _mT(a)
    vector = is_vector_rhs(a.shape, b.shape)
    rhs = b[..., None] if vector else (b if left else _mT(b))
    try:
        out = blas_call(np.linalg.solve, (a, rhs), 2 * int(a.nbytes) + 2 * int(rhs.nbytes), "the solve")
    except np.linalg.LinAlgError:
        raise BadValueError("torch.linalg.solve: The solver failed because the input matrix is singular.",
                            reason="singular") from None
    out = out[..., 0] if vector else (out if left else _mT(out))
    return np.ascontiguousarray(out, dtype=np.result_type(a, b))


def _eye(n: int, dtype: Any) -> np.ndarray:
    return np.eye(n, dtype=dtype)


# ---------------------------------------------------------------------------- solve
def _solve_grad_b(F: Any, g: Any, s: Any) -> Any:
    """gB = solve(A^H, grad) (on the same side)."""
    return F.solve(F.transpose(s.A, -2, -1), g, s.left)


def _solve_grad_a(F: Any, g: Any, s: Any) -> Any:
    """gA = -gB X^H (left), -X^H gB (right); for a vector B the outer product."""
    gb = _solve_grad_b(F, g, s)
    x = s.result
    if s.vector:
        return -(F.unsqueeze(gb, -1) * F.unsqueeze(x, -2)) if s.left else -(F.unsqueeze(x, -1) * F.unsqueeze(gb, -2))
    if s.left:
        return -F.matmul(gb, F.transpose(x, -2, -1))
    return -F.matmul(F.transpose(x, -2, -1), gb)


def _solve_tangent(F: Any, t: Any, s: Any) -> Any:
    """dX = solve(A, dB - dA X) (left); solve(A, dB - X dA, left=False)."""
    x = s.result
    if s.vector:
        moved = (t.A @ x[..., None])[..., 0] if s.left else (x[..., None, :] @ t.A)[..., 0, :]
    else:
        moved = t.A @ x if s.left else x @ t.A
    return solve_arrays(s.A, t.B - moved, s.left)


def _solve(a: np.ndarray, b: np.ndarray, *, left: bool, vector: bool) -> np.ndarray:
    return solve_arrays(a, b, left)


SOLVE = declare(Op("solve", "LinalgSolveExBackward0", ("A", "B"), _solve,
                   (Grad(_solve_grad_a, "-gB @ result.mH (left), -result.mH @ gB (right)"),
                    Grad(_solve_grad_b, "solve(A.mH, grad) (gB)")),
                   "X with A @ X = B (left=False: X @ A = B)", group=LINEAR_ALGEBRA, jvp=_solve_tangent))


# ---------------------------------------------------------------------------- slogdet
def _slogdet(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    sign, logabsdet = blas_call(np.linalg.slogdet, (a,), int(a.nbytes), "the determinant")
    return np.asarray(sign, dtype=a.dtype), np.asarray(logabsdet, dtype=a.dtype)


def _slogdet_grad(F: Any, g: Any, s: Any) -> Any:
    """The sign has no gradient (real input): g_logabsdet * A^{-H}, as solve(A^H, g * I)."""
    if g[1] is None:  # only the sign's gradient arrived: A gets none (PyTorch's undefined gradient)
        return None
    eye = _eye(s.input_shape[-1], s.input_dtype)
    return F.solve(F.transpose(s.A, -2, -1), F.unsqueeze(F.unsqueeze(g[1], -1), -1) * eye, True)


def _slogdet_tangent(F: Any, t: Any, s: Any) -> tuple:
    """sign: 0; logabsdet: trace(solve(A, dA))."""
    return np.zeros_like(s.sign), np.trace(solve_arrays(s.A, t.A), axis1=-2, axis2=-1)


SLOGDET = declare(Op("slogdet", "LinalgSlogdetBackward0", ("A",), _slogdet,
                     (Grad(_slogdet_grad, "grad_logabsdet * A.inverse().mH (the sign has none)"),),
                     "(sign, log|det|) of a square matrix", group=LINEAR_ALGEBRA, noisy=True,
                     outputs=("sign", "logabsdet"), jvp=_slogdet_tangent))


# ---------------------------------------------------------------------------- pinv
def _pinv(a: np.ndarray, *, atol: float, rtol: float, hermitian: bool) -> np.ndarray:
    """PyTorch's linalg_pinv: through the SVD (eigh when hermitian), the singular values not above
    max(atol, rtol * the largest) taken as 0."""
    if a.size == 0:
        return np.zeros((*a.shape[:-2], a.shape[-1], a.shape[-2]), dtype=a.dtype)
    if hermitian:
        s, u = blas_call(np.linalg.eigh, (a,), 2 * int(a.nbytes), "the pseudo-inverse")
        size = np.abs(s)
        tol = np.maximum(atol, rtol * np.max(size, axis=-1, keepdims=True))
        with np.errstate(divide="ignore"):
            inverse = np.where(size > tol, 1 / s, 0.0).astype(a.dtype)
        return np.ascontiguousarray((u * inverse[..., None, :]) @ _mT(u))
    u, s, vh = blas_call(np.linalg.svd, (a,), 3 * int(a.nbytes), "the pseudo-inverse", full_matrices=False)
    tol = np.maximum(atol, rtol * s[..., :1])
    with np.errstate(divide="ignore"):
        inverse = np.where(s > tol, 1 / s, 0.0).astype(a.dtype)
    return np.ascontiguousarray((_mT(vh) * inverse[..., None, :]) @ _mT(u))


def _pinv_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's pinv_backward (the products arranged to keep the matrices small)."""
    a, p = s.self, s.result
    mT = F.transpose
    ph, gh = mT(p, -2, -1), mT(g, -2, -1)
    m, n = s.input_shape[-2], s.input_shape[-1]
    if m <= n:
        k = F.matmul(gh, p)
        kph = F.matmul(k, ph)
        return (-mT(F.matmul(p, k), -2, -1) + kph - F.matmul(F.matmul(a, p), kph)
                + F.matmul(F.matmul(ph, p), gh - F.matmul(k, a)))
    k = F.matmul(p, gh)
    phk = F.matmul(ph, k)
    return (-mT(F.matmul(k, p), -2, -1) + F.matmul(F.matmul(gh - F.matmul(a, k), p), ph) + phk
            - F.matmul(F.matmul(phk, p), a))


def _pinv_tangent(F: Any, t: Any, s: Any) -> Any:
    """d(A+) = -A+ dA A+ + A+ A+^H dA^H (I - A A+) + (I - A+ A) dA^H A+^H A+ (a constant rank)."""
    a, p, da = s.self, s.result, t.self
    dah = _mT(da)
    left = np.eye(a.shape[-2], dtype=a.dtype) - a @ p
    right = np.eye(a.shape[-1], dtype=a.dtype) - p @ a
    return -p @ da @ p + p @ _mT(p) @ dah @ left + right @ dah @ _mT(p) @ p


PINV = declare(Op("pinv", "LinalgPinvBackward0", ("self",), _pinv,
                  (Grad(_pinv_grad, "pinv_backward(grad, result, self)"),),
                  "the Moore-Penrose pseudo-inverse", group=LINEAR_ALGEBRA, noisy=True, jvp=_pinv_tangent))


# ---------------------------------------------------------------------------- eigh
def _eigh(a: np.ndarray, *, UPLO: str) -> tuple[np.ndarray, np.ndarray]:
    try:
        w, v = blas_call(np.linalg.eigh, (a,), 2 * int(a.nbytes), "the eigendecomposition", UPLO=UPLO)
    except np.linalg.LinAlgError:
        raise BadValueError("linalg.eigh: The algorithm failed to converge because the input matrix is "
                            "ill-conditioned or has too many repeated eigenvalues", reason="eigh") from None
    return w.astype(a.dtype), np.ascontiguousarray(v, dtype=a.dtype)


def _gaps(F: Any, values: Any, eye: np.ndarray) -> Any:
    """values[j] - values[i] at (i, j), with 1 on the diagonal (where it is only ever divided into 0)."""
    return (F.unsqueeze(values, -2) - F.unsqueeze(values, -1)) + eye


def _eigh_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's linalg_eig_backward for a Hermitian input: V ((skew(V^H gV) / E) + diag(gL)) V^H."""
    g_values, g_vectors = g
    v = s.eigenvectors
    vh = F.transpose(v, -2, -1)
    if g_vectors is None:
        return F.matmul(v * F.unsqueeze(g_values, -2), vh)
    eye = _eye(s.input_shape[-1], s.input_dtype)
    vhgv = F.matmul(vh, g_vectors)
    inner = F.mul_scalar(vhgv - F.transpose(vhgv, -2, -1), 0.5) / _gaps(F, s.eigenvalues, eye)
    if g_values is not None:
        inner = inner + F.unsqueeze(g_values, -1) * eye
    return F.matmul(v, F.matmul(inner, vh))


def _eigh_tangent(F: Any, t: Any, s: Any) -> tuple:
    """dL = diag(V^H dA V); dV = V ((V^H dA V) / E) off the diagonal."""
    v = s.eigenvectors
    inner = _mT(v) @ t.self @ v
    values = np.diagonal(inner, axis1=-2, axis2=-1)
    eye = np.eye(v.shape[-1], dtype=v.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        vectors = v @ ((inner * (1 - eye)) / _gaps(F, s.eigenvalues, eye))
    return values, vectors


EIGH = declare(Op("eigh", "LinalgEighBackward0", ("self",), _eigh,
                  (Grad(_eigh_grad, "V @ (skew(V.mH @ grad_V) / (L_j - L_i) + diag(grad_L)) @ V.mH"),),
                  "(eigenvalues, eigenvectors) of a symmetric matrix", group=LINEAR_ALGEBRA,
                  outputs=("eigenvalues", "eigenvectors"), jvp=_eigh_tangent))


# ---------------------------------------------------------------------------- svd
def _svd(a: np.ndarray, *, full_matrices: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    if a.size == 0:  # LAPACK refuses empty matrices; PyTorch gives identities where the factors have room
        k = min(m, n)
        rows, cols = (m, n) if full_matrices else (k, k)
        u = np.broadcast_to(np.eye(m, rows, dtype=a.dtype), (*batch, m, rows)).copy()
        vh = np.broadcast_to(np.eye(cols, n, dtype=a.dtype), (*batch, cols, n)).copy()
        return u, np.zeros((*batch, k), dtype=a.dtype), vh
    try:
        u, s, vh = blas_call(np.linalg.svd, (a,), 3 * int(a.nbytes), "the singular value decomposition",
                             full_matrices=full_matrices)
    except np.linalg.LinAlgError:
        raise BadValueError("linalg.svd: The algorithm failed to converge because the input matrix is "
                            "ill-conditioned or has too many repeated singular values", reason="svd") from None
    return np.ascontiguousarray(u, dtype=a.dtype), s.astype(a.dtype), np.ascontiguousarray(vh, dtype=a.dtype)


def _narrow(F: Any, x: Any, k: int, dim: int) -> Any:
    """The first k columns (dim=-1) or rows (dim=-2) of x (full_matrices: the part the gradient sees)."""
    if x is None or x.shape[dim] == k:
        return x
    where = (Ellipsis, slice(0, k)) if dim == -1 else (Ellipsis, slice(0, k), slice(None))
    return F.index(x, where)


def _svd_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's svd_backward (full_matrices: U and Vh narrowed to their first min(m, n) vectors first)."""
    k = s.S.shape[-1]
    gu, gs, gvh = _narrow(F, g[0], k, -1), g[1], _narrow(F, g[2], k, -2)
    u, sv, vh = _narrow(F, s.U, k, -1), s.S, _narrow(F, s.Vh, k, -2)
    m, n = s.input_shape[-2], s.input_shape[-1]
    mT = F.transpose
    if gu is None and gvh is None:  # svdvals (the node runs only when some gradient arrived)
        return F.matmul(u, F.unsqueeze(gs, -1) * vh) if m >= n else F.matmul(u * F.unsqueeze(gs, -2), vh)
    eye = _eye(k, s.input_dtype)
    uhgu = None if gu is None else F.matmul(mT(u, -2, -1), gu)
    vhgv = None if gvh is None else F.matmul(vh, mT(gvh, -2, -1))
    uhgu = None if uhgu is None else uhgu - mT(uhgu, -2, -1)
    vhgv = None if vhgv is None else vhgv - mT(vhgv, -2, -1)
    gaps = _gaps(F, sv * sv, eye)
    if uhgu is not None and vhgv is not None:
        inner = (uhgu * F.unsqueeze(sv, -2) + F.unsqueeze(sv, -1) * vhgv) / gaps
    elif uhgu is not None:
        inner = uhgu * (F.unsqueeze(sv, -2) / gaps)
    else:
        inner = F.unsqueeze(sv, -1) * (vhgv / gaps)
    if gs is not None:
        inner = inner + F.unsqueeze(gs, -1) * eye
    if m > n and gu is not None:
        ga = F.matmul(u, inner)
        gu_sinv = gu / F.unsqueeze(sv, -2)
        ga = ga + gu_sinv - F.matmul(u, F.matmul(mT(u, -2, -1), gu_sinv))
        return F.matmul(ga, vh)
    if m < n and gvh is not None:
        ga = F.matmul(inner, vh)
        sinv_gvh = gvh / F.unsqueeze(sv, -1)
        ga = ga + sinv_gvh - F.matmul(F.matmul(sinv_gvh, mT(vh, -2, -1)), vh)
        return F.matmul(u, ga)
    return F.matmul(u, F.matmul(inner, vh)) if m >= n else F.matmul(F.matmul(u, inner), vh)


def _svd_tangent(F: Any, t: Any, s: Any) -> tuple:
    """dS = diag(U^H dA V); dU = U (E o (dP S + S dP^H)) + (I - U U^H) dA V S^-1; dV likewise (E: 1 / (s_j^2 -
    s_i^2) off the diagonal); with full_matrices the vectors beyond min(m, n) have tangent 0."""
    k = s.S.shape[-1]
    u, sv, vh = s.U[..., :k], s.S, s.Vh[..., :k, :]
    v, da = _mT(vh), t.A
    dp = _mT(u) @ da @ v
    eye = np.eye(k, dtype=sv.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        inverse_gaps = (1 - eye) / ((sv * sv)[..., None, :] - (sv * sv)[..., :, None] + eye)
        d_s = np.diagonal(dp, axis1=-2, axis2=-1).copy()
        du = u @ (inverse_gaps * (dp * sv[..., None, :] + sv[..., :, None] * _mT(dp)))
        du = du + (da @ v - u @ (_mT(u) @ da @ v)) / sv[..., None, :]
        dv = v @ (inverse_gaps * (sv[..., :, None] * dp + _mT(dp) * sv[..., None, :]))
        dv = dv + (_mT(da) @ u - v @ (vh @ _mT(da) @ u)) / sv[..., None, :]
    du_full = np.zeros_like(s.U)
    du_full[..., :k] = du
    dvh_full = np.zeros_like(s.Vh)
    dvh_full[..., :k, :] = _mT(dv)
    return du_full, d_s, dvh_full


SVD = declare(Op("svd", "LinalgSvdBackward0", ("A",), _svd,
                 (Grad(_svd_grad, "svd_backward(grad_U, grad_S, grad_Vh, U, S, Vh)"),),
                 "(U, S, Vh): the singular value decomposition", group=LINEAR_ALGEBRA, noisy=True,
                 outputs=("U", "S", "Vh"), jvp=_svd_tangent))


# ---------------------------------------------------------------------------- the functions
def _matrices(x: Any, function: str, square: bool = True, name: str = "A") -> Tensor:
    t = tensor_arg(x, name)
    if t._data.dtype.kind != "f":
        raise BadValueError(f"{function}: Expected a floating point or complex tensor as input. Got "
                            f"{_TYPE_NAMES.get(t._data.dtype.name, t._data.dtype.name)}", reason="dtype")
    if t.ndim < 2:
        raise ShapeError(f"{function}: The input tensor {name} must have at least 2 dimensions.", reason="matrix",
                         shapes=(tuple(t.shape),))
    rows, cols = t._data.shape[-2:]
    if square and rows != cols:
        raise ShapeError(f"{function}: {name} must be batches of square matrices, but they are {rows} by {cols} "
                         "matrices", reason="matrix", shapes=(tuple(t.shape),))
    return t


def _flag(value: Any, name: str, function: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise BadValueError(f"{function}(): argument '{name}' must be bool, not {type(value).__name__}",
                            reason="arguments")
    return bool(value)


@builtin("solve(A, B, *, left=True)", ("solve",), method=False)
def solve(A: Any, B: Any, *, left: Any = True) -> Tensor:
    """torch.linalg.solve: X with A @ X = B (left=False: X @ A = B); B a matrix or a vector, or batches."""
    a = _matrices(A, "linalg.solve")
    b = tensor_arg(B, "B")
    side = _flag(left, "left", "linalg.solve")
    if a._data.dtype != b._data.dtype:
        raise BadValueError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
                            f"{_TYPE_NAMES.get(a.dtype.name)} and B of type {_TYPE_NAMES.get(b.dtype.name)} instead",
                            reason="dtype")
    n = a._data.shape[-1]
    vector = is_vector_rhs(a._data.shape, b._data.shape)
    rows = b._data.shape[-1] if vector else (b._data.shape[-2] if side else b._data.shape[-1])
    if b.ndim < 1 or rows != n:
        what = f"{n}x{n} and {'x'.join(str(d) for d in b._data.shape[-2:])}"
        equation = "AX = B" if side else "XA = B"
        raise ShapeError(f"linalg.solve: Incompatible shapes of A and B for the equation {equation} ({what})",
                         reason="matrix", shapes=(tuple(a.shape), tuple(b.shape)))
    try:
        np.broadcast_shapes(a._data.shape[:-2], b._data.shape[:-1] if vector else b._data.shape[:-2])
    except ValueError:
        raise ShapeError("linalg.solve: the batch dimensions of A and B do not broadcast", reason="matrix",
                         shapes=(tuple(a.shape), tuple(b.shape))) from None
    return apply(SOLVE, (a, b), {"left": side, "vector": vector})


def _slogdet_of(input: Any, function: str) -> tuple[Tensor, Tensor]:
    return apply(SLOGDET, (_matrices(input, function),))


@builtin("slogdet(input)", ("slogdet",))
def slogdet(input: Any) -> Any:
    """(sign, logabsdet): the sign of the determinant and the log of its absolute value (torch.slogdet)."""
    return SlogdetResult(*_slogdet_of(input, "linalg.slogdet"))


def linalg_slogdet(A: Any) -> Any:
    """torch.linalg.slogdet: (sign, logabsdet), as torch.return_types.linalg_slogdet."""
    return LinalgSlogdetResult(*_slogdet_of(A, "linalg.slogdet"))


@builtin("logdet(input)", ("slogdet", "where"))
def logdet(input: Any) -> Tensor:
    """The log of the determinant: nan where it is negative (slogdet's logabsdet, chosen by where)."""
    sign, logabsdet = _slogdet_of(input, "logdet")
    return where(Tensor._make(sign._data < 0), Tensor._make(np.array(np.nan, dtype=logabsdet._data.dtype)),
                 logabsdet)


def _tolerances(atol: Any, rtol: Any, shape: tuple[int, ...], dtype: Any) -> tuple[float, float]:
    for value, name in ((atol, "atol"), (rtol, "rtol")):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float, np.floating))):
            raise BadValueError(f"linalg.pinv(): argument '{name}' must be a number, not {type(value).__name__}",
                                reason="arguments")
    if rtol is None:
        rtol = max(shape[-2:]) * float(np.finfo(dtype).eps) if atol is None or atol <= 0 else 0.0
    return float(atol or 0.0), float(rtol)


def linalg_pinv(A: Any, *, atol: Any = None, rtol: Any = None, hermitian: Any = False) -> Tensor:
    """torch.linalg.pinv: the pseudo-inverse, singular values not above max(atol, rtol * largest) dropped."""
    a = tensor_arg(A, "A")
    if a.ndim < 2 or a._data.dtype.kind != "f":
        raise BadValueError(f"linalg.pinv({_TYPE_NAMES.get(a.dtype.name, a.dtype.name)}{{{list(a._data.shape)}}}): "
                            "expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types",
                            reason="matrix")
    tol, rel = _tolerances(atol, rtol, a._data.shape, a._data.dtype)
    if _flag(hermitian, "hermitian", "linalg.pinv") and a._data.shape[-1] != a._data.shape[-2]:
        raise ShapeError("linalg.pinv(hermitian=True): A must be batches of square matrices",
                         reason="matrix", shapes=(tuple(a.shape),))
    return apply(PINV, (a,), {"atol": tol, "rtol": rel, "hermitian": bool(hermitian)})


@builtin("pinverse(input, rcond=1e-15)", ("pinv",))
def pinverse(input: Any, rcond: Any = 1e-15) -> Tensor:
    """The Moore-Penrose pseudo-inverse (torch.linalg.pinv with rtol=rcond)."""
    return linalg_pinv(input, rtol=rcond)


def _uplo(UPLO: Any, function: str) -> str:
    if UPLO not in ("L", "U", "l", "u"):
        raise BadValueError(f"{function}: Expected UPLO argument to be 'L' or 'U', but got {UPLO}", reason="arguments")
    return str(UPLO).upper()


@builtin("eigh(A, UPLO='L')", ("eigh",), method=False)
def eigh(A: Any, UPLO: Any = "L") -> Any:
    """torch.linalg.eigh: (eigenvalues ascending, eigenvectors as columns) of a symmetric matrix (read from
    its lower triangle, or the upper one with UPLO='U')."""
    a = _matrices(A, "linalg.eigh")
    return EighResult(*apply(EIGH, (a,), {"UPLO": _uplo(UPLO, "linalg.eigh")}))


@builtin("eigvalsh(A, UPLO='L')", ("eigh",), method=False)
def eigvalsh(A: Any, UPLO: Any = "L") -> Tensor:
    """torch.linalg.eigvalsh: the eigenvalues of a symmetric matrix, ascending (eigh's first result)."""
    a = _matrices(A, "linalg.eigvalsh")
    return apply(EIGH, (a,), {"UPLO": _uplo(UPLO, "linalg.eigvalsh")})[0]


def linalg_svd(A: Any, full_matrices: Any = True) -> Any:
    """torch.linalg.svd: (U, S, Vh) with A = U @ diag(S) @ Vh, S descending."""
    a = _matrices(A, "linalg.svd", square=False)
    full = _flag(full_matrices, "full_matrices", "linalg.svd")
    return LinalgSvdResult(*apply(SVD, (a,), {"full_matrices": full}))


@builtin("svdvals(A)", ("svd",), method=False)
def svdvals(A: Any) -> Tensor:
    """torch.linalg.svdvals: the singular values, descending (svd's second result)."""
    a = _matrices(A, "linalg.svdvals", square=False)
    return apply(SVD, (a,), {"full_matrices": False})[1]


@builtin("svd(input, some=True, compute_uv=True)", ("svd", "transpose"))
def svd(input: Any, some: Any = True, compute_uv: Any = True) -> Any:
    """torch.svd: (U, S, V) with input = U @ diag(S) @ V.mT (V, not torch.linalg.svd's Vh); some=False: the
    full U and V; compute_uv=False: S only, U and V zero-filled."""
    a = _matrices(input, "linalg.svd", square=False)
    reduced = _flag(some, "some", "svd")
    if not _flag(compute_uv, "compute_uv", "svd"):
        m, n = a._data.shape[-2:]
        batch = a._data.shape[:-2]
        values = svdvals(a)
        return SvdResult(Tensor._make(np.zeros((*batch, m, m), dtype=a._data.dtype)), values,
                         Tensor._make(np.zeros((*batch, n, n), dtype=a._data.dtype)))
    u, s, vh = apply(SVD, (a,), {"full_matrices": not reduced})
    return SvdResult(u, s, transpose(vh, -2, -1))


@builtin("nuclear_norm(input, dim=None, keepdim=False)", ("svd", "sum_dim"), method=False)
def nuclear_norm(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    """The sum of the singular values of the matrices over dim (the last two dims by default): norm(p='nuc'),
    recorded as PyTorch does (SumBackward1 of LinalgSvdBackward0's singular values)."""
    x = tensor_arg(input)
    if x.ndim < 2:
        raise BadValueError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.", reason="norm")
    rows, cols = (x.ndim - 2, x.ndim - 1) if dim is None else (int(dim[0]) % x.ndim, int(dim[1]) % x.ndim)
    others = [d for d in range(x.ndim) if d not in (rows, cols)]
    values = svdvals(permute(x, (*others, rows, cols)))  # PyTorch's permute (PermuteBackward0), even of no dims
    total = values.sum(-1)
    if keepdim:
        for d in sorted(d % x.ndim for d in (rows, cols)):
            total = total.unsqueeze(d)
    return total
