"""The functions behind torch.nn's layers, recorded as PyTorch records them: addmm (AddmmBackward0), linear
(addmm with the weight's TBackward0 for a batch of rows with a bias; views around it for other inputs;
mm or matmul without a bias), bilinear (one TrilinearBackward0 between two views, as at::bilinear calls
_trilinear), dropout (a Bernoulli mask scaled by 1 / (1 - p), MulBackward0, drawn from the generator as
PyTorch's CPU kernel draws it) and dropout1d/2d/3d (whole channels zeroed, PyTorch's mask under the seed)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..core.coerce import number, tensor_arg
from ..core.optable import BILINEAR_JVP, LINEAR_ALGEBRA, PROMOTED, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, InvalidArgumentError, ShapeError
from ..kernels import allocator
from ..ops.arithmetic import add, mul
from ..ops.constructors import leaf
from ..ops.linalg import MATMUL_OPS, column_major, matmul
from ..ops.shapes import reshape, squeeze, t, unsqueeze, view
from ..random.distributions import bernoulli


def _scaled(x: Any, factor: float) -> Any:
    return x if factor == 1 else x * factor


def _addmm_forward(bias: np.ndarray, a: np.ndarray, b: np.ndarray, *, beta: float, alpha: float,
                   column_major: tuple[bool, bool] = (False, False)) -> np.ndarray:
    product = allocator.matmul(a, b)
    if alpha != 1:
        product = product * np.asarray(alpha, product.dtype)
    if beta == 0:
        return product
    if beta == 1 and bias.dtype == product.dtype and bias.ndim <= product.ndim and product.flags.writeable:
        return np.add(product, bias, out=product)  # the same sum, without a second array and a copy
    return (product + (bias if beta == 1 else bias * np.asarray(beta, bias.dtype))).astype(product.dtype)


def _addmm_jvp(F: Any, t: Any, s: Any) -> Any:
    """beta * self' + alpha * (mat1' @ mat2 + mat1 @ mat2')."""
    out = _scaled(F.matmul(t.mat1, s.mat2) + F.matmul(s.mat1, t.mat2), s.alpha)
    return out if s.beta == 0 else out + _scaled(t.self, s.beta)


def _times(F: Any, x: Any, factor: float) -> Any:
    """PyTorch's maybe_multiply: x itself for 1, else x times the number (MulBackward1 under create_graph)."""
    return x if factor == 1 else F.mul_scalar(x, factor)


