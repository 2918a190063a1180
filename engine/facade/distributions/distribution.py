"""torch.distributions.Distribution: the base of the distributions (shapes, sampling, checks of parameters and
values with PyTorch's ValueError messages, repr)."""

from __future__ import annotations

import warnings
from typing import Any

from ... import facade as torch
from . import constraints
from .utils import lazy_property


class Distribution:
    """A batch of probability distributions: batch_shape of independent ones, each over event_shape values."""

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Check parameters and values (the default, as Python's assert) or not, for distributions made after."""
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape: Any = (), event_shape: Any = (), validate_args: bool | None = None) -> None:
        self._batch_shape = torch.Size(batch_shape)
        self._event_shape = torch.Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            self._check_parameters()

    def _check_parameters(self) -> None:
        """ValueError, as PyTorch's, for the first parameter outside its constraint."""
        try:
            arg_constraints = self.arg_constraints
        except NotImplementedError:
            arg_constraints = {}
            warnings.warn(f"{self.__class__} does not define `arg_constraints`. Please set `arg_constraints = {{}}` "
                          "or initialize the distribution with `validate_args=False` to turn off validation.",
                          stacklevel=3)
        for param, constraint in arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue
            if param not in self.__dict__ and isinstance(getattr(type(self), param, None), lazy_property):
                continue  # made on first use from the parameter given
            value = getattr(self, param)
            if not bool(constraint.check(value).all()):
                raise ValueError(f"Expected parameter {param} ({type(value).__name__} of shape "
                                 f"{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint "
                                 f"{constraint!r}, but found invalid values:\n{value}")

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        raise NotImplementedError

    def _expanded(self, batch_shape: Any, names: tuple, param_shape: Any = None) -> Distribution:
        """A new distribution of this type over batch_shape, its parameters `names` (those it has) expanded."""
        new = type(self).__new__(type(self))
        batch_shape = torch.Size(batch_shape)
        shape = batch_shape if param_shape is None else torch.Size(param_shape)
        for name in names:
            if name in self.__dict__:
                new.__dict__[name] = self.__dict__[name].expand(shape)
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def batch_shape(self) -> Any:
        """The shape over which the parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self) -> Any:
        """The shape of one sample (without batching)."""
        return self._event_shape

    @property
    def arg_constraints(self) -> dict:
        raise NotImplementedError

    @property
    def support(self) -> Any:
        raise NotImplementedError

    @property
    def mean(self) -> Any:
        raise NotImplementedError

    @property
    def mode(self) -> Any:
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Any:
        raise NotImplementedError

    @property
    def stddev(self) -> Any:
        return self.variance.sqrt()

    def sample(self, sample_shape: Any = ()) -> Any:
        """A sample of shape sample_shape + batch_shape + event_shape, without history."""
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Any:
        """A sample through which gradients flow to the parameters (reparametrized)."""
        raise NotImplementedError

    def sample_n(self, n: int) -> Any:
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.", FutureWarning, stacklevel=2)
        return self.sample(torch.Size((n,)))

    def log_prob(self, value: Any) -> Any:
        raise NotImplementedError

    def cdf(self, value: Any) -> Any:
        raise NotImplementedError

    def icdf(self, value: Any) -> Any:
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Any:
        raise NotImplementedError

    def entropy(self) -> Any:
        raise NotImplementedError

    def perplexity(self) -> Any:
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape: Any = ()) -> Any:
        """sample_shape + batch_shape + event_shape."""
        return torch.Size(tuple(torch.Size(sample_shape)) + tuple(self._batch_shape) + tuple(self._event_shape))

    def _validate_sample(self, value: Any) -> None:
        """ValueError, as PyTorch's, for a value of the wrong shape or outside the support."""
        if not isinstance(value, torch.Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        actual = tuple(value.shape)
        event = tuple(self._event_shape)
        if actual[len(actual) - len(event):] != event:
            raise ValueError(f"The right-most size of value must match event_shape: {torch.Size(actual)} vs "
                             f"{self._event_shape}.")
        expected = tuple(self._batch_shape) + event
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: {torch.Size(actual)} "
                                 f"vs {torch.Size(expected)}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(f"{self.__class__} does not define `support` to enable sample validation. Please "
                          "initialize the distribution with `validate_args=False` to turn off validation.",
                          stacklevel=3)
            return
        if not bool(support.check(value).all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape {actual}) to be within the "
                             f"support ({support!r}) of the distribution {self!r}, but found invalid values:\n{value}")

    def __repr__(self) -> str:
        shown = [name for name in self.arg_constraints if name in self.__dict__]
        args = ", ".join(f"{name}: {brief(self.__dict__[name])}" for name in shown)
        return f"{type(self).__name__}({args})"


def brief(value: Any) -> str:
    """A parameter in a repr: its value when it has one element, else its size."""
    return f"{value}" if value.numel() == 1 else f"{value.size()}"


class ExponentialFamily(Distribution):
    """The base of the exponential-family distributions (Normal, Exponential, Bernoulli here)."""


__all__ = ["Distribution"]
