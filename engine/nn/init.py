"""torch.nn.init: the initialisations of layers' weights, with PyTorch's formulas for the bounds (computed in
Python floats, in its order of operations) and its random numbers (uniform_ and normal_ of the generator)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..core.coerce import number
from ..core.modes import no_grad
from ..core.tensor import Tensor
from ..errors import InvalidArgumentError
from ..random.distributions import normal_, uniform_

LINEAR_GAINS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                "sigmoid")


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    """The recommended gain for a nonlinearity, as torch.nn.init.calculate_gain."""
    if nonlinearity in LINEAR_GAINS:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise InvalidArgumentError(f"negative_slope {param} not a valid number", reason="init")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise InvalidArgumentError(f"Unsupported nonlinearity {nonlinearity}", reason="init")


def fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight: its dims 1 and 0 times the size of the rest (the receptive field)."""
    if tensor.ndim < 2:
        raise InvalidArgumentError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions",
                            reason="init")
    receptive = 1
    for size in tensor.shape[2:]:
        receptive *= size
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _fan(tensor: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise InvalidArgumentError(f"Mode {mode} not supported, please use one of {['fan_in', 'fan_out']}",
                                   reason="init")
    fan_in, fan_out = fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def init_uniform_(tensor: Tensor, a: Any = 0.0, b: Any = 1.0, generator: Any = None) -> Tensor:
    """nn.init.uniform_: uniform numbers in [a, b), not recorded."""
    with no_grad():
        return uniform_(tensor, number(a, "a"), number(b, "b"), generator=generator)


def init_normal_(tensor: Tensor, mean: Any = 0.0, std: Any = 1.0, generator: Any = None) -> Tensor:
    with no_grad():
        return normal_(tensor, number(mean, "mean"), number(std, "std"), generator=generator)


def constant_(tensor: Tensor, val: Any) -> Tensor:
    with no_grad():
        tensor.fill_(number(val, "val"))
    return tensor


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    with no_grad():
        tensor.zero_()
    return tensor


def eye_(tensor: Tensor) -> Tensor:
    if tensor.ndim != 2:
        raise InvalidArgumentError("Only tensors with 2 dimensions are supported", reason="init")
    with no_grad():
        tensor.zero_()
        rows, cols = tensor.shape
        tensor._data[np.arange(min(rows, cols)), np.arange(min(rows, cols))] = 1
    return tensor


def xavier_uniform_(tensor: Tensor, gain: Any = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = fan_in_and_fan_out(tensor)
    std = number(gain, "gain") * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std
    return init_uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: Any = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = fan_in_and_fan_out(tensor)
    std = number(gain, "gain") * math.sqrt(2.0 / float(fan_in + fan_out))
    return init_normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor: Tensor, a: Any = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator: Any = None) -> Tensor:
    """He initialisation: uniform in +-sqrt(3) * gain / sqrt(fan) (Linear's weights: a = sqrt(5))."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return init_uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: Any = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator: Any = None) -> Tensor:
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return init_normal_(tensor, 0.0, std, generator)


# torch.nn.init's names (uniform_ and normal_ are spelled as PyTorch spells them there)
INIT_FUNCTIONS = {
    "calculate_gain": calculate_gain, "uniform_": init_uniform_, "normal_": init_normal_, "constant_": constant_,
    "ones_": ones_, "zeros_": zeros_, "eye_": eye_, "xavier_uniform_": xavier_uniform_,
    "xavier_normal_": xavier_normal_, "kaiming_uniform_": kaiming_uniform_, "kaiming_normal_": kaiming_normal_,
}
