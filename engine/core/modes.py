"""The engine's modes: grad mode (recording on or off), anomaly detection, the label of what is being
recorded, and watching a backward pass. Each is a context manager that restores the previous state."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from .settings import STATE


class GradMode(contextlib.ContextDecorator):
    """Recording on or off inside a `with` block or a decorated function, restored after it.

    `now=True` switches at once (torch.set_grad_enabled): a `with` around it then only restores."""

    def __init__(self, enabled: bool, *, now: bool = False) -> None:
        self.enabled = bool(enabled)
        self.now = now
        self.previous: list[bool] = []
        if now:
            self.previous.append(STATE.grad_enabled)
            STATE.grad_enabled = self.enabled

    def __enter__(self) -> GradMode:
        if self.now:
            self.now = False  # a later `with` of the same object switches again
        else:
            self.previous.append(STATE.grad_enabled)
            STATE.grad_enabled = self.enabled
        return self

    def __exit__(self, *exc: object) -> None:
        STATE.grad_enabled = self.previous.pop()


def no_grad() -> GradMode:
    """Context manager (or decorator) in which operations are not recorded."""
    return GradMode(False)


def enable_grad() -> GradMode:
    """Context manager (or decorator) in which operations are recorded."""
    return GradMode(True)


def set_grad_enabled(mode: bool) -> GradMode:
    """Switch recording on or off; also usable as a context manager that restores the previous mode."""
    return GradMode(mode, now=True)


def is_grad_enabled() -> bool:
    return STATE.grad_enabled


@contextlib.contextmanager
def detect_anomaly(check_nan: bool = True) -> Iterator[None]:
    """Within it, backward stops at the first node whose gradient has a nan, naming where it was made."""
    previous = STATE.anomaly
    STATE.anomaly = check_nan
    try:
        yield
    finally:
        STATE.anomaly = previous


def is_anomaly_enabled() -> bool:
    return STATE.anomaly


@contextlib.contextmanager
def forward_context(label: object) -> Iterator[None]:
    """Label the nodes recorded inside (e.g. with the statement that created them) for anomaly reports."""
    previous = STATE.forward_context
    STATE.forward_context = label
    try:
        yield
    finally:
        STATE.forward_context = previous


@contextlib.contextmanager
def observe(callback: Callable[[Any, Any, Any], None] | None) -> Iterator[None]:
    """Watch the backward passes run inside the block: `callback(node, grad_in, grads_out)` is called for
    every node that runs, after it computed its gradients (`grads_out`: one per input, None where an input
    needs none); for an AccumulateGrad, before it adds `grad_in` into the leaf's .grad (`grads_out` is ()).
    The arrays are the engine's own: copy what you keep. `callback=None` watches nothing."""
    previous = STATE.observer
    STATE.observer = callback
    try:
        yield
    finally:
        STATE.observer = previous


@contextlib.contextmanager
def watch_passes(watcher: Callable[[list, bool], None] | None) -> Iterator[None]:
    """Watch the backward passes run inside the block: `watcher(outputs, True)` before each one runs (outputs: the
    tensors it starts from) and `watcher(outputs, False)` after it ran."""
    previous = STATE.pass_watcher
    STATE.pass_watcher = watcher
    try:
        yield
    finally:
        STATE.pass_watcher = previous


@contextlib.contextmanager
def record_origins(locate: Callable[[], Any] | None) -> Iterator[None]:
    """Inside the block, every recorded node keeps `locate()` as its context (node.metadata["context"]): where it
    was made, for anomaly reports and graphs."""
    previous = STATE.locate
    STATE.locate = locate
    try:
        yield
    finally:
        STATE.locate = previous
