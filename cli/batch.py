"""(being written)"""

from typing import Any


def run_batch(program: str, assignments: tuple[str, ...], options: dict[str, Any]) -> int:
    from autodiff.engine.errors import UsageError

    raise UsageError("--batch is not implemented yet")
