"""One direction of one layer of a float32 LSTM as PyTorch runs it on a CPU with oneDNN: one node for the whole
sequence (MkldnnRnnLayerBackward0), whose outputs are the layer's output (T, B, H), its last hidden state hy and
cell state cy (output numbers 0, 1, 2, as h_n and c_n's StackBackward0 point at them).

Forward, per step t (in reverse order for the second direction): gates = x_t W_ih^T + b_ih + h W_hh^T + b_hh;
i, f, g, o = sigmoid, sigmoid, tanh, sigmoid of its four quarters; c = f * c + i * g; h = o * tanh(c).
Backward is backpropagation through time over the saved gates, computed once for all seven inputs (input, w_ih,
w_hh, b_ih, b_hh, hx, cx). As in PyTorch, the backward itself cannot be differentiated (create_graph=True refuses).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import Grad, Op, declare
from ..core.recording import apply
from ..core.tensor import Tensor
from ..core.vocabulary import NumpyMath
from ..errors import AutogradError

SLOTS = ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_")


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return (1 / (1 + np.exp(-x))).astype(x.dtype)


def _forward_pass(x: np.ndarray, w_ih: np.ndarray, w_hh: np.ndarray, bias: np.ndarray, h: np.ndarray,
                  c: np.ndarray, reverse: bool) -> dict[str, Any]:
    """The layer's outputs and what backward needs: per step the gates, tanh(c), and the states before it."""
    steps, hidden = x.shape[0], h.shape[1]
    x_gates = x @ w_ih.T + bias
    out = np.empty((steps, h.shape[0], hidden), x.dtype)
    trace: dict[str, Any] = {"gates": np.empty((steps, h.shape[0], 4 * hidden), x.dtype), "tanh_c": np.empty_like(out),
                             "h_before": np.empty_like(out), "c_before": np.empty_like(out)}
    with np.errstate(over="ignore"):
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            trace["h_before"][t], trace["c_before"][t] = h, c
            a = x_gates[t] + h @ w_hh.T
            i, f, o = (_sigmoid(a[:, k * hidden:(k + 1) * hidden]) for k in (0, 1, 3))
            g = np.tanh(a[:, 2 * hidden:3 * hidden])
            c = f * c + i * g
            tanh_c = np.tanh(c)
            h = o * tanh_c
            trace["gates"][t] = np.concatenate([i, f, g, o], axis=1)
            trace["tanh_c"][t], out[t] = tanh_c, h
    trace["result"] = (out, h, c)
    return trace


def _backward_pass(g: tuple, s: Any) -> tuple:
    """The gradients of (input, w_ih, w_hh, b_ih, b_hh, hx, cx) from those of (output, hy, cy)."""
    trace = s.trace
    out, hy, cy = trace["result"]
    steps, batch, hidden = out.shape
    w_ih, w_hh = s.weight0, s.weight1
    g_out = np.zeros_like(out) if g[0] is None else np.asarray(g[0], out.dtype)
    dh = np.zeros_like(hy) if g[1] is None else np.array(g[1], out.dtype)
    dc = np.zeros_like(cy) if g[2] is None else np.array(g[2], out.dtype)
    d_gates = np.empty((steps, batch, 4 * hidden), out.dtype)
    for t in (range(steps) if s.reverse else range(steps - 1, -1, -1)):
        i, f, gg, o = (trace["gates"][t][:, k * hidden:(k + 1) * hidden] for k in range(4))
        tanh_c = trace["tanh_c"][t]
        dh = dh + g_out[t]
        dc = dc + dh * o * (1 - tanh_c * tanh_c)
        d_gates[t] = np.concatenate([dc * gg * i * (1 - i), dc * trace["c_before"][t] * f * (1 - f),
                                     dc * i * (1 - gg * gg), dh * tanh_c * o * (1 - o)], axis=1)
        dc = dc * f
        dh = d_gates[t] @ w_hh
    flat = d_gates.reshape(-1, 4 * hidden)
    d_bias = flat.sum(axis=0)
    return (d_gates @ w_ih, flat.T @ s.input.reshape(-1, w_ih.shape[1]),
            flat.T @ trace["h_before"].reshape(-1, hidden), d_bias, d_bias.copy(), dh, dc)


def _gradient(k: int) -> Any:
    def formula(F: Any, g: Any, s: Any) -> Any:
        if F is not NumpyMath:
            raise AutogradError("derivative for mkldnn_rnn_layer_backward is not implemented",
                                reason="double_backward")
        memo = s.memo
        if memo.get("g") is not g:  # one pass of backpropagation through time for all the inputs
            memo["g"], memo["grads"] = g, _backward_pass(g, s)
        return memo["grads"][k]

    return formula


MKLDNN_RNN_LAYER = declare(Op(
    "mkldnn_rnn_layer", "MkldnnRnnLayerBackward0", SLOTS, lambda *arrays, trace, **_: trace["result"],
    tuple(Grad(_gradient(k), f"backpropagation through time: d{name}") for k, name in enumerate(SLOTS)),
    "one direction of one float32 LSTM layer over a sequence (oneDNN's)", outputs=("output", "hy", "cy"),
    noisy=True))


def lstm_layer(input: Tensor, weights: list[Any], hx: Tensor, cx: Tensor, reverse: bool) -> tuple[Tensor, ...]:
    """(output, hy, cy) of one direction of one LSTM layer, recorded as one MkldnnRnnLayerBackward0 node."""
    w_ih, w_hh = weights[0], weights[1]
    b_ih, b_hh = (weights[2], weights[3]) if len(weights) > 2 else (None, None)
    kind = input._data.dtype
    bias = np.zeros(w_ih.shape[0], kind) if b_ih is None else (b_ih._data + b_hh._data).astype(kind)
    trace = _forward_pass(input._data, w_ih._data, w_hh._data, bias, hx._data, cx._data, reverse)
    return apply(MKLDNN_RNN_LAYER, (input, w_ih, w_hh, b_ih, b_hh, hx, cx),
                 {"trace": trace, "reverse": reverse, "memo": {}})


__all__ = ["MKLDNN_RNN_LAYER", "lstm_layer"]
