"""The `_as` methods that take their shape (or dtype) from another tensor, recorded as the op they apply:
expand_as (ExpandBackward0), view_as (ViewBackward0), reshape_as and type_as, as PyTorch records them."""

from __future__ import annotations

from typing import Any

from .coerce import tensor_arg
from .registry import builtin
from .shapes import expand, reshape, to, view
from .tensor import Tensor


@builtin("expand_as(input, other)", ("expand",), summary="input expanded to other's shape (a view)")
def expand_as(input: Any, other: Any) -> Tensor:
    return expand(tensor_arg(input), *tensor_arg(other, "other").shape)


@builtin("view_as(input, other)", ("view",), summary="input viewed with other's shape")
def view_as(input: Any, other: Any) -> Tensor:
    return view(tensor_arg(input), *tensor_arg(other, "other").shape)


@builtin("reshape_as(input, other)", ("view", "reshape_alias", "clone", "unsafe_view"),
         summary="input reshaped to other's shape")
def reshape_as(input: Any, other: Any) -> Tensor:
    return reshape(tensor_arg(input), *tensor_arg(other, "other").shape)


@builtin("type_as(input, other)", ("to",), summary="input in other's dtype")
def type_as(input: Any, other: Any) -> Tensor:
    source, like = tensor_arg(input), tensor_arg(other, "other")
    return source if source.dtype == like.dtype else to(source, like.dtype)
