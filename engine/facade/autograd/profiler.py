"""torch.autograd.profiler: `with profile() as prof:` runs its block; what a profiler measures is not available."""

from __future__ import annotations

from typing import Any

from autodiff.engine.errors import BadValueError

NO_TIMINGS = ("the profiler's timings are not available in autodiff (it runs the code inside `with "
              "torch.autograd.profiler.profile()` and records nothing)")


class profile:
    """Runs the block; its measurements (key_averages(), table(), ...) are refused with a clear message."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        return None

    def __enter__(self) -> profile:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def _refused(self, *args: Any, **kwargs: Any) -> Any:
        raise BadValueError(NO_TIMINGS, hint="time the script instead: `time autodiff run script.py`",
                            reason="profiler")

    key_averages = table = total_average = export_chrome_trace = events = _refused


record_function = profile

__all__ = ["profile", "record_function"]
