"""The op cases of issue 31 (the vocabulary other autograd projects test, and the wrong gradients their tests
found), registered into cases.py's table by `register(cases)`: each runs against PyTorch live
(test_ops_live.py, test_vocabulary_live.py) and through the golden file (make_golden.py, test_ops_golden.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def register(C: Any) -> None:
    """Add the cases to C.CASES (C is the cases module: its `case`, `values`, `positive`, F32)."""
    case, values, positive = C.case, C.values, C.positive
    a23, a234 = values(2, 3, offset=20), values(2, 3, 4, offset=21)

    # ---- wrong results found by the peers' tests
    case("regression_cumprod_one_zero", lambda L, x: L.cumprod(x.flatten(), 0), [[1.5, 0.0], [2.0, -0.5]])
    case("regression_cumprod_two_zeros", lambda L, x: L.cumprod(x, -1), [[0.0, 2.0, 0.0, 3.0], [2.0, 3.0, 0.0, 0.0]])
    case("regression_cumprod_zero_first_and_last", lambda L, x: L.cumprod(x, 0), [[0.0, 1.5], [2.0, 0.5], [3.0, 0.0]])
    case("regression_cumprod_f32_zero", lambda L, x: L.cumprod(x, 1), [[1.5, 0.0, 2.0]], dtype=C.F32)
    case("regression_prod_one_zero", lambda L, x: L.prod(x), [[1.5, 0.0], [2.0, -0.5]])
    case("regression_prod_two_zeros", lambda L, x: L.prod(x), [1.5, 0.0, 2.0, 0.0])
    case("regression_prod_dim_zeros", lambda L, x: L.prod(x, 1), [[1.5, 0.0, 2.0], [0.0, 0.0, 3.0], [1.0, 2.0, 3.0]])
    case("regression_cumsum_0d", lambda L, x: L.cumsum(x, 0), 1.5)
    case("regression_cumsum_0d_negative_dim", lambda L, x: L.cumsum(x, -1) * 2, 1.5)
    case("regression_cumprod_0d", lambda L, x: L.cumprod(x, 0), 1.5)

    # ---- keywords PyTorch accepts
    case("v31_div_trunc", lambda L, x, y: L.div(x, y, rounding_mode="trunc"), [1.5, -2.5, 3.75], [0.5, 2.0, -1.5])
    case("v31_div_floor_number", lambda L, x: x.div(0.75, rounding_mode="floor"), [1.5, -2.5, 3.75])
    case("v31_div_mode_none", lambda L, x, y: L.div(x, y, rounding_mode=None), a23, positive(2, 3))
    case("v31_round_decimals", lambda L, x: L.round(x, decimals=1) * x, [1.25, -2.5625, 3.75])
    case("v31_round_method_decimals", lambda L, x: x.round(decimals=-1), [12.5, -26.0, 3.75])
    case("v31_softmax_dtype", lambda L, x: L.softmax(x, 1, dtype=L.float64), a23, dtype=C.F32)
    case("v31_log_softmax_dtype", lambda L, x: x.log_softmax(dim=0, dtype=L.float64), a23, dtype=C.F32)
    case("v31_sum_axis", lambda L, x: x.sum(axis=1) * L.mean(x, axis=0).sum(), a234)
    case("v31_var_std_axis", lambda L, x: L.var(x, axis=1) + x.std(axis=1), a23)
    case("v31_max_min_axis", lambda L, x: L.max(x, axis=1).values + x.min(axis=1)[0] + L.amax(x, axis=1), a23)
    case("v31_prod_logsumexp_axis", lambda L, x: L.prod(x, axis=0) + L.logsumexp(x, axis=0), a23)
    case("v31_split_pieces_together", lambda L, x: L.cat(L.chunk(x, 2, axis=2), axis=2) * L.unbind(x, axis=0)[1]
         + L.split(x, [1, 2], 1)[1].sum(1, keepdim=True), a234)
    case("v31_unbind_all_pieces", lambda L, x: L.stack(L.unbind(x, 1)[::-1], 0) * 2, a23)
    case("v31_keepdims", lambda L, x: x.sum(axis=1, keepdims=True) * L.mean(x, 0, keepdims=True)
         + L.amax(x, axis=-1, keepdims=True) + x.var(axis=(0, 1), keepdims=True), a234)
    case("v31_axis_shapes", lambda L, x: L.stack([x.unsqueeze(axis=0).squeeze(axis=0), x], axis=1).sum(1)
         + L.cat([L.chunk(x, 2, axis=2)[0]] * 2, axis=2) * L.unbind(x, axis=0)[0], a234)
    case("v31_axis_selections", lambda L, x: L.sort(x, axis=1)[0] + L.topk(x, 3, axis=1).values
         + L.gather(x, axis=1, index=L.tensor([[2, 0, 1], [1, 1, 0]]))
         + x.index_select(axis=1, index=L.tensor([2, 0, 1])) + L.take_along_dim(x, L.tensor([[2, 0, 1]]), axis=1)
         + x.scatter(axis=1, index=L.tensor([[2, 0]]), value=1.5), a23)
    case("v31_cumsum_axis", lambda L, x: L.cumsum(x, axis=1) * L.any(x > 0, axis=1, keepdim=True), a23)

    # ---- running reductions
    case("v31_cummax", lambda L, x: L.cummax(x, 1).values, [[1.0, 3.0, 2.0, 4.0], [-1.0, -2.0, 0.5, 0.25]])
    case("v31_cummax_ties", lambda L, x: L.cummax(x, 1).values, [[1.0, 3.0, 2.0, 3.0], [-1.0, -1.0, 0.5, 0.5]])
    case("v31_cummin_ties_nan", lambda L, x: L.cummin(L.log(x), 0).values, [-1.0, 2.0, 0.5, 0.5])
    case("v31_cummin_method", lambda L, x: x.cummin(0)[0], a23)
    case("v31_cummax_indices", lambda L, x: L.cummax(x, -1).indices + x, a23)
    case("v31_logcumsumexp", lambda L, x: L.logcumsumexp(x, 1), a234)
    case("v31_logcumsumexp_method", lambda L, x: x.logcumsumexp(0), a23)

    # ---- advanced indexing (IndexBackward0), gather/scatter, index_select, masked_fill, take_along_dim
    case("v31_index_list", lambda L, x: x[[0, 2, 0]], values(3, 4, offset=22))
    case("v31_index_two_lists", lambda L, x: x[[0, 1], [2, 0]], a23)
    case("v31_index_tensor", lambda L, x: x[L.tensor([1, 0, 1])], a234)
    case("v31_index_select_then_list", lambda L, x: x[0, [1, 2, 1]], a234)
    case("v31_index_slice_then_list", lambda L, x: x[1:, [0, 3]], values(3, 4, offset=22))
    case("v31_index_lists_apart", lambda L, x: x[[0, 1], :, [3, 1]], a234)
    case("v31_index_ellipsis_list", lambda L, x: x[..., [2, 0]], a234)
    case("v31_index_mask", lambda L, x: x[x > 0], a23)
    case("v31_index_row_mask", lambda L, x: x[L.tensor([1.0, -1.0, 2.0]) > 0], values(3, 2, offset=23))
    case("v31_index_negative", lambda L, x: x[[-1, 0]] * 2, a23)
    case("v31_index_2d_index", lambda L, x: x[L.tensor([[0, 1], [1, 1]])], a23)
    case("v31_gather", lambda L, x: L.gather(x, 1, L.tensor([[0, 0], [2, 1]])), a23)
    case("v31_gather_method_dim0", lambda L, x: x.gather(0, L.tensor([[1, 0, 1]])), a23)
    case("v31_take_along_dim", lambda L, x: L.take_along_dim(x, L.tensor([[2], [0]]), 1), a23)
    case("v31_take_along_dim_flat", lambda L, x: L.take_along_dim(x, L.tensor([5, 0, 5])), a23)
    case("v31_scatter_src", lambda L, x, y: L.scatter(x, 1, L.tensor([[2, 0], [1, 2]]), y), a23,
         values(2, 2, offset=24))
    case("v31_scatter_value", lambda L, x: x.scatter(0, L.tensor([[1, 0, 1]]), 2.5), a23)
    case("v31_scatter_add", lambda L, x, y: L.scatter_add(x, 1, L.tensor([[0, 0], [2, 2]]), y), a23,
         values(2, 2, offset=25))
    case("v31_index_select", lambda L, x: L.index_select(x, 1, L.tensor([2, 0, 2])), a23)
    case("v31_index_select_method", lambda L, x: x.index_select(0, L.tensor([1])), a234)
    case("v31_masked_fill", lambda L, x: L.masked_fill(x, x < 0, 0.5), a23)
    case("v31_masked_fill_broadcast", lambda L, x: x.masked_fill(L.tensor([1.0, -1.0, 2.0]) > 0, -1.0), a23)
    case("v31_index_second_order", lambda L, x: _index_twice(L, x), values(4, offset=26))

    # ---- activations (torch.nn.functional's; the engine has them as module functions)
    act = [[-2.5, -0.75, -0.125, 0.25, 1.5, 3.5]]
    activations = {
        "leaky_relu": lambda f, x: f.leaky_relu(x, 0.2), "leaky_relu_default": lambda f, x: f.leaky_relu(x),
        "elu": lambda f, x: f.elu(x), "elu_alpha": lambda f, x: f.elu(x, alpha=0.5), "selu": lambda f, x: f.selu(x),
        "celu": lambda f, x: f.celu(x, alpha=1.5), "gelu": lambda f, x: f.gelu(x),
        "gelu_tanh": lambda f, x: f.gelu(x, approximate="tanh"), "silu": lambda f, x: f.silu(x),
        "mish": lambda f, x: f.mish(x), "softplus": lambda f, x: f.softplus(x),
        "softplus_beta_threshold": lambda f, x: f.softplus(x, beta=2.0, threshold=2.0),
        "softsign": lambda f, x: f.softsign(x), "hardtanh": lambda f, x: f.hardtanh(x),
        "hardtanh_bounds": lambda f, x: f.hardtanh(x, -0.5, 2.0), "relu6": lambda f, x: f.relu6(x * 3),
        "hardsigmoid": lambda f, x: f.hardsigmoid(x * 1.5), "hardswish": lambda f, x: f.hardswish(x * 1.5),
        "logsigmoid": lambda f, x: f.logsigmoid(x), "softmin": lambda f, x: f.softmin(x, dim=1),
    }
    for name, call in activations.items():
        case(f"v31_act_{name}", (lambda c: lambda L, x: c(_functional(L), x))(call), act)
    case("v31_act_f32_gelu_silu", lambda L, x: _functional(L).gelu(x) * _functional(L).silu(x), a23, dtype=C.F32)
    case("v31_act_hardtanh_at_bounds_kink", lambda L, x: _functional(L).hardtanh(x), [-1.0, 0.5, 1.0])
    case("v31_act_hardswish_at_3_kink", lambda L, x: _functional(L).hardswish(x), [-3.0, 0.5, 3.0])
    case("v31_act_selu_torch", lambda L, x: L.selu(x) + L.celu(x), act)

    # ---- more elementwise functions
    case("v31_logaddexp", lambda L, x, y: L.logaddexp(x, y), a23, values(2, 3, offset=27))
    case("v31_logaddexp2_method", lambda L, x, y: x.logaddexp2(y), a23, values(3, offset=28))
    case("v31_remainder_number", lambda L, x: L.remainder(x, 0.75), [1.25, -2.5, 3.625])
    case("v31_remainder_tensor", lambda L, x, y: L.remainder(x, y), [1.25, -2.5, 3.625], [0.75, 1.5, -1.25])
    case("v31_fmod_number", lambda L, x: x.fmod(0.75), [1.25, -2.5, 3.625])
    case("v31_fmod_tensor", lambda L, x, y: L.fmod(x, y), [1.25, -2.5, 3.625], [0.75, 1.5, -1.25])
    case("v31_fmax", lambda L, x, y: L.fmax(x, y), a23, values(2, 3, offset=29))
    case("v31_fmin_method", lambda L, x, y: x.fmin(y), a23, values(2, 3, offset=29))
    case("v31_fmax_ties_nan", lambda L, x, y: L.fmax(L.log(x), y), [-1.0, 2.0, 1.0], [0.5, 0.5, 0.0])
    case("v31_fmin_ties_nan", lambda L, x, y: L.fmin(x, L.log(y)), [0.5, 0.5, 0.0], [-1.0, 2.0, 1.0])
    case("v31_copysign", lambda L, x, y: L.copysign(x, y), a23, values(2, 3, offset=30))
    case("v31_copysign_number", lambda L, x: x.copysign(-1.0), [1.25, -2.5, 0.0])
    case("v31_lerp_number", lambda L, x, y: L.lerp(x, y, 0.3), a23, values(2, 3, offset=31))
    case("v31_lerp_tensor", lambda L, x, y, w: x.lerp(y, w), a23, values(3, offset=31), positive(2, 1))
    case("v31_sinc", lambda L, x: L.sinc(x), [0.0, 0.25, -1.5, 2.5])
    case("v31_deg2rad_rad2deg", lambda L, x: L.deg2rad(x) * L.rad2deg(x), a23)

    # ---- rearranging: repeat, tile, roll, flip, triangles, diagonals, movedim, split, stacks, atleast, ravel
    m34 = values(3, 4, offset=32)
    case("v31_repeat", lambda L, x: x.repeat(2, 1), a23)
    case("v31_repeat_new_dims", lambda L, x: x.repeat(2, 1, 3), a23)
    case("v31_tile", lambda L, x: L.tile(x, (2,)), a23)
    case("v31_tile_method", lambda L, x: x.tile((2, 1, 2)), a23)
    case("v31_expand_as", lambda L, x, y: x.expand_as(y) * y, values(3, offset=33), a23)
    case("v31_roll", lambda L, x: L.roll(x, 1, 1), m34)
    case("v31_roll_flat", lambda L, x: x.roll(5), m34)
    case("v31_roll_two_dims", lambda L, x: L.roll(x, (1, -2), (0, 1)), m34)
    case("v31_flip", lambda L, x: L.flip(x, [0]), m34)
    case("v31_flip_method_two_dims", lambda L, x: x.flip((0, -1)), a234)
    case("v31_fliplr_flipud", lambda L, x: L.fliplr(x) * L.flipud(x), m34)
    case("v31_tril", lambda L, x: L.tril(x), m34)
    case("v31_triu_offset", lambda L, x: x.triu(1), m34)
    case("v31_tril_negative_batched", lambda L, x: L.tril(x, -1), a234)
    case("v31_diag_offset_vector", lambda L, x: L.diag(x, 1), values(3, offset=34))
    case("v31_diag_negative_offset_matrix", lambda L, x: L.diag(x, -1), m34)
    case("v31_diagonal", lambda L, x: L.diagonal(x), m34)
    case("v31_diagonal_offset_dims", lambda L, x: x.diagonal(1, 0, 2), a234)
    case("v31_diagonal_negative_dims", lambda L, x: L.diagonal(x, -1, dim1=-1, dim2=-2), a234)
    case("v31_movedim", lambda L, x: L.movedim(x, 0, 2), a234)
    case("v31_movedim_method_lists", lambda L, x: x.movedim((0, 1), (2, 0)), a234)
    case("v31_permute_negative_dims", lambda L, x: x.permute(-1, 0, -2), a234)
    case("v31_split_piece", lambda L, x: L.split(x, 2, 1)[1], m34)
    case("v31_split_sizes_piece", lambda L, x: x.split([1, 3], dim=1)[1], m34)
    case("v31_chunk_piece", lambda L, x: L.chunk(x, 2, 0)[0], m34)
    case("v31_unbind_piece", lambda L, x: L.unbind(x, 1)[2], m34)
    case("v31_hstack", lambda L, x, y: L.hstack([x, y]), a23, values(2, 2, offset=35))
    case("v31_hstack_vectors", lambda L, x, y: L.hstack([x, y]), values(3), values(2, offset=35))
    case("v31_vstack", lambda L, x, y: L.vstack([x, y]), values(3), a23)
    case("v31_dstack", lambda L, x, y: L.dstack([x, y]), a23, a23)
    case("v31_atleast_1d", lambda L, x: L.atleast_1d(x.sum()), a23)
    case("v31_atleast_2d", lambda L, x: L.atleast_2d(x), values(3))
    case("v31_atleast_3d", lambda L, x: L.atleast_3d(x), values(3))
    case("v31_atleast_3d_matrix", lambda L, x: L.atleast_3d(x), a23)
    case("v31_ravel", lambda L, x: x.ravel(), a23)
    case("v31_ravel_of_transposed", lambda L, x: L.ravel(x.t()), a23)

    # ---- norms with any p (LinalgVectorNormBackward0), torch.linalg's norms
    orders = (("1", 1), ("3", 3), ("1_5", 1.5), ("0_5", 0.5), ("inf", float("inf")), ("minus_inf", -float("inf")),
              ("0", 0), ("fro", "fro"))
    for label, p in orders:
        case(f"v31_norm_p{label}", (lambda q: lambda L, x: L.norm(x, p=q) + x.sum())(p), a23)
    case("v31_norm_p3_dim_keepdim", lambda L, x: L.norm(x, 3, dim=1, keepdim=True), a234)
    case("v31_norm_inf_ties", lambda L, x: x.norm(p=float("inf"), dim=0), [[1.0, -2.0], [-1.0, 2.0], [0.5, 1.0]])
    case("v31_norm_p1_kink_at_zero", lambda L, x: L.norm(x, p=1), [0.0, -2.0, 1.5])
    case("v31_vector_norm", lambda L, x: _linalg(L).vector_norm(x, ord=4, dim=(0, 2)), a234)
    case("v31_linalg_norm_vector", lambda L, x: _linalg(L).norm(x, 1), values(5, offset=36))
    case("v31_linalg_norm_matrix_fro", lambda L, x: _linalg(L).norm(x), a23)

    # ---- sorting: sort (SortBackward0), topk (TopkBackward0), msort
    case("v31_sort", lambda L, x: L.sort(x).values, a234)
    case("v31_sort_dim0_descending", lambda L, x: L.sort(x, 0, descending=True)[0], a23)
    case("v31_sort_method_indices", lambda L, x: x.sort(dim=1).values * x.sort(dim=1).indices, a23)
    case("v31_sort_ties_stable", lambda L, x: L.sort(x, stable=True).values * L.tensor([1.0, 2.0, 3.0, 4.0]),
         [2.0, -1.0, 2.0, -1.0])
    case("v31_sort_nan", lambda L, x: L.sort(L.log(x), descending=True).values, [0.5, -1.0, 2.0, 1.5])
    case("v31_sort_0d", lambda L, x: L.sort(x.sum()).values * 2, a23)
    case("v31_msort", lambda L, x: L.msort(x), values(4, 3, offset=37))
    case("v31_topk", lambda L, x: L.topk(x, 2).values, a234)
    case("v31_topk_smallest_dim0", lambda L, x: L.topk(x, 1, dim=0, largest=False)[0], a23)
    case("v31_topk_method_all", lambda L, x: x.topk(3, 1).values * x.topk(3, 1).indices, a23)
    case("v31_topk_f32", lambda L, x: L.topk(x * x, 2)[0], a23, dtype=C.F32)

    # ---- var_mean, std_mean: two outputs, one node (VarMeanBackward0, StdMeanBackward0)
    case("v31_var_mean", lambda L, x: _pair(L.var_mean(x, 1), lambda v, m: v * m), a234)
    case("v31_var_mean_all", lambda L, x: _pair(L.var_mean(x), lambda v, m: v + m * m), a23)
    case("v31_var_mean_keepdim_correction", lambda L, x: _pair(L.var_mean(x, (0, 2), keepdim=True, correction=0),
                                                                lambda v, m: v - m), a234)
    case("v31_var_mean_only_mean", lambda L, x: L.var_mean(x, 0)[1] * 2, a23)
    case("v31_var_mean_only_var", lambda L, x: L.var_mean(x, dim=1, unbiased=False)[0], a23)
    case("v31_std_mean", lambda L, x: _pair(L.std_mean(x, 1), lambda v, m: v / m), a23)
    case("v31_std_mean_all_f32", lambda L, x: _pair(L.std_mean(x), lambda v, m: v * m), a23, dtype=C.F32)
    case("v31_std_mean_only_std", lambda L, x: L.std_mean(x, -1, keepdim=True)[0] * x, a234)

    # ---- einsum, tensordot: PyTorch's decomposition into permute, reshape, bmm/mm, view, sum, mul
    m34, m43 = values(3, 4, offset=38), values(4, 3, offset=39)
    case("v31_einsum_matmul", lambda L, x, y: L.einsum("ij,jk->ik", x, y), a23, m34)
    case("v31_einsum_output_transposed", lambda L, x, y: L.einsum("ij,jk->ki", x, y), a23, m34)
    case("v31_einsum_implicit", lambda L, x, y: L.einsum("ij,jk", x, y), a23, m34)
    case("v31_einsum_trace_diagonal", lambda L, x: L.einsum("ii", x) * L.einsum("ii->i", x), values(3, 3, offset=40))
    case("v31_einsum_sum_transpose", lambda L, x: L.einsum("ij->ji", x) * L.einsum("ij->", x), a23)
    case("v31_einsum_batched", lambda L, x, y: L.einsum("bij,bjk->bik", x, y), a234, values(2, 4, 2, offset=41))
    case("v31_einsum_outer_elementwise", lambda L, x, y: L.einsum("i,j->ij", x, y) + L.einsum("i,i->i", y, y)[0],
         values(3, offset=42), values(4, offset=43))
    case("v31_einsum_three_operands", lambda L, x, y, z: L.einsum("ij,jk,kl->il", x, y, z), a23, m34, m43)
    case("v31_einsum_ellipsis_broadcast", lambda L, x, y: L.einsum("...ij,...jk->...ik", x, y), a234,
         values(1, 4, 3, offset=44))
    case("v31_einsum_contract_summed_alone", lambda L, x, y: L.einsum("ab,b->", x, y), values(2, 1, offset=45),
         values(3, offset=46))
    case("v31_einsum_repeated_label", lambda L, x, y: L.einsum("iij,jk->ik", x, y), values(3, 3, 2, offset=47),
         values(2, 4, offset=48))
    case("v31_einsum_operand_list", lambda L, x, y: L.einsum("ij,kj->ki", [x, y]), a23, values(4, 3, offset=49))
    case("v31_einsum_sublists", lambda L, x, y: L.einsum(x, [0, 1], y, [1, 2], [2, 0]), a23, m34)
    case("v31_einsum_of_transposed", lambda L, x, y: L.einsum("bij,bjk->bik", x.transpose(1, 2), y), a234,
         values(2, 3, 5, offset=50))
    case("v31_einsum_f32", lambda L, x, y: L.einsum("ij,kj->ik", x, y), a23, values(4, 3, offset=51), dtype=C.F32)
    case("v31_tensordot_int", lambda L, x, y: L.tensordot(x, y, 1), a23, m34)
    case("v31_tensordot_default", lambda L, x, y: L.tensordot(x, y), a234, values(3, 4, 2, offset=52))
    case("v31_tensordot_lists", lambda L, x, y: L.tensordot(x, y, dims=([0, 2], [2, 1])), a234,
         values(5, 4, 2, offset=53))
    case("v31_tensordot_full_dot", lambda L, x, y: L.tensordot(x, y, dims=([0, 1], [0, 1])), a23,
         values(2, 3, offset=54))
    case("v31_tensordot_full_transposed", lambda L, x, y: L.tensordot(x, y, dims=([1, 0], [0, 1])), a23,
         values(3, 2, offset=55))
    case("v31_tensordot_outer", lambda L, x, y: L.tensordot(x, y, dims=0), a23, values(2, offset=56))
    case("v31_tensordot_broadcast_dim", lambda L, x, y: L.tensordot(x, y, ([1], [0])), values(2, 1, offset=57),
         m34)
    case("v31_bmm", lambda L, x, y: L.bmm(x, y), a234, values(2, 4, 3, offset=58))
    case("v31_bmm_method", lambda L, x, y: x.bmm(y.transpose(1, 2)), a234, a234)

    # ---- torch.linalg's solvers and decompositions (eigenvectors and singular vectors only through functions
    # their sign does not change: LAPACK's sign may differ between numpy and PyTorch)
    sq3 = [[2.0, 0.5, -0.25], [0.75, -1.5, 0.5], [0.25, 1.0, 1.75]]
    sq3b = values(2, 3, 3, offset=60) + 2.5 * np.eye(3)
    la = _linalg
    case("v31_solve", lambda L, a, b: la(L).solve(a, b), sq3, a23.T)
    case("v31_solve_vector", lambda L, a, b: la(L).solve(a, b), sq3, values(3, offset=61))
    case("v31_solve_right", lambda L, a, b: la(L).solve(a, b, left=False), sq3, a23)
    case("v31_solve_batched_vector", lambda L, a, b: la(L).solve(a, b), sq3b, values(3, offset=62))
    case("v31_solve_b_constant", lambda L, a, b: la(L).solve(a, b).sum(-1) * a[0], sq3, a23.T, grad=(True, False))
    case("v31_slogdet", lambda L, a: _pair(la(L).slogdet(a), lambda s, v: s * v), sq3)
    case("v31_slogdet_sign_only", lambda L, a: la(L).slogdet(a).sign * 2, sq3)
    case("v31_slogdet_negative", lambda L, a: la(L).slogdet(a)[1] * 2, [[0.5, 2.0], [1.5, -0.75]])
    case("v31_slogdet_torch_batched", lambda L, a: L.slogdet(a).logabsdet, sq3b)
    case("v31_slogdet_method", lambda L, a: a.slogdet()[1] + a.logdet(), values(3, 3, offset=63) + 3 * np.eye(3))
    case("v31_logdet", lambda L, a: L.logdet(a @ a.mT), sq3)
    case("v31_det_batched", lambda L, a: L.det(a) * L.linalg.det(a) if hasattr(L, "linalg") else L.det(a) ** 2, sq3b)
    case("v31_inverse_batched", lambda L, a: L.inverse(a) * a.mT, sq3b)
    case("v31_pinv_tall", lambda L, a: la(L).pinv(a), a23.T)
    case("v31_pinv_wide", lambda L, a: la(L).pinv(a), a23)
    case("v31_pinv_square_batched", lambda L, a: la(L).pinv(a), sq3b)
    case("v31_pinv_hermitian", lambda L, a: la(L).pinv(a + a.mT, hermitian=True), sq3)
    case("v31_pinverse", lambda L, a: L.pinverse(a) * 2, values(4, 2, offset=64))
    case("v31_pinverse_method", lambda L, a: a.pinverse(), a23)
    case("v31_eigh_values", lambda L, a: la(L).eigh(a + a.mT).eigenvalues, sq3)
    case("v31_eigh_vectors_squared", lambda L, a: la(L).eigh(a + a.mT)[1] ** 2, sq3)
    case("v31_eigh_both", lambda L, a: _pair(la(L).eigh(a @ a.mT), lambda w, v: (v * w) @ v.mT), sq3)
    case("v31_eigh_upper_batched",
         lambda L, a: _pair(la(L).eigh(a + a.mT, UPLO="U"), lambda w, v: v * v * w.unsqueeze(-2)), sq3b)
    case("v31_eigvalsh", lambda L, a: la(L).eigvalsh(a + a.mT), values(4, 4, offset=65))
    case("v31_svd_values", lambda L, a: la(L).svd(a, full_matrices=False).S, a23)
    case("v31_svd_tall_vectors", lambda L, a: _svd_squares(la(L).svd(a, full_matrices=False)), values(4, 3, offset=66))
    case("v31_svd_wide_vectors", lambda L, a: _svd_squares(la(L).svd(a, full_matrices=False)), a23)
    case("v31_svd_square_batched", lambda L, a: _svd_squares(la(L).svd(a)), sq3b)
    case("v31_svd_full_matrices", lambda L, a: _svd_squares(la(L).svd(a), narrow=True), values(4, 2, offset=67))
    case("v31_svd_only_u", lambda L, a: la(L).svd(a, full_matrices=False).U ** 2, values(4, 3, offset=68))
    case("v31_svd_only_vh", lambda L, a: la(L).svd(a, full_matrices=False)[2] ** 2, a23)
    case("v31_svdvals", lambda L, a: la(L).svdvals(a), values(3, 4, offset=69))
    case("v31_torch_svd", lambda L, a: _pair(L.svd(a)[1:], lambda s, v: v * v * s), values(4, 3, offset=70))
    case("v31_svd_f32", lambda L, a: la(L).svdvals(a) * 2, a23, dtype=C.F32)
    case("v31_eigh_f32", lambda L, a: la(L).eigvalsh(a + a.mT), sq3, dtype=C.F32)

    # ---- torch.nn.functional.pad: constant (negative pads crop), reflect, replicate
    fn = _functional
    case("v31_pad_constant", lambda L, x: fn(L).pad(x, (1, 2)), a234)
    case("v31_pad_constant_two_dims_value", lambda L, x: fn(L).pad(x, (1, 0, 2, 1), value=2.5) * x.sum(), a234)
    case("v31_pad_constant_crop", lambda L, x: fn(L).pad(x, (-1, 1, 0, -1)), a234)
    case("v31_pad_constant_all_dims", lambda L, x: fn(L).pad(x, (1, 1, 1, 1), mode="constant", value=-1.0), a23)
    case("v31_pad_reflect_1d", lambda L, x: fn(L).pad(x, (2, 3), mode="reflect"), a234)
    case("v31_pad_reflect_2d", lambda L, x: fn(L).pad(x, (1, 2, 2, 1), mode="reflect"), values(1, 3, 4, offset=71))
    case("v31_pad_reflect_3d", lambda L, x: fn(L).pad(x, (1, 1, 1, 0, 0, 1), mode="reflect"),
         values(1, 2, 3, 4, offset=72))
    case("v31_pad_reflect_crop", lambda L, x: fn(L).pad(x, (-1, 2), mode="reflect"), a23)
    case("v31_pad_replicate_1d", lambda L, x: fn(L).pad(x, (3, 1), mode="replicate"), a23)
    case("v31_pad_replicate_2d", lambda L, x: fn(L).pad(x, (2, 2, 0, 3), mode="replicate"), a234)
    case("v31_pad_replicate_3d", lambda L, x: fn(L).pad(x, (1, 2, 1, 1, 2, 0), mode="replicate"),
         values(2, 2, 3, 2, offset=73))
    case("v31_pad_f32", lambda L, x: fn(L).pad(x, (1, 1), mode="reflect") * 2, a23, dtype=C.F32)
    # circular: PyTorch's _pad_circular (an empty tensor, slices of the input and of itself copied in: CopySlices)
    case("mm31_pad_circular_1d", lambda L, x: fn(L).pad(x, (1, 2), mode="circular"), a234)
    case("mm31_pad_circular_1d_unbatched", lambda L, x: fn(L).pad(x * 2, (3, 1), mode="circular"), a23)
    case("mm31_pad_circular_2d", lambda L, x: fn(L).pad(x, (1, 2, 2, 0), mode="circular"), values(1, 3, 4, offset=71))
    case("mm31_pad_circular_2d_batched", lambda L, x: fn(L).pad(x, (0, 2, 3, 1), mode="circular"), values(2, 1, 3, 4))
    case("mm31_pad_circular_3d", lambda L, x: fn(L).pad(x, (1, 1, 1, 0, 0, 1), mode="circular"),
         values(1, 2, 2, 3, 4, offset=72))
    case("mm31_pad_circular_crop", lambda L, x: fn(L).pad(x, (-1, 2, 1, -1), mode="circular"), a234)
    case("mm31_pad_circular_whole_size", lambda L, x: fn(L).pad(x, (3, 3), mode="circular"), a23)
    case("mm31_pad_circular_zero", lambda L, x: fn(L).pad(x, (0, 0), mode="circular"), a23)
    case("mm31_pad_circular_f32", lambda L, x: fn(L).pad(x, (2, 1), mode="circular") * 2, a23, dtype=C.F32)

    # ---- convolution and pooling (torch.nn.functional)
    img, k33 = values(1, 2, 5, 6, offset=74, scale=0.5), values(3, 2, 3, 3, offset=75, scale=0.5)
    case("v31_conv2d", lambda L, x, w, b: fn(L).conv2d(x, w, b), img, k33, values(3, offset=76))
    case("v31_conv2d_no_bias_stride_padding", lambda L, x, w: fn(L).conv2d(x, w, stride=2, padding=1), img, k33)
    case("v31_conv2d_dilation_tuple", lambda L, x, w: fn(L).conv2d(x, w, padding=(2, 1), dilation=(2, 1)), img, k33)
    case("v31_conv2d_groups", lambda L, x, w, b: fn(L).conv2d(x, w, b, groups=2, padding="same"), img,
         values(4, 1, 3, 3, offset=77), values(4, offset=78))
    case("v31_conv2d_same_even_kernel", lambda L, x, w: fn(L).conv2d(x, w, padding="same"), img,
         values(3, 2, 2, 4, offset=89))
    case("v31_conv1d_same_even_dilated", lambda L, x, w: fn(L).conv1d(x, w, padding="same", dilation=3),
         values(2, 3, 7, offset=90), values(2, 3, 2, offset=91))
    case("v31_conv2d_unbatched", lambda L, x, w: fn(L).conv2d(x[0], w, padding="valid"), img, k33)
    case("v31_conv2d_batch", lambda L, x, w, b: fn(L).conv2d(x, w, b, padding=1), values(2, 1, 4, 5, offset=85),
         values(2, 1, 2, 2, offset=86), values(2, offset=87))
    case("v31_conv2d_weight_only", lambda L, x, w: fn(L).conv2d(x, w), img, k33, grad=(False, True))
    case("v31_conv1d", lambda L, x, w, b: fn(L).conv1d(x, w, b, stride=2, padding=1), values(2, 3, 7, offset=79),
         values(2, 3, 3, offset=80), values(2, offset=81))
    case("v31_conv1d_groups_dilation", lambda L, x, w: fn(L).conv1d(x, w, groups=3, dilation=2),
         values(2, 3, 7, offset=82), values(6, 1, 2, offset=83))
    case("v31_conv2d_f32", lambda L, x, w: fn(L).conv2d(x, w, padding=1), img, k33, dtype=C.F32)
    pool = values(1, 2, 5, 6, offset=84)
    case("v31_max_pool2d", lambda L, x: fn(L).max_pool2d(x, 2), pool)
    case("v31_max_pool2d_stride_padding", lambda L, x: fn(L).max_pool2d(x, 3, stride=2, padding=1), pool)
    case("v31_max_pool2d_ceil_dilation", lambda L, x: fn(L).max_pool2d(x, (2, 3), dilation=(1, 2), ceil_mode=True),
         pool)
    case("v31_max_pool2d_overlapping_ties", lambda L, x: fn(L).max_pool2d(x, 2, stride=1),
         [[[1.0, 2.0, 2.0], [2.0, 0.5, 2.0], [1.5, 2.0, 1.0]]])
    case("v31_max_pool2d_indices", lambda L, x: fn(L).max_pool2d(x, 2, return_indices=True)[1] * 1.0 + x[..., :2, :3],
         pool)
    case("v31_avg_pool2d", lambda L, x: fn(L).avg_pool2d(x, 2), pool)
    case("v31_pools_batch", lambda L, x: fn(L).avg_pool2d(x, 2, 1) * fn(L).max_pool2d(x, 2, 1),
         values(2, 2, 3, 4, offset=88))
    case("v31_avg_pool2d_padding", lambda L, x: fn(L).avg_pool2d(x, 3, stride=2, padding=1), pool)
    case("v31_avg_pool2d_no_pad_count_ceil", lambda L, x: fn(L).avg_pool2d(x, 2, padding=1, ceil_mode=True,
                                                                            count_include_pad=False), pool)
    case("v31_avg_pool2d_divisor_unbatched", lambda L, x: fn(L).avg_pool2d(x[0], (2, 3), divisor_override=4), pool)
    case("v31_avg_pool2d_ceil", lambda L, x: fn(L).avg_pool2d(x, 2, stride=2, ceil_mode=True), pool)
    case("v31_pool_f32", lambda L, x: fn(L).max_pool2d(x, 2) + fn(L).avg_pool2d(x, 2), pool, dtype=C.F32)
    # conv3d, the transposed convolutions (ConvolutionBackward0) and the 1-D pools (unsqueeze, 2-D pool, squeeze)
    vol, row = values(1, 2, 3, 4, 4, offset=87), values(2, 3, 8, offset=88)
    case("mm31_conv3d", lambda L, x, w, b: fn(L).conv3d(x, w, b, stride=(1, 2, 1), padding=1, dilation=(1, 1, 2)),
         vol, values(3, 2, 2, 2, 2, offset=89), values(3, offset=90))
    case("mm31_conv3d_groups_unbatched", lambda L, x, w: fn(L).conv3d(x[0], w, groups=2), vol,
         values(4, 1, 2, 1, 2, offset=91))
    case("mm31_conv3d_f32", lambda L, x, w: fn(L).conv3d(x, w, padding="same"), vol, values(2, 2, 3, 3, 1, offset=92),
         dtype=C.F32)
    case("mm31_conv_transpose1d", lambda L, x, w, b: fn(L).conv_transpose1d(x, w, b), row, values(3, 4, 3, offset=93),
         values(4, offset=94))
    case("mm31_conv_transpose1d_stride_output_padding",
         lambda L, x, w, b: fn(L).conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1), row,
         values(3, 2, 3, offset=95), values(2, offset=96))
    case("mm31_conv_transpose1d_groups_dilation",
         lambda L, x, w: fn(L).conv_transpose1d(x, w, stride=3, padding=2, output_padding=2, groups=3, dilation=2),
         row, values(3, 2, 3, offset=97))
    case("mm31_conv_transpose1d_unbatched", lambda L, x, w: fn(L).conv_transpose1d(x[1], w), row,
         values(3, 2, 2, offset=98))
    case("mm31_conv_transpose2d", lambda L, x, w, b: fn(L).conv_transpose2d(x, w, b, stride=(2, 1), padding=(1, 0),
                                                                            output_padding=(1, 0)),
         values(1, 3, 4, 5, offset=99), values(3, 2, 3, 2, offset=100), values(2, offset=101))
    case("mm31_conv_transpose2d_groups_weight_only", lambda L, x, w: fn(L).conv_transpose2d(x, w, groups=2,
                                                                                             dilation=(2, 1)),
         values(1, 4, 3, 3, offset=102), values(4, 3, 2, 2, offset=103), grad=(False, True))
    case("mm31_conv_transpose2d_f32", lambda L, x, w: fn(L).conv_transpose2d(x, w, stride=2),
         values(1, 2, 3, 3, offset=104), values(2, 2, 2, 2, offset=105), dtype=C.F32)
    case("mm31_conv_transpose3d", lambda L, x, w, b: fn(L).conv_transpose3d(x, w, b, stride=2),
         values(1, 2, 2, 3, 2, offset=106), values(2, 3, 2, 2, 2, offset=107), values(3, offset=108))
    case("mm31_max_pool1d", lambda L, x: fn(L).max_pool1d(x, 2), row)
    case("mm31_max_pool1d_stride_padding_ceil", lambda L, x: fn(L).max_pool1d(x, 3, stride=2, padding=1,
                                                                               ceil_mode=True), row)
    case("mm31_max_pool1d_dilation_unbatched", lambda L, x: fn(L).max_pool1d(x[0], 2, dilation=2), row)
    case("mm31_max_pool1d_indices", lambda L, x: fn(L).max_pool1d(x, 2, return_indices=True)[1] * 1.0
         + fn(L).max_pool1d(x, 2, return_indices=True)[0], row)
    case("mm31_torch_max_pool1d", lambda L, x: L.max_pool1d(x, 2), row)
    case("mm31_avg_pool1d", lambda L, x: fn(L).avg_pool1d(x, 3), row)
    case("mm31_avg_pool1d_padding_ceil", lambda L, x: fn(L).avg_pool1d(x, 3, stride=2, padding=1, ceil_mode=True,
                                                                        count_include_pad=False), row)
    case("mm31_avg_pool1d_unbatched", lambda L, x: fn(L).avg_pool1d(x[1], 2), row)
    case("mm31_torch_avg_pool1d", lambda L, x: L.avg_pool1d(x, 2), row)
    case("mm31_pool1d_f32", lambda L, x: fn(L).max_pool1d(x, 2) + fn(L).avg_pool1d(x, 2), row, dtype=C.F32)
    del a23, a234


def _pair(pair: Any, combine: Any) -> Any:
    """Both results of an op with two (a tuple in both libraries), combined into one tensor."""
    first, second = pair
    return combine(first, second)


def _linalg(L: Any) -> Any:
    """torch.linalg for torch; for the engine, its functions of those names (as the language's torch.linalg)."""
    if L.__name__ == "torch":
        return L.linalg
    from types import SimpleNamespace

    return SimpleNamespace(norm=L.linalg_norm, vector_norm=L.vector_norm, solve=L.solve, slogdet=L.linalg_slogdet,
                           pinv=L.linalg_pinv, eigh=L.eigh, eigvalsh=L.eigvalsh, svd=L.linalg_svd, svdvals=L.svdvals)


def _svd_squares(usv: Any, narrow: bool = False) -> Any:
    """sum_j U_ij**2 S_j times sum_j S_j Vh_jk**2 (an m x n matrix): sign-free in each singular vector; the first
    min(m, n) vectors when narrowed."""
    u, s, vh = usv
    k = s.shape[-1]
    if narrow:
        u, vh = u[..., :k], vh[..., :k, :]
    return (u * u * s.unsqueeze(-2)).sum(-1, keepdim=True) * (vh * vh * s.unsqueeze(-1)).sum(-2, keepdim=True)


def _functional(L: Any) -> Any:
    """torch.nn.functional for torch; the engine's module, which has the activations itself."""
    return L.nn.functional if L.__name__ == "torch" else L


def _index_twice(L: Any, x: Any) -> Any:
    """The gradient of x[idx] built with create_graph (index_put with accumulate, IndexPutBackward0)."""
    (first,) = L.autograd.grad((x[[0, 2, 2]] ** 3).sum(), x, create_graph=True) if hasattr(L, "autograd") else \
        L.grad((x[[0, 2, 2]] ** 3).sum(), x, create_graph=True)
    return first * x
