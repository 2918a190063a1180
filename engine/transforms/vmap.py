"""torch.func.vmap by a loop: the function runs once per index of the mapped dimension, on the inputs' slices
(`x[:, i]` along in_dim: SelectBackward0, so gradients flow back to a batched input), and each output's results are
stacked along its out_dim (`stack`, recorded). Values and gradients are PyTorch's; the graph is not: a
vmapped result's grad_fn is StackBackward0 where PyTorch's batched kernels give the operation's own node.

Inputs and outputs are pytrees (pytree.py): in_dims and out_dims are an int, None, or the same structure
with ints and Nones. Nested vmap, vmap of grad/jacrev/jvp and any function of the script work, since each
call is an ordinary call. randomness: 'error' (a random draw inside is PyTorch's error), 'same' (every index
draws the same numbers: the generator is rewound before each index, so the numbers are PyTorch's) and
'different' (each index draws its own: distributed as PyTorch's, not the same numbers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from ..errors import BadValueError
from ..ops.joins import stack
from ..random import generator
from .pytree import broadcast, describe, flatten, is_node, unflatten

RANDOMNESS = ("error", "different", "same")


def _name(func: Any) -> str:
    for value in (getattr(func, "name", None), getattr(func, "__name__", None)):
        if isinstance(value, str):
            return value
    return type(func).__name__


def _pytype(value: Any) -> str:
    """A value's type as Python prints it: <class 'float'>."""
    return "<class 'torch.Tensor'>" if isinstance(value, Tensor) else f"<class '{type(value).__name__}'>"


def _fail(message: str) -> BadValueError:
    return BadValueError(message, reason="vmap")


def _check_out_dims(func: Any, out_dims: Any) -> None:
    leaves, _ = flatten(out_dims)
    if any(not (d is None or (isinstance(d, int) and not isinstance(d, bool))) for d in leaves):
        raise _fail(f"vmap({_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a python "
                    "collection of ints representing where in the outputs the vmapped dimension should appear.")


def _in_dims(func: Any, in_dims: Any, args: tuple) -> tuple[int, list, list, list]:
    """(batch size, in_dim per leaf, leaves, spec) of the arguments, checked as PyTorch checks them."""
    name = _name(func)
    if not (isinstance(in_dims, (int, tuple)) and not isinstance(in_dims, bool)):
        raise _fail(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a (potentially "
                    f"nested) tuple matching the structure of inputs, got: {_pytype(in_dims)}.")
    if not args:
        raise _fail(f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are trying to "
                    "vmap over a function with no inputs. The latter is unsupported.")
    leaves, spec = flatten(args)
    dims = broadcast(in_dims, args)
    if dims is None:
        raise _fail(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the structure "
                    f"of `inputs`. in_dims has structure {describe(flatten(in_dims)[1])} but inputs has structure "
                    f"{describe(spec)}.")
    for k, (arg, dim) in enumerate(zip(leaves, dims)):
        where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={dim}"
        if dim is None:
            continue
        if not isinstance(dim, int) or isinstance(dim, bool):
            raise _fail(f"{where} for an input but in_dim must be either an integer dimension or None.")
        if not isinstance(arg, Tensor):
            raise _fail(f"{where} for an input but the input is of type {_pytype(arg)}. We cannot vmap over "
                        "non-Tensor arguments, please use None as the respective in_dim")
        if not -arg.ndim <= dim < arg.ndim:
            raise _fail(f"{where} for some input, but that input is a Tensor of dimensionality {arg.ndim} so "
                        f"expected in_dim to satisfy -{arg.ndim} <= in_dim < {arg.ndim}.")
        dims[k] = dim % arg.ndim
    sizes = [arg.shape[dim] for arg, dim in zip(leaves, dims) if dim is not None]
    if not sizes:
        raise _fail("vmap: Expected at least one Tensor to vmap over")
    if any(size != sizes[0] for size in sizes):
        raise _fail(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes {sizes} "
                    "for the mapped dimension")
    if sizes[0] == 0:
        raise _fail("vmap: the mapped dimension has size 0; autodiff runs the function once per index, so it "
                    "cannot tell the shape of an empty result", hint="map over a dimension of size 1 or more")
    return sizes[0], dims, leaves, spec


class _Randomness:
    """The generator's rules for one vmap call: 'error' refuses draws, 'same' rewinds before each index."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.saved: Any = None

    def before(self, index: int) -> None:
        gen = generator.default_generator()
        if self.mode == "same":
            if index == 0:
                self.saved = gen.snapshot()
            else:
                gen.restore(self.saved)

    def __enter__(self) -> _Randomness:
        generator.REFUSE_DRAWS.append(self.mode == "error")
        return self

    def __exit__(self, *exc: object) -> None:
        generator.REFUSE_DRAWS.pop()


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        return a.shape == b.shape and bool(np.array_equal(a._data, b._data))
    return not isinstance(a, Tensor) and not isinstance(b, Tensor) and bool(a == b)


def _unbatched(name: str, results: list) -> Any:
    """An output with out_dim None: the same at every index (PyTorch: not a BatchedTensor)."""
    if any(not _same(results[0], other) for other in results[1:]):
        raise _fail(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
    return results[0]


def _stacked(name: str, out_dims: Any, results: list) -> Any:
    """The per-index outputs as vmap returns them: each leaf stacked along its out_dim."""
    first = results[0]
    spec = flatten(first)[1]
    per_index = [flatten(r) for r in results]
    if any(s != spec for _, s in per_index):
        raise _fail(f"vmap({name}, ...): `{name}` returned outputs of different structures for different indices "
                    "of the batch")
    if isinstance(first, Tensor) and isinstance(out_dims, tuple) and len(out_dims) == 1:
        dims = list(out_dims)
    else:
        dims = broadcast(out_dims, first) if is_node(first) or not is_node(out_dims) else None
    if dims is None:
        raise _fail(f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the "
                    f"structure of `outputs`. out_dims has structure {describe(flatten(out_dims)[1])} but outputs "
                    f"has structure {describe(spec)}.")
    out = []
    for k, dim in enumerate(dims):
        column = [leaves_k[k] for leaves_k, _ in per_index]
        if dim is None:
            out.append(_unbatched(name, column))
            continue
        if not isinstance(column[0], Tensor):
            raise _fail(f"vmap({name}, ...): `{name}` must only return Tensors, got type {_pytype(column[0])}. "
                        "Did you mean to set out_dims= to None for output?")
        out.append(stack(column, dim))
    return unflatten(out, spec)


def vmap(func: Callable[..., Any], in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable[..., Any]:
    """torch.func.vmap: func mapped over a dimension of its inputs (keyword arguments are passed unmapped)."""
    if randomness not in RANDOMNESS:
        raise _fail(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or isinstance(chunk_size, bool)
                                   or chunk_size < 1):
        raise _fail(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")
    _check_out_dims(func, out_dims)

    def mapped(*args: Any, **kwargs: Any) -> Any:
        size, dims, leaves, spec = _in_dims(func, in_dims, args)
        results = []
        with _Randomness(randomness) as rules:
            for i in range(size):
                rules.before(i)
                sliced = [x if d is None else x[(slice(None),) * d + (i,)] for x, d in zip(leaves, dims)]
                results.append(func(*unflatten(sliced, spec), **kwargs))
        return _stacked(_name(func), out_dims, results)

    mapped.__name__ = _name(func)
    return mapped


__all__ = ["vmap"]
