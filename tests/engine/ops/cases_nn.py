"""The op cases of issue 28 (torch.nn's functions: addmm, linear, bilinear, dropout, nll_loss, cross_entropy,
smooth_l1_loss, huber_loss), registered into cases.py's table by `register(cases)`: each runs through the golden
file (make_golden.py, test_ops_golden.py) and against PyTorch live (test_ops_live.py)."""

from __future__ import annotations

from typing import Any


def _F(L: Any) -> Any:
    """torch.nn.functional for torch; the engine's module, which has these functions itself."""
    return L.nn.functional if L.__name__ == "torch" else L


def _classes(L: Any, *indices: int) -> Any:
    """Class indices: an int64 tensor in PyTorch; the engine takes them from a float tensor of whole numbers."""
    return L.tensor(list(indices))


def _dropout(L: Any, x: Any, p: float) -> Any:
    L.manual_seed(0)  # the mask is drawn from the generator: PyTorch's numbers after the same seed
    return _F(L).dropout(x, p)


def _second(L: Any, x: Any, fn: Any) -> Any:
    """x's gradient with create_graph, times x: the graph the backward pass built is the case's graph."""
    fn(x).sum().backward(create_graph=True)
    return x.grad * x


def register(C: Any) -> None:
    """Add the cases to C.CASES (C is the cases module: its `case`, `values`, `positive`, F32)."""
    case, values = C.case, C.values
    x23, w43, w3 = values(2, 4, offset=30), values(3, 4, offset=31), values(3, offset=32)
    case("nn_addmm", lambda L, b, x, w: L.addmm(b, x, w), w3, x23, values(4, 3, offset=33))
    case("nn_addmm_beta_alpha", lambda L, b, x, w: L.addmm(b, x, w, beta=0.5, alpha=2.0), values(2, 3, offset=34),
         x23, values(4, 3, offset=33))
    case("nn_linear_rows", lambda L, x, w, b: _F(L).linear(x, w, b), x23, w43, w3)
    case("nn_linear_vector", lambda L, x, w, b: _F(L).linear(x, w, b), values(4, offset=35), w43, w3)
    case("nn_linear_batch", lambda L, x, w, b: _F(L).linear(x, w, b), values(2, 2, 4, offset=36), w43, w3)
    case("nn_linear_no_bias", lambda L, x, w: _F(L).linear(x, w), x23, w43)
    case("nn_linear_no_bias_batch", lambda L, x, w: _F(L).linear(x, w), values(2, 2, 4, offset=36), w43)
    case("nn_linear_input_without_grad", lambda L, x, w, b: _F(L).linear(x, w, b), x23, w43, w3,
         grad=(False, True, True))
    case("nn_linear_float32", lambda L, x, w, b: _F(L).linear(x, w, b), x23, w43, w3, dtype=C.F32)
    w423 = values(4, 2, 3, offset=38)
    case("nn_bilinear_rows", lambda L, a, b, w, c: _F(L).bilinear(a, b, w, c), values(5, 2, offset=39),
         values(5, 3, offset=40), w423, values(4, offset=41))
    case("nn_bilinear_vector_no_bias", lambda L, a, b, w: _F(L).bilinear(a, b, w), values(2, offset=42),
         values(3, offset=43), w423)
    case("nn_bilinear_batch", lambda L, a, b, w, c: _F(L).bilinear(a, b, w, c), values(2, 3, 2, offset=44),
         values(2, 3, 3, offset=45), w423, values(4, offset=41))
    case("nn_bilinear_transposed_input", lambda L, a, b, w: _F(L).bilinear(a.t(), b, w), values(2, 5, offset=46),
         values(5, 3, offset=40), w423)
    case("nn_bilinear_weight_only", lambda L, a, b, w: _F(L).bilinear(a, b, w), values(5, 2, offset=39),
         values(5, 3, offset=40), w423, grad=(False, False, True))
    case("nn_bilinear_float32", lambda L, a, b, w, c: _F(L).bilinear(a, b, w, c), values(5, 2, offset=39),
         values(5, 3, offset=40), w423, values(4, offset=41), dtype=C.F32)
    a23, b23 = values(2, 3, offset=47), values(2, 3, offset=48)
    case("double_backward_smooth_l1_loss", lambda L, x, y: _second(L, x, lambda t: _F(L).smooth_l1_loss(t * t, y,
         beta=0.5)), a23, b23)
    case("double_backward_smooth_l1_loss_none", lambda L, x, y: _second(L, x, lambda t: _F(L).smooth_l1_loss(
         t * t, y, reduction="none", beta=2.0)), a23, b23, grad=(True, False))
    case("double_backward_huber_loss", lambda L, x, y: _second(L, x, lambda t: _F(L).huber_loss(t * t, y,
         reduction="sum", delta=0.5)), a23, b23)
    case("double_backward_huber_loss_none", lambda L, x, y: _second(L, x, lambda t: _F(L).huber_loss(
         t * t, y, reduction="none")), a23, b23, grad=(True, False))
    case("double_backward_cross_entropy", lambda L, x: _second(L, x, lambda t: _F(L).cross_entropy(
         t * t, _classes(L, 2, 0))), a23)
    case("double_backward_nll_loss_none", lambda L, x: _second(L, x, lambda t: _F(L).nll_loss(
         (t * t).log_softmax(1), _classes(L, 1, 2), reduction="none")), a23)
    case("double_backward_bce_with_logits", lambda L, x, y: _second(L, x, lambda t: _F(
         L).binary_cross_entropy_with_logits(t * t, y.sigmoid())), a23, b23, grad=(True, False))
    case("double_backward_linear_tanh", lambda L, x, w, b: _second(L, w, lambda v: _F(L).linear(
         _F(L).linear(x, v, b).tanh(), v.t())), values(5, 3, offset=49), values(3, 3, offset=50), values(3, offset=51))
    case("nn_dropout", lambda L, x: _dropout(L, x, 0.5), values(3, 4, offset=37))
    case("nn_dropout_float32", lambda L, x: _dropout(L, x, 0.25), values(3, 4, offset=38), dtype=C.F32)
    scores = values(3, 4, offset=39)
    for reduction in ("mean", "sum", "none"):
        case(f"nn_nll_loss_{reduction}", (lambda r: lambda L, x: _F(L).nll_loss(
            _F(L).log_softmax(x, dim=1), _classes(L, 1, 0, 3), reduction=r))(reduction), scores)
        case(f"nn_cross_entropy_{reduction}", (lambda r: lambda L, x: _F(L).cross_entropy(
            x, _classes(L, 2, 0, 3), reduction=r))(reduction), scores)
        case(f"nn_cross_entropy_probabilities_{reduction}", (lambda r: lambda L, x, p: _F(L).cross_entropy(
            x, p, reduction=r))(reduction), scores, C.positive(3, 4, offset=40), grad=(True, False))
        case(f"nn_smooth_l1_loss_{reduction}", (lambda r: lambda L, x, y: _F(L).smooth_l1_loss(
            x, y, reduction=r, beta=0.5))(reduction), [0.5, -1.0, 2.0, 0.125], [0.75, 0.0, 3.0, -0.5])
        case(f"nn_huber_loss_{reduction}", (lambda r: lambda L, x, y: _F(L).huber_loss(
            x, y, reduction=r, delta=0.5))(reduction), [0.5, -1.0, 2.0, 0.125], [0.75, 0.0, 3.0, -0.5])
    case("nn_nll_loss_weight_ignore", lambda L, x: _F(L).nll_loss(
        x, _classes(L, 1, -100, 3), weight=L.tensor([0.5, 2.0, 1.0, 0.25], dtype=L.float64)), scores)
    case("nn_cross_entropy_one_sample", lambda L, x: _F(L).cross_entropy(x, L.tensor(2)), values(4, offset=41))
    case("nn_cross_entropy_float32", lambda L, x: _F(L).cross_entropy(x, _classes(L, 2, 0, 3)), scores, dtype=C.F32)
