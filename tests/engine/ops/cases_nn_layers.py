"""The op cases of the nn-layers work (adaptive pooling, shrinks, threshold, glu, prelu, norms, distances, the
losses of torch.nn.functional, interpolation, attention), registered into cases.py's table by `register(cases)`:
each runs through the golden file (make_golden.py, test_ops_golden.py) and against PyTorch live
(test_ops_live.py)."""

from __future__ import annotations

from typing import Any


def _F(L: Any) -> Any:
    """torch.nn.functional for torch; the engine's module, which has these functions itself."""
    return L.nn.functional if L.__name__ == "torch" else L


def register(C: Any) -> None:
    """Add the cases to C.CASES (C is the cases module: its `case`, `values`, `positive`, F32)."""
    case, values = C.case, C.values
    img = values(1, 2, 5, 7, offset=90)
    for size in ((3, 4), (2, 5), (1, 1), (None, 3), (5, 7)):
        tag = "x".join("n" if s is None else str(s) for s in size)
        case(f"nnl_adaptive_avg_pool2d_{tag}", (lambda o: lambda L, x: _F(L).adaptive_avg_pool2d(x, o))(size), img)
        case(f"nnl_adaptive_max_pool2d_{tag}", (lambda o: lambda L, x: _F(L).adaptive_max_pool2d(x, o))(size), img)
    case("nnl_adaptive_avg_pool2d_unbatched", lambda L, x: _F(L).adaptive_avg_pool2d(x[0], 3), img)
    case("nnl_adaptive_max_pool2d_indices", lambda L, x: _F(L).adaptive_max_pool2d(x[0], (2, 3), True)[0], img)
    case("nnl_adaptive_avg_pool2d_f32", lambda L, x: _F(L).adaptive_avg_pool2d(x, (3, 2)), img, dtype=C.F32)
    row = values(2, 3, 7, offset=91)
    case("nnl_adaptive_avg_pool1d", lambda L, x: _F(L).adaptive_avg_pool1d(x, 3), row)
    case("nnl_adaptive_avg_pool1d_one", lambda L, x: _F(L).adaptive_avg_pool1d(x[0], 1), row)
    case("nnl_adaptive_max_pool1d", lambda L, x: _F(L).adaptive_max_pool1d(x, 4), row)
    case("nnl_adaptive_max_pool1d_indices", lambda L, x: _F(L).adaptive_max_pool1d(x[1], 5, True)[0], row)
    register_activations(C)
    register_losses(C)
    register_interpolation(C)
    register_attention(C)


def register_activations(C: Any) -> None:
    """threshold, the shrinks, glu, prelu, pixel_shuffle / unshuffle, rms_norm and instance_norm."""
    case, values = C.case, C.values
    x = values(2, 3, 4, offset=92)
    case("nnl_threshold", lambda L, t: _F(L).threshold(t, 0.25, -2.0), x)
    case("nnl_hardshrink", lambda L, t: _F(L).hardshrink(t, 0.6), x)
    case("nnl_hardshrink_method", lambda L, t: t.hardshrink(), x)
    case("nnl_softshrink", lambda L, t: _F(L).softshrink(t, 0.3), x)
    case("nnl_softshrink_f32", lambda L, t: _F(L).softshrink(t), x, dtype=C.F32)
    case("nnl_tanhshrink", lambda L, t: _F(L).tanhshrink(t), x)
    case("nnl_glu", lambda L, t: _F(L).glu(t), x)
    case("nnl_glu_dim0", lambda L, t: _F(L).glu(t[:, :2], 0), x)
    case("nnl_prelu_one", lambda L, t, w: _F(L).prelu(t, w), x, values(1, offset=93))
    case("nnl_prelu_channels", lambda L, t, w: _F(L).prelu(t, w), x, values(3, offset=94))
    case("nnl_prelu_method_vector", lambda L, t, w: t[0, 0].prelu(w), x, values(1, offset=95))
    case("nnl_pixel_shuffle", lambda L, t: _F(L).pixel_shuffle(t.reshape(1, 4, 3, 2), 2), x)
    case("nnl_pixel_unshuffle", lambda L, t: _F(L).pixel_unshuffle(t.reshape(2, 1, 4, 3)[..., :2], 2), x)
    case("nnl_rms_norm", lambda L, t: _F(L).rms_norm(t, (4,)), x)
    case("nnl_rms_norm_weight", lambda L, t, w: _F(L).rms_norm(t, (3, 4), w, 1e-3), x, values(3, 4, offset=96))
    case("nnl_instance_norm", lambda L, t: _F(L).instance_norm(t), x)
    case("nnl_instance_norm_affine", lambda L, t, w, b: _F(L).instance_norm(t, weight=w, bias=b, eps=1e-3), x,
         values(3, offset=97), values(3, offset=98))


