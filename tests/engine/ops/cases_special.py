"""The op cases of the special and pointwise functions (engine/ops/special.py, engine/ops/pointwise.py): erfinv,
lgamma, digamma, polygamma, i0, i1, logit, xlogy (each overload), entr, ndtr, ndtri, log_ndtr, addcmul, addcdiv,
nan_to_num, sgn, float_power, ldexp and their in-place forms, registered into cases.py's table by
`register(cases)`: each runs through the golden files (make_golden.py, make_forward_golden.py,
make_fwdrev_golden.py) and against PyTorch live (test_ops_live.py)."""

from __future__ import annotations

from typing import Any


def _special(L: Any, name: str) -> Any:
    """torch.special.NAME for torch; the engine's built-in special_NAME (i1 is the engine's own name)."""
    if L.__name__ == "torch":
        return getattr(L.special, name)
    return getattr(L, name if name == "i1" else f"special_{name}")


def register(C: Any) -> None:
    """Add the cases to C.CASES (C is the cases module: its `case`, `values`, `positive`, F32)."""
    case, values, positive = C.case, C.values, C.positive
    a23, p23 = values(2, 3, offset=40), positive(2, 3, offset=41)
    unit = [[-0.9375, -0.25, 0.03125], [0.5, 0.71875, 0.96875]]  # inside (-1, 1), both sides of erfinv's 0.7
    gamma = [[-2.5625, -0.4375, 0.15625], [1.25, 2.75, 11.5]]  # negatives, near 0, and past digamma's 10

    case("special_erfinv", lambda L, x: L.erfinv(x), unit)
    case("special_erfinv_method_f32", lambda L, x: x.erfinv() * x, unit, dtype=C.F32)
    case("special_erfinv_inplace", lambda L, x: (x + 0).erfinv_(), unit)
    case("special_lgamma", lambda L, x: L.lgamma(x), gamma)
    case("special_lgamma_inplace_f32", lambda L, x: (x + 0).lgamma_(), gamma, dtype=C.F32)
    case("special_digamma", lambda L, x: x.digamma(), gamma)
    case("special_digamma_inplace", lambda L, x: (x + 0).digamma_(), gamma)
    case("special_polygamma_2", lambda L, x: L.polygamma(2, x), gamma)
    case("special_polygamma_1_method", lambda L, x: x.polygamma(1), gamma)
    case("special_i0", lambda L, x: L.i0(x), [[-9.5, -0.75, 0.0], [0.5, 3.25, 8.5]])
    case("special_i0_inplace", lambda L, x: (x + 0.5).i0_(), a23)
    case("special_i1", lambda L, x: _special(L, "i1")(x), [[-9.5, -0.75, 0.125], [0.5, 3.25, 8.5]])
    case("special_logit", lambda L, x: L.logit(x), [[-0.25, 0.0, 0.125], [0.5, 0.875, 1.25]])
    case("special_logit_eps", lambda L, x: x.logit(eps=0.2), [[0.0, 0.125, 0.25], [0.5, 0.8125, 1.0]])
    case("special_logit_inplace", lambda L, x: (x + 0).logit_(0.125), [[0.0625, 0.25, 0.5], [0.75, 0.875, 0.9375]])
    case("special_xlogy", lambda L, x, y: L.xlogy(x, y),
         [[0.0, 0.0, 1.5], [-2.0, 0.0, 3.0]], [[0.0, 2.0, 0.5], [1.25, -1.0, 0.75]])
    case("special_xlogy_broadcast_method", lambda L, x, y: x.xlogy(y), a23, positive(3, offset=42))
    case("special_xlogy_number_self", lambda L, y: L.xlogy(2.5, y) + L.xlogy(0, y), [0.0, 2.0, 0.5, 1.25])
    case("special_xlogy_number_other", lambda L, x: L.xlogy(x, 2.0) + L.xlogy(x, 0.0) + x.xlogy(-1.0),
         [0.0, 2.0, 0.5, -1.25])
    case("special_xlogy_inplace", lambda L, x, y: (x + 0).xlogy_(y), a23, p23)
    case("special_entr", lambda L, x: _special(L, "entr")(x), [[0.0, 0.125, 0.5], [1.0, 2.5, -0.5]])
    case("special_ndtr", lambda L, x: _special(L, "ndtr")(x), a23)
    case("special_ndtri", lambda L, x: _special(L, "ndtri")(x), [[0.03125, 0.25, 0.5], [0.6875, 0.9375, 0.99]])
    case("special_erfcx", lambda L, x: _special(L, "erfcx")(x), [[-3.5, -0.5, 0.0], [0.75, 4.0, 27.5]])
    case("special_log_ndtr", lambda L, x: _special(L, "log_ndtr")(x), [[-12.5, -3.0, -1.0], [-0.5, 0.75, 4.0]])

    case("pointwise_addcmul", lambda L, x, y, z: L.addcmul(x, y, z, value=0.5), a23, values(3, offset=43),
         values(2, 1, offset=44))
    case("pointwise_addcmul_method", lambda L, x, y, z: x.addcmul(y, z), a23, p23, values(2, 3, offset=45))
    case("pointwise_addcmul_inplace", lambda L, x, y, z: (x + 0).addcmul_(y, z, value=-2), a23, p23,
         values(2, 3, offset=45))
    case("pointwise_addcdiv", lambda L, x, y, z: L.addcdiv(x, y, z, value=-1.5), a23, values(3, offset=46),
         positive(2, 1, offset=47))
    case("pointwise_addcdiv_inplace_f32", lambda L, x, y, z: (x + 0).addcdiv_(y, z, value=0.25), a23, p23,
         positive(2, 3, offset=48), dtype=C.F32)
    case("pointwise_nan_to_num", lambda L, x: L.nan_to_num(L.log(x)), [[-1.0, 0.0, 0.5], [2.0, 0.0, 3.0]])
    case("pointwise_nan_to_num_numbers", lambda L, x: L.log(x).nan_to_num(nan=1.5, posinf=2.0, neginf=-3.0),
         [[-1.0, 0.0, 0.5], [2.0, 0.0, 3.0]])
    case("pointwise_nan_to_num_inplace", lambda L, x: L.log(x).nan_to_num_(0.5), [[-1.0, 0.0, 0.5], [2.0, 0.0, 3.0]])
    case("pointwise_sgn", lambda L, x: L.sgn(x) * x, [[-1.5, 0.0, 0.5], [2.0, -0.25, 3.0]])
    case("pointwise_sgn_inplace", lambda L, x: (x + 0).sgn_() * 2, [[-1.5, 0.0, 0.5], [2.0, -0.25, 3.0]])
    case("pointwise_float_power", lambda L, x: L.float_power(x, 2), a23, dtype=C.F32)
    case("pointwise_float_power_tensor", lambda L, x, y: x.float_power(y), p23, values(2, 3, offset=49))
    case("pointwise_float_power_inplace", lambda L, x: (x + 0).float_power_(3), a23)
    case("pointwise_ldexp", lambda L, x, y: L.ldexp(x, y), a23, values(3, offset=50))
    case("pointwise_ldexp_inplace", lambda L, x, y: (x + 0).ldexp_(y), a23, values(2, 3, offset=51))

    # ---- the in-place forms of functions the engine had (one each: a second would write what the first saved)
    for name in ("sinc_", "deg2rad_", "rad2deg_", "arcsin_", "negative_", "absolute_"):
        case(f"inplace_{name}", lambda L, x, name=name: getattr(x - 0.25, name)(), a23)
    for name in ("atan2_", "hypot_", "copysign_", "remainder_", "fmod_", "arctan2_", "multiply_", "divide_",
                 "true_divide_"):
        case(f"inplace_{name}", lambda L, x, y, name=name: getattr(x + 0, name)(y), a23, values(2, 3, offset=52))
    case("inplace_fmod_number", lambda L, x: (x + 0).fmod_(0.75), a23)
    case("inplace_clamp_min", lambda L, x: (x + 0).clamp_min_(-0.5), a23)
    case("inplace_clamp_max", lambda L, x: (x + 0).clamp_max_(0.5), a23)
    case("inplace_subtract", lambda L, x, y: (x + 0).subtract_(y, alpha=2), a23, p23)
    case("inplace_cumsum", lambda L, x: (x + 0).cumsum_(1), a23)
    case("inplace_cumprod", lambda L, x: (x + 0).cumprod_(0), a23)
    case("inplace_lerp", lambda L, x, y: (x + 0).lerp_(y, 0.25), a23, p23)
