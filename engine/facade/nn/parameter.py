"""torch.nn.parameter: Parameter, and the lazy layers' UninitializedParameter and UninitializedBuffer."""

from autodiff.engine.nn.containers import UninitializedBuffer, UninitializedParameter
from autodiff.engine.nn.module import Parameter

__all__ = ["Parameter", "UninitializedBuffer", "UninitializedParameter"]