def register_losses(C: Any) -> None:
    """The distances and the losses made of them, kl_div, gaussian_nll_loss, poisson_nll_loss, soft_margin_loss."""
    case, values = C.case, C.values
    a, b, c = values(3, 4, offset=100), values(3, 4, offset=101), values(3, 4, offset=102)
    y = C.array([1.0, -1.0, 1.0])
    case("nnl_cosine_similarity", lambda L, s, t: _F(L).cosine_similarity(s, t), a, b)
    case("nnl_cosine_similarity_broadcast_dim0", lambda L, s, t: _F(L).cosine_similarity(s, t[:1], 0), a, b)
    case("nnl_pairwise_distance", lambda L, s, t: _F(L).pairwise_distance(s, t), a, b)
    case("nnl_pairwise_distance_p3_keepdim", lambda L, s, t: _F(L).pairwise_distance(s, t, 3, keepdim=True), a, b)
    case("nnl_triplet_margin_loss", lambda L, s, t, u: _F(L).triplet_margin_loss(s, t, u), a, b, c)
    case("nnl_triplet_margin_loss_swap_sum", lambda L, s, t, u: _F(L).triplet_margin_loss(
         s, t, u, margin=2.0, p=1, swap=True, reduction="sum"), a, b, c)
    case("nnl_margin_ranking_loss", lambda L, s, t, u: _F(L).margin_ranking_loss(s[:, 0], t[:, 0], u, 0.25), a, b, y,
         grad=(True, True, False))
    case("nnl_cosine_embedding_loss", lambda L, s, t, u: _F(L).cosine_embedding_loss(s, t, u, 0.1), a, b, y,
         grad=(True, True, False))
    case("nnl_cosine_embedding_loss_none", lambda L, s, t, u: _F(L).cosine_embedding_loss(
         s, t, u, reduction="none"), a, b, C.array([-1.0, -1.0, 1.0]), grad=(True, True, False))
    p = C.positive(3, 4, offset=103)
    case("nnl_kl_div_batchmean", lambda L, s, t: _F(L).kl_div(s.log_softmax(1), t, reduction="batchmean"), a, p,
         grad=(True, False))
    case("nnl_kl_div_none", lambda L, s, t: _F(L).kl_div(s, t, reduction="none"), a, p, grad=(True, False))
    case("nnl_kl_div_log_target", lambda L, s, t: _F(L).kl_div(s, t, reduction="sum", log_target=True), a, b)
    case("nnl_gaussian_nll_loss", lambda L, s, t, v: _F(L).gaussian_nll_loss(s, t, v), a, b, p)
    case("nnl_gaussian_nll_loss_full_sum", lambda L, s, t, v: _F(L).gaussian_nll_loss(
         s, t, v[:, 0], full=True, reduction="sum"), a, b, p)
    case("nnl_poisson_nll_loss", lambda L, s, t: _F(L).poisson_nll_loss(s, t), a, p, grad=(True, False))
    case("nnl_poisson_nll_loss_full", lambda L, s, t: _F(L).poisson_nll_loss(
         s, t * 2, log_input=False, full=True, reduction="none"), p, p, grad=(True, False))
    for reduction in ("mean", "sum", "none"):  # the target made inside: the engine does not save it (more_losses.py)
        case(f"nnl_soft_margin_loss_{reduction}", (lambda r: lambda L, s: _F(L).soft_margin_loss(
             s, L.tensor([[1.0, -1.0, 1.0, 1.0]] * 3, dtype=s.dtype), reduction=r))(reduction), a)


