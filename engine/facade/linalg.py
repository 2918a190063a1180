"""torch.linalg: norms, det, inv, solve, slogdet, pinv, eigh, eigvalsh, svd, svdvals, cross, matrix_power,
matrix_norm, cholesky, solve_triangular, qr, matmul, diagonal, vecdot,
multi_dot, cond, matrix_rank, vander (the engine's)."""

from typing import Any

from autodiff.engine import (
    BUILTINS,
    linalg_norm,
    linalg_pinv,
    linalg_slogdet,
    linalg_svd,
)

norm = linalg_norm
slogdet = linalg_slogdet
pinv = linalg_pinv
svd = linalg_svd
inv = BUILTINS["inverse"].fn
vector_norm = BUILTINS["vector_norm"].fn
det = BUILTINS["det"].fn
solve = BUILTINS["solve"].fn
eigh = BUILTINS["eigh"].fn
eigvalsh = BUILTINS["eigvalsh"].fn
svdvals = BUILTINS["svdvals"].fn
cross = BUILTINS["linalg_cross"].fn
matrix_power = BUILTINS["matrix_power"].fn
matrix_norm = BUILTINS["matrix_norm"].fn
cholesky = BUILTINS["linalg_cholesky"].fn
solve_triangular = BUILTINS["solve_triangular"].fn
qr = BUILTINS["linalg_qr"].fn
matmul = BUILTINS["matmul"].fn
multi_dot = BUILTINS["multi_dot"].fn
cond = BUILTINS["cond"].fn
matrix_rank = BUILTINS["matrix_rank"].fn
vander = BUILTINS["vander"].fn


def diagonal(A: Any, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Any:
    """torch.linalg.diagonal: torch.diagonal with the last two dims by default (DiagonalBackward0)."""
    return BUILTINS["diagonal"].fn(A, offset, dim1, dim2)


def vecdot(x: Any, y: Any, *, dim: int = -1) -> Any:
    """torch.linalg.vecdot of real vectors: (x * y).sum(dim), recorded as PyTorch's (MulBackward0, SumBackward1)."""
    return BUILTINS["sum"].fn(BUILTINS["mul"].fn(x, y), dim)


__all__ = ["cholesky", "cond", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm",
           "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "solve_triangular",
           "svd", "svdvals", "vander", "vecdot", "vector_norm"]
