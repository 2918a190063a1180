"""The op cases of issue 41's surface (norms, embedding, recurrent layers, channel dropout, the selecting ops,
scatter_reduce), registered into cases.py's table by `register(cases)`: each runs through the golden files
(make_golden.py, make_forward_golden.py, make_fwdrev_golden.py) and against PyTorch live (test_ops_live.py)."""

from __future__ import annotations

from typing import Any


def _F(L: Any) -> Any:
    """torch.nn.functional for torch; the engine's module, which has these functions itself."""
    return L.nn.functional if L.__name__ == "torch" else L


def _nn(L: Any) -> Any:
    """torch.nn for torch; the facade's torch.nn (the engine's layers) for the engine."""
    if L.__name__ == "torch":
        return L.nn
    from autodiff.engine.facade import nn

    return nn


def _dropout(L: Any, x: Any, name: str, p: float) -> Any:
    L.manual_seed(0)  # the channels' mask is drawn from the generator: PyTorch's numbers after the same seed
    return getattr(_F(L), name)(x, p)


def _batch_norm(L: Any, x: Any, w: Any, b: Any, training: bool) -> Any:
    """batch_norm with running statistics (moved in place in training), the output times the moved statistics."""
    channels = x.shape[1]
    mean = L.linspace(-0.5, 0.5, channels, dtype=x.dtype)
    var = L.linspace(0.5, 1.5, channels, dtype=x.dtype)
    y = _F(L).batch_norm(x, mean, var, w, b, training=training, momentum=0.25)
    shape = (1, channels) + (1,) * (x.dim() - 2)
    return y * var.reshape(shape) + mean.reshape(shape)


def _recurrent(L: Any, x: Any, kind: str, dtype: Any, **options: Any) -> Any:
    """A seeded layer (PyTorch's initialisation from the generator) run over x: its output and its last states."""
    L.manual_seed(0)
    layer = getattr(_nn(L), kind)(3, 4, **options).to(dtype)
    out, state = layer(x)
    states = state if isinstance(state, tuple) else (state,)
    return L.cat([out.reshape(-1)] + [s.reshape(-1) for s in states])


def _index(L: Any, rows: list) -> Any:
    return L.tensor(rows)


def register(C: Any) -> None:
    """Add the cases to C.CASES (C is the cases module: its `case`, `values`, `positive`, F32)."""
    _norms(C)
    _selecting(C)
    _scattering(C)
    _layers(C)


def _norms(C: Any) -> None:
    case, values = C.case, C.values
    x43, x234, w3, b3 = values(4, 3, offset=80), values(2, 3, 4, offset=81), values(3, offset=82), values(3, offset=83)
    case("s41_batch_norm_training", lambda L, x, w, b: _batch_norm(L, x, w, b, True), x43, w3, b3)
    case("s41_batch_norm_training_3d_no_affine", lambda L, x: _batch_norm(L, x, None, None, True), x234)
    case("s41_batch_norm_eval", lambda L, x, w, b: _batch_norm(L, x, w, b, False), x234, w3, b3)
    case("s41_batch_norm_weight_only", lambda L, x, w: _batch_norm(L, x, w, None, True), x234, w3, grad=(False, True))
    case("s41_batch_norm_float32", lambda L, x, w, b: _batch_norm(L, x, w, b, True), x234, w3, b3, dtype=C.F32)
    w4, b4 = values(4, offset=84), values(4, offset=85)
    case("s41_layer_norm", lambda L, x, w, b: _F(L).layer_norm(x, (4,), w, b), x234, w4, b4)
    case("s41_layer_norm_two_dims_no_affine", lambda L, x: _F(L).layer_norm(x, (3, 4), eps=1e-3), x234)
    case("s41_layer_norm_bias_only", lambda L, x, b: _F(L).layer_norm(x, [4], None, b), x234, b4)
    case("s41_layer_norm_float32", lambda L, x, w, b: _F(L).layer_norm(x, (4,), w, b), x234, w4, b4, dtype=C.F32)
    x262, w6, b6 = values(2, 6, 2, offset=86), values(6, offset=87), values(6, offset=88)
    case("s41_group_norm", lambda L, x, w, b: _F(L).group_norm(x, 3, w, b), x262, w6, b6)
    case("s41_group_norm_no_affine", lambda L, x: _F(L).group_norm(x, 2), x262)
    case("s41_group_norm_2d_input", lambda L, x, w, b: _F(L).group_norm(x, 2, w, b), values(3, 6, offset=89), w6, b6)
    case("s41_group_norm_float32", lambda L, x, w, b: _F(L).group_norm(x, 3, w, b), x262, w6, b6, dtype=C.F32)


