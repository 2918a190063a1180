"""torch.special: the special functions of the engine under PyTorch's names (expit is sigmoid, gammaln lgamma, psi
digamma, ndtr the normal distribution function, ...)."""

from __future__ import annotations

import math
from typing import Any

from autodiff.engine import BUILTINS, Tensor

_fn = {name: BUILTINS[name].fn for name in (
    "erf", "erfc", "erfinv", "logit", "xlogy", "digamma", "polygamma", "i0", "i1", "log1p", "expm1", "exp2", "sinc",
    "round", "softmax", "log_softmax", "logsumexp", "sigmoid", "lgamma", "special_entr", "special_ndtr",
    "special_ndtri", "special_log_ndtr", "special_erfcx")}

erf, erfc, erfinv, logit, xlogy = _fn["erf"], _fn["erfc"], _fn["erfinv"], _fn["logit"], _fn["xlogy"]
digamma = psi = _fn["digamma"]
polygamma, i0, i1, log1p, expm1, exp2 = _fn["polygamma"], _fn["i0"], _fn["i1"], _fn["log1p"], _fn["expm1"], _fn["exp2"]
sinc, logsumexp = _fn["sinc"], _fn["logsumexp"]
expit, gammaln = _fn["sigmoid"], _fn["lgamma"]
entr, ndtr, ndtri, log_ndtr = _fn["special_entr"], _fn["special_ndtr"], _fn["special_ndtri"], _fn["special_log_ndtr"]
erfcx = _fn["special_erfcx"]


def round(input: Any, *, decimals: int = 0) -> Tensor:
    """Rounded to decimals places, half to even (torch.round)."""
    return _fn["round"](input, decimals=decimals)


def softmax(input: Any, dim: int, *, dtype: Any = None) -> Tensor:
    """exp(input) / sum(exp(input)) along dim (torch.softmax)."""
    return _fn["softmax"](input, dim, dtype=dtype)


def log_softmax(input: Any, dim: int, *, dtype: Any = None) -> Tensor:
    """input - logsumexp(input) along dim (torch.log_softmax)."""
    return _fn["log_softmax"](input, dim, dtype=dtype)


def multigammaln(input: Any, p: int) -> Tensor:
    """The multivariate log-gamma of dimension p: sum over j < p of lgamma(input - j / 2), plus p (p - 1) / 4 log(pi)
    (recorded as those operations, not as PyTorch's MvlgammaBackward0)."""
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = input if isinstance(input, Tensor) else BUILTINS["tensor"].fn(input)
    total = gammaln(x)
    for j in range(1, p):
        total = total + gammaln(x - j / 2)
    return total + p * (p - 1) / 4 * math.log(math.pi)


__all__ = ["digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammaln", "i0", "i1",
           "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp", "multigammaln", "ndtr", "ndtri", "polygamma",
           "psi", "round", "sinc", "softmax", "xlogy"]
