"""torch.backends: no MPS and no cuDNN on this machine."""

from . import mps

__all__ = ["mps"]
