"""torch.distributions.Exponential(rate): rsample exponential_() / rate, as PyTorch's."""

from __future__ import annotations

from typing import Any, ClassVar

from ... import facade as torch
from . import constraints
from .distribution import ExponentialFamily
from .utils import batch_shape_of, broadcast_all


class Exponential(ExponentialFamily):
    """The exponential distribution of rate `rate` (mean 1 / rate)."""

    arg_constraints: ClassVar[dict] = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate: Any, validate_args: bool | None = None) -> None:
        (self.rate,) = broadcast_all(rate)
        super().__init__(batch_shape_of((rate,), self.rate), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Exponential:
        return self._expanded(batch_shape, ("rate",))

    @property
    def mean(self) -> Any:
        return self.rate.reciprocal()

    @property
    def mode(self) -> Any:
        return torch.zeros_like(self.rate)

    @property
    def stddev(self) -> Any:
        return self.rate.reciprocal()

    @property
    def variance(self) -> Any:
        return self.rate.pow(-2)

    def rsample(self, sample_shape: Any = ()) -> Any:
        draws = torch.empty(self._extended_shape(sample_shape), dtype=self.rate.dtype).exponential_()
        return draws / self.rate

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        return 1 - torch.exp(-self.rate * value)

    def icdf(self, value: Any) -> Any:
        return -torch.log1p(-value) / self.rate

    def entropy(self) -> Any:
        return 1.0 - torch.log(self.rate)


__all__ = ["Exponential"]
