"""torch.nn's recurrent modules: RNN, LSTM and GRU (num_layers, bidirectional, batch_first, dropout between
layers, unbatched inputs) and RNNCell, LSTMCell and GRUCell, with PyTorch's parameters (weight_ih_l0, ...,
registered in its order and drawn uniform in +-1/sqrt(hidden_size) under the seed), checks, messages and printed
form. The computation is recurrent.py's."""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

import numpy as np

from ..core.settings import as_dtype, check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, InvalidArgumentError, ShapeError, WrongTypeError
from ..ops.constructors import zeros
from ..ops.shapes import squeeze, transpose, unsqueeze
from .init import init_uniform_
from .module import Module, Parameter
from .recurrent import cell_step, run_layers, transposed_

GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}
NAMES = {"RNN_TANH": "RNN", "RNN_RELU": "RNN", "LSTM": "LSTM", "GRU": "GRU"}


def _empty(shape: tuple[int, ...], dtype: Any) -> Parameter:
    check_elements(shape, "the layer's weight")
    return Parameter(Tensor._make(np.empty(shape, as_dtype(dtype))))


def _check_sizes(input_size: Any, hidden_size: Any, num_layers: Any, dropout: Any, bias: Any,
                 batch_first: Any) -> None:
    """RNNBase's checks of its arguments, with PyTorch's exceptions and messages."""
    if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
        raise InvalidArgumentError("dropout should be a number in range [0, 1] representing the probability of an "
                                   "element being zeroed", reason="rnn")
    if dropout > 0 and num_layers == 1:
        warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                      f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                      UserWarning, stacklevel=4)
    for value, name in ((bias, "bias"), (batch_first, "batch_first")):
        if not isinstance(value, bool):
            raise WrongTypeError(f"{name} should be of type bool, got: {type(value).__name__}", reason="rnn")
    for value, name in ((input_size, "input_size"), (hidden_size, "hidden_size")):
        if not isinstance(value, int) or isinstance(value, bool):
            raise WrongTypeError(f"{name} should be of type int, got: {type(value).__name__}", reason="rnn")
        if value <= 0:
            raise InvalidArgumentError(f"{name} must be greater than zero", reason="rnn")
    if num_layers <= 0:
        raise InvalidArgumentError("num_layers must be greater than zero", reason="rnn")


class RNNBase(Module):
    """The recurrent layers' common part: parameters, checks, the forward over a sequence."""

    MODE = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        _check_sizes(input_size, hidden_size, num_layers, dropout, bias, batch_first)
        if proj_size:
            raise BadValueError("proj_size is not available in autodiff's LSTM (use proj_size=0)", reason="rnn")
        self.mode, self.input_size, self.hidden_size, self.num_layers = self.MODE, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        gate_size = GATES[self.MODE] * hidden_size
        directions = 2 if bidirectional else 1
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(directions):
                inputs = input_size if layer == 0 else hidden_size * directions
                shapes = [(gate_size, inputs), (gate_size, hidden_size)] + ([(gate_size,)] * 2 if bias else [])
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"] + (["bias_ih_l{}{}", "bias_hh_l{}{}"] if bias else [])
                names = [n.format(layer, "_reverse" if direction else "") for n in names]
                for name, shape in zip(names, shapes):
                    setattr(self, name, _empty(shape, dtype))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every parameter uniform in +-1/sqrt(hidden_size), in registration order (PyTorch's numbers)."""
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init_uniform_(weight, -bound, bound)

    def flatten_parameters(self) -> None:
        """Accepted (there is no cuDNN weight buffer to compact here)."""

    @property
    def all_weights(self) -> list[list[Parameter]]:
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def settings(self) -> dict[str, Any]:
        return {"input_size": self.input_size, "hidden_size": self.hidden_size, "num_layers": self.num_layers,
                "bias": self.bias, "batch_first": self.batch_first, "dropout": self.dropout,
                "bidirectional": self.bidirectional}

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if self.batch_first is not False:
            text += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            text += f", bidirectional={self.bidirectional}"
        return text

    def _check_input(self, input: Tensor) -> None:
        weight = self.member(self._flat_weights_names[0])
        if input.dtype != weight.dtype:
            raise InvalidArgumentError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). Convert input: "
                f"input.to({weight.dtype}), or convert model: model.to({input.dtype})", reason="rnn")
        if input.size(-1) != self.input_size:
            raise ShapeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                             f"{input.size(-1)}", reason="rnn")

    def _check_hidden(self, hx: Tensor, expected: tuple[int, ...], what: str = "hidden size") -> None:
        if tuple(hx.shape) != expected:
            raise ShapeError(f"Expected {what} {expected}, got {list(hx.shape)}", reason="rnn")

    def _batched(self, input: Tensor, hx: Any) -> tuple[Tensor, Any, bool]:
        """input as (T, B, F) (unsqueezed and transposed as needed) and hx batched; whether it was batched."""
        name = NAMES[self.MODE]
        if input.dim() not in (2, 3):
            raise InvalidArgumentError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D "
                                       f"{'tensor ' if name == 'RNN' else ''}instead", reason="rnn")
        batched = input.dim() == 3
        states = list(hx) if isinstance(hx, (tuple, list)) else [] if hx is None else [hx]
        for state in states:
            if state.dim() != (3 if batched else 2):
                form = "batched 3-D" if batched else "unbatched 2-D"
                raise ShapeError(f"For {form} input, hx should also be {3 if batched else 2}-D but got "
                                 f"{state.dim()}-D tensor", reason="rnn")
        if not batched:
            input = unsqueeze(input, 0 if self.batch_first else 1)
            states = [unsqueeze(s, 1) for s in states]
        if self.batch_first:
            input = transpose(input, 0, 1)
        return input, states, batched

    def forward(self, input: Tensor, hx: Any = None) -> tuple[Tensor, Any]:
        input, states, batched = self._batched(input, hx)
        self._check_input(input)
        directions = 2 if self.bidirectional else 1
        expected = (self.num_layers * directions, input.shape[1], self.hidden_size)
        if not states:
            states = [zeros(*expected, dtype=input.dtype) for _ in range(2 if self.MODE == "LSTM" else 1)]
        for index, state in enumerate(states):
            self._check_hidden(state, expected, f"hidden[{index}] size" if self.MODE == "LSTM" else "hidden size")
        weights = [[self.member(n) for n in names] for names in self._all_weights]
        start = tuple(states) if self.MODE == "LSTM" else states[0]
        output, final = run_layers(self.MODE, input, start, weights, self.num_layers, directions, self.dropout,
                                   self.training)
        if self.batch_first:
            output = transpose(output, 0, 1) if self.MODE == "LSTM" else transposed_(output)
        if not batched:
            output = squeeze(output, 0 if self.batch_first else 1)
            final = tuple(squeeze(f, 1) for f in final) if self.MODE == "LSTM" else squeeze(final, 1)
        return output, final


