"""torch.distributions.Geometric(probs= or logits=): the number of failures before the first success, sampled
as PyTorch's (floor(log(u) / log1p(-probs)) with u uniform in [tiny, 1))."""

from __future__ import annotations

from typing import Any, ClassVar

from ... import facade as torch
from ..nn import functional as F
from . import constraints
from .bernoulli import one_of
from .distribution import Distribution
from .utils import batch_shape_of, broadcast_all, lazy_property, logits_to_probs, probs_to_logits, put


class Geometric(Distribution):
    """P(k) = (1 - p)**k * p for k = 0, 1, 2, ... (p = probs, or sigmoid(logits))."""

    arg_constraints: ClassVar[dict] = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: bool | None = None) -> None:
        one_of(probs, logits)
        given = probs if probs is not None else logits
        (param,) = broadcast_all(given)
        if probs is not None:
            self.probs = param
        else:
            self.logits = param
        super().__init__(batch_shape_of((given,), param), validate_args=validate_args)
        if self._validate_args and probs is not None:
            valid = self.probs > 0
            if not bool(valid.all()):
                raise ValueError(f"Expected parameter probs ({type(self.probs).__name__} of shape "
                                 f"{tuple(self.probs.shape)}) of distribution {self!r} to be positive but found "
                                 f"invalid values:\n{self.probs.detach()[~valid]}")

    def expand(self, batch_shape: Any, _instance: Any = None) -> Geometric:
        return self._expanded(batch_shape, ("probs", "logits"))

    @lazy_property
    def logits(self) -> Any:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Any:
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def mean(self) -> Any:
        return 1.0 / self.probs - 1.0

    @property
    def mode(self) -> Any:
        return torch.zeros_like(self.probs)

    @property
    def variance(self) -> Any:
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        tiny = torch.finfo(self.probs.dtype).tiny
        with torch.no_grad():
            u = torch.empty(shape, dtype=self.probs.dtype).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone(memory_format=torch.contiguous_format)
        probs = put(probs, (probs == 1) & (value == 0), 0.0)
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self) -> Any:
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs


__all__ = ["Geometric"]
