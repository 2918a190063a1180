"""torch.nn.parameter: Parameter."""

from autodiff.engine.nn.module import Parameter

__all__ = ["Parameter"]
