"""torch.nn.functional: the engine's built-ins declared as its members (relu, softmax, cross_entropy, conv2d, ...)."""

from ..functions import functional_functions

globals().update(functional_functions())

__all__ = sorted(functional_functions())
