"""The op cases of the nn-layers work (adaptive pooling, shrinks, threshold, glu, prelu, norms, distances, the
losses of torch.nn.functional, interpolation, attention), registered into cases.py's table by `register(cases)`:
each runs through the golden file (make_golden.py, test_ops_golden.py) and against PyTorch live
(test_ops_live.py)."""

from __future__ import annotations

from typing import Any


def _F(L: Any) -> Any:
    """torch.nn.functional for torch; the engine's module, which has these functions itself."""
    return L.nn.functional if L.__name__ == "torch" else L


def register(C: Any) -> None:
    """Add the cases to C.CASES (C is the cases module: its `case`, `values`, `positive`, F32)."""
    case, values = C.case, C.values
    img = values(1, 2, 5, 7, offset=90)
    for size in ((3, 4), (2, 5), (1, 1), (None, 3), (5, 7)):
        tag = "x".join("n" if s is None else str(s) for s in size)
        case(f"nnl_adaptive_avg_pool2d_{tag}", (lambda o: lambda L, x: _F(L).adaptive_avg_pool2d(x, o))(size), img)
        case(f"nnl_adaptive_max_pool2d_{tag}", (lambda o: lambda L, x: _F(L).adaptive_max_pool2d(x, o))(size), img)
    case("nnl_adaptive_avg_pool2d_unbatched", lambda L, x: _F(L).adaptive_avg_pool2d(x[0], 3), img)
    case("nnl_adaptive_max_pool2d_indices", lambda L, x: _F(L).adaptive_max_pool2d(x[0], (2, 3), True)[0], img)
    case("nnl_adaptive_avg_pool2d_f32", lambda L, x: _F(L).adaptive_avg_pool2d(x, (3, 2)), img, dtype=C.F32)
    row = values(2, 3, 7, offset=91)
    case("nnl_adaptive_avg_pool1d", lambda L, x: _F(L).adaptive_avg_pool1d(x, 3), row)
    case("nnl_adaptive_avg_pool1d_one", lambda L, x: _F(L).adaptive_avg_pool1d(x[0], 1), row)
    case("nnl_adaptive_max_pool1d", lambda L, x: _F(L).adaptive_max_pool1d(x, 4), row)
    case("nnl_adaptive_max_pool1d_indices", lambda L, x: _F(L).adaptive_max_pool1d(x[1], 5, True)[0], row)
