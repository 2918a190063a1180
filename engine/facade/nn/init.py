"""torch.nn.init: PyTorch's initialisations (the same numbers under manual_seed)."""

from autodiff.engine.nn.structured_init import ALL_INIT

globals().update(ALL_INIT)

__all__ = sorted(ALL_INIT)
