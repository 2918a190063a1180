"""torch.nn.parameter: Parameter."""

from autodiff.engine import Parameter

__all__ = ["Parameter"]
