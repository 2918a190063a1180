"""PyTorch's pytrees (torch.utils._pytree) for torch.func: nested tuples, lists and dicts whose leaves are
tensors (or anything else). `flatten` gives the leaves in PyTorch's order (depth first, a dict in the order of
its keys) and a spec that `unflatten` rebuilds the structure from; `broadcast` spreads a prefix (vmap's
in_dims/out_dims: an int or None for a whole subtree, or the same containers) over a tree's leaves.

Every walk is iterative: a structure nested 100,000 deep is walked without Python's recursion. None is a
leaf, as in PyTorch (not an empty node, as in JAX).
"""

from __future__ import annotations

from typing import Any

LEAF = None  # a leaf's entry in a spec; a container's is (kind, count or keys)
Spec = list


def is_node(value: Any) -> bool:
    """A container the walks go into: tuple (named tuples too), list, dict."""
    return isinstance(value, (tuple, list, dict))


def _children(node: Any) -> list:
    return [node[k] for k in node] if isinstance(node, dict) else list(node)


def _entry(node: Any) -> tuple:
    if isinstance(node, dict):
        return ("dict", list(node))
    return ("list" if isinstance(node, list) else "tuple", len(node))


def flatten(tree: Any) -> tuple[list, Spec]:
    """(leaves, spec): the leaves in depth-first order and the structure in preorder."""
    leaves: list = []
    spec: Spec = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if is_node(node):
            spec.append(_entry(node))
            stack.extend(reversed(_children(node)))
        else:
            spec.append(LEAF)
            leaves.append(node)
    return leaves, spec


def unflatten(leaves: list, spec: Spec) -> Any:
    """The structure of spec with leaves in its leaf positions (plain tuples, lists and dicts)."""
    remaining = list(leaves)
    built: list = []
    for entry in reversed(spec):
        if entry is LEAF:
            built.append(remaining.pop())
            continue
        kind, shape = entry
        count = len(shape) if kind == "dict" else shape
        items = [built.pop() for _ in range(count)]
        built.append(dict(zip(shape, items)) if kind == "dict" else list(items) if kind == "list" else tuple(items))
    return built[0]


def describe(spec: Spec) -> str:
    """A spec as a short text: tuple(*, *), dict(a=*, b=list(*, *))."""
    parts: list[str] = []
    pending: list[list] = []  # per open container: [closing text, children left]
    for entry in spec:
        if entry is LEAF:
            parts.append("*")
        else:
            kind, shape = entry
            keys = shape if kind == "dict" else None
            count = len(shape) if kind == "dict" else shape
            parts.append(f"{kind}(")
            pending.append([keys, count, 0])
            if count == 0:
                parts.append(")")
                pending.pop()
                _close(parts, pending)
                continue
            if keys:
                parts.append(f"{keys[0]}=")
            continue
        _close(parts, pending)
    return "".join(parts)


def _close(parts: list[str], pending: list[list]) -> None:
    """After a finished child: a comma and the next key, or the closing brackets of finished containers."""
    while pending:
        top = pending[-1]
        top[2] += 1
        if top[2] < top[1]:
            parts.append(", " + (f"{top[0][top[2]]}=" if top[0] else ""))
            return
        parts.append(")")
        pending.pop()


def broadcast(prefix: Any, tree: Any) -> list | None:
    """One entry of prefix per leaf of tree: a prefix leaf (an int, None, ...) covers its whole subtree, a
    container must match tree's (same kind, length or keys) and is gone into. None when they do not match."""
    out: list = []
    stack = [(prefix, tree)]
    while stack:
        p, node = stack.pop()
        if not is_node(p):
            out.extend([p] * len(flatten(node)[0]))
            continue
        if not is_node(node) or _entry(p)[0] != _entry(node)[0]:
            return None
        if isinstance(p, dict):
            if sorted(p, key=str) != sorted(node, key=str):
                return None
            pairs = [(p[k], node[k]) for k in node]
        else:
            if len(p) != len(node):
                return None
            pairs = list(zip(p, node))
        stack.extend(reversed(pairs))
    return out


__all__ = ["LEAF", "broadcast", "describe", "flatten", "is_node", "unflatten"]
