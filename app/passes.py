"""A script's backward passes, watched when `autodiff run` is asked to trace or explain them: for each pass (a
`.backward()` or `torch.autograd.grad` call), the line of the script that started it, the graph it ran over (nodes
named by the script's variables where a variable holds their tensor, each with the line that recorded it) and, when
explaining, its steps. The caller's `report` receives each pass as it ends, so the report comes between the script's own
output in the order things happened."""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Iterator
from typing import Any

from autodiff.app.explain import Explainer, Step, explain
from autodiff.app.graph import Graph, graph_of
from autodiff.app.script import locate
from autodiff.engine import Tensor


class PassReport:
    """One backward pass of a script."""

    __slots__ = ("graph", "number", "origins", "roots", "steps", "where")

    def __init__(self, number: int, where: Any, roots: list[str], graph: Graph, origins: dict[int, Any],
                 steps: list[Step] | None) -> None:
        self.number, self.where, self.roots, self.graph = number, where, roots, graph
        self.origins = origins  # node id -> the script's line that recorded it
        self.steps = steps  # when explaining: the pass step by step


def _script_names() -> dict[str, Any]:
    """The tensors the script's innermost frame names (its locals over its globals)."""
    frame = inspect.currentframe()
    origin = locate()
    while frame is not None and (origin is None or frame.f_code.co_filename != origin.filename):
        frame = frame.f_back
    if frame is None:
        return {}
    names = {**frame.f_globals, **frame.f_locals}
    return {name: value for name, value in names.items() if isinstance(value, Tensor) and not name.startswith("_")}


class PassWatch:
    """The watcher of a script's passes (engine.watch_passes, engine.observe)."""

    def __init__(self, explain_steps: bool, report: Callable[[PassReport], None]) -> None:
        self.explain_steps, self.report = explain_steps, report
        self.count = 0
        self.open: list[tuple[int, Any, list[str], Graph, Explainer | None]] = []  # passes under way (nested)

    @contextlib.contextmanager
    def settings(self) -> Iterator[None]:
        yield

    def on_pass(self, outputs: list, start: bool) -> None:
        if start:
            self.count += 1
            names = _script_names()
            labels = {id(t): name for name, t in names.items()}
            tensors = [t for t in outputs if isinstance(t, Tensor)]
            graph = graph_of(tensors[0], names, tensors[1:]) if tensors else Graph(None, [])
            explainer = Explainer() if self.explain_steps else None
            if explainer is not None:
                explainer.start_pass()
            roots = [labels.get(id(t), "(unnamed)") for t in tensors]
            self.open.append((self.count, locate(), roots, graph, explainer))
            return
        number, where, roots, graph, explainer = self.open.pop()
        origins = {node.id: node.node.metadata.get("context") for node in graph.nodes
                   if node.name != "AccumulateGrad" and getattr(node.node, "metadata", None)}
        steps = explain(explainer, graph) if explainer is not None else None
        self.report(PassReport(number, where, roots, graph, {k: v for k, v in origins.items() if v}, steps))

    def on_node(self, node: Any, grad_in: Any, grads_out: Any) -> None:
        if self.open and self.open[-1][4] is not None:
            self.open[-1][4](node, grad_in, grads_out)