class RNN(RNNBase):
    """An Elman RNN: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu), layer after layer."""

    def __init__(self, *args: Any, nonlinearity: str = "tanh", **kwargs: Any) -> None:
        if len(args) > 3:  # RNN(input_size, hidden_size, num_layers, nonlinearity, bias, ...), positionally
            args = list(args)
            nonlinearity = args.pop(3)
        if nonlinearity not in ("tanh", "relu"):
            raise InvalidArgumentError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.",
                                       reason="rnn")
        self.MODE = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(*args, **kwargs)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """Long short-term memory: (output, (h_n, c_n))."""

    MODE = "LSTM"


class GRU(RNNBase):
    """Gated recurrent units: (output, h_n)."""

    MODE = "GRU"


class RNNCellBase(Module):
    """One step of a recurrent cell: weight_ih, weight_hh, bias_ih, bias_hh uniform in +-1/sqrt(hidden_size)."""

    MODE = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        gates = GATES[self.MODE] * hidden_size
        self.weight_ih = _empty((gates, input_size), dtype)
        self.weight_hh = _empty((gates, hidden_size), dtype)
        self.register_parameter("bias_ih", _empty((gates,), dtype) if bias else None)
        self.register_parameter("bias_hh", _empty((gates,), dtype) if bias else None)
        self.reset_parameters()

    reset_parameters = RNNBase.reset_parameters

    def settings(self) -> dict[str, Any]:
        return {"input_size": self.input_size, "hidden_size": self.hidden_size, "bias": self.bias}

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            text += f", nonlinearity={self.nonlinearity}"
        return text

    def _weights(self) -> list[Any]:
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh") if self.bias else ("weight_ih", "weight_hh")
        return [self.member(n) for n in names]

    def _prepare(self, input: Tensor, states: list[Any]) -> tuple[Tensor, list[Tensor], bool]:
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise InvalidArgumentError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead",
                                       reason="rnn")
        for i, state in enumerate(states):
            if state is not None and state.dim() not in (1, 2):
                what = f"hx[{i}]" if len(states) > 1 else "hidden"
                raise InvalidArgumentError(f"{name}: Expected {what} to be 1D or 2D, got {state.dim()}D instead",
                                           reason="rnn")
        batched = input.dim() == 2
        if not batched:
            input = unsqueeze(input, 0)
        ready = [zeros(input.shape[0], self.hidden_size, dtype=input.dtype) if s is None
                 else s if batched else unsqueeze(s, 0) for s in states]
        return input, ready, batched

    def forward(self, input: Tensor, hx: Any = None) -> Any:
        states = list(hx) if self.MODE == "LSTM" and hx is not None else [hx] * (2 if self.MODE == "LSTM" else 1)
        input, ready, batched = self._prepare(input, states)
        hidden = tuple(ready) if self.MODE == "LSTM" else ready[0]
        result = cell_step(self.MODE, input, hidden, self._weights())
        if batched:
            return result
        return tuple(squeeze(r, 0) for r in result) if self.MODE == "LSTM" else squeeze(result, 0)


class RNNCell(RNNCellBase):
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device: Any = None, dtype: Any = None) -> None:
        self.MODE = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}.get(nonlinearity, "RNN_TANH")
        super().__init__(input_size, hidden_size, bias, device, dtype)
        self.nonlinearity = nonlinearity


class LSTMCell(RNNCellBase):
    """One LSTM step: (h', c')."""

    MODE = "LSTM"


class GRUCell(RNNCellBase):
    """One GRU step: h'."""

    MODE = "GRU"


RECURRENT_LAYERS = {cls.__name__: cls for cls in (RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell)}

__all__ = ["GRU", "LSTM", "RECURRENT_LAYERS", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase"]
