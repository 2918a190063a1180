"""torch.optim.swa_utils: AveragedModel, SWALR, update_bn and the averaging functions."""

from autodiff.engine.optim.swa_utils import SWA_UTILS

globals().update(SWA_UTILS)

__all__ = sorted(SWA_UTILS)
