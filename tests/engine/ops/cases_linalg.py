"""The op cases of torch.linalg's products and distances (engine/ops/linalg_more.py, engine/ops/cdist.py): cross
and linalg.cross, dist, kron, matrix_power, matrix_norm and cdist (both of its forms), registered into cases.py's
table by `register(cases)`: each runs through the golden files (make_golden.py, make_forward_golden.py,
make_fwdrev_golden.py) and against PyTorch live (test_ops_live.py)."""

from __future__ import annotations

from typing import Any


def _la(L: Any, name: str) -> Any:
    """torch.linalg.NAME for torch; the engine's built-in of that name (linalg_cross for cross)."""
    if L.__name__ == "torch":
        return getattr(L.linalg, name)
    return getattr(L, {"cross": "linalg_cross", "cholesky": "linalg_cholesky", "qr": "linalg_qr"}.get(name, name))


def register(C: Any) -> None:
    """Add the cases to C.CASES (C is the cases module: its `case`, `values`, F32)."""
    case, values = C.case, C.values
    a23, b23, a32 = values(2, 3, offset=80), values(2, 3, offset=81), values(3, 2, offset=82)
    m3 = [[1.0, 0.5, 0.0], [-0.25, 2.0, 1.0], [0.5, 0.0, 1.5]]
    rows, other = values(4, 3, offset=83), values(3, 3, offset=84)

    case("linalg_cross", lambda L, a, b: _la(L, "cross")(a, b), a23, b23)
    case("linalg_cross_broadcast", lambda L, a, b: _la(L, "cross")(a, b, dim=1) * b, [[0.5, -1.0, 2.0]], b23)
    case("cross_dim0", lambda L, a, b: L.cross(a, b, dim=0), a32, values(3, 2, offset=85))
    case("cross_method_f32", lambda L, a, b: a.cross(b, dim=-1).sum(0), a23, b23, dtype=C.F32)
    case("dist_p2", lambda L, a, b: L.dist(a, b), a23, b23)
    case("dist_p1_broadcast", lambda L, a, b: L.dist(a, b, 1), a23, [0.25, -0.5, 1.0])
    case("dist_p3_method", lambda L, a, b: a.dist(b, 3), a23, b23)
    case("dist_inf", lambda L, a, b: L.dist(a, b, float("inf")), a23, b23)
    case("kron_matrices", lambda L, a, b: L.kron(a, b), [[1.0, -2.0], [0.5, 3.0]], a23)
    case("kron_vector_matrix", lambda L, a, b: a.kron(b), [1.0, -0.5], a32)
    case("matrix_power_3", lambda L, a: L.linalg.matrix_power(a, 3) if L.__name__ == "torch"
         else L.matrix_power(a, 3), m3)
    case("matrix_power_5_method", lambda L, a: a.matrix_power(5), m3)
    case("matrix_power_minus_2", lambda L, a: L.matrix_power(a, -2), m3)
    case("matrix_power_0", lambda L, a: L.matrix_power(a, 0) * a, m3)
    case("matrix_power_batch", lambda L, a: a.matrix_power(4), [m3, [[0.5, 0.0, 1.0], [1.0, 1.0, 0.0], m3[1]]])
    case("matrix_norm_fro", lambda L, a: _la(L, "matrix_norm")(a), m3)
    case("matrix_norm_nuc", lambda L, a: _la(L, "matrix_norm")(a, "nuc"), a23)
    case("matrix_norm_1", lambda L, a: _la(L, "matrix_norm")(a, 1), m3)
    case("matrix_norm_minus_inf_keepdim", lambda L, a: _la(L, "matrix_norm")(a, -float("inf"), keepdim=True),
         values(2, 2, 3, offset=86))
    case("cdist_p2", lambda L, a, b: L.cdist(a, b), rows, other)
    case("cdist_p1", lambda L, a, b: L.cdist(a, b, p=1), rows, other)
    case("cdist_p_half", lambda L, a, b: L.cdist(a, b, p=0.5), rows, other)
    case("cdist_inf_batch", lambda L, a, b: L.cdist(a, b, p=float("inf")), values(2, 2, 3, offset=87), other)
    case("cdist_mm", lambda L, a, b: L.cdist(a, b, compute_mode="use_mm_for_euclid_dist"), rows, other)
    case("cdist_mm_batch", lambda L, a, b: L.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
         values(2, 2, 3, offset=88), values(1, 3, 3, offset=89))
    case("cdist_p2_f32", lambda L, a, b: L.cdist(a, b), rows, other, dtype=C.F32)
    spd = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]
    tri = [[2.0, 0.5, -1.0], [7.0, 3.0, 0.25], [9.0, -4.0, 1.5]]
    half = [[2.0, 0.75, 0.5], [0.25, 1.5, 0.0], [0.0, 0.2, 1.0]]  # half + half.mT: positive-definite
    case("linalg_cholesky", lambda L, a: _la(L, "cholesky")(a + a.mT) * a, half)
    case("linalg_cholesky_upper_batch", lambda L, a: _la(L, "cholesky")(a, upper=True).pow(2),
         [spd, [[2.0, -0.5, 0.0], [-0.5, 1.0, 0.25], [0.0, 0.25, 3.0]]])
    case("cholesky_method", lambda L, a, b: (a + a.mT).cholesky() * b, half, values(3, 3, offset=92))
    case("cholesky_upper_f32", lambda L, a: L.cholesky(a, upper=True) * a, spd, dtype=C.F32)
    case("solve_triangular_upper", lambda L, a, b: _la(L, "solve_triangular")(a, b, upper=True), tri, values(3, 2))
    case("solve_triangular_lower_unit", lambda L, a, b: _la(L, "solve_triangular")(a, b, upper=False,
                                                                                   unitriangular=True), tri, a32)
    case("solve_triangular_right", lambda L, a, b: _la(L, "solve_triangular")(a, b, upper=False, left=False),
         tri, a23)
    case("solve_triangular_batch_b_constant", lambda L, a, b: _la(L, "solve_triangular")(a, b, upper=True),
         [tri, values(3, 3, offset=90)], values(3, 2, offset=91), grad=(True, False))
    tall = [[2.0, 0.5], [1.0, 3.0], [0.5, -1.0]]
    case("linalg_qr_tall", lambda L, a: _pair(_la(L, "qr")(a), lambda q, r: q.sum(0) * r.sum(1)), tall)
    case("linalg_qr_square_r_only", lambda L, a: _la(L, "qr")(a).R * a, m3)
    case("linalg_qr_wide", lambda L, a: _pair(_la(L, "qr")(a), lambda q, r: q.sum(1) * r.sum(1)),
         [[2.0, 1.0, 0.5], [0.5, 3.0, -1.0]])
    case("linalg_qr_complete_batch", lambda L, a: _la(L, "qr")(a, mode="complete").Q.pow(3),
         [m3, [[0.5, 0.0, 1.0], [1.0, 1.0, 0.0], m3[1]]])
    register_more(C)