def register_interpolation(C: Any) -> None:
    """interpolate's modes (each its node) and upsample."""
    case, values = C.case, C.values
    img, row = values(1, 2, 3, 4, offset=104), values(2, 2, 5, offset=105)
    case("nnl_interpolate_nearest", lambda L, t: _F(L).interpolate(t, scale_factor=2), img)
    case("nnl_interpolate_nearest_size", lambda L, t: _F(L).interpolate(t, size=(5, 3)), img)
    case("nnl_interpolate_nearest_1d", lambda L, t: _F(L).interpolate(t, scale_factor=1.7), row)
    case("nnl_interpolate_nearest_exact", lambda L, t: _F(L).interpolate(t, size=(4, 7), mode="nearest-exact"), img)
    case("nnl_interpolate_nearest_exact_1d", lambda L, t: _F(L).interpolate(t, size=3, mode="nearest-exact"), row)
    case("nnl_interpolate_linear", lambda L, t: _F(L).interpolate(t, size=8, mode="linear"), row)
    case("nnl_interpolate_linear_align", lambda L, t: _F(L).interpolate(t, scale_factor=1.5, mode="linear",
                                                                        align_corners=True), row)
    case("nnl_interpolate_bilinear", lambda L, t: _F(L).interpolate(t, size=(5, 7), mode="bilinear"), img)
    case("nnl_interpolate_bilinear_align", lambda L, t: _F(L).interpolate(t, size=(2, 6), mode="bilinear",
                                                                          align_corners=True), img)
    case("nnl_interpolate_bilinear_f32", lambda L, t: _F(L).interpolate(t, scale_factor=(1.3, 0.7),
                                                                        mode="bilinear"), img, dtype=C.F32)
    case("nnl_interpolate_area", lambda L, t: _F(L).interpolate(t, size=(2, 3), mode="area"), img)
    case("nnl_upsample", lambda L, t: _F(L).upsample(t, scale_factor=2, mode="bilinear"), img)


def register_attention(C: Any) -> None:
    """scaled_dot_product_attention's math path."""
    case, values = C.case, C.values
    q, k, v = values(1, 2, 3, 4, offset=106), values(1, 2, 5, 4, offset=107), values(1, 2, 5, 3, offset=108)
    case("nnl_sdpa", lambda L, a, b, c: _F(L).scaled_dot_product_attention(a, b, c), q, k, v)
    case("nnl_sdpa_causal", lambda L, a, b, c: _F(L).scaled_dot_product_attention(a, b, c, is_causal=True), q, k, v)
    case("nnl_sdpa_float_mask_scale", lambda L, a, b, c, m: _F(L).scaled_dot_product_attention(
         a, b, c, attn_mask=m, scale=0.4), q, k, v, values(3, 5, offset=109))
    case("nnl_sdpa_masked_row", lambda L, a, b, c: _F(L).scaled_dot_product_attention(
         a[0, 0], b[0, 0], c[0, 0], attn_mask=L.tensor([[True] * 5, [False] * 5, [False, True] * 2 + [False]])),
         q, k, v)
    case("nnl_sdpa_f32", lambda L, a, b, c: _F(L).scaled_dot_product_attention(a, b, c), q, k, v, dtype=C.F32)
    w = values(1, 2, 5, 4, offset=110)  # one head size: PyTorch's CPU flash kernel
    case("nnl_sdpa_flash", lambda L, a, b, c: _F(L).scaled_dot_product_attention(a, b, c), q, k, w)
    case("nnl_sdpa_flash_causal_scale", lambda L, a, b, c: _F(L).scaled_dot_product_attention(
         a, b, c, is_causal=True, scale=0.6), q, k, w)
    case("nnl_sdpa_flash_f32", lambda L, a, b, c: _F(L).scaled_dot_product_attention(a, b, c), q, k, w, dtype=C.F32)
    case("nnl_baddbmm", lambda L, x, a, b: L.baddbmm(x, a, b, beta=0.5, alpha=2.0), values(3, 4, offset=111),
         values(2, 3, 5, offset=112), values(2, 5, 4, offset=113))