def _mat1_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's mm_mat1_backward: for a column-major mat1, (mat2 @ grad.T).T, so the gradient is column-major
    too; else grad @ mat2.T (the TBackward0 and MmBackward0 nodes under create_graph are PyTorch's)."""
    if s.column_major[0]:
        return _times(F, F.t(F.matmul(s.mat2, F.t(g))), s.alpha)
    return _times(F, F.matmul(g, F.t(s.mat2)), s.alpha)


def _mat2_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's mm_mat2_backward: for a column-major mat2 (nn.Linear's weight.t()), (grad.T @ mat1).T; else
    mat1.T @ grad."""
    if s.column_major[1]:
        return _times(F, F.t(F.matmul(F.t(g), s.mat1)), s.alpha)
    return _times(F, F.matmul(F.t(s.mat1), g), s.alpha)


ADDMM = declare(Op("addmm", "AddmmBackward0", ("self", "mat1", "mat2"), _addmm_forward,
           (Grad(lambda F, g, s: _times(F, g, s.beta), "grad * beta"),
            Grad(_mat1_grad, "grad @ mat2.T * alpha"),
            Grad(_mat2_grad, "mat1.T @ grad * alpha")),
           "beta * self + alpha * (mat1 @ mat2), self broadcast to the product's shape", group=LINEAR_ALGEBRA,
           jvp=lambda F, t, s: _addmm_jvp(F, t, s), integers=PROMOTED))


def _trilinear_forward(i1: np.ndarray, i2: np.ndarray, i3: np.ndarray, *, spec: str) -> np.ndarray:
    return np.ascontiguousarray(np.einsum(spec, i1, i2, i3), dtype=np.result_type(i1, i2, i3))


def _swapped(spec: str, k: int) -> str:
    """The spec of input k's gradient: grad (the output's subscripts) in k's place, k's subscripts as the output."""
    terms, out = spec.split("->")
    subscripts = terms.split(",")
    target, subscripts[k] = subscripts[k], out
    return f"{','.join(subscripts)}->{target}"


# Each input's gradient is the same product with grad in its place (the product is linear in each input, and
# each input's subscripts all appear in another input or the output), as ATen's _trilinear_backward calls
# _trilinear; each formula reads only the other two inputs, so only those are saved.
_TRILINEAR_GRADS = (
    Grad(lambda F, g, s: F.trilinear(g, s.i2, s.i3, _swapped(s.spec, 0)), "_trilinear(grad, i2, i3)"),
    Grad(lambda F, g, s: F.trilinear(s.i1, g, s.i3, _swapped(s.spec, 1)), "_trilinear(i1, grad, i3)"),
    Grad(lambda F, g, s: F.trilinear(s.i1, s.i2, g, _swapped(s.spec, 2)), "_trilinear(i1, i2, grad)"))


TRILINEAR = declare(Op("trilinear", "TrilinearBackward0", ("i1", "i2", "i3"), _trilinear_forward,
                       _TRILINEAR_GRADS,
                       "the sum of products of three tensors over the subscripts the output lacks (einsum's spec)",
                       group=LINEAR_ALGEBRA, jvp=BILINEAR_JVP))


def _dims(shape: tuple[int, ...]) -> str:
    return "x".join(str(n) for n in shape)


def _check_product(a: Tensor, b: Tensor) -> None:
    if a.ndim != 2 or b.ndim != 2:
        raise ShapeError(f"addmm needs two matrices, got shapes {tuple(a.shape)} and {tuple(b.shape)}",
                         reason="matmul")
    if a._data.shape[1] != b._data.shape[0]:
        raise ShapeError(f"mat1 and mat2 shapes cannot be multiplied ({_dims(a._data.shape)} and "
                         f"{_dims(b._data.shape)}): the first's columns must equal the second's rows",
                         reason="matmul", shapes=(a.shape, b.shape))
    if a._data.dtype != b._data.dtype:
        names = {"float32": "Float", "float64": "Double"}
        raise BadValueError(f"mat1 and mat2 must have the same dtype, but got {names.get(a.dtype.name, a.dtype.name)} "
                            f"and {names.get(b.dtype.name, b.dtype.name)}",
                            hint="convert one of them first, e.g. x.float() or x.double()", reason="dtype")


@builtin("addmm(input, mat1, mat2, beta=1, alpha=1)", ("addmm",), op=ADDMM, method=False,
         summary="beta * input + alpha * (mat1 @ mat2): the product of two matrices plus input (broadcast)")
def addmm(input: Any, mat1: Any, mat2: Any, beta: Any = 1, alpha: Any = 1) -> Tensor:
    bias, a, b = tensor_arg(input), tensor_arg(mat1, "mat1"), tensor_arg(mat2, "mat2")
    _check_product(a, b)
    rows, cols = a._data.shape[0], b._data.shape[1]
    try:
        if bias._data.shape != (cols,) and bias._data.shape != (rows, cols):  # (a layer's bias: nothing to check)
            np.broadcast_shapes(bias._data.shape, (rows, cols))
    except ValueError:
        raise ShapeError(f"addmm: input of shape {tuple(bias.shape)} does not broadcast to the product's shape "
                         f"({rows}, {cols})", reason="broadcast") from None
    check_elements((rows, cols), "the matrix product")
    return apply(ADDMM, (bias, a, b), {"beta": number(beta, "beta"), "alpha": number(alpha, "alpha"),
                                       "column_major": (column_major(a), column_major(b))})


@builtin("linear(input, weight, bias=None)", ("addmm", "t", "view", *MATMUL_OPS, "add"),
         method=False, functional=True,
         summary="input @ weight.T + bias: the affine map of nn.Linear, recorded as PyTorch records it (addmm)")
def linear(input: Any, weight: Any, bias: Any = None) -> Tensor:
    x, w = tensor_arg(input), tensor_arg(weight, "weight")
    if w.ndim not in (1, 2) or x.ndim == 0:
        raise ShapeError(f"linear: weight must be a matrix (out_features, in_features) and input at least 1-D, got "
                         f"shapes {tuple(w.shape)} and {tuple(x.shape)}", reason="matmul")
    features = x._data.shape[-1]
    if w.ndim == 2 and w._data.shape[1] != features:
        rows = math.prod(x._data.shape[:-1])
        raise ShapeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{features} and "
                         f"{_dims(w._data.shape[::-1])}): the input's last dim must be the weight's in_features",
                         reason="matmul", shapes=(x.shape, w.shape))
    weight_t = t(w)
    if bias is not None and w.ndim == 2:
        b = tensor_arg(bias, "bias")
        if x.ndim == 2:
            return addmm(b, x, weight_t)
        if x._data.flags.c_contiguous:
            out = addmm(b, view(x, -1, features), weight_t)
            return view(out, *x._data.shape[:-1], w._data.shape[0])
        return add(matmul(x, weight_t), b)
    out = matmul(x, weight_t)  # PyTorch's at::matmul: a batch folded into the rows of an mm (matmul's nodes)
    return out if bias is None else add(out, bias)


def _check_bilinear(x1: Tensor, x2: Tensor, w: Tensor, b: Tensor | None) -> None:
    """at::bilinear's checks, with its messages."""
    if x1.ndim != x2.ndim:
        raise ShapeError(f"bilinear(): input dimensions do not match: got {x1.ndim} and {x2.ndim}", reason="bilinear")
    if x1.ndim == 0 or w.ndim != 3:
        raise ShapeError(f"bilinear(): inputs must be at least 1-D and weight 3-D (out, in1, in2), got shapes "
                         f"{tuple(x1.shape)}, {tuple(x2.shape)} and {tuple(w.shape)}", reason="bilinear")
    for i in range(x1.ndim - 1):
        if x1._data.shape[i] != x2._data.shape[i]:
            raise ShapeError(f"bilinear(): input batch dimensions do not match: got {x1._data.shape[i]} and "
                             f"{x2._data.shape[i]}", reason="bilinear")
    for n, (x, dim) in enumerate(((x1, 1), (x2, 2)), 1):
        if x._data.shape[-1] != w._data.shape[dim]:
            raise ShapeError(f"bilinear(): input{n} size does not match weight size: got {x._data.shape[-1]} but "
                             f"expected {w._data.shape[dim]}", reason="bilinear")
    if b is not None and (b.ndim != 1 or b._data.shape[0] != w._data.shape[0]):
        raise ShapeError(f"bilinear(): bias size does not match weight size: got {tuple(b.shape)} but expected "
                         f"({w._data.shape[0]},)", reason="bilinear")