def _pair(pair: Any, combine: Any) -> Any:
    """Both results of an op with two, combined into one tensor."""
    return combine(*pair)


def register_more(C: Any) -> None:
    """torch.qr / Tensor.qr (deprecated for torch.linalg.qr), linalg.multi_dot and linalg.cond."""
    C.case("qr_method_complete", lambda L, a: _pair(a.qr(some=False), lambda q, r: q.sum(1) * r.sum(1)),
           [[1.0, 0.5, 0.0], [-0.25, 2.0, 1.0], [0.5, 0.0, 1.5]])
    values = C.values
    C.case("linalg_multi_dot_three", lambda L, a, b, c: _la(L, "multi_dot")([a, b, c]), values(2, 4, offset=93),
           values(4, 3, offset=94), values(3, 5, offset=95))
    C.case("linalg_multi_dot_four_vectors", lambda L, a, b, c, d: _la(L, "multi_dot")([a, b, c, d]),
           values(4, offset=96), values(4, 3, offset=97), values(3, 5, offset=98), values(5, offset=99))
    C.case("linalg_cond", lambda L, a: _la(L, "cond")(a), [[1.0, 0.5, 0.0], [-0.25, 2.0, 1.0], [0.5, 0.0, 1.5]])
    C.case("linalg_cond_inf", lambda L, a, b: _la(L, "cond")(a, float("inf")) * b,
           [[1.0, 0.5, 0.0], [-0.25, 2.0, 1.0], [0.5, 0.0, 1.5]], [1.0, 2.0], grad=(False, True))
    C.case("linalg_vander", lambda L, x: _la(L, "vander")(x, N=4), [1.0, -2.0, 0.5])
