"""torch.nn.parameter: Parameter, and the lazy layers' UninitializedParameter and UninitializedBuffer."""

from autodiff.engine.nn.lazy import UninitializedBuffer, UninitializedParameter
from autodiff.engine.nn.module import Parameter

__all__ = ["Parameter", "UninitializedBuffer", "UninitializedParameter"]
