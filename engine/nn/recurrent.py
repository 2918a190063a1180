"""The recurrent cells and layers of torch.nn (RNN with tanh or ReLU, LSTM, GRU), computed as ATen's CPU code
composes them from ordinary ops, so the values, the gradients and the nodes are PyTorch's:

- a cell: gates = linear(h, w_hh, b_hh) + linear(x, w_ih, b_ih) (AddmmBackward0s, AddBackward0), then
  RNN: tanh or relu of it; LSTM: i, f, g, o = unsafe_chunk(gates, 4) through sigmoid, sigmoid, tanh, sigmoid,
  c' = f * c + i * g, h' = o * tanh(c'); GRU: r = sigmoid(hr + xr), z = sigmoid(hz + xz),
  n = tanh(xn + hn * r), h' = (h - n) * z + n.
- a layer over a sequence (T, B, ...): linear(x, w_ih, b_ih) of the whole sequence first, then the cell step by
  step (in reverse for the second direction), the outputs stacked (StackBackward0); two directions are
  concatenated on the last dim (CatBackward0); between layers dropout(p) in training.
- the final hidden states of every layer and direction are stacked (StackBackward0); batch_first transposes the
  input and, in place, the output (TransposeBackward1), as ATen does.

A float32 LSTM runs as PyTorch runs it on a CPU with oneDNN: each layer and direction one node
(MkldnnRnnLayerBackward0, lstmlayer.py); a float64 one is the composition above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core.dtypes import float32
from ..core.optable import LINEAR_JVP, SHAPES, Grad, Op, declare
from ..core.recording import apply
from ..core.tensor import Tensor
from ..kernels.arrays import swapaxes
from ..ops.arithmetic import add, mul, sub
from ..ops.elementwise import relu, sigmoid, tanh
from ..ops.joins import cat, stack
from ..ops.rearrange import unbind, unsafe_chunk
from ..ops.shapes import CLONE
from .linear_functions import dropout, linear
from .lstm_layer import lstm_layer

TRANSPOSE_INPLACE = declare(Op("transpose_", "TransposeBackward1", ("self",),
                               lambda x, *, dim0, dim1: swapaxes(x, dim0, dim1),
                               (Grad(lambda F, g, s: F.transpose(g, s.dim0, s.dim1), "grad.transpose(dim0, dim1)"),),
                               "swap two dims in place (the output of a batch_first RNN and GRU)", group=SHAPES,
                               jvp=LINEAR_JVP))


def transposed_(x: Tensor) -> Tensor:
    """x.transpose_(0, 1) as ATen records it on a batch_first RNN's output (TransposeBackward1)."""
    return apply(TRANSPOSE_INPLACE, (x,), {"dim0": 0, "dim1": 1})


# ---------------------------------------------------------------------------- cells
# A cell takes the input's part of the gates (linear(x, w_ih, b_ih), computed before), the hidden state and
# (w_hh, b_hh); it returns the new hidden state (LSTM: the pair (h, c)).
def _hidden_gates(hidden: Tensor, weights: Sequence[Any]) -> Tensor:
    return linear(hidden, weights[1], weights[3] if len(weights) > 2 else None)


def tanh_cell(x_gates: Tensor, hidden: Tensor, weights: Sequence[Any]) -> Tensor:
    return tanh(add(_hidden_gates(hidden, weights), x_gates))


def relu_cell(x_gates: Tensor, hidden: Tensor, weights: Sequence[Any]) -> Tensor:
    return relu(add(_hidden_gates(hidden, weights), x_gates))


def lstm_cell(x_gates: Tensor, hidden: tuple[Tensor, Tensor], weights: Sequence[Any]) -> tuple[Tensor, Tensor]:
    h, c = hidden
    gates = add(_hidden_gates(h, weights), x_gates)
    i, f, g, o = unsafe_chunk(gates, 4, 1)
    i, f, g, o = sigmoid(i), sigmoid(f), tanh(g), sigmoid(o)
    cy = add(mul(f, c), mul(i, g))
    return mul(o, tanh(cy)), cy


