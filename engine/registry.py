"""The public functions of the engine: each registered once with its signature, the op-table entries it
may record and a one-line summary. The language (autodiff.grammar) and `autodiff ops` read `BUILTINS`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .ops import OPS


@dataclass(frozen=True)
class Builtin:
    """A public function: how to call it, which op-table entries it records, and whether x.name() works."""

    name: str
    fn: Callable[..., Any]
    signature: str
    ops: tuple[str, ...]
    summary: str
    method: bool


BUILTINS: dict[str, Builtin] = {}


def builtin(signature: str, ops: tuple[str, ...] = (), *, method: bool = True,
            summary: str = "") -> Callable[[Callable], Callable]:
    """Register a public function (and, with method=True, the Tensor method of the same name)."""

    def register(fn: Callable) -> Callable:
        name = signature.split("(", 1)[0]
        text = summary or (OPS[ops[0]].doc if ops else (fn.__doc__ or "").strip().split("\n")[0])
        BUILTINS[name] = Builtin(name, fn, signature, ops, text, method)
        return fn

    return register


def alias(name: str, target: str) -> None:
    """Register `name` as another spelling of the built-in `target` (numpy's arcsin for asin, ln for log)."""
    entry = BUILTINS[target]
    signature = name + entry.signature[len(target):]
    BUILTINS[name] = Builtin(name, entry.fn, signature, entry.ops, f"{entry.summary} (alias of {target})",
                             entry.method)


def alias_of(name: str) -> str | None:
    """The built-in that `name` is an alias of, or None."""
    entry = BUILTINS.get(name)
    if entry is None or "(alias of " not in entry.summary:
        return None
    return entry.summary.rsplit("(alias of ", 1)[1].rstrip(")")
