"""The explanation of a backward pass: the pass replayed step by step, in the order the engine ran it.

`Explainer` is the engine's backward observer (engine.observe): for every node it copies the
gradient the node received, what it sent to each input and the saved values its rule used, while they
still exist. `explain()` then turns the record into `Step`s: each names the node (with its id in the
graph export), where its gradient came from (several contributions, summed, for a value used twice),
and for each input the local rule written out with numbers (`grad * other = 1.0 * 4.0 = 4.0`), the
broadcast reduction when there was one, and for a leaf what .grad became.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autodiff import engine
from autodiff.engine import AccumulateGrad, LimitError

# A rule text that is a formula (symbols, numbers, operators, calls) gets numbers substituted; a rule
# in words ("grad expanded to self's shape") is shown as it is, followed by the numbers that went out.
_FORMULA = re.compile(r"^[\w\s.*/+\-()\[\],:]+$")
_SYMBOL = re.compile(r"\b[A-Za-z_]\w*\b")
_PLAIN_WORDS = {"cos", "sin", "exp", "log", "sign", "sum", "sqrt", "t", "T", "mT", "reshape", "transpose",
                "unsqueeze", "squeeze", "shape", "dim"}
_MAX_SHOWN = 8  # tensors with more elements are summarised in the text


def short(values: Any) -> str:
    """A compact number or array for an explanation: 4 significant digits, summarised when large."""
    if values is None:
        return "None"
    if isinstance(values, (int, float, bool)):
        return repr(values)
    array = np.asarray(values)
    if array.ndim == 0:
        return _number(float(array))
    text = np.array2string(array, separator=", ", formatter={"float_kind": _number}, threshold=_MAX_SHOWN,
                           edgeitems=2, max_line_width=10_000).replace("\n", "")
    return text + (f" (shape {tuple(array.shape)})" if array.size > _MAX_SHOWN else "")


def _number(x: float) -> str:
    text = f"{x:.4g}"
    if "e" not in text and "." not in text and "n" not in text:
        text += ".0"
    return text


@dataclass
class Contribution:
    from_step: int  # index of the step that sent it
    from_node: int | None  # its node id
    values: np.ndarray
    via: str = ""  # which of the sender's inputs this was (self, other, ...)


@dataclass
class Rule:
    """What one input received from the node: the rule, the rule with numbers, the result."""

    input: str  # the input's name in the op table (self, other, ...)
    rule: str
    worked: str  # the rule with numbers, or "" when the rule is in words
    result: np.ndarray | None
    reduced_from: tuple[int, ...] | None = None  # broadcast: the shape before summing to the input's


@dataclass
class Step:
    index: int
    pass_number: int
    node_id: int | None
    name: str
    tensor: str | None  # the named tensor the node produced, or the leaf's name for AccumulateGrad
    grad_in: np.ndarray
    received: list[Contribution] = field(default_factory=list)
    starting: bool = False  # grad_in is the gradient the pass started from
    rules: list[Rule] = field(default_factory=list)
    leaf_before: np.ndarray | None = None  # AccumulateGrad: .grad before this step
    leaf_after: np.ndarray | None = None


class Explainer:
    """The observer that records a backward pass (install it with EvalRequest(observe=...))."""

    def __init__(self, limit: int | None = None) -> None:
        """limit: how many values the copies of all steps may hold together (None: the element limit)."""
        self.raw: list[tuple[int, Any, np.ndarray, list, dict]] = []
        self.pass_number = 0
        self.limit = engine.get_max_elements() if limit is None else limit
        self.kept = 0

    def start_pass(self) -> None:
        self.pass_number += 1

    def __call__(self, node: Any, grad_in: Any, grads_out: Any) -> None:
        saved = None if isinstance(node, AccumulateGrad) else node.saved_values()
        before = node.variable.grad if isinstance(node, AccumulateGrad) else None
        self._count(grad_in, *grads_out, *(saved or {}).values(), None if before is None else before.numpy(force=True))
        copied_out = [None if g is None else np.array(g, copy=True) for g in grads_out]
        context: dict[str, Any] = {}
        if isinstance(node, AccumulateGrad):
            context["before"] = None if before is None else np.array(before.numpy(force=True), copy=True)
        elif saved is not None:
            context = {k: (np.array(v, copy=True) if isinstance(v, np.ndarray) else v) for k, v in saved.items()}
        self.raw.append((self.pass_number, node, np.array(grad_in, copy=True), copied_out, context))


    def _count(self, *arrays: Any) -> None:
        """Refuse, before copying them, values that would take the copies of all steps past the limit."""
        self.kept += sum(int(a.size) for a in arrays if isinstance(a, np.ndarray))
        if self.limit is not None and self.kept > self.limit:
            raise LimitError(f"the explanation keeps the values of every step: {self.kept:,} so far, over the limit "
                             f"of {self.limit:,}", hint="explain a smaller example (the steps are the same for any "
                             "size), or raise the element limit", reason="explain")


def explain(explainer: Explainer, graph: Any) -> list[Step]:
    """Steps in execution order, with contributions and rules resolved (see the module docstring)."""
    ids = {id(n.node): n.id for n in graph.nodes}
    labels = {n.id: (n.variable if n.name == "AccumulateGrad" else n.tensor) for n in graph.nodes}
    steps: list[Step] = []
    pending: dict[tuple[int, int], list[Contribution]] = {}  # (pass, node id) -> what it was sent
    for index, (pass_number, node, grad_in, grads_out, context) in enumerate(explainer.raw):
        node_id = ids.get(id(node))
        received = pending.pop((pass_number, node_id), [])
        step = Step(index, pass_number, node_id, node.name(), labels.get(node_id), grad_in, received,
                    starting=not received)
        if isinstance(node, AccumulateGrad):
            step.leaf_before = context.get("before")
            step.leaf_after = grad_in if step.leaf_before is None else step.leaf_before + grad_in
        else:
            shapes = node.input_shapes
            for i, (nxt, formula, result) in enumerate(zip(node.next_nodes, node.op.grads, grads_out)):
                if nxt is None:
                    continue
                input_name = node.op.inputs[i]
                shape = shapes[i]
                broadcast = _broadcast_shape(node, grad_in, shape)
                step.rules.append(Rule(input_name, formula.text, _worked(formula.text, grad_in, context, result,
                                                                         broadcast), result, broadcast))
                target = ids.get(id(nxt))
                pending.setdefault((pass_number, target), []).append(
                    Contribution(index, node_id, result, input_name))
        steps.append(step)
    return steps


def _broadcast_shape(node: Any, grad_in: np.ndarray, input_shape: tuple[int, ...]) -> tuple[int, ...] | None:
    """For elementwise ops on broadcast inputs: the gradient's shape before it was summed to the input's."""
    if not node.op.elementwise or input_shape is None:
        return None
    return tuple(grad_in.shape) if tuple(grad_in.shape) != tuple(input_shape) else None


def _worked(text: str, grad_in: np.ndarray, context: dict[str, Any], result: np.ndarray | None,
            broadcast: tuple[int, ...] | None) -> str:
    """The rule with its symbols replaced by their values and the result: '1.0 * 4.0 = 4.0'."""
    if not _FORMULA.match(text) or not context:
        return ""
    values = {"grad": grad_in, **context}

    def substitute(match: re.Match) -> str:
        word = match.group(0)
        if word in _PLAIN_WORDS or word not in values:
            return word
        return short(values[word])

    worked = _SYMBOL.sub(substitute, text)
    outcome = short(result)
    if broadcast is not None:
        return f"{text} = {worked}, summed from shape {broadcast} = {outcome}"
    if worked == outcome:
        return f"{text} = {outcome}"
    return f"{text} = {worked} = {outcome}"
