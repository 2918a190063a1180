"""torch.autograd.forward_ad: dual tensors for forward-mode AD."""

from autodiff.engine.transforms.forward_ad import (
    UnpackedDualTensor,
    dual_level,
    enter_dual_level,
    exit_dual_level,
    make_dual,
    unpack_dual,
)

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual"]
