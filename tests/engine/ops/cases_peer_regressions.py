"""The op cases of issue 31's port of the peers' op tests (cases_peers*.py): what their tests found wrong or
missing in the engine, registered into cases.py's table by `register(cases)`, so that golden/ops.json keeps
each fix checked (test_ops_golden.py) and PyTorch checks it live (test_ops_live.py)."""

from __future__ import annotations

from typing import Any


def _pad(L: Any) -> Any:
    return L.nn.functional.pad if L.__name__ == "torch" else L.pad


def _F(L: Any) -> Any:
    """torch.nn.functional for torch; the engine's module, which has these functions itself."""
    return L.nn.functional if L.__name__ == "torch" else L


def register(C: Any) -> None:
    """Add the cases to C.CASES (C is the cases module: its `case`, `values`)."""
    case, values = C.case, C.values
    a23, a2345 = values(2, 3, offset=60), values(2, 3, 4, offset=61)
    # tinygrad test_slice_fancy_indexing_with_tensors: a 0-d index tensor is an integer (SelectBackward0)
    case("peers_index_0d_tensor_selects", lambda L, x: x[L.tensor(1)], a23)
    case("peers_index_list_then_0d_tensor", lambda L, x: x[L.tensor([[0, 1], [1, 0]]), L.tensor(2)], a23)
    # tinygrad test_slice_fancy_indexing_tuple_indices: a tuple inside the index is a sequence of positions
    case("peers_index_tuple_item", lambda L, x: x[(1, 0, 1),], a23)
    case("peers_index_nested_tuple_item", lambda L, x: x[((0,), (1,)), 2], a23)
    # tinygrad test_pad_reflect_mode / test_pad_replicate_mode: padding that leaves no elements is empty
    case("peers_pad_reflect_to_empty", lambda L, x: L.cat([_pad(L)(x, (0, 0, 0, -3), mode="reflect"), x], 1), a2345)
    case("peers_pad_replicate_to_empty", lambda L, x: _pad(L)(x, (-4, 0, 1, 1), mode="replicate") + 1, a2345)
    # missing ops the peers test: clip (clamp's other spelling), unflatten
    case("peers_clip", lambda L, x: L.clip(x, -0.5, 0.75) + x.clip(max=0.25), a23)
    case("peers_unflatten", lambda L, x: L.unflatten(x, 2, (2, -1)) * x.unflatten(-1, (4, 1)).sum(-1, keepdim=True)
         .reshape(2, 3, 2, 2), a2345)
    # autograd's test_scalar_ops spells these as numpy does (PyTorch has them too)
    case("peers_numpy_spellings", lambda L, x, y: L.multiply(x, y) + L.divide(x, y) + x.true_divide(y)
         + L.negative(x) * L.absolute(y), a23, values(2, 3, offset=62))
    # MyGrad's test_tensor_manip: numpy's names for movedim, transpose, expand
    case("peers_numpy_rearranging", lambda L, x: L.moveaxis(x, 0, -1).swapaxes(0, 1) + L.swapdims(x, 0, 2)
         * L.broadcast_to(x.sum(2, keepdim=True), (2, 3, 4)).swapaxes(0, 2), a2345)
    # MyGrad's test_getitem_advindex_bool_bkwdprop: tensor([True, False, True]) is a mask (a bool tensor)
    case("peers_bool_tensor_mask", lambda L, x: x[L.tensor([True, False])] * 2 + x[L.tensor(True)].sum(0), a23)
    # missing ops the peers test: repeat_interleave (tinygrad, autograd, MyGrad), normalize (tinygrad)
    case("peers_repeat_interleave", lambda L, x: L.repeat_interleave(x, 2, 1) + x.t().repeat_interleave(2, 0).t()
         + x.repeat_interleave(2).reshape(2, 6), a23)
    case("peers_normalize", lambda L, x: _F(L).normalize(x) + _F(L).normalize(x, p=1.0, dim=0)
         + L.clamp_min(x, 0.25), a23)
