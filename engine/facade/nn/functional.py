"""torch.nn.functional: the engine's built-ins declared as its members (relu, softmax, cross_entropy, conv2d, ...)."""

from .._builtins_table import functional_functions

globals().update(functional_functions())

__all__ = sorted(functional_functions())
