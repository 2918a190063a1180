"""torch.distributions: Normal, Uniform, Exponential, Laplace, Bernoulli, Geometric, Categorical,
OneHotCategorical, Multinomial and Independent over the engine, with kl_divergence. After torch.manual_seed their
samples are PyTorch's numbers (each draws with the torch calls PyTorch's does), and log_prob, entropy and rsample
record PyTorch's grad_fn nodes."""

from __future__ import annotations

from typing import Any

from . import constraints, kl, utils
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution, ExponentialFamily
from .exponential import Exponential
from .geometric import Geometric
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .multinomial import Multinomial
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .uniform import Uniform

# the modules PyTorch has under torch.distributions that a script imports from (torch.distributions.normal, ...)
SUBMODULES = ("bernoulli", "categorical", "constraints", "distribution", "exponential", "geometric", "independent",
              "kl", "laplace", "multinomial", "normal", "one_hot_categorical", "uniform", "utils")


def __getattr__(name: str) -> Any:
    raise AttributeError(f"module 'torch.distributions' has no attribute '{name}' (autodiff does not provide it; "
                         "its distributions are Bernoulli, Categorical, Exponential, Geometric, Independent, "
                         "Laplace, Multinomial, Normal, OneHotCategorical, OneHotCategoricalStraightThrough and "
                         "Uniform)")


__all__ = ["Bernoulli", "Categorical", "Distribution", "Exponential", "ExponentialFamily", "Geometric", "Independent",
           "Laplace", "Multinomial", "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough", "Uniform",
           "kl_divergence", "register_kl"]
