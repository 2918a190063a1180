"""torch.distributions.constraints: the sets a distribution's parameters and values must lie in, each with
check(value) (a bool tensor, per event) and PyTorch's repr (GreaterThan(lower_bound=0.0), Simplex(), ...)."""

from __future__ import annotations

from typing import Any


class Constraint:
    """A region of valid values: check(value) says elementwise (per event, for event_dim > 0) whether each is in."""

    is_discrete = False
    event_dim = 0

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__.lstrip("_") + "()"


class _Dependent(Constraint):
    """A constraint that depends on other parameters (not checked when a distribution is made)."""

    def __init__(self, *, is_discrete: bool = False, event_dim: int = 0) -> None:
        self.is_discrete, self.event_dim = is_discrete, event_dim

    def check(self, value: Any) -> Any:
        raise ValueError("Cannot determine validity of dependent constraint")


class _DependentProperty(property, _Dependent):
    """@dependent_property: a property of the distribution whose value is its constraint."""

    def __init__(self, fn: Any = None, *, is_discrete: bool = False, event_dim: int = 0) -> None:
        property.__init__(self, fn)
        _Dependent.__init__(self, is_discrete=is_discrete, event_dim=event_dim)

    def __call__(self, fn: Any) -> _DependentProperty:
        return _DependentProperty(fn, is_discrete=self.is_discrete, event_dim=self.event_dim)


def dependent_property(fn: Any = None, *, is_discrete: bool = False, event_dim: int = 0) -> Any:
    """A property giving a constraint that depends on the distribution's parameters."""
    if fn is None:
        return _DependentProperty(is_discrete=is_discrete, event_dim=event_dim)
    return _DependentProperty(fn, is_discrete=is_discrete, event_dim=event_dim)


def is_dependent(constraint: Any) -> bool:
    return isinstance(constraint, _Dependent)


class _Real(Constraint):
    def check(self, value: Any) -> Any:
        return value == value


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value: Any) -> Any:
        return (value == 0) | (value == 1)


class _GreaterThan(Constraint):
    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound = lower_bound

    def check(self, value: Any) -> Any:
        return value > self.lower_bound

    def __repr__(self) -> str:
        return f"{type(self).__name__[1:]}(lower_bound={self.lower_bound})"


class _GreaterThanEq(_GreaterThan):
    def check(self, value: Any) -> Any:
        return value >= self.lower_bound


class _LessThan(Constraint):
    def __init__(self, upper_bound: Any) -> None:
        self.upper_bound = upper_bound

    def check(self, value: Any) -> Any:
        return value < self.upper_bound

    def __repr__(self) -> str:
        return f"LessThan(upper_bound={self.upper_bound})"


class _Interval(Constraint):
    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value: Any) -> Any:
        return (value >= self.lower_bound) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"{type(self).__name__[1:]}(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value: Any) -> Any:
        return (value % 1 == 0) & (value >= self.lower_bound) & (value <= self.upper_bound)


class _IntegerGreaterThan(_GreaterThan):
    is_discrete = True

    def check(self, value: Any) -> Any:
        return (value % 1 == 0) & (value >= self.lower_bound)


class _OneHot(Constraint):
    """Vectors (the last dim) of zeros and a single one."""

    is_discrete = True
    event_dim = 1

    def check(self, value: Any) -> Any:
        return ((value == 0) | (value == 1)).all(-1) & value.sum(-1).eq(1)


class _Simplex(Constraint):
    """Non-negative vectors (the last dim) summing to 1 within 1e-6."""

    event_dim = 1

    def check(self, value: Any) -> Any:
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _Multinomial(Constraint):
    """Count vectors (the last dim) of non-negative numbers whose sum is at most upper_bound."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound: int) -> None:
        self.upper_bound = upper_bound

    def check(self, value: Any) -> Any:
        return (value >= 0).all(-1) & (value.sum(-1) <= self.upper_bound)


class _IndependentConstraint(Constraint):
    """A constraint of the elements, holding for every element of the `reinterpreted_batch_ndims` rightmost dims."""

    def __init__(self, base_constraint: Constraint, reinterpreted_batch_ndims: int) -> None:
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        self.is_discrete = base_constraint.is_discrete
        self.event_dim = base_constraint.event_dim + reinterpreted_batch_ndims

    def check(self, value: Any) -> Any:
        result = self.base_constraint.check(value)
        if self.reinterpreted_batch_ndims == 0:
            return result
        kept = tuple(result.shape)[:result.dim() - self.reinterpreted_batch_ndims]
        return result.reshape((*kept, -1)).all(-1)

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


dependent = _Dependent()
real = _Real()
real_vector = _IndependentConstraint(real, 1)
boolean = _Boolean()
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
nonnegative_integer = _IntegerGreaterThan(0)
one_hot = _OneHot()
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
interval = _Interval
integer_interval = _IntegerInterval
multinomial = _Multinomial
independent = _IndependentConstraint

__all__ = ["Constraint", "boolean", "dependent", "dependent_property", "greater_than", "greater_than_eq",
           "independent", "integer_interval", "interval", "is_dependent", "less_than", "multinomial", "nonnegative",
           "nonnegative_integer", "one_hot", "positive", "real", "real_vector", "simplex", "unit_interval"]
