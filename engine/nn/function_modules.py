"""torch.nn's activation and loss modules: each calls the torch.nn.functional function of the same meaning (the
one implementation of both), with the module's options, and prints as PyTorch prints it (`ReLU()`,
`LeakyReLU(negative_slope=0.01)`, `Softmax(dim=1)`, `MSELoss()`)."""

from __future__ import annotations

from typing import Any

from ..core.registry import BUILTINS
from ..core.tensor import Tensor
from ..errors import BadValueError
from .containers import CONTAINER_LAYERS, LAZY_LAYERS
from .conv_layers import CONV_LAYERS
from .layers import NN_LAYERS
from .module import Module
from .more_layers import MORE_LAYERS
from .multihead import MULTIHEAD_LAYERS
from .norm_layers import NORM_LAYERS
from .pool_layers import POOL_LAYERS
from .recurrent_layers import RECURRENT_LAYERS


class Activation(Module):
    """An activation module: FUNCTION (a built-in of torch.nn.functional) applied with the module's OPTIONS."""

    FUNCTION = ""
    OPTIONS: tuple[tuple[str, Any], ...] = ()  # (name, default), in the order PyTorch's constructor takes them
    INPLACE = False  # takes inplace= (accepted and shown; the result is computed out of place)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        names = [name for name, _ in self.OPTIONS] + (["inplace"] if self.INPLACE else [])
        if len(args) > len(names):
            raise BadValueError(f"{self.type_name()}() takes at most {len(names)} arguments ({len(args)} given)",
                                reason="arguments")
        values = dict(self.OPTIONS, **({"inplace": False} if self.INPLACE else {}))
        values.update(zip(names, args))
        for key, value in kwargs.items():
            if key not in values or key in names[:len(args)]:
                raise BadValueError(f"{self.type_name()}() got an unexpected or repeated keyword argument '{key}'",
                                    reason="arguments")
            values[key] = value
        self.options = values

    def settings(self) -> dict[str, Any]:
        return dict(self.options)

    def arguments(self, input: Any) -> dict[str, Any]:
        return {k: v for k, v in self.options.items() if k != "inplace"}

    def forward(self, input: Any) -> Tensor:
        return BUILTINS[self.FUNCTION].fn(input, **self.arguments(input))

    def extra_repr(self) -> str:
        shown = [f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}" for k, v in self.options.items() if k != "inplace"]
        if self.options.get("inplace"):
            shown.append("inplace=True")
        return ", ".join(shown)


def _legacy_softmax_dim(ndim: int) -> int:
    """The dim of Softmax(dim=None), as PyTorch's _get_softmax_dim picks it."""
    return 0 if ndim in (0, 1, 3) else 1


class SoftmaxModule(Activation):
    OPTIONS = (("dim", None),)

    def arguments(self, input: Any) -> dict[str, Any]:
        dim = self.options["dim"]
        return {"dim": _legacy_softmax_dim(input.ndim) if dim is None and isinstance(input, Tensor) else dim}


def _activation(name: str, function: str, options: tuple = (), inplace: bool = False,
                base: type = Activation) -> type:
    return type(name, (base,), {"FUNCTION": function, "OPTIONS": options, "INPLACE": inplace,
                                "__doc__": f"nn.{name}: torch.nn.functional.{function} as a module."})


ACTIVATIONS = [
    _activation("ReLU", "relu", inplace=True),
    _activation("ReLU6", "relu6", inplace=True),
    _activation("Tanh", "tanh"),
    _activation("Sigmoid", "sigmoid"),
    _activation("LeakyReLU", "leaky_relu", (("negative_slope", 0.01),), inplace=True),
    _activation("ELU", "elu", (("alpha", 1.0),), inplace=True),
    _activation("CELU", "celu", (("alpha", 1.0),), inplace=True),
    _activation("SELU", "selu", inplace=True),
    _activation("GELU", "gelu", (("approximate", "none"),)),
    _activation("SiLU", "silu", inplace=True),
    _activation("Mish", "mish", inplace=True),
    _activation("Softplus", "softplus", (("beta", 1.0), ("threshold", 20.0))),
    _activation("Hardtanh", "hardtanh", (("min_val", -1.0), ("max_val", 1.0)), inplace=True),
    _activation("Hardsigmoid", "hardsigmoid", inplace=True),
    _activation("Hardswish", "hardswish", inplace=True),
    _activation("LogSigmoid", "logsigmoid"),
    _activation("Softsign", "softsign"),
    _activation("Softmax", "softmax", (("dim", None),), base=SoftmaxModule),
    _activation("LogSoftmax", "log_softmax", (("dim", None),), base=SoftmaxModule),
    _activation("Softmin", "softmin", (("dim", None),), base=SoftmaxModule),
]


