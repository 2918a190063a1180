"""torch.linalg: norms, det, inv, solve, slogdet, pinv, eigh, eigvalsh, svd, svdvals, cross, matrix_power,
matrix_norm, cholesky, solve_triangular, qr (the engine's)."""

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

__all__ = ["cholesky", "cross", "det", "eigh", "eigvalsh", "inv", "matrix_norm", "matrix_power", "norm", "pinv",
           "qr", "slogdet", "solve", "solve_triangular", "svd", "svdvals", "vector_norm"]
