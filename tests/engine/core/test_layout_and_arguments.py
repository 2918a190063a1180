"""PyTorch's behaviour where it is easy to miss: contiguous() of a non-contiguous tensor records CloneBackward0,
F.layer_norm wants a tuple of ints, a dropout probability out of [0, 1] is a ValueError (not RuntimeError), and
memory formats (torch.contiguous_format, torch.preserve_format) and strides as PyTorch gives them."""

from __future__ import annotations

import pytest

import autodiff.engine.facade as ours
import autodiff.engine.facade.nn.functional as our_F
from autodiff.engine.errors import BadValueError, InvalidArgumentError, WrongTypeError


def _graph(t) -> list:
    names, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        names.append(node.name())
        stack.extend(f for f, _ in node.next_functions)
    return names


def _contiguous_of_transpose(lib):
    x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=lib.float64, requires_grad=True)
    y = x.t().contiguous()
    (y * lib.tensor([[1.0], [2.0], [3.0]], dtype=lib.float64)).sum().backward()
    return y, x


def test_contiguous_of_a_transpose_is_a_recorded_copy():
    y, x = _contiguous_of_transpose(ours)
    assert _graph(y)[:2] == ["CloneBackward0", "TBackward0"] and len(_graph(y)) == 3  # and x's AccumulateGrad
    assert y.is_contiguous() and y.tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    assert x.grad.tolist() == [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    z = ours.ones(2, 3, requires_grad=True)
    assert z.contiguous() is z  # already contiguous: the tensor itself, nothing recorded


def test_contiguous_matches_pytorch():
    torch = pytest.importorskip("torch")
    (y, x), (ty, tx) = _contiguous_of_transpose(ours), _contiguous_of_transpose(torch)
    assert _graph(y)[:2] == _graph(ty)[:2] and len(_graph(y)) == len(_graph(ty))
    assert x.grad.tolist() == tx.grad.tolist()


@pytest.mark.parametrize("shape", [3, 3.0, "3"])
def test_layer_norm_wants_a_tuple_of_ints(shape):
    x = ours.randn(2, 3)
    with pytest.raises(WrongTypeError, match="must be tuple of ints, not") as raised:
        our_F.layer_norm(x, shape)
    assert isinstance(raised.value, TypeError)
    assert our_F.layer_norm(x, (3,)).shape == (2, 3) and our_F.layer_norm(x, [3]).shape == (2, 3)
    assert our_F.layer_norm(x, x.shape[1:]).shape == (2, 3)
    assert ours.nn.LayerNorm(3)(x).shape == (2, 3)  # the module takes an int, as PyTorch's


@pytest.mark.parametrize("drop", [our_F.dropout, our_F.dropout1d, our_F.dropout2d, our_F.dropout3d])
@pytest.mark.parametrize("p", [1.5, -0.1])
def test_dropout_probability_out_of_range_is_a_value_error(drop, p):
    with pytest.raises(InvalidArgumentError, match="dropout probability has to be between 0 and 1") as raised:
        drop(ours.ones(2, 3, 4), p=p)
    assert isinstance(raised.value, ValueError) and not isinstance(raised.value, RuntimeError)


@pytest.mark.parametrize("layer", ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d"])
def test_dropout_layers_refuse_the_probability_as_pytorch(layer):
    with pytest.raises(ValueError, match=r"dropout probability has to be between 0 and 1, but got 1\.5"):
        getattr(ours.nn, layer)(1.5)


def _formats(lib) -> list:
    """What a script sees of memory formats: strides, node names, values and gradients, on a transposed tensor."""
    x = lib.arange(6.0, dtype=lib.float64).reshape(2, 3).requires_grad_()
    y = (x * 2).t()
    seen = [repr(lib.contiguous_format), repr(lib.preserve_format), y.stride(), y.stride(0), y.stride(-1),
            y.is_contiguous(), y.is_contiguous(memory_format=lib.contiguous_format),
            y.is_contiguous(memory_format=lib.preserve_format)]
    made = [y.contiguous(memory_format=lib.contiguous_format), y.clone(memory_format=lib.contiguous_format),
            y.clone(), lib.clone(y, memory_format=lib.preserve_format),
            y.to(lib.float32, memory_format=lib.contiguous_format), y.to(lib.float32),
            y.to(memory_format=lib.contiguous_format),
            y.to(lib.float64, copy=True, memory_format=lib.contiguous_format), y.to(copy=True)]
    seen += [(t.stride(), t.dtype == lib.float64, t.grad_fn.name(), t.tolist()) for t in made]
    for like in (lib.zeros_like, lib.ones_like, lib.empty_like, lib.rand_like, lib.randn_like):
        seen += [like(y, memory_format=f).stride() for f in (lib.contiguous_format, lib.preserve_format)]
        seen.append(like(y).stride())
    seen.append(lib.full_like(y, 3.0, memory_format=lib.contiguous_format).tolist())
    sum(t.sum() for t in made[:2]).backward()
    return [*seen, x.grad.tolist()]


def test_memory_formats_and_strides_match_pytorch():
    torch = pytest.importorskip("torch")
    assert _formats(ours) == _formats(torch)


def test_memory_formats_autodiff_lacks_or_refuses_say_so():
    y = ours.ones(2, 3).t()
    with pytest.raises(BadValueError, match="preserve memory format is unsupported by the contiguous operator"):
        y.contiguous(memory_format=ours.preserve_format)
    with pytest.raises(BadValueError, match=r"memory_format=torch.channels_last is not available in autodiff"):
        y.contiguous(memory_format=ours.channels_last)
    with pytest.raises(BadValueError, match=r"clone: memory_format=torch.channels_last_3d is not available"):
        y.clone(memory_format=ours.channels_last_3d)
    with pytest.raises(WrongTypeError, match=r"^zeros_like\(\): argument 'memory_format' must be torch.memory_format, "
                                             r"not str$"):
        ours.zeros_like(y, memory_format="contiguous")
    assert isinstance(ours.channels_last, ours.memory_format) and repr(ours.channels_last) == "torch.channels_last"
    assert y.cpu(memory_format=ours.contiguous_format) is y  # PyTorch's cpu() of a CPU tensor is the tensor


def _signed_zero_powers(lib) -> list:
    """(-0.0) ** e as PyTorch's two kernels give it: a number exponent takes 0.5 as sqrt and -0.5 as rsqrt (signs
    kept), a tensor exponent calls C's pow (+0.0, +inf)."""
    x = lib.tensor([0.0, -0.0, 4.0])
    seen = []
    for e in (0.5, -0.5, 2.0, 3.0, 1.5, -1.0):
        seen += [repr(x ** e), repr(lib.pow(x, lib.tensor(e, dtype=lib.float16))),
                 repr(x.double() ** lib.tensor([e, e, e], dtype=lib.float64))]
    return seen


def test_powers_of_a_signed_zero_match_pytorch():
    torch = pytest.importorskip("torch")
    assert _signed_zero_powers(ours) == _signed_zero_powers(torch)
