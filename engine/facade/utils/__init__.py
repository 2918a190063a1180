"""torch.utils: data loading (torch.utils.data)."""

from . import data

__all__ = ["data"]