@builtin("bilinear(input1, input2, weight, bias=None)", ("trilinear", "view", "add"), method=False,
         functional=True, summary="input1 @ weight[o] @ input2 for each output o, plus bias: nn.Bilinear's map")
def bilinear(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Tensor:
    x1, x2 = tensor_arg(input1, "input1"), tensor_arg(input2, "input2")
    w = tensor_arg(weight, "weight")
    b = None if bias is None else tensor_arg(bias, "bias")
    _check_bilinear(x1, x2, w, b)
    check_elements((*x1._data.shape[:-1], w._data.shape[0]), "the bilinear product")
    flat1, flat2 = reshape(x1, -1, x1._data.shape[-1]), reshape(x2, -1, x2._data.shape[-1])
    out = reshape(apply(TRILINEAR, (flat1, w, flat2), {"spec": "ni,oij,nj->no"}),
                  *x1._data.shape[:-1], w._data.shape[0])
    return out if b is None else add(out, b)


@builtin("dropout(input, p=0.5, training=True, inplace=False)", ("mul",), method=False, functional=True,
         summary="each element zeroed with probability p, the others scaled by 1 / (1 - p) (training only)")
def dropout(input: Any, p: Any = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    x = tensor_arg(input)
    chance = number(p, "p")
    if not 0 <= chance <= 1:
        raise InvalidArgumentError(f"dropout probability has to be between 0 and 1, but got {chance:g}",
                                   reason="dropout")
    if inplace:
        raise BadValueError("dropout(inplace=True) is not available: use inplace=False (the default)",
                            reason="dropout")
    if chance == 0 or not training or x.numel() == 0:
        return x
    if chance == 1:
        return mul(x, leaf(np.zeros((), x._data.dtype), False))
    noise = bernoulli(leaf(np.empty(x._data.shape, x._data.dtype), False), 1 - chance)
    noise._data[...] = noise._data / np.asarray(1 - chance, noise._data.dtype)
    return mul(x, noise)


def _feature_dropout(x: Tensor, p: float) -> Tensor:
    """PyTorch's feature dropout: one Bernoulli(1 - p) draw per (sample, channel), scaled by 1 / (1 - p)."""
    if p == 1:
        return mul(x, leaf(np.zeros((), x._data.dtype), False))
    shape = (*x._data.shape[:2], *([1] * (x.ndim - 2)))
    noise = bernoulli(leaf(np.empty(shape, x._data.dtype), False), 1 - p)
    noise._data[...] = noise._data / np.asarray(1 - p, noise._data.dtype)
    return mul(x, noise)


def _channel_dropout(input: Any, p: Any, training: bool, inplace: bool, batched: int, name: str) -> Tensor:
    """dropout1d/2d/3d: `batched` is the dims of a batched input (one fewer: unbatched)."""
    x = tensor_arg(input)
    chance = number(p, "p")
    if not 0 <= chance <= 1:
        raise InvalidArgumentError(f"dropout probability has to be between 0 and 1, but got {chance}", reason="dropout")
    if x.ndim not in (batched - 1, batched):
        if name != "dropout2d":
            raise BadValueError(f"{name}: Expected {batched - 1}D or {batched}D input, but received a {x.ndim}D input. "
                                f"Note that {name} exists to provide channel-wise dropout on inputs with "
                                f"{batched - 2} spatial dimension{'s' if batched > 3 else ''}", reason="dropout")
        warnings.warn(f"dropout2d: Received a {x.ndim}-D input to dropout2d, which is deprecated and will result in "
                      "an error in a future release.", UserWarning, stacklevel=3)
    elif name == "dropout2d" and x.ndim == 3:  # PyTorch's dropout2d reads a 3-D input as (N, C, L), batched
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                      "is desired - input is interpreted as shape (N, C, L), where C is the channel dim.",
                      UserWarning, stacklevel=3)
    if not training or chance == 0:
        return x
    if x.ndim == batched - 1 and name != "dropout2d":
        return squeeze(_feature_dropout(unsqueeze(x, 0), chance), 0)
    return _feature_dropout(x, chance)


@builtin("dropout1d(input, p=0.5, training=True, inplace=False)", ("mul",), method=False, functional=True)
def dropout1d(input: Any, p: Any = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Whole channels of (N, C, L) or (C, L) zeroed with probability p, the rest scaled by 1 / (1 - p)."""
    return _channel_dropout(input, p, training, inplace, 3, "dropout1d")


@builtin("dropout2d(input, p=0.5, training=True, inplace=False)", ("mul",), method=False, functional=True)
def dropout2d(input: Any, p: Any = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Whole channels of (N, C, H, W) or (C, H, W) zeroed with probability p, the rest scaled by 1 / (1 - p)."""
    return _channel_dropout(input, p, training, inplace, 4, "dropout2d")


@builtin("dropout3d(input, p=0.5, training=True, inplace=False)", ("mul",), method=False, functional=True)
def dropout3d(input: Any, p: Any = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Whole channels of (N, C, D, H, W) or (C, D, H, W) zeroed with probability p, the rest scaled."""
    return _channel_dropout(input, p, training, inplace, 5, "dropout3d")
