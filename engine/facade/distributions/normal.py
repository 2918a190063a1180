"""torch.distributions.Normal(loc, scale): sampled with torch.normal (sample) or loc + eps * scale (rsample), its
log_prob, cdf, icdf and entropy the same tensor operations as PyTorch's (so the same values and grad_fn nodes)."""

from __future__ import annotations

import math
from typing import Any, ClassVar

from ... import facade as torch
from . import constraints
from .distribution import ExponentialFamily
from .utils import batch_shape_of, broadcast_all, standard_normal


class Normal(ExponentialFamily):
    """The normal (Gaussian) distribution of mean loc and standard deviation scale."""

    arg_constraints: ClassVar[dict] = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(batch_shape_of((loc, scale), self.loc), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Normal:
        return self._expanded(batch_shape, ("loc", "scale"))

    @property
    def mean(self) -> Any:
        return self.loc

    @property
    def mode(self) -> Any:
        return self.loc

    @property
    def stddev(self) -> Any:
        return self.scale

    @property
    def variance(self) -> Any:
        return self.stddev.pow(2)

    def sample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape: Any = ()) -> Any:
        eps = standard_normal(self._extended_shape(sample_shape), self.loc.dtype)
        return self.loc + eps * self.scale

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        variance = self.scale**2
        return -((value - self.loc) ** 2) / (2 * variance) - self.scale.log() - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + torch.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value: Any) -> Any:
        """The quantile function: loc + scale * erfinv(2 * value - 1) * sqrt(2), as PyTorch's."""
        return self.loc + self.scale * torch.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self) -> Any:
        return 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(self.scale)


__all__ = ["Normal"]
