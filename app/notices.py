"""The engine's warnings while a program runs (PyTorch's own, e.g. meshgrid's without `indexing`), collected as
text for a command to show in its own words. Python's format would print autodiff's source file and line, which
mean nothing to the user; `autodiff run` and `repl` are Python and show them as Python does."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator

MAX_WARNINGS = 20  # distinct warnings kept of one run


@contextlib.contextmanager
def program_warnings(into: list[str]) -> Iterator[None]:
    """Collect the warnings given inside the block into `into`, each text once. Only UserWarning and
    FutureWarning, PyTorch's kinds; the libraries' other warnings (deprecations, numpy's RuntimeWarning) are
    not the program's and are dropped."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore")
        warnings.simplefilter("default", UserWarning)  # once per text and place: a loop does not pile them up
        warnings.simplefilter("default", FutureWarning)
        try:
            yield
        finally:
            for warning in caught:
                text = str(warning.message)
                if text not in into and len(into) < MAX_WARNINGS:
                    into.append(text)


__all__ = ["MAX_WARNINGS", "program_warnings"]
