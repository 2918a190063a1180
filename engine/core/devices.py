"""Devices as PyTorch names them, on a machine with only a CPU: `device('cpu')` is where every tensor lives;
CUDA and the other accelerators can be named (a script that checks `torch.cuda.is_available()` runs) but not
used: moving a tensor there is a clear error saying the CPU runs everything."""

from __future__ import annotations

from typing import Any

from ..errors import BadValueError, WrongTypeError

NO_CUDA = ("CUDA is not available: autodiff runs everything on the CPU (its tensors are numpy arrays); "
           "use device='cpu', or leave device= out")
DEVICE_TYPES = ("cpu", "cuda", "mps", "xpu", "meta")


class device:  # PyTorch's name, as scripts write it (torch.device)
    """torch.device("cpu"), torch.device("cuda", 0): printed and compared as PyTorch's."""

    __slots__ = ("index", "type")

    def __init__(self, type: Any = "cpu", index: int | None = None) -> None:
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):  # device(0): a CUDA device number
            type, index = "cuda", type
        if not isinstance(type, str):
            raise WrongTypeError(f"torch.device(): expected a string such as 'cpu', got {type!r}", reason="device")
        name, _, number = type.partition(":")
        if name not in DEVICE_TYPES:
            raise BadValueError("Expected one of cpu, cuda, mps, xpu, meta device type at start of device string: "
                                f"{type}", reason="device")
        self.type = name
        self.index = int(number) if number.isdigit() else index

    def __repr__(self) -> str:
        return f"device(type='{self.type}'" + (f", index={self.index})" if self.index is not None else ")")

    def __str__(self) -> str:
        return self.type + (f":{self.index}" if self.index is not None else "")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (other.type, other.index) == (self.type, self.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = device("cpu")


def is_device(value: Any) -> bool:
    """A device argument (of x.to(...)): a torch.device or a string naming one."""
    return isinstance(value, device) or (isinstance(value, str) and value.partition(":")[0] in DEVICE_TYPES)


def check_device(where: Any) -> None:
    """A device a tensor may be put on: the CPU (None, 'cpu', torch.device('cpu')); CUDA and others refused."""
    if where is None:
        return
    if isinstance(where, int) and not isinstance(where, bool):
        raise BadValueError(NO_CUDA, reason="device")
    if not isinstance(where, (device, str)):
        raise WrongTypeError(f"expected a device ('cpu' or torch.device('cpu')), got {type(where).__name__}",
                             reason="device")
    target = device(where) if isinstance(where, str) else where
    if target.type != "cpu":
        raise BadValueError(NO_CUDA if target.type == "cuda" else f"the {target.type} device is not available: "
                            "autodiff runs everything on the CPU", reason="device")


class memory_format:  # PyTorch's name, as scripts write it (torch.memory_format)
    """torch.contiguous_format, torch.preserve_format, torch.channels_last, torch.channels_last_3d: printed as
    PyTorch prints them. autodiff keeps a tensor's elements in C order or in its input's order (the first two)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


CONTIGUOUS_FORMAT = memory_format("contiguous_format")
PRESERVE_FORMAT = memory_format("preserve_format")
MEMORY_FORMATS = {f.name: f for f in (CONTIGUOUS_FORMAT, PRESERVE_FORMAT, memory_format("channels_last"),
                                      memory_format("channels_last_3d"))}


def in_c_order(format: Any, what: str) -> bool:
    """Whether `memory_format=` asks for C order (torch.contiguous_format) rather than the input's own order (None,
    torch.preserve_format); the channels-last formats are refused, saying so."""
    if format is None or format is PRESERVE_FORMAT:
        return False
    if format is CONTIGUOUS_FORMAT:
        return True
    if isinstance(format, memory_format):
        raise BadValueError(f"{what}: memory_format={format!r} is not available in autodiff, which keeps a tensor's "
                            "elements in C order (torch.contiguous_format) or in its input's order "
                            "(torch.preserve_format)", hint="leave memory_format= out", reason="memory_format")
    raise WrongTypeError(f"{what}(): argument 'memory_format' must be torch.memory_format, not "
                         f"{type(format).__name__}", reason="arguments")