def gru_cell(x_gates: Tensor, hidden: Tensor, weights: Sequence[Any]) -> Tensor:
    xr, xz, xn = unsafe_chunk(x_gates, 3, 1)
    hr, hz, hn = unsafe_chunk(_hidden_gates(hidden, weights), 3, 1)
    reset = sigmoid(add(hr, xr))
    update = sigmoid(add(hz, xz))
    new = tanh(add(xn, mul(hn, reset)))
    return add(mul(sub(hidden, new), update), new)


CELLS: dict[str, Callable[..., Any]] = {"RNN_TANH": tanh_cell, "RNN_RELU": relu_cell, "LSTM": lstm_cell,
                                        "GRU": gru_cell}


def cell_step(mode: str, input: Tensor, hidden: Any, weights: Sequence[Any]) -> Any:
    """One step of a cell module (RNNCell, LSTMCell, GRUCell): the input's gates, then the cell."""
    x_gates = linear(input, weights[0], weights[2] if len(weights) > 2 else None)
    return CELLS[mode](x_gates, hidden, weights)


# ---------------------------------------------------------------------------- layers
def _output_of(mode: str, hidden: Any) -> Tensor:
    return hidden[0] if mode == "LSTM" else hidden


def _direction(mode: str, x_gates: Tensor, hidden: Any, weights: Sequence[Any], reverse: bool) -> tuple[Tensor, Any]:
    """One direction of one layer over the sequence: (the outputs stacked, the final hidden state)."""
    cell = CELLS[mode]
    steps = list(unbind(x_gates, 0))
    outputs = []
    for step in reversed(steps) if reverse else steps:
        hidden = cell(step, hidden, weights)
        outputs.append(_output_of(mode, hidden))
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), hidden


def run_layers(mode: str, input: Tensor, hidden: Any, weights: Sequence[Sequence[Any]], num_layers: int,
               directions: int, dropout_p: float, training: bool) -> tuple[Tensor, Any]:
    """A whole recurrent module over input (T, B, features): (output, final hidden states), as _rnn_impl.
    hidden is h0 (LSTM: (h0, c0)) of shape (num_layers * directions, B, H); weights per layer and direction."""
    finals: list[Any] = []
    layer_input = input
    for layer in range(num_layers):
        outputs = []
        if mode == "LSTM" and layer_input.dtype == float32 and not layer_input.is_contiguous():
            layer_input = apply(CLONE, (layer_input,), {"contiguous": True})  # oneDNN's layer reads a contiguous copy
        for direction in range(directions):
            index = layer * directions + direction
            params = weights[index]
            start = (hidden[0][index], hidden[1][index]) if mode == "LSTM" else hidden[index]
            if mode == "LSTM" and layer_input.dtype == float32:  # oneDNN's layer, as PyTorch runs it here
                output, *final = lstm_layer(layer_input, params, *start, reverse=direction == 1)
            else:
                x_gates = linear(layer_input, params[0], params[2] if len(params) > 2 else None)
                output, final = _direction(mode, x_gates, start, params, reverse=direction == 1)
            outputs.append(output)
            finals.append(final)
        layer_output = outputs[0] if directions == 1 else cat(outputs, outputs[0].ndim - 1)
        if dropout_p and training and layer < num_layers - 1:
            layer_output = dropout(layer_output, dropout_p, True)
        layer_input = layer_output
    if mode == "LSTM":
        return layer_input, (stack([h for h, _ in finals], 0), stack([c for _, c in finals], 0))
    return layer_input, stack(finals, 0)


__all__ = ["CELLS", "TRANSPOSE_INPLACE", "cell_step", "gru_cell", "lstm_cell", "relu_cell", "run_layers",
           "tanh_cell", "transposed_"]
