"""torch.nn's modules of shrinks.py's functions and a few more: Threshold, Hardshrink, Softshrink, Tanhshrink, GLU,
PReLU (its weight filled with init, as PyTorch's), Softmax2d; each prints as PyTorch prints it."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.modes import no_grad
from ..core.tensor import Tensor
from ..errors import InvalidArgumentError
from ..ops.reductions import softmax
from .layers import empty_parameter
from .module import Module
from .shrinks import glu, hardshrink, prelu, softshrink, tanhshrink, threshold


class Threshold(Module):
    """input where it is above threshold, else value."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def settings(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "value": self.value, "inplace": self.inplace}

    def forward(self, input: Any) -> Tensor:
        return threshold(input, self.threshold, self.value)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class Hardshrink(Module):
    """input where |input| > lambd, else 0."""

    FUNCTION: Any = staticmethod(hardshrink)

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def settings(self) -> dict[str, Any]:
        return {"lambd": self.lambd}

    def forward(self, input: Any) -> Tensor:
        return type(self).FUNCTION(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """input moved lambd towards 0, 0 within lambd of it."""

    FUNCTION = staticmethod(softshrink)


class Tanhshrink(Module):
    """input - tanh(input)."""

    def forward(self, input: Any) -> Tensor:
        return tanhshrink(input)


class GLU(Module):
    """The first half of input along dim times the sigmoid of the second."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def settings(self) -> dict[str, Any]:
        return {"dim": self.dim}

    def forward(self, input: Any) -> Tensor:
        return glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class PReLU(Module):
    """input above 0, weight * input below; weight (num_parameters,) filled with init."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.register_parameter("weight", empty_parameter((num_parameters,), dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        with no_grad():
            self.registered_parameters["weight"].fill_(self.init)

    def settings(self) -> dict[str, Any]:
        return {"num_parameters": self.num_parameters, "init": self.init}

    def forward(self, input: Any) -> Tensor:
        return prelu(input, self.member("weight"))

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class Softmax2d(Module):
    """softmax over the channels (dim -3) of (N, C, H, W) or (C, H, W)."""

    def forward(self, input: Any) -> Tensor:
        ndim = np.ndim(input._data) if isinstance(input, Tensor) else None
        if ndim not in (3, 4):
            raise InvalidArgumentError(f"Softmax2d: expected input to be 3D or 4D, got {ndim}D instead",
                                       reason="shape")
        return softmax(input, -3)


ACTIVATION_LAYERS = {cls.__name__: cls for cls in (Threshold, Hardshrink, Softshrink, Tanhshrink, GLU, PReLU,
                                                   Softmax2d)}