def _selecting(C: Any) -> None:
    case, values = C.case, C.values
    a34, a24 = values(3, 4, offset=90), values(2, 4, offset=91)
    case("s41_clamp_max", lambda L, x: L.clamp_max(x, 0.5), a34)
    case("s41_clamp_max_method_tie", lambda L, x: x.clamp_max(0.25), [[0.25, -1.0, 2.0], [0.5, 0.25, -0.125]])
    case("s41_select", lambda L, x: L.select(x, 1, 2), a34)
    case("s41_select_method_negative", lambda L, x: x.select(0, -1).exp(), a34)
    case("s41_narrow", lambda L, x: L.narrow(x, 1, 1, 2), a34)
    case("s41_narrow_method", lambda L, x: x.narrow(0, 1, 2).sin(), a34)
    case("s41_unfold", lambda L, x: x.unfold(1, 2, 1), a24)
    case("s41_unfold_step", lambda L, x: x.unfold(1, 3, 2).sin(), values(3, 7, offset=92))
    case("s41_unfold_dim0", lambda L, x: x.unfold(0, 2, 1) * 2, a34)
    case("s41_masked_select", lambda L, x: L.masked_select(x, x > 0), a34)
    case("s41_masked_select_broadcast_mask", lambda L, x: x.masked_select(L.tensor([True, False, True, True])).sin(),
         a34)
    case("s41_meshgrid_ij", lambda L, x, y: _grids(L.meshgrid(x, y, indexing="ij")), values(3, offset=93),
         values(2, offset=94))
    case("s41_meshgrid_xy", lambda L, x, y: _grids(L.meshgrid(x, y, indexing="xy")), values(3, offset=93),
         values(2, offset=94))
    case("s41_diff", lambda L, x: L.diff(x), a34)
    case("s41_diff_twice_dim0", lambda L, x: x.diff(n=2, dim=0), a34)
    case("s41_diff_prepend_append", lambda L, x, p, q: L.diff(x, dim=1, prepend=p, append=q), a34,
         values(3, 1, offset=95), values(3, 2, offset=96))


def _grids(grids: Any) -> Any:
    first, second = grids
    return first * second.sin()


def _scattering(C: Any) -> None:
    case, values = C.case, C.values
    x6, s5 = [1.0, 3.0, 2.0, 5.0, 0.5, 7.0], [3.0, 4.0, 2.0, 2.0, 9.0]  # amax/amin ties: 2 and 2 at index 2
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for include in (True, False):
            label = "" if include else "_exclude_self"
            case(f"s41_scatter_reduce_{reduce}{label}", (lambda r, inc: lambda L, x, s: L.scatter_reduce(
                x, 0, _index(L, [1, 1, 2, 2, 5]), s, r, include_self=inc))(reduce, include), x6, s5)
    case("s41_scatter_reduce_2d_method", lambda L, x, s: x.scatter_reduce(1, _index(L, [[0, 1, 0], [2, 2, 1]]), s,
         "amax"), values(2, 4, offset=97), values(2, 3, offset=98))
    case("s41_scatter_reduce_src_without_grad", lambda L, x, s: L.scatter_reduce(x, 0, _index(L, [0, 0, 3]), s,
         "mean"), values(4, offset=99), values(3, offset=100), grad=(True, False))


def _layers(C: Any) -> None:
    case, values = C.case, C.values
    x263 = values(2, 6, 3, offset=101)
    for name in ("dropout1d", "dropout2d"):
        case(f"s41_{name}", (lambda n: lambda L, x: _dropout(L, x, n, 0.5))(name), x263)
    case("s41_dropout1d_unbatched", lambda L, x: _dropout(L, x, "dropout1d", 0.25), values(4, 5, offset=102))
    case("s41_dropout3d", lambda L, x: _dropout(L, x, "dropout3d", 0.5), values(2, 3, 2, 2, 2, offset=103))
    case("s41_dropout2d_float32", lambda L, x: _dropout(L, x, "dropout2d", 0.5), values(2, 3, 2, 2, offset=104),
         dtype=C.F32)
    w5 = values(5, 3, offset=105)
    case("s41_embedding", lambda L, w: _F(L).embedding(_index(L, [[0, 2], [4, 2]]), w), w5)
    case("s41_embedding_padding_idx", lambda L, w: _F(L).embedding(_index(L, [3, 0, 3, 1]), w, padding_idx=3).sin(),
         w5)
    case("s41_embedding_scale_grad_by_freq", lambda L, w: _F(L).embedding(_index(L, [1, 1, 4, 1]), w,
         scale_grad_by_freq=True), w5)
    x523 = values(5, 2, 3, offset=106)
    case("s41_lstm_float32", lambda L, x: _recurrent(L, x, "LSTM", L.float32), x523, dtype=C.F32)
    case("s41_lstm_float32_batch_first", lambda L, x: _recurrent(L, x, "LSTM", L.float32, batch_first=True), x523,
         dtype=C.F32)
    case("s41_lstm_float64", lambda L, x: _recurrent(L, x, "LSTM", L.float64), x523)
    case("s41_lstm_float32_bidirectional_batch_first", lambda L, x: _recurrent(
        L, x, "LSTM", L.float32, bidirectional=True, batch_first=True), x523, dtype=C.F32)
    case("s41_gru_batch_first", lambda L, x: _recurrent(L, x, "GRU", L.float64, batch_first=True), x523)
    case("s41_rnn_batch_first_two_layers", lambda L, x: _recurrent(L, x, "RNN", L.float64, batch_first=True,
         num_layers=2), x523)
