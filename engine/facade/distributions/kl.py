"""torch.distributions.kl: kl_divergence(p, q) by the pair of types, and register_kl to add a pair. The pairs
here (each distribution with its own kind) compute PyTorch's closed
forms with the same tensor operations."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ... import facade as torch
from ..nn import functional as F
from .bernoulli import Bernoulli
from .categorical import Categorical
from .exponential import Exponential
from .geometric import Geometric
from .independent import Independent
from .laplace import Laplace
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .uniform import Uniform
from .utils import put, sum_rightmost

REGISTRY: dict[tuple[type, type], Callable[[Any, Any], Any]] = {}


def register_kl(type_p: type, type_q: type) -> Callable:
    """@register_kl(P, Q) on fn(p, q): kl_divergence of a P and a Q (or of their subclasses) calls fn."""
    if not isinstance(type_p, type) or not isinstance(type_q, type):
        raise TypeError(f"Expected type_p and type_q to be subclasses of Distribution but got {type_p} and {type_q}")

    def decorator(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        REGISTRY[type_p, type_q] = fn
        return fn

    return decorator


def _dispatch(type_p: type, type_q: type) -> Callable[[Any, Any], Any] | None:
    """The function registered for the closest pair of (super)types, nearest in p's MRO first."""
    matches = [(type_p.__mro__.index(p), type_q.__mro__.index(q), p, q) for p, q in REGISTRY
               if issubclass(type_p, p) and issubclass(type_q, q)]
    if not matches:
        return None
    _, _, p, q = min(matches, key=lambda m: (m[0] + m[1], m[0]))
    return REGISTRY[p, q]


def kl_divergence(p: Any, q: Any) -> Any:
    """KL(p || q), batched over the distributions' batch_shape."""
    fn = _dispatch(type(p), type(q))
    if fn is None:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type {p.__class__.__name__} and q type "
                                  f"{q.__class__.__name__}")
    return fn(p, q)


@register_kl(Normal, Normal)
def _kl_normal_normal(p: Normal, q: Normal) -> Any:
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p: Categorical, q: Categorical) -> Any:
    t = p.probs * (p.logits - q.logits)
    t = put(t, (q.probs == 0).expand_as(t), math.inf)
    return put(t, (p.probs == 0).expand_as(t), 0.0).sum(-1)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p: Bernoulli, q: Bernoulli) -> Any:
    t1 = p.probs * (F.softplus(-q.logits) - F.softplus(-p.logits))
    t1 = put(put(t1, q.probs == 0, math.inf), p.probs == 0, 0.0)
    t2 = (1 - p.probs) * (F.softplus(q.logits) - F.softplus(p.logits))
    t2 = put(put(t2, q.probs == 1, math.inf), p.probs == 1, 0.0)
    return t1 + t2


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p: Uniform, q: Uniform) -> Any:
    result = ((q.high - q.low) / (p.high - p.low)).log()
    return put(result, (q.low > p.low) | (q.high < p.high), math.inf)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p: Exponential, q: Exponential) -> Any:
    rate_ratio = q.rate / p.rate
    return -rate_ratio.log() + rate_ratio - 1


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p: OneHotCategorical, q: OneHotCategorical) -> Any:
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p: Laplace, q: Laplace) -> Any:
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    return -scale_ratio.log() + loc_abs_diff / q.scale + scale_ratio * torch.exp(-loc_abs_diff / p.scale) - 1


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p: Geometric, q: Geometric) -> Any:
    return -p.entropy() - torch.log1p(-q.probs) / p.probs - q.logits


@register_kl(Independent, Independent)
def _kl_independent_independent(p: Independent, q: Independent) -> Any:
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


__all__ = ["kl_divergence", "register_kl"]
