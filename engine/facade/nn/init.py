"""torch.nn.init: PyTorch's initialisations (the same numbers under manual_seed)."""

from autodiff.engine.nn.init import INIT_FUNCTIONS

globals().update(INIT_FUNCTIONS)

__all__ = sorted(INIT_FUNCTIONS)
