"""torch.distributions.Laplace(loc, scale): rsample loc - scale * sign(u) * log1p(-|u|) with u uniform in
(eps - 1, 1), as PyTorch's."""

from __future__ import annotations

from typing import Any, ClassVar

from ... import facade as torch
from . import constraints
from .distribution import Distribution
from .utils import batch_shape_of, broadcast_all


class Laplace(Distribution):
    """The Laplace (double exponential) distribution of location loc and scale scale."""

    arg_constraints: ClassVar[dict] = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(batch_shape_of((loc, scale), self.loc), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Laplace:
        return self._expanded(batch_shape, ("loc", "scale"))

    @property
    def mean(self) -> Any:
        return self.loc

    @property
    def mode(self) -> Any:
        return self.loc

    @property
    def variance(self) -> Any:
        return 2 * self.scale.pow(2)

    @property
    def stddev(self) -> Any:
        return 2**0.5 * self.scale

    def rsample(self, sample_shape: Any = ()) -> Any:
        eps = torch.finfo(self.loc.dtype).eps
        u = torch.empty(self._extended_shape(sample_shape), dtype=self.loc.dtype).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * torch.log1p(-u.abs())

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        return -torch.log(2 * self.scale) - torch.abs(value - self.loc) / self.scale

    def cdf(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * torch.expm1(-(value - self.loc).abs() / self.scale)

    def icdf(self, value: Any) -> Any:
        term = value - 0.5
        return self.loc - self.scale * term.sign() * torch.log1p(-2 * term.abs())

    def entropy(self) -> Any:
        return 1 + torch.log(2 * self.scale)


__all__ = ["Laplace"]
