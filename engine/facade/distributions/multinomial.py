"""torch.distributions.Multinomial(total_count, probs= or logits=): counts of total_count draws of a Categorical,
sampled as PyTorch's (the categorical's sample of (total_count, *sample_shape), counted by scatter_add_)."""

from __future__ import annotations

import math
from typing import Any, ClassVar

from ... import facade as torch
from . import constraints
from .categorical import Categorical
from .distribution import Distribution, brief
from .utils import broadcast_all, log_gamma


class Multinomial(Distribution):
    """How many of total_count independent draws fall in each of the K categories."""

    arg_constraints: ClassVar[dict] = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, total_count: int = 1, probs: Any = None, logits: Any = None,
                 validate_args: bool | None = None) -> None:
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        if total_count < 0:
            _refuse_count(total_count, self._categorical.probs)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Multinomial:
        new = type(self).__new__(type(self))
        new.total_count = self.total_count
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self) -> Any:
        return constraints.multinomial(self.total_count)

    @property
    def logits(self) -> Any:
        return self._categorical.logits

    @property
    def probs(self) -> Any:
        return self._categorical.probs

    @property
    def param_shape(self) -> Any:
        return self._categorical.param_shape

    @property
    def mean(self) -> Any:
        return self.probs * self.total_count

    @property
    def variance(self) -> Any:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Any:
        sample_shape = torch.Size(sample_shape)
        samples = self._categorical.sample(torch.Size((self.total_count, *sample_shape)))
        order = [*range(1, samples.dim()), 0]  # the draws' dim last
        samples = samples.permute(*order)
        counts = torch.zeros(self._extended_shape(sample_shape), dtype=samples.dtype)
        counts.scatter_add_(-1, samples, torch.ones_like(samples))
        return counts.type_as(self.probs)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone(memory_format=torch.contiguous_format)
        log_factorial_n = log_gamma(value.sum(-1) + 1)
        log_factorial_xs = log_gamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers


def _refuse_count(total_count: int, probs: Any) -> None:
    """PyTorch's ValueError for a negative total_count (raised by the Binomial it makes beside the Categorical)."""
    counts = torch.full(tuple(probs.shape), float(total_count), dtype=probs.dtype)
    shown = ", ".join(f"{name}: {brief(value)}" for name, value in (("total_count", counts), ("probs", probs)))
    raise ValueError(f"Expected parameter total_count (Tensor of shape {tuple(probs.shape)}) of distribution "
                     f"Binomial({shown}) to satisfy the constraint IntegerGreaterThan(lower_bound=0), but found "
                     f"invalid values:\n{counts}")


__all__ = ["Multinomial"]