# ---------------------------------------------------------------------------- losses
def legacy_reduction(size_average: Any, reduce: Any) -> str:
    """The reduction the deprecated size_average= and reduce= arguments stand for (PyTorch's rule)."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    return "mean" if size_average and reduce else "sum" if reduce else "none"


class Loss(Module):
    """A loss module: FUNCTION (a loss of torch.nn.functional) with the module's reduction and OPTIONS."""

    FUNCTION = ""
    OPTIONS: tuple[tuple[str, Any], ...] = ()  # keyword options besides reduction, passed to the function
    WEIGHTED = False  # takes weight= (a buffer, as PyTorch registers it)

    def __init__(self, *args: Any, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
                 **kwargs: Any) -> None:
        super().__init__()
        if args:
            raise BadValueError(f"{self.type_name()}(): give the options by keyword (reduction='sum', ...)",
                                reason="arguments")
        if size_average is not None or reduce is not None:
            reduction = legacy_reduction(size_average, reduce)
        self.reduction = reduction
        self.options = dict(self.OPTIONS)
        for key, _value in kwargs.items():
            if key not in self.options and not (key == "weight" and self.WEIGHTED):
                raise BadValueError(f"{self.type_name()}() got an unexpected keyword argument '{key}'",
                                    reason="arguments")
        self.options.update((k, v) for k, v in kwargs.items() if k != "weight")
        if self.WEIGHTED:
            self.register_buffer("weight", kwargs.get("weight"))

    def settings(self) -> dict[str, Any]:
        return {"reduction": self.reduction, **self.options}

    def forward(self, input: Any, target: Any) -> Tensor:
        extra = dict(self.options)
        if self.WEIGHTED and self.registered_buffers.get("weight") is not None:
            extra["weight"] = self.registered_buffers["weight"]
        return BUILTINS[self.FUNCTION].fn(input, target, reduction=self.reduction, **extra)


def _loss(name: str, function: str, options: tuple = (), weighted: bool = False) -> type:
    return type(name, (Loss,), {"FUNCTION": function, "OPTIONS": options, "WEIGHTED": weighted,
                                "__doc__": f"nn.{name}: torch.nn.functional.{function} as a module."})


LOSS_MODULES = [
    _loss("MSELoss", "mse_loss"),
    _loss("L1Loss", "l1_loss"),
    _loss("BCELoss", "binary_cross_entropy"),
    _loss("BCEWithLogitsLoss", "binary_cross_entropy_with_logits", (("pos_weight", None),), weighted=True),
    _loss("CrossEntropyLoss", "cross_entropy", (("ignore_index", -100), ("label_smoothing", 0.0)), weighted=True),
    _loss("NLLLoss", "nll_loss", (("ignore_index", -100),), weighted=True),
    _loss("SmoothL1Loss", "smooth_l1_loss", (("beta", 1.0),)),
    _loss("HuberLoss", "huber_loss", (("delta", 1.0),)),
]

# Every module class of torch.nn that autodiff provides, by name
NN_MODULES = {**NN_LAYERS, **CONV_LAYERS, **NORM_LAYERS, **RECURRENT_LAYERS,
              **CONTAINER_LAYERS, **LAZY_LAYERS, **POOL_LAYERS, **MORE_LAYERS, **MULTIHEAD_LAYERS,
              **{cls.__name__: cls for cls in (*ACTIVATIONS, *LOSS_MODULES)}}
